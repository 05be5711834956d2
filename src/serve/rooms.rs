//! The rooms a server has open: each room read from its store when a client comes, acted on one
//! action at a time, written back before the action is acknowledged, and its messages passed to
//! every client of the room (through Redis, to every server's).

use super::store::Store;
use super::{log, now, now_ms};
use crate::net::code::RoomCode;
use crate::net::room::{Acted, Answered, Room};
use crate::net::{Asking, Event, ToClient, clean_name, new_seat_key};
use rand::{RngCore, SeedableRng};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// What a client is told when its room cannot be read: never the server's files or errors.
const CANNOT_BE_PLAYED: &str = "this room cannot be played any more";
/// What a client is told when the server cannot reach its rooms (the log says why).
const CANNOT_KEEP: &str = "the server cannot keep rooms just now; try again soon";

/// Why a room could not be read (the log says more).
enum Unread {
    /// Its file cannot be read, and was set aside: the room has ended.
    CannotBePlayed,
    /// The store cannot be reached just now.
    CannotKeep,
}

impl Unread {
    fn words(&self) -> String {
        match self {
            Unread::CannotBePlayed => CANNOT_BE_PLAYED.into(),
            Unread::CannotKeep => CANNOT_KEEP.into(),
        }
    }

    /// What a hello is answered: the room has ended, or try again.
    fn to_client(&self) -> ToClient {
        match self {
            Unread::CannotBePlayed => ToClient::Ended { reason: self.words() },
            Unread::CannotKeep => ToClient::Refused { id: None, error: self.words() },
        }
    }
}
/// What a hello is told for a code no room has, a seat taken by another device, or a seat that is
/// no person's: the same words, so a guess learns nothing.
pub const NO_SEAT: &str = "no seat is free for this device in a room with that code";
/// What a seat freed for another device is told.
pub const SEAT_FREED: &str = "this seat was given to another device";

/// Why a hello was refused.
pub enum HelloRefused {
    /// A code no room has, or no seat for this device: counted as a wrong guess.
    NoSeat,
    /// Anything else, as the client is told it.
    Told(Box<ToClient>),
}

/// A seat taken by a hello: the welcome, the room's messages from then on, the seat and its key.
pub struct Seated {
    pub welcome: ToClient,
    pub messages: broadcast::Receiver<Arc<str>>,
    pub seat: u8,
    pub key: String,
}

/// One room while any client is in it.
pub struct Live {
    /// The room as last read or written (`None`: read it).
    room: tokio::sync::Mutex<Option<Room>>,
    /// The room's messages (JSON), to each of its clients on this server.
    pub out: broadcast::Sender<Arc<str>>,
    /// The seats whose clients are connected to this server (a seat once for each).
    seated: Mutex<Vec<u8>>,
}

struct Entry {
    live: Arc<Live>,
    clients: usize,
}

/// How many times a hello reads a room again that another server changed meanwhile.
const HELLO_TRIES: u32 = 8;

pub struct Rooms {
    pub store: Store,
    open: Mutex<HashMap<String, Entry>>,
    /// The rooms kept in the folder now (with Redis, none: Redis bounds its own).
    pub kept: Arc<AtomicUsize>,
}

impl Rooms {
    pub fn new(store: Store, kept: Arc<AtomicUsize>) -> Rooms {
        Rooms { store, open: Mutex::new(HashMap::new()), kept }
    }

    fn forget_one(&self) {
        let _ = self.kept.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
    }

    /// A client comes into the room (read when it is first needed).
    pub fn enter(&self, code: &str) -> Arc<Live> {
        let mut open = self.open.lock().expect("the rooms' list is never left half-changed");
        let entry = open.entry(code.to_string()).or_insert_with(|| Entry {
            live: Arc::new(Live {
                room: tokio::sync::Mutex::new(None),
                out: broadcast::channel(256).0,
                seated: Mutex::new(Vec::new()),
            }),
            clients: 0,
        });
        entry.clients += 1;
        entry.live.clone()
    }

