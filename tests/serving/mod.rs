//! What the tests of `tabla serve` share: the server started on a quiet port with a folder of its
//! own (stopped when let go), and a raw WebSocket client, from 127.0.0.1 or any other loopback
//! address (127.0.0.2 and up reach a server on 127.0.0.1, each counted as another family).

#![allow(dead_code)]

use crate::port;
use serde_json::{Value, json};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::process::Child;
use std::time::Duration;

pub const TABLA: &str = env!("CARGO_BIN_EXE_tabla");

/// A child process that is killed when the test lets go of it.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabla-serve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts `tabla serve` on the port and waits for its first line, which says where it listens.
pub fn serve(port: u16, args: &[&str]) -> (Process, String) {
    (Process(port::serve(TABLA, port, args)), format!("http://127.0.0.1:{port}"))
}

/// `tabla serve` on the port with a folder of its own, its command made ready by `more` (the
/// folder it runs in, its log piped), once its first line says it listens.
pub fn serve_with(port: u16, data: &std::path::Path, more: impl Fn(&mut std::process::Command)) -> Process {
    use std::io::BufRead;
    Process(port::until_listening(port, || {
        let mut command = std::process::Command::new(TABLA);
        command.args(["serve", "--port", &port.to_string(), "--data", data.to_str().unwrap()]);
        more(&mut command);
        let mut child = command.stdout(std::process::Stdio::piped()).spawn().unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        first.contains("listening").then_some(child)
    }))
}

/// A TCP connection to the server's port from a loopback address of the test's choosing.
pub fn tcp_from(address: &str, url: &str) -> TcpStream {
    let port: u16 = url.rsplit(':').next().unwrap().parse().unwrap();
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    let from: SocketAddr = format!("{address}:0").parse().unwrap();
    socket.bind(&from.into()).unwrap();
    let to: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    socket.connect(&to.into()).unwrap();
    let stream: TcpStream = socket.into();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    stream
}

/// A raw WebSocket to the server, for messages no seat would send.
pub struct Raw(pub tungstenite::WebSocket<TcpStream>);

impl Raw {
    pub fn open(url: &str) -> Raw {
        Raw::open_from("127.0.0.1", url)
    }

    /// A WebSocket from `address` (a loopback address: another family).
    pub fn open_from(address: &str, url: &str) -> Raw {
        Raw::try_open_from(address, url).unwrap_or_else(|e| panic!("the server takes a connection: {e}"))
    }

    pub fn try_open_from(address: &str, url: &str) -> Result<Raw, String> {
        let stream = tcp_from(address, url);
        let url = url.replace("http://", "ws://") + "/room";
        tungstenite::client(url, stream).map(|(socket, _)| Raw(socket)).map_err(|e| e.to_string())
    }

    pub fn send(&mut self, text: &str) {
        self.0.send(tungstenite::Message::Text(text.into())).unwrap();
    }

    pub fn say(&mut self, text: &str) -> Value {
        self.send(text);
        self.next()
    }

    pub fn next(&mut self) -> Value {
        self.try_next().expect("the server answers")
    }

    /// The next text message, or why none came (the connection closed).
    pub fn try_next(&mut self) -> Result<Value, String> {
        loop {
            match self.0.read() {
                Ok(tungstenite::Message::Text(text)) => {
                    return Ok(serde_json::from_str(text.as_str()).unwrap());
                }
                Ok(tungstenite::Message::Close(_)) => return Err("closed".into()),
                Ok(_) => {}
                Err(e) => return Err(e.to_string()),
            }
        }
    }

    /// The next message of the kind (`"t"`), passing over at most twenty others.
    pub fn until(&mut self, kind: &str) -> Value {
        for _ in 0..20 {
            let message = self.next();
            if message["t"] == json!(kind) {
                return message;
            }
        }
        panic!("no {kind} in twenty messages");
    }

    /// The next answer that is not a presence or an event.
    pub fn reply(&mut self, text: &str) -> Value {
        let mut answer = self.say(text);
        while ["presence", "event", "clock"].contains(&answer["t"].as_str().unwrap_or("")) {
            answer = self.next();
        }
        answer
    }
}

pub fn refused(answer: &Value, containing: &str) {
    assert_eq!(answer["t"], json!("refused"), "{answer}");
    assert!(answer["error"].as_str().unwrap().contains(containing), "{answer}");
}

/// A room of Knight Hunt for two people, made from 127.0.0.1: its code.
pub fn knight_hunt_room(maker: &mut Raw) -> String {
    let made = maker.say(r#"{"t":"new","level":"knight_hunt/one_knight","seats":["person","person"]}"#);
    assert_eq!(made["t"], json!("made"), "{made}");
    made["room"].as_str().unwrap().to_string()
}

/// A hello at the room's seat, with its key when given.
pub fn hello(code: &str, seat: u8, key: Option<&str>) -> String {
    let key = key.map_or("null".to_string(), |key| format!("\"{key}\""));
    format!(
        r#"{{"t":"hello","room":"{code}","seat":{seat},"last":0,"name":"Kid","picture":3,"seat_key":{key}}}"#
    )
}
