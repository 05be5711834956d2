//! `tabla bench --serve`: rooms of seats playing random legal moves through `tabla serve` on
//! loopback, about one move a second in each room, for a while, beside thousands of connections
//! held open by families whose games wait (each seated, answering the server's pings) and one
//! address guessing room codes as fast as it is answered; it prints how long a move takes from its
//! sending to the other seat's receipt, what a room and a connection cost the server, and how many
//! guesses one address has looked up in a minute. Then the rooms alone through two servers
//! sharing one Debian `redis-server`, each room's seats on different servers. Every family
//! connects from a loopback address of its own (127.0.0.2 and up reach a server on 127.0.0.1), so
//! the server's limits per address hold as they would on the internet.

use crate::chance::SeededRng;
use crate::net::{ToClient, ToServer};
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
    /// Connections held open beside the playing rooms (two seats of a waiting room each).
    pub held: usize,
}

const LEVEL: &str = "knight_hunt/one_knight";

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

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
    raise_file_limit();
    {
        let (server, url) = start_server(&["--data", &data])?;
        let figures = measure(options, [&url, &url], &[&server], true)?;
        figures.print("");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (_redis, redis_url) = start_redis()?;
    let (first, first_url) = start_server(&["--redis", &redis_url, "--data", &data])?;
    let (second, second_url) = start_server(&["--redis", &redis_url, "--data", &data])?;
    let figures = measure(options, [&first_url, &second_url], &[&first, &second], false)?;
    figures.print("redis_");
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The benchmark holds thousands of sockets: as many files as the system allows it.
fn raise_file_limit() {
    // SAFETY: getrlimit and setrlimit only read and write the struct given.
    unsafe {
        let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// The loopback address of family `n` of a kind (each kind a /16 of its own, from 127.1.0.0).
fn family(kind: u8, n: usize) -> std::net::IpAddr {
    std::net::Ipv4Addr::new(127, kind, (n / 250) as u8, (n % 250) as u8 + 2).into()
}

/// Kinds of families, by the second byte of their addresses.
const PLAYING: u8 = 1;
const WAITING: u8 = 2;
const GUESSING: u8 = 3;

struct Figures {
    rooms: usize,
    moves: usize,
    seconds: f64,
    p50_ms: f64,
    p99_ms: f64,
    memory_per_room_kb: f64,
    refused: usize,
    /// With the connections held and the guesser (the first server only).
    held: Option<Held>,
}

struct Held {
    connections: usize,
    memory_per_connection_kb: f64,
    guesses_looked_up_per_min: f64,
    guesses_answered_per_min: f64,
    guess_p99_ms: f64,
}

impl Figures {
    fn print(&self, prefix: &str) {
        println!("serve.{prefix}rooms {}", self.rooms);
        println!("serve.{prefix}moves_per_s {:.0}", self.moves as f64 / self.seconds);
        println!("serve.{prefix}p50_ms {:.2}", self.p50_ms);
        println!("serve.{prefix}p99_ms {:.2}", self.p99_ms);
        println!("serve.{prefix}memory_per_room_kb {:.1}", self.memory_per_room_kb);
        println!("serve.{prefix}refused {}", self.refused);
        if let Some(held) = &self.held {
            println!("serve.{prefix}connections_held {}", held.connections);
            println!("serve.{prefix}memory_per_connection_kb {:.1}", held.memory_per_connection_kb);
            // Guesses the server looked a room up for; the rest were told to wait, at once.
            println!(
                "serve.{prefix}guesses_answered_per_min_per_address {:.1}",
                held.guesses_looked_up_per_min
            );
            println!("serve.{prefix}guess_answers_per_min_per_address {:.0}", held.guesses_answered_per_min);
            println!("serve.{prefix}guess_answer_p99_ms {:.2}", held.guess_p99_ms);
        }
    }
}

/// What every room's task adds to.
#[derive(Default)]
struct Tally {
    latencies_ms: Vec<f64>,
    refused: usize,
    ready: usize,
    /// Connections held open and seated.
    held: usize,
    /// The guesser's answers: looked up (no seat), told to wait, and how long each took.
    looked_up: usize,
    waited: usize,
    guess_ms: Vec<f64>,
}

fn measure(
    options: &ServeOptions,
    urls: [&str; 2],
    servers: &[&Started],
    with_held: bool,
) -> Result<Figures, String> {
    let runtime =
        tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    let memory = || servers.iter().map(|s| resident_kb(s)).sum::<u64>();
    let before = memory();
    let tally = Rc::new(RefCell::new(Tally::default()));
    let urls = [urls[0].to_string(), urls[1].to_string()];
    let (room_memory, held_memory, seconds) = runtime.block_on(async {
        let local = tokio::task::LocalSet::new();
        let (go_send, go) = tokio::sync::watch::channel(None::<Instant>);
        let mut tasks = Vec::new();
        for room in 0..options.rooms {
            let (tally, urls, go) = (tally.clone(), urls.clone(), go.clone());
            let seed = options.seed.wrapping_add(room as u64);
            let from = [family(PLAYING, 2 * room), family(PLAYING, 2 * room + 1)];
            tasks.push(local.spawn_local(async move {
                if let Err(e) = play_room(urls, from, seed, tally, go).await {
                    eprintln!("bench serve: a room stopped: {e}");
                }
            }));
        }
        local
            .run_until(async {
                let until_ready = |count: fn(&Tally) -> usize, wanted: usize| {
                    let tally = tally.clone();
                    async move {
                        let started = Instant::now();
                        while count(&tally.borrow()) < wanted && started.elapsed() < Duration::from_secs(300)
                        {
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                        count(&tally.borrow())
                    }
                };
                let rooms = until_ready(|t| t.ready, options.rooms).await;
                let after_rooms = memory();
                let room_memory = after_rooms.saturating_sub(before) as f64 / rooms.max(1) as f64;
                let mut held_memory = None;
                if with_held {
                    for room in 0..options.held / 2 {
                        let (tally, url, go) = (tally.clone(), urls[0].clone(), go.clone());
                        // Ten waiting rooms, twenty connections, from each address.
                        let from = family(WAITING, room / 10);
                        tasks.push(local.spawn_local(async move {
                            if let Err(e) = hold_room(url, from, tally, go).await {
                                eprintln!("bench serve: a waiting room stopped: {e}");
                            }
                        }));
                    }
                    let held = until_ready(|t| t.held, options.held / 2 * 2).await;
                    held_memory = Some(memory().saturating_sub(after_rooms) as f64 / held.max(1) as f64);
                    let (tally, url, go) = (tally.clone(), urls[0].clone(), go.clone());
                    tasks.push(local.spawn_local(async move {
                        if let Err(e) = guess(url, family(GUESSING, 0), tally, go).await {
                            eprintln!("bench serve: the guesser stopped: {e}");
                        }
                    }));
                }
                let until = Instant::now() + Duration::from_secs(options.seconds);
                let _ = go_send.send(Some(until));
                let played_from = Instant::now();
                for task in tasks {
                    let _ = task.await;
                }
                (room_memory, held_memory, played_from.elapsed().as_secs_f64())
            })
            .await
    });
    let mut tally = tally.borrow_mut();
    let rooms = tally.ready;
    let minutes = seconds / 60.0;
    let held = held_memory.map(|memory_per_connection_kb| Held {
        connections: tally.held,
        memory_per_connection_kb,
        guesses_looked_up_per_min: tally.looked_up as f64 / minutes,
        guesses_answered_per_min: (tally.looked_up + tally.waited) as f64 / minutes,
        guess_p99_ms: percentile(&mut tally.guess_ms, 0.99),
    });
    Ok(Figures {
        rooms,
        moves: tally.latencies_ms.len(),
        seconds,
        p50_ms: percentile(&mut tally.latencies_ms, 0.5),
        p99_ms: percentile(&mut tally.latencies_ms, 0.99),
        memory_per_room_kb: room_memory,
        refused: tally.refused,
        held,
    })
}

fn percentile(all: &mut [f64], p: f64) -> f64 {
    all.sort_by(f64::total_cmp);
    if all.is_empty() { f64::NAN } else { all[((all.len() - 1) as f64 * p).round() as usize] }
}

/// When the measured time ends, once it is set.
async fn start_of(go: &mut tokio::sync::watch::Receiver<Option<Instant>>) -> Result<Instant, String> {
    loop {
        if let Some(until) = *go.borrow() {
            return Ok(until);
        }
        go.changed().await.map_err(|e| e.to_string())?;
    }
}

/// A family whose game waits: a room made and both seats taken from `from`, held open (reading,
/// so the server's pings are answered) until the measured time ends.
async fn hold_room(
    url: String,
    from: std::net::IpAddr,
    tally: Rc<RefCell<Tally>>,
    mut go: tokio::sync::watch::Receiver<Option<Instant>>,
) -> Result<(), String> {
    let (mut sockets, _, _) = seat_room(&[url.clone(), url], [from, from]).await?;
    tally.borrow_mut().held += 2;
    let until = start_of(&mut go).await?;
    let [first, second] = &mut sockets;
    let end = tokio::time::sleep_until(until.into());
    tokio::pin!(end);
    loop {
        tokio::select! {
            _ = &mut end => return Ok(()),
            message = first.next() => if !matches!(message, Some(Ok(_))) { return Err("let go".into()) },
            message = second.next() => if !matches!(message, Some(Ok(_))) { return Err("let go".into()) },
        }
    }
}

/// One address guessing room codes as fast as it is answered, each guess on a new connection.
async fn guess(
    url: String,
    from: std::net::IpAddr,
    tally: Rc<RefCell<Tally>>,
    mut go: tokio::sync::watch::Receiver<Option<Instant>>,
) -> Result<(), String> {
    let until = start_of(&mut go).await?;
    let mut rng = SeededRng::seed_from_u64(7);
    while Instant::now() < until {
        let asked = Instant::now();
        // A connection over the address's limit is turned away at once: an answer too.
        let Ok(mut socket) = connect(&url, from).await else {
            let mut tally = tally.borrow_mut();
            tally.guess_ms.push(asked.elapsed().as_secs_f64() * 1000.0);
            tally.waited += 1;
            continue;
        };
        let code = crate::net::code::RoomCode::from_bits(rng.random()).to_string();
        let hello = ToServer::Hello {
            room: code,
            seat: 0,
            last: 0,
            name: "Guess".into(),
            picture: 0,
            era: 0,
            seat_key: None,
        };
        send(&mut socket, &hello).await?;
        let answer = receive(&mut socket).await?;
        {
            let mut tally = tally.borrow_mut();
            tally.guess_ms.push(asked.elapsed().as_secs_f64() * 1000.0);
            match answer {
                ToClient::Refused { error, .. } if error.contains("try again") => tally.waited += 1,
                _ => tally.looked_up += 1,
            }
        }
        let _ = socket.close(None).await;
    }
    Ok(())
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

/// A WebSocket to the server from the loopback address `from`.
async fn connect(url: &str, from: std::net::IpAddr) -> Result<Socket, String> {
    let port = url.rsplit(':').next().and_then(|rest| rest.split('/').next()).and_then(|p| p.parse().ok());
    let server = std::net::SocketAddr::from(([127, 0, 0, 1], port.ok_or("no port in the server's address")?));
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    socket.bind((from, 0).into()).map_err(|e| format!("cannot connect from {from}: {e}"))?;
    let stream = socket.connect(server).await.map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    Ok(tokio_tungstenite::client_async(url, stream).await.map_err(|e| e.to_string())?.0)
}

/// A room made and both seats seated, each from its address: their sockets and the game as the
/// seats see it.
async fn seat_room(
    urls: &[String; 2],
    from: [std::net::IpAddr; 2],
) -> Result<([Socket; 2], Box<dyn Console>, u64), String> {
    let mut maker = connect(&urls[0], from[0]).await?;
    let seats = vec!["person".to_string(), "person".to_string()];
    send(&mut maker, &ToServer::New { level: LEVEL.into(), seats, clock_minutes: 0 }).await?;
    let ToClient::Made { room, .. } = receive(&mut maker).await? else { return Err("no room made".into()) };
    let mut sockets = [maker, connect(&urls[1], from[1]).await?];
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
    let level = crate::levels::built_in(&record.level_file())?;
    let at = record.actions.len() as u64;
    let mirror = crate::text::session_from_record(&level, &record).map_err(|e| e.to_string())?;
    Ok((sockets, mirror, at))
}

async fn play_room(
    urls: [String; 2],
    from: [std::net::IpAddr; 2],
    seed: u64,
    tally: Rc<RefCell<Tally>>,
    mut go: tokio::sync::watch::Receiver<Option<Instant>>,
) -> Result<(), String> {
    let mut rng = SeededRng::seed_from_u64(seed);
    let (mut sockets, mut mirror, mut at) = seat_room(&urls, from).await?;
    tally.borrow_mut().ready += 1;
    let until = start_of(&mut go).await?;
    let mut id = [0u64; 2];
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(rng.random_range(500..1500))).await;
        if mirror.is_over() {
            (sockets, mirror, at) = seat_room(&urls, from).await?;
            id = [0; 2];
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