    /// A client leaves; the last one closes the room here (its store keeps it).
    pub fn leave(&self, code: &str) {
        let mut open = self.open.lock().expect("the rooms' list is never left half-changed");
        if let Some(entry) = open.get_mut(code) {
            entry.clients -= 1;
            if entry.clients == 0 {
                open.remove(code);
            }
        }
    }

    fn live(&self, code: &str) -> Option<Arc<Live>> {
        self.open
            .lock()
            .expect("the rooms' list is never left half-changed")
            .get(code)
            .map(|e| e.live.clone())
    }

    /// Reads the room from the store (`None`: no room has the code); a room that cannot be read
    /// is set aside (kept, with a line in the log) and the client is told it cannot be played.
    async fn find(&self, code: &str) -> Result<Option<Room>, Unread> {
        let bytes = self.store.load(code).await.map_err(|e| {
            log(&format!("room {code}: cannot read rooms: {e}"));
            Unread::CannotKeep
        })?;
        let Some(bytes) = bytes else {
            return match self.store.was_set_aside(code).await {
                true => Err(Unread::CannotBePlayed),
                false => Ok(None),
            };
        };
        let read = String::from_utf8(bytes)
            .map_err(|_| "it is not UTF-8 text".to_string())
            .and_then(|text| Room::from_ron(&text));
        match read {
            Ok(room) => Ok(Some(room)),
            Err(why) => {
                match self.store.set_aside(code).await {
                    Ok(aside) => {
                        self.forget_one();
                        log(&format!("room {code} cannot be read ({why}); set aside as {aside}"));
                    }
                    Err(e) => log(&format!("room {code} cannot be read ({why}) nor set aside ({e})")),
                }
                Err(Unread::CannotBePlayed)
            }
        }
    }

    /// The room of the code, which a client sits at already.
    async fn read(&self, code: &str) -> Result<Room, String> {
        self.find(code).await.map_err(|unread| unread.words())?.ok_or_else(|| CANNOT_BE_PLAYED.to_string())
    }

    /// Makes a room of a built-in level, with a code no room has.
    pub async fn make(&self, level: &str, seats: &[String], clock_minutes: u32) -> Result<ToClient, String> {
        let mut rng = rand::rngs::StdRng::from_os_rng();
        let cannot_keep = |e: String| {
            log(&format!("cannot make a room: {e}"));
            CANNOT_KEEP.to_string()
        };
        for _ in 0..8 {
            let code = RoomCode::from_bits(rng.next_u64());
            let token = format!("{:016x}{:016x}", rng.next_u64(), rng.next_u64());
            let room = Room::make(level, seats, rng.next_u64(), code, token.clone(), now())?
                .with_clock(clock_minutes, now_ms())?;
            let name = code.to_string();
            if self.store.load(&name).await.map_err(cannot_keep)?.is_some() {
                continue;
            }
            if self
                .store
                .save(&name, &room.to_ron(), None, room.revision(), &[])
                .await
                .map_err(cannot_keep)?
            {
                // A folder's rooms are counted; Redis's expire by themselves, bounded by its memory.
                if !self.store.shared() {
                    self.kept.fetch_add(1, Ordering::Relaxed);
                }
                log(&format!("room {name} made: {}", room.file.record.level_file()));
                let pictures = code.pictures().iter().map(|p| p.to_string()).collect();
                return Ok(ToClient::Made { room: name, pictures, token });
            }
        }
        Err("no free room code was found; try again".into())
    }

