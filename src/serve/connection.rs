//! One client's WebSocket: what it may say, how much and how often, and how long it may stay
//! silent. Every message that cannot be taken is answered at once with a reason (counted for the
//! minute's log line of its address), and the connection goes on; a connection that says no
//! `hello` or `new` in time, from which nothing comes for the idle time, or that takes nothing
//! sent to it for that time, is let go (a frame longer than a message closes it as it comes).

use super::limits::{Keeper, Refusal, Ticket};
use super::rooms::{HelloRefused, Live, NO_SEAT, Rooms, SEAT_FREED};
use crate::net::code::RoomCode;
use crate::net::{ToClient, ToServer};
use axum::extract::ws::{Message, WebSocket};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use tokio::time::sleep_until;

/// Messages a client may send in a burst, and each second after it (a Robot playing a seat through
/// `tabla text` plays a long doubles chain of Crazy Nard in a burst of some forty actions).
const BURST: f64 = 100.0;
const PER_SECOND: f64 = 40.0;

/// Where a client sits, once it said hello.
struct Seated {
    code: String,
    seat: u8,
    key: String,
    live: Arc<Live>,
    messages: broadcast::Receiver<Arc<str>>,
}

/// How many messages a client may still send now.
struct Allowance {
    left: f64,
    since: Instant,
}

impl Allowance {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.left = (self.left + now.duration_since(self.since).as_secs_f64() * PER_SECOND).min(BURST);
        self.since = now;
        if self.left >= 1.0 {
            self.left -= 1.0;
            true
        } else {
            false
        }
    }
}

/// One connection: the rooms, the limits, the address it is counted by, and its tickets (held
/// until it ends, so the address's and the server's counts go down then).
pub struct Client {
    pub rooms: Arc<Rooms>,
    pub keeper: Arc<Keeper>,
    pub address: IpAddr,
    pub _tickets: (Arc<Vec<Ticket>>, Vec<Ticket>),
}

/// What came to the connection.
enum Came {
    FromClient(Option<Result<Message, axum::Error>>),
    FromRoom(Result<Arc<str>, broadcast::error::RecvError>),
    Ping,
    Late,
}

pub async fn run(client: Client, mut socket: WebSocket) {
    let limits = client.keeper.limits.clone();
    let within = limits.idle_timeout;
    let mut seated: Option<Seated> = None;
    let mut allowance = Allowance { left: BURST, since: Instant::now() };
    // A client is to sit (or have made a room) by then.
    let mut hello_by = tokio::time::Instant::now() + limits.hello_timeout;
    let mut heard_at = tokio::time::Instant::now();
    let mut pings = tokio::time::interval(limits.idle_timeout / 3);
    pings.tick().await;
    loop {
        let idle_by = heard_at + limits.idle_timeout;
        let late_by = if seated.is_some() { idle_by } else { idle_by.min(hello_by) };
        let came = match seated.as_mut() {
            Some(at) => tokio::select! {
                message = socket.recv() => Came::FromClient(message),
                message = at.messages.recv() => Came::FromRoom(message),
                _ = pings.tick() => Came::Ping,
                _ = sleep_until(late_by) => Came::Late,
            },
            None => tokio::select! {
                message = socket.recv() => Came::FromClient(message),
                _ = pings.tick() => Came::Ping,
                _ = sleep_until(late_by) => Came::Late,
            },
        };
        let text = match came {
            Came::Late => {
                let why = if seated.is_some() { Refusal::Idle } else { Refusal::NoHelloInTime };
                client.keeper.refused(client.address, why);
                let _ = send(&mut socket, Message::Close(None), within).await;
                break;
            }
            Came::Ping => {
                if !send(&mut socket, Message::Ping(Default::default()), within).await {
                    break;
                }
                continue;
            }
            Came::FromRoom(Ok(message)) => {
                let freed_here = seated.as_ref().is_some_and(|at| freed(&message) == Some(at.seat));
                if freed_here {
                    let ended = ToClient::Ended { reason: SEAT_FREED.into() };
                    let _ = answer(&mut socket, &ended, within).await;
                    break;
                }
                if !send(&mut socket, Message::Text(message.as_ref().into()), within).await {
                    break;
                }
                continue;
            }
            // A client too slow to take the room's messages hears them again by hello.
            Came::FromRoom(Err(_)) => break,
            Came::FromClient(message) => {
                heard_at = tokio::time::Instant::now();
                match message {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(Message::Binary(_))) => {
                        client.keeper.refused(client.address, Refusal::NotTheProtocol);
                        if !answer(&mut socket, &refuse(None, "messages are JSON text"), within).await {
                            break;
                        }
                        continue;
                    }
                    Some(Ok(_)) => continue,
                }
            }
        };
        let answers = if !allowance.take() {
            client.keeper.refused(client.address, Refusal::TooManyMessages);
            // An action refused so still names its number, so its client takes it back.
            let id = match serde_json::from_str(text.as_str()) {
                Ok(ToServer::Act { id, .. }) => Some(id),
                _ => None,
            };
            vec![refuse(id, "too many messages: at most 40 a second")]
        } else {
            let answers = take(&client, &mut seated, text.as_str()).await;
            if answers.made {
                hello_by = tokio::time::Instant::now() + limits.hello_timeout;
            }
            answers.messages
        };
        let mut open = true;
        for message in &answers {
            open &= answer(&mut socket, message, within).await;
        }
        if !open {
            break;
        }
    }
    if let Some(at) = seated {
        drop(at.messages);
        client.rooms.gone(&at.live, &at.code, at.seat).await;
        client.rooms.leave(&at.code);
    }
}

