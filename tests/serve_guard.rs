//! `tabla serve` tried from outside, as a stranger, a guesser, a flood and a slow client would try
//! it, with plain WebSocket and TCP clients from loopback addresses of their own (127.0.0.2 and up
//! reach a server on 127.0.0.1, each another family): a seat taken only with its key, no file of
//! the server read for a client, guesses and rooms counted per address, slow, idle and half-sent
//! clients let go, a room file that cannot be read set aside. Every test starts its server on
//! 127.0.0.1 and stops it; every wait is bounded.

mod port;
mod serving;

use port::quiet_port;
use serde_json::{Value, json};
use serving::{Raw, folder, hello, knight_hunt_room, refused, serve, tcp_from};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The room's seats 0 and 1 taken by two families' devices: their connections and keys.
fn seated(url: &str, code: &str) -> ((Raw, String), (Raw, String)) {
    let sit = |address: &str, seat: u8| {
        let mut raw = Raw::open_from(address, url);
        let welcome = raw.say(&hello(code, seat, None));
        assert_eq!(welcome["t"], json!("welcome"), "{welcome}");
        let key = welcome["seat_key"].as_str().unwrap().to_string();
        assert!(key.len() >= 32, "a key of 128 bits: {key}");
        (raw, key)
    };
    (sit("127.0.0.1", 0), sit("127.0.0.2", 1))
}

fn room_actions(data: &std::path::Path, code: &str) -> Vec<String> {
    let text = std::fs::read_to_string(data.join("rooms").join(format!("{code}.ron"))).unwrap();
    ron::from_str::<tabla::net::room::RoomFile>(&text).unwrap().record.actions
}