    /// Seats a client at a person's seat of the room: its welcome (with the seat's key, and the
    /// events after `last` or the whole record), and the receiver of the room's messages from
    /// then on. A seat somebody sat at takes only a hello with its key. A room another server
    /// changed between its reading and its writing here is read again.
    pub async fn hello(
        &self,
        live: &Live,
        code: &str,
        (seat, key): (u8, Option<&str>),
        (last, era): (u64, u64),
        name: &str,
        picture: u8,
    ) -> Result<Seated, HelloRefused> {
        let told = |error: String| HelloRefused::Told(Box::new(ToClient::Refused { id: None, error }));
        let mut held = live.room.lock().await;
        let mut tries = 0;
        let (seat, key, presence, at) = loop {
            tries += 1;
            if held.is_none() || self.store.shared() {
                let found =
                    self.find(code).await.map_err(|unread| HelloRefused::Told(Box::new(unread.to_client())));
                *held = Some(found?.ok_or(HelloRefused::NoSeat)?);
            }
            let room = held.as_mut().expect("read above");
            if room.expired(now()) {
                *held = None;
                if let Err(e) = self.store.remove(code).await {
                    log(&format!("room {code}: cannot take an ended room away: {e}"));
                }
                self.forget_one();
                log(&format!("room {code} ended: a day without an action"));
                let ended = ToClient::Ended { reason: "a day passed without a move".into() };
                return Err(HelloRefused::Told(Box::new(ended)));
            }
            let seat = room.seat_for(seat, key).ok_or(HelloRefused::NoSeat)?;
            let read = room.revision();
            let key = room.key_of(seat, key, new_seat_key);
            room.sit(seat, clean_name(name), picture);
            let person = room.person(seat, true).expect("seated above");
            let presence = ToClient::Presence(person).to_json();
            let at = room.at();
            let saved = self
                .store
                .save(code, &room.to_ron(), Some(read), room.revision(), std::slice::from_ref(&presence))
                .await;
            match saved {
                Ok(true) => break (seat, key, presence, at),
                Ok(false) => {}
                Err(e) => {
                    *held = None;
                    log(&format!("room {code}: cannot keep a seat taken: {e}"));
                    return Err(told(CANNOT_KEEP.into()));
                }
            }
            // Another server changed the room between this reading and this writing: read it again.
            log(&format!("room {code}: changed by another server meanwhile; reading it again"));
            *held = None;
            if tries == HELLO_TRIES {
                return Err(told("the room changed meanwhile; say hello again".into()));
            }
        };
        let room = held.as_mut().expect("saved above");
        let messages = live.out.subscribe();
        // Who is connected, as this server knows (with Redis, a seat on another server is told
        // by its own presence message when it comes).
        let seated = {
            let mut seated = live.seated.lock().expect("never left half-changed");
            seated.push(seat);
            seated.clone()
        };
        if !self.store.shared() {
            let _ = live.out.send(presence.into());
        }
        // The record goes out without the room's seed: the dice still to come stay unknown to
        // every device, which replays the record from the rolls it holds.
        let mut record = room.file.record.clone();
        record.seed = 0;
        // A client of another era, or with nothing, or ahead of the room, is sent the record.
        let (record, events) = match last {
            last if last == 0 || last > at || era != room.file.era => (Some(record.to_ron()), Vec::new()),
            last => (None, room.events_after(last)),
        };
        let seats = room.file.record.seats.len() as u8;
        let welcome = ToClient::Welcome {
            room: code.to_string(),
            seat,
            level: room.file.record.level_file(),
            seats: room.seat_names(),
            record,
            events,
            people: (0..seats).filter_map(|s| room.person(s, seated.contains(&s))).collect(),
            era: room.file.era,
            asking: room.file.asking,
            clock: room.clock(now_ms()),
            seat_key: key.clone(),
            last_id: room.last_id(seat),
        };
        Ok(Seated { welcome, messages, seat, key })
    }

    /// The seat's action: played and written, its events passed to the room, then acknowledged;
    /// or refused with the reason, changing nothing.
    pub async fn act(
        &self,
        live: &Live,
        code: &str,
        (seat, key): (u8, &str),
        id: u64,
        after: u64,
        action: &str,
    ) -> ToClient {
        let acted = self
            .change(live, code, |room| {
                holds(room, seat, key)?;
                let now = now_ms();
                let acted = tokio::task::block_in_place(|| room.act_on_clock(seat, id, after, action, now))?;
                Ok(match acted {
                    Acted::Already => (Ok(room.at()), None),
                    Acted::Played(events) => (Ok(room.at()), Some(event_messages(room, events, now))),
                    Acted::OutOfTime(events) => {
                        (Err("the clock ran out first".to_string()), Some(event_messages(room, events, now)))
                    }
                })
            })
            .await;
        match acted.and_then(|at| at) {
            Ok(at) => ToClient::Ack { id, at },
            Err(error) => ToClient::Refused { id: Some(id), error },
        }
    }

