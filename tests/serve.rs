//! `tabla serve` and `tabla text --join` as a family's devices meet them: two text seats play a
//! whole Crazy Nard match with the cube; the server killed with SIGKILL mid-game and started again
//! on its folder, both seats go on; two servers on one `redis-server`, one killed, its seat goes on
//! through the other; and bad messages are refused with a reason while the room goes on. Every
//! test starts the servers it needs on 127.0.0.1 and stops them.

mod port;
mod serving;

use port::quiet_port;
use serde_json::{Value, json};
use serving::{Process, Raw, TABLA, folder, refused, serve};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The longest any one answer may take (a seat waiting for the other side's move included).
const ANSWER_WITHIN: Duration = Duration::from_secs(240);

/// A `tabla text --join` seat: one command line in, one JSON answer out.
struct Seat {
    _process: Process,
    input: ChildStdin,
    answers: Receiver<Value>,
}

impl Seat {
    fn start(args: &[&str]) -> Seat {
        Seat::start_with(args, &[])
    }

    /// A seat whose process has these environment variables besides.
    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Seat {
        let mut child = Command::new(TABLA)
            .arg("text")
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tabla text starts");
        let output = child.stdout.take().unwrap();
        let input = child.stdin.take().unwrap();
        let (send, answers) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines().map_while(Result::ok) {
                let answer = serde_json::from_str(&line).unwrap_or_else(|_| json!({"not_json": line}));
                if send.send(answer).is_err() {
                    break;
                }
            }
        });
        Seat { _process: Process(child), input, answers }
    }

    fn answer(&self) -> Value {
        self.answers.recv_timeout(ANSWER_WITHIN).expect("the seat answers")
    }

    fn ask(&mut self, line: &str) -> Value {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        self.answer()
    }
}

/// Makes a room of the level at seat 0: the seat and the room's code.
fn make(urls: &str, level: &str) -> (Seat, String) {
    let (seat, made) = make_with(urls, level, &[]);
    (seat, made["room"].as_str().unwrap().to_string())
}

/// Makes a room of the level at seat 0, the seat's process with these environment variables: the
/// seat and its first line.
fn make_with(urls: &str, level: &str, env: &[(&str, &str)]) -> (Seat, Value) {
    let seat = Seat::start_with(&["--join", urls, "new", "--level", level, "--name", "Grandma"], env);
    let made = seat.answer();
    assert!(made["room"].is_string(), "a room's code: {made}");
    assert_eq!(made["pictures"].as_array().map(Vec::len), Some(4), "{made}");
    assert_eq!(made["seat_key"].as_str().map(str::len), Some(32), "{made}");
    (seat, made)
}

fn join(urls: &str, code: &str, seat: u8) -> Seat {
    Seat::start(&["--join", urls, code, "--seat", &seat.to_string(), "--name", "Ion"])
}

/// Plays the seat until the game is over, `moves` actions at most (all of them: `usize::MAX`);
/// its first chance to double, it doubles. Returns the actions it played.
fn play(seat: &mut Seat, moves: usize, double_once: bool) -> usize {
    let mut doubled = !double_once;
    let mut played = 0;
    while played < moves {
        let state = seat.ask("wait");
        assert!(state.get("ok").is_none(), "wait: {state}");
        if state["outcome"] != Value::Null {
            break;
        }
        let legal = seat.ask("legal");
        let answer = if !doubled && legal["legal"].as_array().unwrap().contains(&json!("double")) {
            doubled = true;
            seat.ask("play double")
        } else {
            seat.ask("robot 1")
        };
        assert_eq!(answer["ok"], json!(true), "{answer}");
        played += 1;
    }
    played
}

fn actions(seat: &mut Seat) -> Vec<String> {
    let record = seat.ask("record");
    let record = tabla::record::Record::from_ron(record["record"].as_str().expect("a record")).unwrap();
    record.actions
}

fn room_file(data: &Path, code: &str) -> tabla::net::room::RoomFile {
    let text = std::fs::read_to_string(data.join("rooms").join(format!("{code}.ron"))).unwrap();
    ron::from_str(&text).unwrap()
}