/// The seat a room's message frees, when it is the message that a seat was freed.
fn freed(message: &str) -> Option<u8> {
    if !message.starts_with(r#"{"t":"freed""#) {
        return None;
    }
    match serde_json::from_str(message) {
        Ok(ToClient::Freed { seat }) => Some(seat),
        _ => None,
    }
}

fn refuse(id: Option<u64>, error: &str) -> ToClient {
    ToClient::Refused { id, error: error.to_string() }
}

async fn answer(socket: &mut WebSocket, message: &ToClient, within: Duration) -> bool {
    send(socket, Message::Text(message.to_json().into()), within).await
}

/// Sends a message; a client that takes nothing for `within` (the idle time) is let go (`false`).
async fn send(socket: &mut WebSocket, message: Message, within: Duration) -> bool {
    matches!(tokio::time::timeout(within, socket.send(message)).await, Ok(Ok(())))
}

/// What the server answers one message, and whether a room was made.
struct Answers {
    messages: Vec<ToClient>,
    made: bool,
}

impl From<Vec<ToClient>> for Answers {
    fn from(messages: Vec<ToClient>) -> Answers {
        Answers { messages, made: false }
    }
}

/// What the server answers one message.
async fn take(client: &Client, seated: &mut Option<Seated>, text: &str) -> Answers {
    let rooms = &client.rooms;
    let refused = |why: Refusal| client.keeper.refused(client.address, why);
    let message: ToServer = match serde_json::from_str(text) {
        Ok(message) => message,
        Err(e) => {
            refused(Refusal::NotTheProtocol);
            return vec![refuse(None, &format!("not a message of Tabla's rooms: {e}"))].into();
        }
    };
    match (message, seated.as_ref()) {
        (ToServer::New { level, seats, clock_minutes }, _) => {
            if let Err(why) = client.keeper.may_make_room(client.address) {
                let error = match why {
                    Refusal::RoomsFull => "the server keeps as many rooms as it may; try again later",
                    _ => "this address made as many rooms as it may this hour; try again later",
                };
                return vec![refuse(None, error)].into();
            }
            match rooms.make(&level, &seats, clock_minutes).await {
                Ok(made) => Answers { messages: vec![made], made: true },
                Err(e) => vec![refuse(None, &e)].into(),
            }
        }
        (ToServer::Hello { .. }, Some(_)) => {
            vec![refuse(None, "this connection sits at a seat already")].into()
        }
        (ToServer::Hello { room, seat, last, name, picture, era, seat_key }, None) => {
            if let Err(wait) = client.keeper.may_look_up(client.address) {
                let error =
                    format!("too many wrong room codes from here: try again in {} s", wait.as_secs() + 1);
                return vec![refuse(None, &error)].into();
            }
            let code = match RoomCode::parse(&room) {
                Ok(code) => code,
                Err(e) => {
                    client.keeper.looked_up(client.address, true);
                    return vec![refuse(None, &e)].into();
                }
            };
            let code = code.to_string();
            let live = rooms.enter(&code);
            let key = seat_key.as_deref().filter(|key| !key.is_empty());
            let sat = rooms.hello(&live, &code, (seat, key), (last, era), &name, picture).await;
            client.keeper.looked_up(client.address, matches!(sat, Err(HelloRefused::NoSeat)));
            match sat {
                Ok(sat) => {
                    *seated =
                        Some(Seated { code, seat: sat.seat, key: sat.key, live, messages: sat.messages });
                    vec![sat.welcome].into()
                }
                Err(refusal) => {
                    rooms.leave(&code);
                    match refusal {
                        HelloRefused::NoSeat => vec![refuse(None, NO_SEAT)].into(),
                        HelloRefused::Told(told) => vec![*told].into(),
                    }
                }
            }
        }
        (ToServer::Act { id, .. }, None) => vec![refuse(Some(id), "say hello at a room's seat first")].into(),
        (ToServer::Act { id, after, action }, Some(at)) => {
            let acted = rooms.act(&at.live, &at.code, (at.seat, &at.key), id, after, &action).await;
            if matches!(acted, ToClient::Refused { .. }) {
                refused(Refusal::ActionRefused);
            }
            vec![acted].into()
        }
        (
            ToServer::End { .. }
            | ToServer::TakeBack { .. }
            | ToServer::Answer { .. }
            | ToServer::TimeOut
            | ToServer::Free { .. },
            None,
        ) => vec![refuse(None, "say hello at the room's seat first")].into(),
        (ToServer::TakeBack { to }, Some(at)) => {
            refused_counted(client, rooms.take_back(&at.live, &at.code, (at.seat, &at.key), to).await)
        }
        (ToServer::TimeOut, Some(at)) => match rooms.time_out(&at.live, &at.code).await {
            Ok(clock) => clock.into_iter().collect::<Vec<_>>().into(),
            Err(error) => refused_counted(client, Err(error)),
        },
        (ToServer::Answer { yes }, Some(at)) => {
            refused_counted(client, rooms.answer(&at.live, &at.code, (at.seat, &at.key), yes).await)
        }
        (ToServer::End { token }, Some(at)) => {
            refused_counted(client, rooms.end(&at.live, &at.code, &token).await)
        }
        (ToServer::Free { token, seat }, Some(at)) => {
            refused_counted(client, rooms.free(&at.live, &at.code, &token, seat).await)
        }
    }
}

/// Nothing to answer when it was done; else the refusal, counted.
fn refused_counted(client: &Client, done: Result<(), String>) -> Answers {
    match done {
        Ok(()) => Vec::new().into(),
        Err(error) => {
            client.keeper.refused(client.address, Refusal::ActionRefused);
            vec![refuse(None, &error)].into()
        }
    }
}