    /// A client claims the clock of the seat to move ran out: the game ends so when it has; when
    /// it has not, the client is sent the room's clocks as they are.
    pub async fn time_out(&self, live: &Live, code: &str) -> Result<Option<ToClient>, String> {
        self.change(live, code, |room| {
            let now = now_ms();
            match room.time_out(now) {
                Ok(events) => Ok((None, Some(event_messages(room, events, now)))),
                Err(_) => Ok((room.clock(now).map(ToClient::Clock), None)),
            }
        })
        .await
    }

    /// The seat asks to take the room back to event `to` (the others are asked; with nobody else
    /// to ask, it goes back at once).
    pub async fn take_back(
        &self,
        live: &Live,
        code: &str,
        (seat, key): (u8, &str),
        to: u64,
    ) -> Result<(), String> {
        self.change(live, code, |room| {
            holds(room, seat, key)?;
            let messages = match room.ask_take_back(seat, to, now())? {
                None => vec![ToClient::Asked(Asking { seat, to }).to_json()],
                Some(answered) => answered_messages(room, seat, answered),
            };
            Ok(((), Some(messages)))
        })
        .await
    }

    /// The seat answers another's asking to take back.
    pub async fn answer(
        &self,
        live: &Live,
        code: &str,
        (seat, key): (u8, &str),
        yes: bool,
    ) -> Result<(), String> {
        self.change(live, code, |room| {
            holds(room, seat, key)?;
            let answered = room.answer(seat, yes, now())?;
            Ok(((), Some(answered_messages(room, seat, answered))))
        })
        .await
    }

    /// Changes the room by `change` and writes it, its messages then passed to the room; or
    /// changes nothing, with the reason. With Redis another server may have changed the room since
    /// this one read it: a refusal, or a write that finds the room changed, reads it again and
    /// tries once more. `change` answers `None` for messages when it changed nothing.
    async fn change<T>(
        &self,
        live: &Live,
        code: &str,
        mut change: impl FnMut(&mut Room) -> Result<(T, Option<Vec<String>>), String>,
    ) -> Result<T, String> {
        let mut held = live.room.lock().await;
        for attempt in 0..2 {
            if held.is_none() || attempt == 1 {
                *held = Some(self.read(code).await?);
            }
            let room = held.as_mut().expect("read above");
            let read = room.revision();
            let (value, messages) = match change(room) {
                Ok((value, None)) => return Ok(value),
                Ok((value, Some(messages))) => (value, messages),
                Err(_) if attempt == 0 && self.store.shared() => continue,
                Err(e) => return Err(e),
            };
            match self.store.save(code, &room.to_ron(), Some(read), room.revision(), &messages).await {
                Ok(true) => {
                    if !self.store.shared() {
                        for message in messages {
                            let _ = live.out.send(message.into());
                        }
                    }
                    return Ok(value);
                }
                Ok(false) => continue,
                Err(e) => {
                    *held = None;
                    log(&format!("room {code}: cannot keep a change: {e}"));
                    return Err(CANNOT_KEEP.into());
                }
            }
        }
        *held = None;
        Err("the room changed meanwhile; take the events and try again".into())
    }

    /// A seat's client went away: the others are told.
    pub async fn gone(&self, live: &Live, code: &str, seat: u8) {
        {
            let mut seated = live.seated.lock().expect("never left half-changed");
            if let Some(at) = seated.iter().position(|s| *s == seat) {
                seated.remove(at);
            }
        }
        let person = live.room.lock().await.as_ref().and_then(|room| room.person(seat, false));
        if let Some(person) = person {
            self.pass(live, code, ToClient::Presence(person).to_json()).await;
        }
    }