#[test]
fn two_text_seats_play_a_whole_crazy_nard_match_with_the_cube() {
    let data = folder("match");
    let (_server, url) = serve(quiet_port(), &["--data", data.to_str().unwrap()]);
    let (mut white, code) = make(&url, "ron_configs/nard/three_points.ron");
    let mut black = join(&url, &code, 1);
    let other = std::thread::spawn(move || {
        play(&mut black, usize::MAX, false);
        black
    });
    play(&mut white, usize::MAX, true);
    let mut black = other.join().unwrap();
    let state = white.ask("state");
    assert_eq!(state["outcome"]["reason"], json!("goal"), "the match was played out: {state}");
    assert!(state["score"]["white"].as_u64().unwrap() >= 3 || state["score"]["black"].as_u64().unwrap() >= 3);
    let seen_by_white = actions(&mut white);
    assert_eq!(seen_by_white, actions(&mut black), "both seats saw the same game");
    assert_eq!(room_file(&data, &code).record.actions, seen_by_white, "and the server kept it");
    let offer = seen_by_white.iter().position(|a| a == "double").expect("the cube was offered");
    assert!(["take", "drop"].contains(&seen_by_white[offer + 1].as_str()));
    assert_eq!(state["room"]["people"].as_array().map(Vec::len), Some(2), "{state}");
}

#[test]
fn a_server_killed_mid_game_and_started_again_on_its_folder_loses_nothing() {
    let data = folder("kill");
    let port = quiet_port();
    let data_arg = data.to_str().unwrap().to_string();
    let (mut server, url) = serve(port, &["--data", &data_arg]);
    let (mut white, code) = make(&url, "ron_configs/knight_hunt/one_knight.ron");
    let mut black = join(&url, &code, 1);
    for _ in 0..3 {
        play(&mut white, 1, false);
        play(&mut black, 1, false);
    }
    // Black's seat has its own last move once it is acknowledged; White's may still be on its way.
    let before = actions(&mut black);
    assert_eq!(before.len(), 6);
    // SIGKILL: no goodbye, no last write.
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    assert_eq!(room_file(&data, &code).record.actions, before, "every acknowledged action was kept");
    let (_again, _) = serve(port, &["--data", &data_arg]);
    let other = std::thread::spawn(move || {
        play(&mut black, usize::MAX, false);
        black
    });
    play(&mut white, usize::MAX, false);
    let mut black = other.join().unwrap();
    let after = actions(&mut white);
    assert_eq!(after[..6], before[..], "the game went on from its last action");
    assert!(after.len() > 6);
    assert_eq!(after, actions(&mut black));
    assert_ne!(white.ask("state")["outcome"], Value::Null);
}

#[test]
fn two_seats_coming_back_together_after_a_restart_play_a_move_each_way() {
    let data = folder("together");
    let port = quiet_port();
    let data_arg = data.to_str().unwrap().to_string();
    let (mut server, url) = serve(port, &["--data", &data_arg]);
    let (mut white, code) = make(&url, "knight_hunt/one_knight");
    let mut black = join(&url, &code, 1);
    play(&mut white, 1, false);
    play(&mut black, 1, false);
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let (_again, _) = serve(port, &["--data", &data_arg]);
    // Both look at the game at the same moment, each coming back to the one room.
    let looking: Vec<_> = [white, black]
        .into_iter()
        .map(|mut seat| {
            std::thread::spawn(move || {
                for _ in 0..100 {
                    let state = seat.ask("state");
                    if state["room"]["connected"] == json!(true) {
                        return seat;
                    }
                    std::thread::sleep(Duration::from_millis(100));
                }
                panic!("the seat never came back");
            })
        })
        .collect();
    let mut seats: Vec<Seat> = looking.into_iter().map(|t| t.join().unwrap()).collect();
    let mut black = seats.pop().unwrap();
    let mut white = seats.pop().unwrap();
    assert_eq!(play(&mut white, 1, false), 1);
    let seen = black.ask("wait");
    assert_eq!(seen["room"]["at"], json!(3), "Black sees White's move: {seen}");
    assert_eq!(play(&mut black, 1, false), 1);
    assert_eq!(white.ask("wait")["room"]["at"], json!(4), "and White sees Black's");
    assert_eq!(actions(&mut white), actions(&mut black));
}

