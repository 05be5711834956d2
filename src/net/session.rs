//! What an app's room connection says and does, without the network: it makes or joins the room,
//! passes on what the server says in order, keeps every action until the server answers it, and
//! on a new connection asks for the events it missed and sends again what was not answered (under
//! its number, so nothing is played twice; any other message once). It numbers the actions
//! itself, after the last one the room took from the seat (its welcome says which), and holds the
//! seat's key, which every hello after the first carries. A take-back agreed starts a
//! new era of the room's events, which the next hello names. The desktop's link (a socket on a thread) and the
//! browser's (the page's WebSocket) each carry its messages.

use super::{Asking, Event, Person, RoomClock, ToClient, ToServer};
use crate::record::Record;
use std::time::Duration;

/// Wakes the app when its room's link has something for it (a window at rest draws nothing
/// until something wakes it).
pub type Wake = std::sync::Arc<dyn Fn() + Send + Sync>;

/// What the link is to do first.
#[derive(Clone, Debug)]
pub enum Want {
    /// Make a room of the level with these seats (`person`, `robot1`…), and sit at `seat`.
    Make { level: String, seats: Vec<String>, seat: u8, clock_minutes: u32 },
    /// Sit at a seat of a room (`ANY_SEAT`: the first free one), with the seat's key when this
    /// device sat there before.
    Join { code: String, seat: u8, seat_key: Option<String> },
}

/// What the room said, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum FromRoom {
    Made {
        code: String,
        pictures: Vec<String>,
        token: String,
    },
    /// Seated, with the room's record (RON, without its seed), who sits where and the seat's key.
    Welcome {
        code: String,
        seat: u8,
        record: String,
        people: Vec<Person>,
        asking: Option<Asking>,
        clock: Option<RoomClock>,
        seat_key: String,
    },
    Event(Event),
    /// The room's clocks after the events before this.
    Clock(RoomClock),
    /// A seat asks to take back (`None`: nobody asks now, as a welcome back says).
    Asked(Option<Asking>),
    /// The room went back to event `to` (the events after it come again, anew).
    TakenBack {
        to: u64,
    },
    /// A seat declined the asking.
    Declined {
        seat: u8,
    },
    /// The room's maker let another device sit at `seat`: whoever sat there is gone.
    Freed {
        seat: u8,
    },
    /// The room took action `id` as its event `at`.
    Acked {
        id: u64,
        at: u64,
    },
    /// Something this device sent was refused: an action (its text), or anything else (`None`).
    Refused {
        action: Option<String>,
        error: String,
    },
    /// The room answered something this device did not send (said, not acted on).
    Strange(String),
    Presence(Person),
    /// The connection is lost; the link tries again.
    Away(String),
    /// Connected again, with every event missed passed on before this.
    Back,
    /// The room cannot be played (it is unknown, full or ended).
    Over(String),
}

/// Why a connection is let go.
#[derive(Clone, Debug, PartialEq)]
pub enum LetGo {
    /// Lost: the link connects again.
    Retry(String),
    /// The room cannot be played any more.
    End(String),
}

