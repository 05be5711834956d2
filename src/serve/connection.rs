//! One client's WebSocket: what it may say, how much and how often. Every message that cannot be
//! taken is answered with a reason and written to the log, and the connection goes on.

use super::log;
use super::rooms::{Live, Rooms};
use crate::net::code::RoomCode;
use crate::net::{MOST_MESSAGE_BYTES, ToClient, ToServer};
use axum::extract::ws::{Message, WebSocket};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::broadcast;

/// Messages a client may send in a burst, and each second after it.
const BURST: f64 = 40.0;
const PER_SECOND: f64 = 20.0;

/// Where a client sits, once it said hello.
struct Seated {
    code: String,
    seat: u8,
    live: Arc<Live>,
    messages: broadcast::Receiver<Arc<str>>,
}

/// How many messages a client may still send now.
struct Allowance {
    left: f64,
    since: Instant,
    /// Whether "too many messages" was logged in this burst (logged once).
    logged: bool,
}

impl Allowance {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.left = (self.left + now.duration_since(self.since).as_secs_f64() * PER_SECOND).min(BURST);
        self.since = now;
        if self.left >= 1.0 {
            self.left -= 1.0;
            self.logged = false;
            true
        } else {
            false
        }
    }
}

pub async fn run(rooms: Arc<Rooms>, mut socket: WebSocket) {
    let mut seated: Option<Seated> = None;
    let mut allowance = Allowance { left: BURST, since: Instant::now(), logged: false };
    loop {
        let message = match seated.as_mut() {
            Some(at) => tokio::select! {
                from_client = socket.recv() => Some(from_client),
                from_room = at.messages.recv() => match from_room {
                    Ok(message) => {
                        if socket.send(Message::Text(message.as_ref().into())).await.is_err() {
                            break;
                        }
                        None
                    }
                    // A client too slow to take the room's messages hears them again by hello.
                    Err(_) => break,
                },
            },
            None => Some(socket.recv().await),
        };
        let Some(message) = message else { continue };
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
            Some(Ok(Message::Binary(_))) => {
                if !answer(&mut socket, &refuse(None, "messages are JSON text")).await {
                    break;
                }
                continue;
            }
            Some(Ok(_)) => continue,
        };
        let answers = if !allowance.take() {
            if !allowance.logged {
                allowance.logged = true;
                log("a client sends too many messages; refused until it slows down");
            }
            // An action refused so still names its number, so its client takes it back.
            let id = match serde_json::from_str(text.as_str()) {
                Ok(ToServer::Act { id, .. }) if text.len() <= MOST_MESSAGE_BYTES => Some(id),
                _ => None,
            };
            vec![refuse(id, "too many messages: at most 20 a second")]
        } else {
            take(&rooms, &mut seated, text.as_str()).await
        };
        let mut open = true;
        for message in &answers {
            open &= answer(&mut socket, message).await;
        }
        if !open {
            break;
        }
    }
    if let Some(at) = seated {
        drop(at.messages);
        rooms.gone(&at.live, &at.code, at.seat).await;
        rooms.leave(&at.code);
    }
}

fn refuse(id: Option<u64>, error: &str) -> ToClient {
    ToClient::Refused { id, error: error.to_string() }
}

async fn answer(socket: &mut WebSocket, message: &ToClient) -> bool {
    socket.send(Message::Text(message.to_json().into())).await.is_ok()
}

/// What the server answers one message.
async fn take(rooms: &Rooms, seated: &mut Option<Seated>, text: &str) -> Vec<ToClient> {
    if text.len() > MOST_MESSAGE_BYTES {
        log(&format!("refused a message of {} bytes", text.len()));
        return vec![refuse(None, &format!("a message is at most {MOST_MESSAGE_BYTES} bytes"))];
    }
    let message: ToServer = match serde_json::from_str(text) {
        Ok(message) => message,
        Err(e) => {
            log(&format!("refused a message that is not the protocol's: {e}"));
            return vec![refuse(None, &format!("not a message of Tabla's rooms: {e}"))];
        }
    };
    match (message, seated.as_ref()) {
        (ToServer::New { level, seats, clock_minutes }, _) => {
            match rooms.make(&level, &seats, clock_minutes).await {
                Ok(made) => vec![made],
                Err(e) => vec![refuse(None, &e)],
            }
        }
        (ToServer::Hello { .. }, Some(_)) => vec![refuse(None, "this connection sits at a seat already")],
        (ToServer::Hello { room, seat, last, name, picture, era }, None) => {
            let code = match RoomCode::parse(&room) {
                Ok(code) => code.to_string(),
                Err(e) => return vec![refuse(None, &e)],
            };
            let live = rooms.enter(&code);
            match rooms.hello(&live, &code, seat, (last, era), &name, picture).await {
                Ok((welcome, messages)) => {
                    // The seat sat at (the one chosen for `ANY_SEAT`).
                    let seat = if let ToClient::Welcome { seat, .. } = &welcome { *seat } else { seat };
                    *seated = Some(Seated { code, seat, live, messages });
                    vec![welcome]
                }
                Err(refused) => {
                    log(&format!("room {code}: hello refused"));
                    rooms.leave(&code);
                    vec![refused]
                }
            }
        }
        (ToServer::Act { id, .. }, None) => vec![refuse(Some(id), "say hello at a room's seat first")],
        (ToServer::Act { id, after, action }, Some(at)) => {
            let acted = rooms.act(&at.live, &at.code, at.seat, id, after, &action).await;
            if let ToClient::Refused { error, .. } = &acted {
                log(&format!(
                    "room {}: seat {}'s '{}' refused: {error}",
                    at.code,
                    at.seat,
                    crate::quote::quote(&action)
                ));
            }
            vec![acted]
        }
        (
            ToServer::End { .. } | ToServer::TakeBack { .. } | ToServer::Answer { .. } | ToServer::TimeOut,
            None,
        ) => {
            vec![refuse(None, "say hello at the room's seat first")]
        }
        (ToServer::TakeBack { to }, Some(at)) => {
            refused_logged(at, "asking to take back", rooms.take_back(&at.live, &at.code, at.seat, to).await)
        }
        (ToServer::TimeOut, Some(at)) => match rooms.time_out(&at.live, &at.code).await {
            Ok(clock) => clock.into_iter().collect(),
            Err(error) => refused_logged(at, "claim of a clock run out", Err(error)),
        },
        (ToServer::Answer { yes }, Some(at)) => {
            refused_logged(at, "answer", rooms.answer(&at.live, &at.code, at.seat, yes).await)
        }
        (ToServer::End { token }, Some(at)) => match rooms.end(&at.live, &at.code, &token).await {
            Ok(()) => Vec::new(),
            Err(e) => vec![refuse(None, &e)],
        },
    }
}

/// Nothing to answer when it was done; else the refusal, logged.
fn refused_logged(at: &Seated, what: &str, done: Result<(), String>) -> Vec<ToClient> {
    match done {
        Ok(()) => Vec::new(),
        Err(error) => {
            log(&format!("room {}: seat {}'s {what} refused: {error}", at.code, at.seat));
            vec![refuse(None, &error)]
        }
    }
}