#[test]
fn a_text_seat_that_leaves_and_sits_again_with_its_key_goes_on_and_nothing_is_lost() {
    let data = folder("again");
    let (_server, url) = serve(quiet_port(), &["--data", data.to_str().unwrap()]);
    let (mut white, made) = make_with(&url, "knight_hunt/one_knight", &[]);
    let code = made["room"].as_str().unwrap().to_string();
    let key = made["seat_key"].as_str().unwrap().to_string();
    let mut black = join(&url, &code, 1);
    play(&mut white, 1, false);
    assert_eq!(white.ask("state")["room"]["seat_key"], json!(key));
    drop(white);
    // Without its key nobody sits at White's seat; with it, White's seat goes on.
    let stranger = Seat::start(&["--join", &url, &code, "--seat", "0"]);
    let refusal = stranger.answers.recv_timeout(ANSWER_WITHIN);
    assert!(refusal.is_err(), "a seat without its key is not sat at: {refusal:?}");
    play(&mut black, 1, false);
    let mut white = Seat::start(&["--join", &url, &code, "--seat", "0", "--seat-key", &key]);
    assert_eq!(play(&mut white, 1, false), 1, "White's next move is taken");
    play(&mut black, 1, false);
    assert_eq!(play(&mut white, 1, false), 1);
    let kept = room_file(&data, &code).record.actions;
    assert_eq!(kept.len(), 5, "every move acknowledged was kept: {kept:?}");
    assert_eq!(actions(&mut white), kept);
    assert_eq!(room_file(&data, &code).acted, vec![3, 2], "White's actions numbered on after its first");
}

/// Caddy (Debian's) in front of `tabla serve`, with a certificate of its own authority (`tls
/// internal`), on free ports of 127.0.0.1: its https address and the authority's certificate.
fn caddy(serve_port: u16, dir: &Path) -> (Process, String, std::path::PathBuf) {
    let https = quiet_port();
    let http = quiet_port();
    let config = format!(
        "{{\n\tadmin off\n\tauto_https disable_redirects\n\tskip_install_trust\n\thttp_port {http}\n\t\
         https_port {https}\n\tstorage file_system {}\n}}\nlocalhost:{https} {{\n\tbind 127.0.0.1\n\t\
         tls internal\n\treverse_proxy 127.0.0.1:{serve_port}\n}}\n",
        dir.join("data").display()
    );
    let file = dir.join("Caddyfile");
    std::fs::write(&file, config).unwrap();
    let child = Command::new("caddy")
        .args(["run", "--adapter", "caddyfile", "--config", file.to_str().unwrap()])
        .env("HOME", dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("caddy starts (test.sh installs Debian's caddy)");
    let caddy = Process(child);
    let root = dir.join("data/pki/authorities/local/root.crt");
    let started = Instant::now();
    while !(root.exists() && std::net::TcpStream::connect(("127.0.0.1", https)).is_ok()) {
        assert!(started.elapsed() < Duration::from_secs(60), "caddy made its authority and listens");
        std::thread::sleep(Duration::from_millis(100));
    }
    (caddy, format!("wss://localhost:{https}"), root)
}

#[test]
fn two_text_seats_play_through_caddy_over_wss() {
    let data = folder("caddy");
    let port = quiet_port();
    let (_server, _) = serve(port, &["--data", data.to_str().unwrap(), "--behind-proxy"]);
    let (_caddy, url, root) = caddy(port, &folder("caddy-front"));
    let trust = [("SSL_CERT_FILE", root.to_str().unwrap())];
    let (mut white, made) = make_with(&url, "knight_hunt/one_knight", &trust);
    let code = made["room"].as_str().unwrap().to_string();
    let mut black = Seat::start_with(&["--join", &url, &code, "--seat", "1", "--name", "Ion"], &trust);
    let other = std::thread::spawn(move || {
        play(&mut black, usize::MAX, false);
        black
    });
    play(&mut white, usize::MAX, false);
    let mut black = other.join().unwrap();
    assert_ne!(white.ask("state")["outcome"], Value::Null, "the game was played out");
    assert_eq!(actions(&mut white), actions(&mut black));
    assert_eq!(room_file(&data, &code).record.actions, actions(&mut white));
    // Without the authority's certificate, the seat does not trust the server.
    let untrusting = Seat::start(&["--join", &url, &code, "--seat", "1"]);
    assert!(untrusting.answers.recv_timeout(ANSWER_WITHIN).is_err(), "no seat over an untrusted TLS");
}

/// Debian's `redis-server` on a free port, without saving anything to disk.
fn redis() -> (Process, String) {
    let port = quiet_port();
    let child = Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
        .stdout(Stdio::null())
        .spawn()
        .expect("redis-server starts (test.sh installs Debian's redis-server)");
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(20), "redis-server listens");
        std::thread::sleep(Duration::from_millis(50));
    }
    (Process(child), format!("redis://127.0.0.1:{port}/"))
}