    /// Frees a seat for another device, when the token is the room's maker's.
    pub async fn free(&self, live: &Live, code: &str, token: &str, seat: u8) -> Result<(), String> {
        self.change(live, code, |room| {
            if !crate::net::same_key(&room.file.token, token) {
                return Err("only the room's maker can free a seat".into());
            }
            room.free(seat)?;
            Ok(((), Some(vec![ToClient::Freed { seat }.to_json()])))
        })
        .await?;
        log(&format!("room {code}: seat {seat} freed for another device by its maker"));
        Ok(())
    }

    /// Ends the room when the token is its maker's.
    pub async fn end(&self, live: &Live, code: &str, token: &str) -> Result<(), String> {
        let mut held = live.room.lock().await;
        let room = match held.take() {
            Some(room) => room,
            None => self.read(code).await?,
        };
        if !crate::net::same_key(&room.file.token, token) {
            *held = Some(room);
            return Err("only the room's maker can end it".into());
        }
        self.store.remove(code).await.map_err(|e| {
            log(&format!("room {code}: cannot end it: {e}"));
            CANNOT_KEEP.to_string()
        })?;
        self.forget_one();
        log(&format!("room {code} ended by its maker"));
        self.pass(live, code, ToClient::Ended { reason: "the room's maker ended it".into() }.to_json()).await;
        Ok(())
    }

    /// A message to every client of the room (on every server, with Redis).
    async fn pass(&self, live: &Live, code: &str, message: String) {
        if self.store.shared() {
            if let Err(e) = self.store.publish(code, &message).await {
                log(&format!("room {code}: cannot pass a message on: {e}"));
            }
        } else {
            let _ = live.out.send(message.into());
        }
    }

    /// With Redis: every room message any server sends, to this server's clients of the room.
    pub async fn pass_on(self: Arc<Rooms>, messages: impl futures_util::Stream<Item = (String, String)>) {
        use futures_util::StreamExt;
        let mut messages = std::pin::pin!(messages);
        while let Some((code, message)) = messages.next().await {
            if let Some(live) = self.live(&code) {
                let _ = live.out.send(message.into());
            }
        }
        log("Redis stopped passing messages; the server stops");
        std::process::exit(1);
    }

    /// In a folder: rooms a day without an action are taken away, at the start and every hour.
    pub async fn sweep_every_hour(self: Arc<Rooms>) {
        let mut hour = tokio::time::interval(std::time::Duration::from_secs(60 * 60));
        loop {
            hour.tick().await;
            for code in self.store.folder_codes() {
                if self.live(&code).is_some() {
                    continue;
                }
                if let Ok(Some(room)) = self.find(&code).await
                    && room.expired(now())
                    && self.store.remove(&code).await.is_ok()
                {
                    self.forget_one();
                    log(&format!("room {code} ended: a day without an action"));
                }
            }
        }
    }
}

/// Whether the seat's key is still the one its connection sat down with.
fn holds(room: &Room, seat: u8, key: &str) -> Result<(), String> {
    if room.holds(seat, key) { Ok(()) } else { Err(SEAT_FREED.into()) }
}

/// The room's events as messages, with its clocks after them when it has clocks.
fn event_messages(room: &Room, events: Vec<Event>, now_ms: u64) -> Vec<String> {
    let clock = room.clock(now_ms).map(ToClient::Clock);
    events.into_iter().map(ToClient::Event).chain(clock).map(|message| message.to_json()).collect()
}

/// What the room hears of an answer: taken back (then the dice's and the Robot's events after it),
/// or declined by `seat`.
fn answered_messages(room: &Room, seat: u8, answered: Answered) -> Vec<String> {
    match answered {
        Answered::TakenBack { to, events } => std::iter::once(ToClient::TakenBack { to, era: room.file.era })
            .chain(events.into_iter().map(ToClient::Event))
            .map(|message| message.to_json())
            .collect(),
        Answered::Declined => vec![ToClient::Declined { seat }.to_json()],
    }
}