#[test]
fn a_stranger_who_knows_the_code_cannot_play_for_a_child_and_the_maker_can_free_a_seat() {
    let data = folder("stranger");
    let (_server, url) = serve(quiet_port(), &["--data", data.to_str().unwrap()]);
    let mut maker = Raw::open(&url);
    let made = maker.say(r#"{"t":"new","level":"knight_hunt/one_knight","seats":["person","person"]}"#);
    let (code, token) =
        (made["room"].as_str().unwrap().to_string(), made["token"].as_str().unwrap().to_string());
    let ((mut white, white_key), (mut black, black_key)) = seated(&url, &code);
    assert_ne!(white_key, black_key);

    // A third device that knows the code: no seat, whatever it says, and no word of whose it is.
    let mut stranger = Raw::open_from("127.0.0.3", &url);
    for key in [None, Some("0123456789abcdef0123456789abcdef"), Some(white_key.as_str())] {
        refused(&stranger.say(&hello(&code, 1, key)), "no seat is free");
    }
    refused(&stranger.say(&hello(&code, 255, None)), "no seat is free");
    refused(&stranger.say(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#), "hello");
    assert_eq!(white.reply(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#)["t"], json!("ack"));
    refused(&stranger.say(r#"{"t":"act","id":2,"after":1,"action":"g8f6"}"#), "hello");
    assert_eq!(room_actions(&data, &code), ["g1f3"], "the stranger played nothing");

    // Black's own device comes back with its key, from anywhere.
    let mut again = Raw::open_from("127.0.0.4", &url);
    let welcome = again.say(&hello(&code, 1, Some(&black_key)));
    assert_eq!((welcome["t"].clone(), welcome["seat_key"].clone()), (json!("welcome"), json!(black_key)));
    drop(again);

    // Only the maker's token frees a seat; then the device sitting there is let go, its key sits
    // no more, and the next to come sits with a new key.
    refused(&black.reply(&format!(r#"{{"t":"free","token":"{white_key}","seat":1}}"#)), "maker");
    white.send(&format!(r#"{{"t":"free","token":"{token}","seat":1}}"#));
    assert_eq!(black.until("ended")["reason"], json!("this seat was given to another device"));
    assert_eq!(white.until("freed"), json!({"t": "freed", "seat": 1}));
    let mut lost_phone = Raw::open_from("127.0.0.2", &url);
    refused(&lost_phone.say(&hello(&code, 1, Some(&black_key))), "no seat is free");
    let mut new_tablet = Raw::open_from("127.0.0.5", &url);
    let welcome = new_tablet.say(&hello(&code, 1, None));
    assert_eq!(welcome["t"], json!("welcome"), "{welcome}");
    assert_ne!(welcome["seat_key"], json!(black_key));
    assert_eq!(new_tablet.reply(r#"{"t":"act","id":1,"after":1,"action":"g8f6"}"#)["t"], json!("ack"));
}

#[test]
fn an_action_number_the_room_took_with_another_action_is_refused_and_a_device_sitting_again_counts_on() {
    let data = folder("rejoin");
    let (_server, url) = serve(quiet_port(), &["--data", data.to_str().unwrap()]);
    let mut maker = Raw::open(&url);
    let code = knight_hunt_room(&mut maker);
    let ((mut white, white_key), (mut black, _)) = seated(&url, &code);
    assert_eq!(white.reply(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#)["t"], json!("ack"));
    assert_eq!(black.reply(r#"{"t":"act","id":1,"after":1,"action":"g8f6"}"#)["t"], json!("ack"));
    drop(white);
    // White's device sits again (a Continue, a new process): the room says its last action.
    let mut white = Raw::open(&url);
    let welcome = white.say(&hello(&code, 0, Some(&white_key)));
    assert_eq!(welcome["last_id"], json!(1), "{welcome}");
    let refusal = white.reply(r#"{"t":"act","id":1,"after":2,"action":"f3e5"}"#);
    refused(&refusal, "another action");
    assert_eq!(refusal["id"], json!(1), "the refusal names the action");
    assert_eq!(
        white.reply(r#"{"t":"act","id":2,"after":2,"action":"f3e5"}"#),
        json!({"t":"ack","id":2,"at":3})
    );
    assert_eq!(room_actions(&data, &code), ["g1f3", "g8f6", "f3e5"], "nothing acknowledged was lost");
}

#[test]
fn a_device_whose_first_welcome_was_lost_sits_again_with_the_key_it_made() {
    let data = folder("lost-welcome");
    let (_server, url) = serve(quiet_port(), &["--data", data.to_str().unwrap()]);
    let mut maker = Raw::open(&url);
    let code = knight_hunt_room(&mut maker);
    let key = "00112233445566778899aabbccddeeff";
    // The hello goes out and the connection drops before its welcome is read.
    let mut lost = Raw::open_from("127.0.0.2", &url);
    lost.send(&hello(&code, 1, Some(key)));
    drop(lost);
    let mut again = Raw::open_from("127.0.0.2", &url);
    let welcome = again.say(&hello(&code, 1, Some(key)));
    assert_eq!((welcome["t"].clone(), welcome["seat_key"].clone()), (json!("welcome"), json!(key)));
    refused(&Raw::open_from("127.0.0.3", &url).say(&hello(&code, 1, None)), "no seat is free");
}

#[test]
fn no_file_of_the_server_is_opened_for_a_client_whatever_level_it_names() {
    let data = folder("paths");
    // The server's folder holds a level file of the same name, broken: built-in levels are never
    // read from disk, so it is never read.
    let here = folder("paths-cwd");
    std::fs::create_dir_all(here.join("ron_configs/knight_hunt")).unwrap();
    std::fs::write(here.join("ron_configs/knight_hunt/one_knight.ron"), "secret words of the server")
        .unwrap();
    let fifo = here.join("a-fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let port = quiet_port();
    let url = format!("http://127.0.0.1:{port}");
    let _server = serving::serve_with(port, &data, |command| {
        command.current_dir(&here);
    });
    let fifo = fifo.to_str().unwrap().to_string();
    let passwd = here.join("ron_configs/knight_hunt/one_knight.ron").to_str().unwrap().to_string();
    let new = |level: &str| format!(r#"{{"t":"new","level":"{level}","seats":["person","person"]}}"#);
    // Eight clients at once name the FIFO: each is answered, and so is everyone after them.
    let askers: Vec<_> = (0..8)
        .map(|i| {
            let (url, fifo) = (url.clone(), fifo.clone());
            std::thread::spawn(move || Raw::open_from(&format!("127.0.1.{}", i + 1), &url).say(&new(&fifo)))
        })
        .collect();
    for asker in askers {
        refused(&asker.join().unwrap(), "no level is named");
    }
    let mut client = Raw::open(&url);
    for level in ["/dev/zero", "/etc/passwd", "../../etc/hostname", passwd.as_str(), "knight_hunt/../../x"] {
        let answer = client.say(&new(level));
        refused(&answer, "no level is named");
        let error = answer["error"].as_str().unwrap();
        assert!(
            !error.contains("secret") && !error.contains("root") && !error.contains("os error"),
            "{error}"
        );
    }
    // The built-in level, by its name and by its file's name: made, from what is built in.
    for level in ["knight_hunt/one_knight", "ron_configs/knight_hunt/one_knight.ron"] {
        let made = client.say(&new(level));
        assert_eq!(made["t"], json!("made"), "{made}");
    }
}

#[test]
fn guesses_from_one_address_wait_longer_each_time_are_answered_at_once_and_written_once_a_minute() {
    let data = folder("guess");
    let port = quiet_port();
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut server = serving::serve_with(port, &data, |command| {
        command.stderr(std::process::Stdio::piped());
    });
    let stderr = server.0.stderr.take().unwrap();
    let kept = log.clone();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)).map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    let url = format!("http://127.0.0.1:{port}");
    let mut maker = Raw::open(&url);
    let code = knight_hunt_room(&mut maker);
    let ((mut white, _), _black) = seated(&url, &code);

    // Forty guesses, each on a fresh connection from one address: five are looked up, the rest
    // told to wait, each answered at once.
    let started = Instant::now();
    let mut looked_up = 0;
    let mut waits = Vec::new();
    for guess in 0..40u32 {
        let mut guesser = Raw::open_from("127.0.0.9", &url);
        let answer = guesser.say(&hello(&format!("{:06}", 100_000 + guess), 0, None));
        // Closed as a browser closes it: the server's word that it closed comes back.
        guesser.0.close(None).unwrap();
        while guesser.0.read().is_ok() {}
        assert_eq!(answer["t"], json!("refused"), "{answer}");
        let error = answer["error"].as_str().unwrap();
        if error.contains("no seat is free") {
            looked_up += 1;
        } else {
            assert!(error.contains("try again in"), "{error}");
            waits.push(error.to_string());
        }
    }
    assert_eq!(looked_up, 5, "five free guesses, then a wait");
    assert!(waits.iter().all(|w| w.contains("in 15 s") || w.contains("in 14 s")), "{waits:?}");
    assert!(started.elapsed() < Duration::from_secs(30), "answered at once, not held");
    // Even the room's own code waits, from that address; another family is not held back, and
    // the family playing plays on.
    refused(&Raw::open_from("127.0.0.9", &url).say(&hello(&code, 0, None)), "try again in");
    refused(&Raw::open_from("127.0.0.10", &url).say(&hello("100001", 0, None)), "no seat is free");
    assert_eq!(white.reply(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#)["t"], json!("ack"));
    let lines = log.lock().unwrap().clone();
    let about_guesser: Vec<&String> = lines.iter().filter(|l| l.contains("127.0.0.9")).collect();
    assert!(about_guesser.is_empty(), "no line for each refusal, only the minute's: {about_guesser:?}");
}

#[test]
fn a_flood_of_rooms_from_one_address_is_capped_and_other_families_still_make_theirs() {
    let data = folder("flood");
    let (_server, url) = serve(quiet_port(), &["--data", data.to_str().unwrap(), "--max-rooms", "14"]);
    let new = r#"{"t":"new","level":"knight_hunt/one_knight","seats":["person","person"]}"#;
    let mut flood = Raw::open_from("127.0.0.11", &url);
    let answers: Vec<Value> = (0..15).map(|_| flood.say(new)).collect();
    let made = answers.iter().filter(|a| a["t"] == json!("made")).count();
    assert_eq!(made, 10, "ten rooms an hour from one address");
    refused(answers.last().unwrap(), "as many rooms as it may this hour");
    assert_eq!(std::fs::read_dir(data.join("rooms")).unwrap().count(), 10);
    // Another family makes its room; then the server is full for everyone, answered at once.
    for address in ["127.0.0.12", "127.0.0.13", "127.0.0.14", "127.0.0.15"] {
        assert_eq!(Raw::open_from(address, &url).say(new)["t"], json!("made"));
    }
    refused(&Raw::open_from("127.0.0.16", &url).say(new), "keeps as many rooms as it may");
    // Connections are counted per address too: twenty at once, then refused at once.
    let held: Vec<Raw> = (0..20).map(|_| Raw::open_from("127.0.0.17", &url)).collect();
    assert!(Raw::try_open_from("127.0.0.17", &url).is_err(), "a twenty-first connection is turned away");
    drop(held);
}

/// Reads until the connection ends (`true`) or `within` passes (`false`).
fn closed_within(stream: &mut std::net::TcpStream, within: Duration) -> bool {
    stream.set_read_timeout(Some(Duration::from_millis(200))).unwrap();
    let until = Instant::now() + within;
    let mut buffer = [0u8; 4096];
    while Instant::now() < until {
        match stream.read(&mut buffer) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {}
            Err(_) => return true,
        }
    }
    false
}

/// A WebSocket's upgrade by hand, its answer read, the stream left open.
fn upgraded(address: &str, url: &str) -> std::net::TcpStream {
    let mut stream = tcp_from(address, url);
    stream
        .write_all(
            b"GET /room HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
              Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        )
        .unwrap();
    let mut answer = Vec::new();
    let mut byte = [0u8; 1];
    while !answer.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).unwrap();
        answer.push(byte[0]);
    }
    assert!(answer.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&answer));
    stream
}

/// A masked client frame's header: text, the length it claims.
fn frame_header(length: u64) -> Vec<u8> {
    let mut header = vec![0x81, 0x80 | 127];
    header.extend_from_slice(&length.to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]);
    header
}

fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .unwrap()
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn slow_idle_and_half_sent_clients_are_let_go_and_a_fresh_client_is_answered_meanwhile() {
    let data = folder("slow");
    let limits = ["--header-timeout", "2", "--hello-timeout", "2", "--idle-timeout", "3"];
    let (server, url) = serve(quiet_port(), &[&["--data", data.to_str().unwrap()][..], &limits].concat());
    let memory_before = resident_kb(server.0.id());
    // Twenty slowloris connections (headers a byte at a time, never finished), three hundred
    // upgraded and silent, twelve frames claiming 15 MiB and twelve claiming 8 KiB, half sent.
    let mut slow: Vec<_> = (0..20)
        .map(|i| {
            let mut stream = tcp_from(&format!("127.0.3.{}", i + 1), &url);
            stream.write_all(b"GET /room HTTP/1.1\r\nHost: 1").unwrap();
            stream
        })
        .collect();
    let mut idle: Vec<_> = (0..300).map(|i| upgraded(&format!("127.0.4.{}", i / 10 + 1), &url)).collect();
    let mut huge: Vec<_> = (0..12)
        .map(|i| {
            let mut stream = upgraded(&format!("127.0.5.{}", i + 1), &url);
            stream.write_all(&frame_header(15 << 20)).unwrap();
            let _ = stream.write_all(&vec![b'x'; 64 << 10]);
            stream
        })
        .collect();
    let mut half: Vec<_> = (0..12)
        .map(|i| {
            let mut stream = upgraded(&format!("127.0.6.{}", i + 1), &url);
            stream.write_all(&frame_header(8 << 10)).unwrap();
            stream.write_all(&[b'x'; 100]).unwrap();
            stream
        })
        .collect();
    // A family comes meanwhile and is answered at once.
    let asked = Instant::now();
    let mut fresh = Raw::open_from("127.0.0.20", &url);
    let code = knight_hunt_room(&mut fresh);
    let answered_ms = asked.elapsed().as_millis();
    println!(
        "a fresh client's room was made in {answered_ms} ms beside 300 idle and 20 slowloris connections"
    );
    assert!(answered_ms < 5_000, "answered, not held: {answered_ms} ms");
    let welcome = fresh.say(&hello(&code, 0, None));
    assert_eq!(welcome["t"], json!("welcome"));
    for stream in &mut huge {
        assert!(closed_within(stream, Duration::from_secs(2)), "a frame over the limit is never read whole");
    }
    for stream in slow.iter_mut().chain(&mut idle).chain(&mut half) {
        assert!(
            closed_within(stream, Duration::from_secs(10)),
            "a slow, silent or half-sent client is let go"
        );
    }
    let grown = resident_kb(server.0.id()).saturating_sub(memory_before);
    assert!(grown < 64 << 10, "the server kept {grown} kB for them");
    // The seated family, which answers the server's pings as it reads, stays past the idle time.
    let mut other = Raw::open_from("127.0.0.21", &url);
    assert_eq!(other.say(&hello(&code, 1, None))["t"], json!("welcome"));
    let until = Instant::now() + Duration::from_secs(5);
    fresh.0.get_mut().set_read_timeout(Some(Duration::from_millis(100))).unwrap();
    while Instant::now() < until {
        match fresh.0.read() {
            Ok(_) => {}
            Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => panic!("a seated client that answers pings stays: {e}"),
        }
    }
    fresh.0.get_mut().set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    assert_eq!(fresh.reply(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#)["t"], json!("ack"));
}

#[test]
fn a_room_file_that_cannot_be_read_is_set_aside_and_the_other_rooms_play() {
    let data = folder("broken");
    let data_arg = data.to_str().unwrap().to_string();
    let port = quiet_port();
    let (mut server, url) = serve(port, &["--data", &data_arg]);
    let mut maker = Raw::open(&url);
    let codes: Vec<String> = (0..3).map(|_| knight_hunt_room(&mut maker)).collect();
    let keys: Vec<String> = codes.iter().map(|code| maker_key(&url, code)).collect();
    drop(maker);
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    let file = |code: &str| data.join("rooms").join(format!("{code}.ron"));
    std::fs::write(file(&codes[0]), [0xff, 0xfe, 0x00, 0x80, b'(']).unwrap();
    std::fs::write(file(&codes[1]), "(version: 1, code: \"broken").unwrap();
    let (_server, url) = serve(port, &["--data", &data_arg]);
    for (code, key) in codes.iter().zip(&keys).take(2) {
        let answer = Raw::open(&url).say(&hello(code, 0, Some(key)));
        assert_eq!(answer, json!({"t": "ended", "reason": "this room cannot be played any more"}));
        assert!(!file(code).exists());
        assert!(data.join("rooms").join(format!("{code}.ron.broken-1")).exists(), "set aside, not deleted");
    }
    let kept = std::fs::read(data.join("rooms").join(format!("{}.ron.broken-1", codes[0]))).unwrap();
    assert_eq!(kept, [0xff, 0xfe, 0x00, 0x80, b'('], "kept as it was");
    let mut white = Raw::open(&url);
    assert_eq!(white.say(&hello(&codes[2], 0, Some(&keys[2])))["t"], json!("welcome"));
    assert_eq!(white.reply(r#"{"t":"act","id":1,"after":0,"action":"g1f3"}"#)["t"], json!("ack"));
}

/// Sits at seat 0 of the room, once: the seat's key.
fn maker_key(url: &str, code: &str) -> String {
    let welcome = Raw::open(url).say(&hello(code, 0, None));
    welcome["seat_key"].as_str().unwrap().to_string()
}