#[test]
fn two_servers_share_rooms_through_redis_and_a_seat_goes_on_when_its_server_dies() {
    let (_redis, redis_url) = redis();
    let data = folder("redis");
    let data_arg = data.to_str().unwrap().to_string();
    let (mut first, first_url) = serve(quiet_port(), &["--redis", &redis_url, "--data", &data_arg]);
    let (_second, second_url) = serve(quiet_port(), &["--redis", &redis_url, "--data", &data_arg]);
    // White comes through the first server, Black through the second; each knows the other address.
    let (mut white, code) = make(&format!("{first_url},{second_url}"), "ron_configs/halma/two_players.ron");
    let mut black = join(&format!("{second_url},{first_url}"), &code, 1);
    for _ in 0..4 {
        play(&mut white, 1, false);
        play(&mut black, 1, false);
    }
    let before = actions(&mut black);
    assert_eq!(before.len(), 8, "the moves went between the servers");
    first.0.kill().unwrap();
    first.0.wait().unwrap();
    for _ in 0..4 {
        play(&mut white, 1, false);
        play(&mut black, 1, false);
    }
    let after = actions(&mut white);
    assert_eq!(after[..8], before[..]);
    assert_eq!(after.len(), 16, "White went on through the second server");
    assert_eq!(after, actions(&mut black));
    assert!(!data.join("rooms").join(format!("{code}.ron")).exists(), "with Redis, rooms live in Redis");
}

