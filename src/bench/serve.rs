//! `tabla bench --serve`: rooms of seats playing random legal moves through `tabla serve` on
//! loopback, about one move a second in each room, for a while; it prints how long a move takes
//! from its sending to the other seat's receipt and what a room costs the server. Then the same
//! through two servers sharing one Debian `redis-server`, each room's seats on different servers.

use crate::net::{ToClient, ToServer};
use crate::robot::SeededRng;
use crate::text::Console;
use futures_util::{SinkExt, StreamExt};
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::cell::RefCell;
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::rc::Rc;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

pub struct ServeOptions {
    pub rooms: usize,
    pub seconds: u64,
    pub seed: u64,
}

const LEVEL: &str = "ron_configs/knight_hunt/one_knight.ron";

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A process the benchmark started, stopped when it is let go.
struct Started(Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(listener.local_addr().map_err(|e| e.to_string())?.port())
}

fn start_server(args: &[&str]) -> Result<(Started, String), String> {
    let port = free_port()?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .args(["serve", "--port", &port.to_string()])
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start tabla serve: {e}"))?;
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut first)
        .map_err(|e| e.to_string())?;
    if !first.contains("listening") {
        return Err(format!("tabla serve did not start: {first}"));
    }
    Ok((Started(child), format!("ws://127.0.0.1:{port}{}", crate::serve::ROOM_PATH)))
}

