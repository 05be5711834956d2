//! `tabla serve`: rooms where two devices (or more, in Halma) play one game. The server holds each
//! room's record, plays every action a seat sends through the rules before passing it on, throws
//! the dice from the room's seed and plays the Robot's seats. No Bevy, no window: a server machine
//! needs no graphics libraries.

mod connection;
mod rooms;
pub mod store;

use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use rooms::Rooms;
use std::path::PathBuf;
use std::sync::Arc;

pub use crate::net::ROOM_PATH;

pub struct Options {
    /// The address to listen on (127.0.0.1 unless told otherwise).
    pub listen: String,
    pub data: PathBuf,
    pub redis: Option<String>,
    /// The browser build to serve beside the rooms (`web/dist`).
    pub web: Option<PathBuf>,
}

/// Runs the server until it is stopped.
pub fn run(options: Options) -> Result<(), String> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(serve(options))
}

async fn serve(options: Options) -> Result<(), String> {
    let store = store::Store::open(&options.data, options.redis.as_deref()).await?;
    let rooms = Arc::new(Rooms::new(store));
    if rooms.store.shared() {
        let messages = rooms.store.subscribe().await?;
        tokio::spawn(rooms.clone().pass_on(messages));
    } else {
        tokio::spawn(rooms.clone().sweep_every_hour());
    }
    let mut router = Router::new().route(ROOM_PATH, get(upgrade)).with_state(rooms.clone());
    if let Some(web) = &options.web {
        router = router.fallback_service(tower_http::services::ServeDir::new(web));
    }
    let listener = tokio::net::TcpListener::bind(&options.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let kept = match &options.redis {
        Some(url) => format!("rooms in Redis at {url}"),
        None => format!("rooms in {}", options.data.display()),
    };
    // The first line says where to connect (tests read the port of `--port 0` from it).
    println!("tabla serve: listening on http://{address} ({kept})");
    axum::serve(listener, router).await.map_err(|e| e.to_string())
}

async fn upgrade(socket: WebSocketUpgrade, State(rooms): State<Arc<Rooms>>) -> Response {
    // Messages up to 2 MB are read (and refused when longer than the protocol's limit) so a client
    // hears why; a longer one closes the connection. A room's messages are small: buffers of 4 kB
    // (not tungstenite's 128 kB) keep a room at about 33 kB of the server's memory instead of 288.
    socket
        .max_message_size(2 << 20)
        .read_buffer_size(4 << 10)
        .write_buffer_size(4 << 10)
        .on_upgrade(move |socket| connection::run(rooms, socket))
}

/// Where rooms are kept unless `--data` says: the user's data folder.
pub fn default_data() -> PathBuf {
    match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir).join("tabla/serve"),
        None => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".local/share/tabla/serve"),
    }
}

/// Seconds since 1970.
pub fn now() -> u64 {
    now_ms() / 1000
}

/// Milliseconds since 1970: the rooms' clocks.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// A line of the server's log.
pub fn log(line: &str) {
    eprintln!("tabla serve [{}]: {line}", now());
}
