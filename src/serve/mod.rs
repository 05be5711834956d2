//! `tabla serve`: rooms where two devices (or more, in Halma) play one game. The server holds each
//! room's record, plays every action a seat sends through the rules before passing it on, throws
//! the dice from the room's seed and plays the Robot's seats. No Bevy, no window: a server machine
//! needs no graphics libraries.

mod connection;
pub mod limits;
mod rooms;
pub mod store;

use axum::Router;
use axum::extract::{Extension, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use limits::{Keeper, Limits, Ticket};
use rooms::Rooms;
use std::net::{IpAddr, SocketAddr};
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
    pub limits: Limits,
}

/// Runs the server until it is stopped.
pub fn run(options: Options) -> Result<(), String> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(serve(options))
}

/// What every connection's handler reaches.
#[derive(Clone)]
struct Shared {
    rooms: Arc<Rooms>,
    keeper: Arc<Keeper>,
}

/// The connection's own address and its tickets, put on each of its requests.
#[derive(Clone)]
struct Peer {
    ip: IpAddr,
    tickets: Arc<Vec<Ticket>>,
}

async fn serve(options: Options) -> Result<(), String> {
    allow_many_files();
    let store = store::Store::open(&options.data, options.redis.as_deref()).await?;
    let kept = Arc::new(std::sync::atomic::AtomicUsize::new(store.folder_codes().len()));
    let keeper = Keeper::new(options.limits.clone(), kept.clone());
    let rooms = Arc::new(Rooms::new(store, kept));
    if rooms.store.shared() {
        let messages = rooms.store.subscribe().await?;
        tokio::spawn(rooms.clone().pass_on(messages));
    } else {
        tokio::spawn(rooms.clone().sweep_every_hour());
    }
    tokio::spawn(keeper.clone().summarise_every_minute());
    let shared = Shared { rooms: rooms.clone(), keeper: keeper.clone() };
    let mut router = Router::new().route(ROOM_PATH, get(upgrade)).with_state(shared);
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
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors, most likely: the connections open will end.
                log(&format!("cannot take a connection: {e}"));
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            }
        };
        tokio::spawn(connection(stream, peer, keeper.clone(), router.clone()));
    }
}

/// One TCP connection: counted by its address (unless it comes through this machine's proxy,
/// whose requests are counted by the address they are forwarded for), its headers read within
/// the time limit, its requests given to the router.
async fn connection(stream: tokio::net::TcpStream, peer: SocketAddr, keeper: Arc<Keeper>, router: Router) {
    let ip = limits::address_key(peer.ip());
    let mut tickets = Vec::new();
    match keeper.open(ip) {
        Some(ticket) => tickets.push(ticket),
        None => return turn_away(stream, "503 Service Unavailable").await,
    }
    let proxied = keeper.limits.behind_proxy && peer.ip().is_loopback();
    if !proxied {
        match keeper.open_for(ip) {
            Some(ticket) => tickets.push(ticket),
            None => return turn_away(stream, "429 Too Many Requests").await,
        }
    }
    let _ = stream.set_nodelay(true);
    let peer = Peer { ip: peer.ip(), tickets: Arc::new(tickets) };
    let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        use tower_service::Service;
        request.extensions_mut().insert(peer.clone());
        router.clone().call(request)
    });
    let served = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(keeper.limits.header_timeout)
        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
        .with_upgrades();
    let _ = served.await;
}

/// Answers a connection that cannot be taken at once, and closes it.
async fn turn_away(stream: tokio::net::TcpStream, status: &str) {
    use tokio::io::AsyncWriteExt;
    let mut stream = stream;
    let answer = format!("HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    let _ =
        tokio::time::timeout(std::time::Duration::from_secs(1), stream.write_all(answer.as_bytes())).await;
}

async fn upgrade(
    socket: WebSocketUpgrade,
    State(shared): State<Shared>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
) -> Response {
    let forwarded = headers.get("x-forwarded-for").and_then(|v| v.to_str().ok());
    let address = limits::address_of(&shared.keeper.limits, peer.ip, forwarded);
    let mut tickets = Vec::new();
    // Through this machine's proxy, the address forwarded for is counted here.
    if shared.keeper.limits.behind_proxy && peer.ip.is_loopback() {
        match shared.keeper.open_for(address) {
            Some(ticket) => tickets.push(ticket),
            None => return StatusCode::TOO_MANY_REQUESTS.into_response(),
        }
    }
    let message_bytes = crate::net::MOST_MESSAGE_BYTES;
    // A room's messages are small: buffers of 4 kB (not tungstenite's 128 kB) keep a room at
    // about 33 kB of the server's memory instead of 288. A frame or message longer than the
    // protocol's limit closes the connection before it is read.
    socket
        .max_message_size(message_bytes)
        .max_frame_size(message_bytes)
        .read_buffer_size(4 << 10)
        .write_buffer_size(4 << 10)
        .on_upgrade(move |socket| {
            let client = connection::Client {
                rooms: shared.rooms,
                keeper: shared.keeper,
                address,
                _tickets: (peer.tickets, tickets),
            };
            connection::run(client, socket)
        })
}

/// Lets the server hold as many connections as the system allows a process.
fn allow_many_files() {
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
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