fn start_redis() -> Result<(Started, String), String> {
    let port = free_port()?;
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start redis-server (Debian's redis-server package): {e}"))?;
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if started.elapsed() > Duration::from_secs(20) {
            return Err("redis-server did not listen".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    Ok((Started(child), format!("redis://127.0.0.1:{port}/")))
}

/// The resident memory of a process, in kB.
fn resident_kb(child: &Started) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.0.id())).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

pub fn run(options: &ServeOptions) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("tabla-bench-serve-{}", std::process::id()));
    let data = dir.to_str().ok_or("the temporary folder's name is not text")?.to_string();
    {
        let (server, url) = start_server(&["--data", &data])?;
        let figures = measure(options, [&url, &url], &[&server])?;
        figures.print("");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (_redis, redis_url) = start_redis()?;
    let (first, first_url) = start_server(&["--redis", &redis_url, "--data", &data])?;
    let (second, second_url) = start_server(&["--redis", &redis_url, "--data", &data])?;
    let figures = measure(options, [&first_url, &second_url], &[&first, &second])?;
    figures.print("redis_");
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

struct Figures {
    rooms: usize,
    moves: usize,
    seconds: f64,
    p50_ms: f64,
    p99_ms: f64,
    memory_per_room_kb: f64,
    refused: usize,
}

impl Figures {
    fn print(&self, prefix: &str) {
        println!("serve.{prefix}rooms {}", self.rooms);
        println!("serve.{prefix}moves_per_s {:.0}", self.moves as f64 / self.seconds);
        println!("serve.{prefix}p50_ms {:.2}", self.p50_ms);
        println!("serve.{prefix}p99_ms {:.2}", self.p99_ms);
        println!("serve.{prefix}memory_per_room_kb {:.1}", self.memory_per_room_kb);
        println!("serve.{prefix}refused {}", self.refused);
    }
}

/// What every room's task adds to.
#[derive(Default)]
struct Tally {
    latencies_ms: Vec<f64>,
    refused: usize,
    ready: usize,
}

fn measure(options: &ServeOptions, urls: [&str; 2], servers: &[&Started]) -> Result<Figures, String> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    let before: u64 = servers.iter().map(|s| resident_kb(s)).sum();
    let tally = Rc::new(RefCell::new(Tally::default()));
    let urls = [urls[0].to_string(), urls[1].to_string()];
    let (memory, seconds) = runtime.block_on(async {
        let local = tokio::task::LocalSet::new();
        let (go_send, go) = tokio::sync::watch::channel(None::<Instant>);
        let mut tasks = Vec::new();
        for room in 0..options.rooms {
            let (tally, urls, go) = (tally.clone(), urls.clone(), go.clone());
            let seed = options.seed.wrapping_add(room as u64);
            tasks.push(local.spawn_local(async move {
                if let Err(e) = play_room(urls, seed, tally, go).await {
                    eprintln!("bench serve: a room stopped: {e}");
                }
            }));
        }
        local
            .run_until(async {
                let started = Instant::now();
                while tally.borrow().ready < options.rooms && started.elapsed() < Duration::from_secs(120) {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                let rooms = tally.borrow().ready;
                let after: u64 = servers.iter().map(|s| resident_kb(s)).sum();
                let memory = after.saturating_sub(before) as f64 / rooms.max(1) as f64;
                let until = Instant::now() + Duration::from_secs(options.seconds);
                let _ = go_send.send(Some(until));
                let played_from = Instant::now();
                for task in tasks {
                    let _ = task.await;
                }
                (memory, played_from.elapsed().as_secs_f64())
            })
            .await
    });
    let mut tally = tally.borrow_mut();
    let rooms = tally.ready;
    tally.latencies_ms.sort_by(f64::total_cmp);
    let percentile = |p: f64| {
        let all = &tally.latencies_ms;
        if all.is_empty() { f64::NAN } else { all[((all.len() - 1) as f64 * p).round() as usize] }
    };
    Ok(Figures {
        rooms,
        moves: tally.latencies_ms.len(),
        seconds,
        p50_ms: percentile(0.5),
        p99_ms: percentile(0.99),
        memory_per_room_kb: memory,
        refused: tally.refused,
    })
}

async fn send(socket: &mut Socket, message: &ToServer) -> Result<(), String> {
    socket.send(Message::Text(message.to_json().into())).await.map_err(|e| e.to_string())
}

async fn receive(socket: &mut Socket) -> Result<ToClient, String> {
    loop {
        match socket.next().await {
            Some(Ok(Message::Text(text))) => {
                return serde_json::from_str(text.as_str()).map_err(|e| e.to_string());
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("the server closed the connection".into()),
        }
    }
}

async fn connect(url: &str) -> Result<Socket, String> {
    Ok(tokio_tungstenite::connect_async(url).await.map_err(|e| e.to_string())?.0)
}

/// A room made and both seats seated: their sockets and the game as the seats see it.
async fn seat_room(urls: &[String; 2]) -> Result<([Socket; 2], Box<dyn Console>, u64), String> {
    let mut maker = connect(&urls[0]).await?;
    let seats = vec!["person".to_string(), "person".to_string()];
    send(&mut maker, &ToServer::New { level: LEVEL.into(), seats, clock_minutes: 0 }).await?;
    let ToClient::Made { room, .. } = receive(&mut maker).await? else { return Err("no room made".into()) };
    let mut sockets = [maker, connect(&urls[1]).await?];
    let mut record = None;
    for (seat, socket) in sockets.iter_mut().enumerate() {
        let hello = ToServer::Hello {
            room: room.clone(),
            seat: seat as u8,
            last: 0,
            name: "Bench".into(),
            picture: 0,
            era: 0,
            seat_key: None,
        };
        send(socket, &hello).await?;
        loop {
            match receive(socket).await? {
                ToClient::Welcome { record: Some(text), .. } => {
                    record = Some(text);
                    break;
                }
                ToClient::Refused { error, .. } => return Err(error),
                _ => {}
            }
        }
    }
    let record = crate::record::Record::from_ron(&record.expect("welcomed")).map_err(|e| e.to_string())?;
    let level = record.level().map_err(|e| e.to_string())?;
    let at = record.actions.len() as u64;
    let mirror = crate::text::session_from_record(&level, &record).map_err(|e| e.to_string())?;
    Ok((sockets, mirror, at))
}

async fn play_room(
    urls: [String; 2],
    seed: u64,
    tally: Rc<RefCell<Tally>>,
    mut go: tokio::sync::watch::Receiver<Option<Instant>>,
) -> Result<(), String> {
    let mut rng = SeededRng::seed_from_u64(seed);
    let (mut sockets, mut mirror, mut at) = seat_room(&urls).await?;
    tally.borrow_mut().ready += 1;
    let until = loop {
        if let Some(until) = *go.borrow() {
            break until;
        }
        go.changed().await.map_err(|e| e.to_string())?;
    };
    let mut id = [0u64; 2];
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(rng.random_range(500..1500))).await;
        if mirror.is_over() {
            (sockets, mirror, at) = seat_room(&urls).await?;
            continue;
        }
        let Some(mover) = mirror.seat_to_move().map(|s| s.index()) else {
            return Err("nobody to move".into());
        };
        let legal = mirror.handle("legal");
        let legal: Vec<&str> =
            legal["legal"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        let action = if legal.is_empty() {
            "roll".to_string()
        } else {
            legal[rng.random_range(0..legal.len())].to_string()
        };
        id[mover] += 1;
        let sent = Instant::now();
        send(&mut sockets[mover], &ToServer::Act { id: id[mover], after: at, action }).await?;
        let target = at + 1;
        let (mut acked, mut received) = (false, false);
        while !(acked && received) {
            let [first, second] = &mut sockets;
            let (seat, message) = tokio::select! {
                message = receive(first) => (0, message?),
                message = receive(second) => (1, message?),
            };
            match message {
                ToClient::Ack { .. } if seat == mover => acked = true,
                ToClient::Refused { .. } if seat == mover => {
                    tally.borrow_mut().refused += 1;
                    acked = true;
                    received = true;
                }
                ToClient::Event(event) => {
                    if event.n == at + 1 {
                        mirror.handle(&format!("play {}", event.action));
                        at = event.n;
                    }
                    if seat != mover && event.n >= target && !received {
                        received = true;
                        tally.borrow_mut().latencies_ms.push(sent.elapsed().as_secs_f64() * 1000.0);
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}