/// Asks the seat for its state until someone asks to take back (bounded: the asking is on its way).
fn until_asked(seat: &mut Seat) -> Value {
    for _ in 0..200 {
        let state = seat.ask("state");
        if state["room"]["asking"] != Value::Null {
            return state["room"]["asking"].clone();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("nobody asked to take back");
}

#[test]
fn a_text_seat_asks_to_take_back_and_the_other_answers() {
    let data = folder("undo");
    let (_server, url) = serve(quiet_port(), &["--data", data.to_str().unwrap()]);
    let (mut white, code) = make(&url, "ron_configs/knight_hunt/one_knight.ron");
    let mut black = join(&url, &code, 1);
    play(&mut white, 1, false);
    play(&mut black, 1, false);
    assert_eq!(white.ask("answer yes")["ok"], json!(false), "nobody asked yet");

    // Black asks; White says no; Black hears it, and nothing went back.
    writeln!(black.input, "undo").unwrap();
    assert_eq!(until_asked(&mut white), json!({"seat": 1, "to": 1}));
    let no = white.ask("answer no");
    assert_eq!((no["ok"].clone(), no["taken_back_to"].clone()), (json!(true), Value::Null), "{no}");
    let refused = black.answer();
    assert!(refused["error"].as_str().unwrap().contains("said no"), "{refused}");
    assert_eq!(actions(&mut black).len(), 2);

    // Asked again and agreed: both seats are back before Black's move, and Black moves again.
    writeln!(black.input, "undo").unwrap();
    until_asked(&mut white);
    assert_eq!(white.ask("answer yes")["taken_back_to"], json!(1));
    let back = black.answer();
    assert_eq!(
        (back["ok"].clone(), back["taken_back_to"].clone(), back["room"]["at"].clone()),
        (json!(true), json!(1), json!(1)),
        "{back}"
    );
    assert_eq!(actions(&mut white), actions(&mut black));
    assert_eq!(actions(&mut black).len(), 1);
    assert_eq!(play(&mut black, 1, false), 1, "Black plays on from there");
    assert_eq!(room_file(&data, &code).era, 1);
}

#[test]
fn a_take_back_asked_on_one_server_is_agreed_through_another() {
    let (_redis, redis_url) = redis();
    let data = folder("redis-back");
    let data_arg = data.to_str().unwrap().to_string();
    let (_first, first_url) = serve(quiet_port(), &["--redis", &redis_url, "--data", &data_arg]);
    let (_second, second_url) = serve(quiet_port(), &["--redis", &redis_url, "--data", &data_arg]);
    let mut white = Raw::open(&first_url);
    let made = white
        .say(r#"{"t":"new","level":"ron_configs/knight_hunt/one_knight.ron","seats":["person","person"]}"#);
    let code = made["room"].as_str().unwrap().to_string();
    let hello = |seat: u8, last: u64, era: u64, key: &str| {
        format!(
            r#"{{"t":"hello","room":"{code}","seat":{seat},"last":{last},"name":"Kid","picture":3,"era":{era},"seat_key":"{key}"}}"#
        )
    };
    assert_eq!(white.say(&hello(0, 0, 0, ""))["t"], json!("welcome"));
    let mut black = Raw::open(&second_url);
    let welcome = black.say(&hello(1, 0, 0, ""));
    assert_eq!(welcome["t"], json!("welcome"));
    let black_key = welcome["seat_key"].as_str().unwrap().to_string();
    assert_eq!(white.reply(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#)["t"], json!("ack"));
    assert_eq!(black.reply(r#"{"t":"act","id":1,"after":1,"action":"g8f6"}"#)["t"], json!("ack"));

    // White asks on the first server; Black hears it on the second and agrees.
    white.0.send(tungstenite::Message::Text(r#"{"t":"take_back","to":0}"#.into())).unwrap();
    assert_eq!(black.until("asked"), json!({"t": "asked", "seat": 0, "to": 0}));
    black.0.send(tungstenite::Message::Text(r#"{"t":"answer","yes":true}"#.into())).unwrap();
    let back = json!({"t": "taken_back", "to": 0, "era": 1});
    assert_eq!(white.until("taken_back"), back);
    assert_eq!(black.until("taken_back"), back);

    // A seat of the old era coming back is sent the room's whole record, from the start again.
    let mut again = Raw::open(&second_url);
    let welcome = again.say(&hello(1, 2, 0, &black_key));
    let record = tabla::record::Record::from_ron(welcome["record"].as_str().unwrap()).unwrap();
    assert!(record.actions.is_empty(), "{welcome}");
    assert_eq!((welcome["era"].clone(), welcome["asking"].clone()), (json!(1), json!(null)));
    assert_eq!(
        white.reply(r#"{"t":"act","id":2,"after":0,"action":"g1h3"}"#),
        json!({"t": "ack", "id": 2, "at": 1})
    );
}

#[test]
fn bad_messages_are_refused_with_a_reason_and_the_room_goes_on() {
    let data = folder("bad");
    let (_server, url) = serve(quiet_port(), &["--data", data.to_str().unwrap()]);
    let mut maker = Raw::open(&url);
    let made = maker
        .say(r#"{"t":"new","level":"ron_configs/knight_hunt/one_knight.ron","seats":["person","person"]}"#);
    assert_eq!(made["t"], json!("made"), "{made}");
    let code = made["room"].as_str().unwrap().to_string();

    refused(&maker.say("not json"), "not a message");
    // A message longer than the protocol's limit is not read: its connection is let go.
    let mut long = Raw::open(&url);
    // The server may close it while the message is still being written.
    let _ = long.0.send(tungstenite::Message::Text("x".repeat(1 << 20).into()));
    assert!(long.try_next().is_err(), "a message of 1 MiB closes its connection");
    refused(&maker.say(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#), "hello");
    refused(
        &maker.say(r#"{"t":"hello","room":"ZZZZZZ","seat":0,"last":0,"name":"A","picture":1}"#),
        "no seat",
    );
    refused(&maker.say(r#"{"t":"hello","room":"??","seat":0,"last":0,"name":"A","picture":1}"#), "code");
    refused(&maker.say(r#"{"t":"new","level":"ron_configs/nowhere.ron","seats":["person"]}"#), "nowhere");

    let hello = |seat: u8, key: &str| {
        format!(
            r#"{{"t":"hello","room":"{code}","seat":{seat},"last":0,"name":"Kid","picture":3,"seat_key":"{key}"}}"#
        )
    };
    let welcome = maker.say(&hello(0, ""));
    assert_eq!(welcome["t"], json!("welcome"), "{welcome}");
    let mut other = Raw::open(&url);
    let welcome = other.say(&hello(1, ""));
    assert_eq!(welcome["t"], json!("welcome"));
    let other_key = welcome["seat_key"].as_str().unwrap().to_string();
    refused(&maker.reply(&hello(1, "")), "sits at a seat already");

    refused(&other.reply(r#"{"t":"act","id":1,"after":0,"action":"g8f6"}"#), "turn");
    refused(&maker.reply(r#"{"t":"act","id":1,"after":0,"action":"g1g5"}"#), "");
    refused(&maker.reply(r#"{"t":"act","id":1,"after":0,"action":"roll 6 6"}"#), "");
    let ack = maker.reply(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#);
    assert_eq!(ack, json!({"t": "ack", "id": 1, "at": 1}));
    // The same action again (a resend after a lost answer): acknowledged, not played twice.
    assert_eq!(
        maker.reply(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#),
        json!({"t": "ack", "id": 1, "at": 1})
    );
    // An action from an old event.
    refused(&other.reply(r#"{"t":"act","id":1,"after":0,"action":"g8f6"}"#), "event 1");
    refused(&maker.reply(r#"{"t":"end","token":"not the token"}"#), "maker");
    // Take-backs: only a seat's own move, and only an answer to an asking.
    refused(&other.reply(r#"{"t":"answer","yes":true}"#), "nobody asked");
    refused(&other.reply(r#"{"t":"take_back","to":0}"#), "no move of seat 1");
    refused(&maker.reply(r#"{"t":"take_back","to":7}"#), "no move");

    // Three hundred messages as fast as they go: the first ones are taken, the rest refused.
    let mut too_many = 0;
    for _ in 0..300 {
        maker
            .0
            .send(tungstenite::Message::Text(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#.into()))
            .unwrap();
    }
    for _ in 0..300 {
        let answer = maker.next();
        if answer["t"] == json!("refused") && answer["error"].as_str().unwrap().contains("too many") {
            too_many += 1;
        }
    }
    assert!(too_many >= 100, "{too_many} of three hundred refused as too many");

    // Nothing was lost: a new seat sees the one move, and the room plays on.
    let mut late = Raw::open(&url);
    let welcome = late.say(&hello(1, &other_key));
    let record = tabla::record::Record::from_ron(welcome["record"].as_str().unwrap()).unwrap();
    assert_eq!(record.actions, vec!["g1f3".to_string()]);
    assert_eq!(record.seed, 0, "no device learns the room's seed");
    assert_ne!(room_file(&data, &code).record.seed, 0);
    assert_eq!(other.reply(r#"{"t":"act","id":1,"after":1,"action":"g8f6"}"#)["t"], json!("ack"));
    assert_eq!(room_file(&data, &code).record.actions, vec!["g1f3".to_string(), "g8f6".to_string()]);
}