impl LetGo {
    pub fn why(&self) -> &str {
        match self {
            LetGo::Retry(why) | LetGo::End(why) => why,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    Closed,
    /// `new` sent, waiting for `made`.
    Making,
    /// `hello` sent, waiting for `welcome`.
    Greeting,
    Seated,
}

pub struct Session {
    want: Want,
    name: String,
    picture: u8,
    code: Option<String>,
    seat: u8,
    /// The last event passed on (`None`: not seated yet).
    at: Option<u64>,
    /// How many times the room went back, as passed on.
    era: u64,
    /// The seat's key: the device's own from its first hello, as the welcome gives it back.
    seat_key: String,
    /// The number of the next action (ids count on from the last the room took from the seat).
    next_id: u64,
    /// Sent and not answered yet, or waiting for a connection (an action not yet sent has id 0).
    unanswered: Vec<ToServer>,
    phase: Phase,
    away: bool,
    heard: Vec<FromRoom>,
}

impl Session {
    /// A session for what the app wants; a device that brings no key for its seat makes one, its
    /// own from its first hello on (so a welcome lost on the way costs it nothing).
    pub fn new(want: Want, name: &str, picture: u8) -> Session {
        let seat_key = match &want {
            Want::Join { seat_key: Some(key), .. } => key.clone(),
            _ => super::new_seat_key(),
        };
        Session {
            want,
            name: name.to_string(),
            picture,
            code: None,
            seat: 0,
            at: None,
            era: 0,
            seat_key,
            next_id: 1,
            unanswered: Vec::new(),
            phase: Phase::Closed,
            away: false,
            heard: Vec::new(),
        }
    }

    /// Seated on the connection open now.
    pub fn seated(&self) -> bool {
        self.phase == Phase::Seated
    }

    /// The number of the last event passed on (0 before any).
    pub fn at(&self) -> u64 {
        self.at.unwrap_or(0)
    }

    /// The room's code, once made or asked for.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    pub fn seat(&self) -> u8 {
        self.seat
    }

    pub fn seat_key(&self) -> &str {
        &self.seat_key
    }

    /// A connection is open: what to send first (`new` for a room still to make, else `hello`).
    pub fn opened(&mut self) -> Vec<ToServer> {
        if self.code.is_none() {
            match self.want.clone() {
                Want::Make { level, seats, clock_minutes, .. } => {
                    self.phase = Phase::Making;
                    return vec![ToServer::New { level, seats, clock_minutes }];
                }
                Want::Join { code, seat, .. } => {
                    self.code = Some(code);
                    self.seat = seat;
                }
            }
        }
        vec![self.hello()]
    }

    fn hello(&mut self) -> ToServer {
        self.phase = Phase::Greeting;
        ToServer::Hello {
            room: self.code.clone().unwrap_or_default(),
            seat: self.seat,
            last: self.at.unwrap_or(0),
            name: self.name.clone(),
            picture: self.picture,
            era: self.era,
            seat_key: Some(self.seat_key.clone()),
        }
    }

    /// The connection is lost (said once until it is back).
    pub fn lost(&mut self, why: &str) {
        self.phase = Phase::Closed;
        if !self.away {
            self.away = true;
            self.heard.push(FromRoom::Away(why.to_string()));
        }
    }

    /// The app's action (an `Act`'s id is the session's to give): kept until answered, and to be
    /// sent now when seated.
    pub fn act(&mut self, action: ToServer) -> Option<ToServer> {
        let action = match action {
            ToServer::Act { after, action, .. } => {
                let id = if self.seated() { self.number() } else { 0 };
                ToServer::Act { id, after, action }
            }
            other => other,
        };
        if matches!(action, ToServer::Act { .. }) || !self.seated() {
            self.unanswered.push(action.clone());
        }
        self.seated().then_some(action)
    }

    fn number(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id - 1
    }

    /// What the server said: what to send in answer, or why the connection is let go.
    pub fn heard(&mut self, message: ToClient) -> Result<Vec<ToServer>, LetGo> {
        match (self.phase, message) {
            (Phase::Making, ToClient::Made { room, pictures, token }) => {
                self.code = Some(room.clone());
                if let Want::Make { seat, .. } = self.want {
                    self.seat = seat;
                }
                self.heard.push(FromRoom::Made { code: room, pictures, token });
                Ok(vec![self.hello()])
            }
            (
                Phase::Greeting,
                ToClient::Welcome {
                    seat, record, events, people, era, asking, clock, seat_key, last_id, ..
                },
            ) => {
                self.era = era;
                if !seat_key.is_empty() {
                    self.seat_key = seat_key;
                }
                // Actions not yet numbered are numbered after the last the room took.
                self.next_id = self.next_id.max(last_id.saturating_add(1));
                for action in &mut self.unanswered {
                    if let ToServer::Act { id: id @ 0, .. } = action {
                        *id = self.next_id;
                        self.next_id += 1;
                    }
                }
                self.welcomed(seat, record, events, people, (asking, clock))?;
                self.phase = Phase::Seated;
                if std::mem::take(&mut self.away) {
                    self.heard.push(FromRoom::Back);
                }
                // Actions wait for their answer; anything else is sent this once.
                let send = self.unanswered.clone();
                self.unanswered.retain(|message| matches!(message, ToServer::Act { .. }));
                Ok(send)
            }
            (Phase::Making | Phase::Greeting, ToClient::Refused { error, .. }) => Err(LetGo::End(error)),
            (_, ToClient::Ended { reason }) => Err(LetGo::End(reason)),
            (Phase::Seated, ToClient::Event(event)) => self.pass(event).map(|()| Vec::new()),
            (Phase::Seated, ToClient::Ack { id, at }) => {
                match self.answered(id) {
                    Some(_) => self.heard.push(FromRoom::Acked { id, at }),
                    None => self.heard.push(FromRoom::Strange(format!("an answer to action {id}, not sent"))),
                }
                Ok(Vec::new())
            }
            (Phase::Seated, ToClient::Refused { id, error }) => {
                let action = id.and_then(|id| self.answered(id));
                self.heard.push(FromRoom::Refused { action, error });
                Ok(Vec::new())
            }
            (_, ToClient::Presence(person)) => {
                self.heard.push(FromRoom::Presence(person));
                Ok(Vec::new())
            }
            (Phase::Seated, ToClient::Clock(clock)) => {
                self.heard.push(FromRoom::Clock(clock));
                Ok(Vec::new())
            }
            (Phase::Seated, ToClient::Asked(asking)) => {
                self.heard.push(FromRoom::Asked(Some(asking)));
                Ok(Vec::new())
            }
            (Phase::Seated, ToClient::Declined { seat }) => {
                self.heard.push(FromRoom::Declined { seat });
                Ok(Vec::new())
            }
            (Phase::Seated, ToClient::Freed { seat }) => {
                self.heard.push(FromRoom::Freed { seat });
                Ok(Vec::new())
            }
            (Phase::Seated, ToClient::TakenBack { to, era }) => {
                self.era = era;
                self.at = Some(to.min(self.at.unwrap_or(0)));
                self.heard.push(FromRoom::TakenBack { to });
                Ok(Vec::new())
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The link has ended: the room cannot be played here any more (why).
    pub fn ended(&mut self, why: &str) {
        self.phase = Phase::Closed;
        self.heard.push(FromRoom::Over(why.to_string()));
    }

    /// Everything said since the last call, in order.
    pub fn take(&mut self) -> Vec<FromRoom> {
        std::mem::take(&mut self.heard)
    }

    fn welcomed(
        &mut self,
        seat: u8,
        record: Option<String>,
        events: Vec<Event>,
        people: Vec<Person>,
        (asking, clock): (Option<Asking>, Option<RoomClock>),
    ) -> Result<(), LetGo> {
        self.seat = seat;
        let code = self.code.clone().unwrap_or_default();
        match (self.at, record) {
            (Some(_), None) => {
                self.heard.extend(people.into_iter().map(FromRoom::Presence));
                events.into_iter().try_for_each(|event| self.pass(event))?;
                self.heard.push(FromRoom::Asked(asking));
                self.heard.extend(clock.map(FromRoom::Clock));
                Ok(())
            }
            (_, Some(record)) => {
                let actions = Record::from_ron(&record)
                    .map_err(|e| LetGo::End(format!("the room's record: {e}")))?
                    .actions
                    .len();
                self.at = Some(actions as u64);
                let seat_key = self.seat_key.clone();
                self.heard.push(FromRoom::Welcome { code, seat, record, people, asking, clock, seat_key });
                Ok(())
            }
            (None, None) => Err(LetGo::End("no record came".into())),
        }
    }

    fn pass(&mut self, event: Event) -> Result<(), LetGo> {
        let at = self.at.unwrap_or(0);
        if event.n <= at {
            return Ok(());
        }
        if event.n > at + 1 {
            return Err(LetGo::Retry(format!("event {} came after {at}: asking again", event.n)));
        }
        self.at = Some(event.n);
        self.heard.push(FromRoom::Event(event));
        Ok(())
    }

    /// The action `id` was answered: its text, when this device sent it and awaited the answer.
    fn answered(&mut self, id: u64) -> Option<String> {
        let at = self.unanswered.iter().position(|a| matches!(a, ToServer::Act { id: i, .. } if *i == id))?;
        match self.unanswered.remove(at) {
            ToServer::Act { action, .. } => Some(action),
            _ => None,
        }
    }
}

/// The pauses between tries to connect again: from a tenth of a second, doubling, at most three
/// seconds; back to the first once seated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Backoff {
    pause: Duration,
}

impl Backoff {
    const FIRST: Duration = Duration::from_millis(100);
    const LONGEST: Duration = Duration::from_secs(3);

    /// The pause before the next try; the one after it is longer.
    pub fn pause(&mut self) -> Duration {
        let pause = self.pause;
        self.pause = (self.pause * 2).min(Self::LONGEST);
        pause
    }

    pub fn reset(&mut self) {
        self.pause = Self::FIRST;
    }
}

impl Default for Backoff {
    fn default() -> Self {
        Backoff { pause: Self::FIRST }
    }
}

/// The room's WebSocket address from what a person gives: `http://host:port`, `ws://…`,
/// `https://…`, with or without the room path.
pub fn socket_url(url: &str) -> String {
    let url = url.trim().trim_end_matches('/');
    let (scheme, rest) =
        if let Some(rest) = url.strip_prefix("https://").or_else(|| url.strip_prefix("wss://")) {
            ("wss", rest)
        } else {
            ("ws", url.strip_prefix("http://").or_else(|| url.strip_prefix("ws://")).unwrap_or(url))
        };
    let rest = rest.trim_end_matches(super::ROOM_PATH);
    format!("{scheme}://{rest}{}", super::ROOM_PATH)
}
