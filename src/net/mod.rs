//! The room protocol, shared by `tabla serve`, `tabla text --join` and the app's client: JSON
//! messages over a WebSocket, every event in a room numbered from 1, every action a client sends
//! numbered by the client so a resent one is never played twice.
//!
//! A client first sends `new` (to make a room) or `hello` (to sit at a seat of one, saying the
//! last event it has). The server answers `made` or `welcome` (with the record when the client has
//! nothing yet, else the events it missed), then sends every `event` as it happens, `ack`s each of
//! the client's actions after its events, and refuses anything else with a reason.
//!
//! A seat belongs to the device that first sat there: its `welcome` gives that device the seat's
//! key, which every later `hello` at the seat must carry. A room's code only lets a device sit at a
//! seat nobody sat at yet; the room's maker (its token) can free a seat for another device. The
//! welcome also says the last action the room took from the seat, so a device that sits again
//! numbers its actions after it; an action number the room took with another action is refused.
//!
//! A move is taken back only when the other side agrees: a seat asks (`take_back`), every client
//! hears it (`asked`), another person's seat answers (`answer`), and the room goes back
//! (`taken_back`, its events numbered again from there in a new era) or on (`declined`). A client
//! whose era is not the room's is sent the whole record when it says hello.

pub mod code;
pub mod referee;
pub mod room;
pub mod session;

#[cfg(not(target_arch = "wasm32"))]
pub mod client;
#[cfg(not(target_arch = "wasm32"))]
pub mod link;
#[cfg(target_arch = "wasm32")]
#[path = "link_web.rs"]
pub mod link;

/// Where a server's rooms are reached (its WebSocket).
pub const ROOM_PATH: &str = "/room";

use serde::{Deserialize, Serialize};

/// The longest message (and WebSocket frame) a server reads; a longer one closes its connection
/// unread.
pub const MOST_MESSAGE_BYTES: usize = 16 * 1024;
/// A `hello`'s seat that asks for the first person's seat nobody sat at yet.
pub const ANY_SEAT: u8 = u8::MAX;
/// The longest first name a seat may give.
pub const MOST_NAME_CHARS: usize = 24;

/// What a client says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToServer {
    /// Makes a room of a built-in level, named `<game>/<variant>` (`knight_hunt/one_knight`; its
    /// file's name `ron_configs/<game>/<variant>.ron` is read as the same), each seat `person` or
    /// `robot1` to `robot3`; the maker then says `hello` like anyone.
    New {
        level: String,
        seats: Vec<String>,
        /// Minutes on each seat's clock (0: no clock); one of the level's clock choices.
        #[serde(default)]
        clock_minutes: u32,
    },
    /// Sits at a person's seat of a room (`ANY_SEAT`: the first free one), having the room's
    /// events up to `last` (0: none).
    Hello {
        room: String,
        seat: u8,
        last: u64,
        name: String,
        picture: u8,
        /// How many times the room went back, as the client knows it.
        #[serde(default)]
        era: u64,
        /// The seat's key: the one its welcome gave, or, at a seat nobody sat at yet, one the
        /// device made for itself (`new_seat_key`), which the welcome then gives back.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat_key: Option<String>,
    },
    /// An action of the seat, `id` counting the client's actions from 1, played only when the room
    /// is at event `after`. `roll` asks the server to throw the dice.
    Act { id: u64, after: u64, action: String },
    /// Ends the room, with the token its maker was given.
    End { token: String },
    /// Asks the others to take the room back to event `to`: the seat's last move and what
    /// followed it.
    TakeBack { to: u64 },
    /// Answers another seat's asking to take back.
    Answer { yes: bool },
    /// The clock of the seat to move has run out, as this client counts: the server checks.
    TimeOut,
    /// Frees a seat for another device (the room's maker, with its token): the device sitting
    /// there is let go, and the next to sit there is given a new key.
    Free { token: String, seat: u8 },
}

/// What the server says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToClient {
    /// The room is made: its code, its four pictures and the token that ends it.
    Made {
        room: String,
        pictures: Vec<String>,
        token: String,
    },
    /// Seated: the room's level and seats, and either its whole record (RON; for a client with no
    /// events) or the events after the client's `last`.
    Welcome {
        room: String,
        seat: u8,
        level: String,
        seats: Vec<String>,
        record: Option<String>,
        events: Vec<Event>,
        people: Vec<Person>,
        era: u64,
        asking: Option<Asking>,
        /// The room's clocks, when it has them.
        #[serde(default)]
        clock: Option<RoomClock>,
        /// The seat's key: this device's alone, to be given in every later hello at the seat.
        #[serde(default)]
        seat_key: String,
        /// The last action id the room took from this seat (0: none): the next is numbered after.
        #[serde(default)]
        last_id: u64,
    },
    Event(Event),
    /// The room's clocks after the events just sent.
    Clock(RoomClock),
    /// The client's action `id` is played (or was already): the room is at event `at`.
    Ack {
        id: u64,
        at: u64,
    },
    Refused {
        id: Option<u64>,
        error: String,
    },
    /// Who sits at a seat, and whether they are connected.
    Presence(Person),
    /// The room has ended (its maker ended it, or a day passed without an action).
    Ended {
        reason: String,
    },
    /// A seat asks to take back (until it is answered or a move is played).
    Asked(Asking),
    /// The asking was agreed: the room is back at event `to`, in era `era`.
    TakenBack {
        to: u64,
        era: u64,
    },
    /// The asking was declined, by `seat`.
    Declined {
        seat: u8,
    },
    /// The room's maker freed `seat` for another device: the device that sat there is let go.
    Freed {
        seat: u8,
    },
}

/// A room's clocks: each seat's time left when the turn began (ms), how long the turn has run
/// since, and whether they run (they start with a person's first action).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomClock {
    pub left_ms: Vec<u64>,
    pub running_ms: u64,
    pub running: bool,
}

/// A seat's asking to take the room back to event `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Asking {
    pub seat: u8,
    pub to: u64,
}

/// One numbered event of a room: an action as `Game::action_text` writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub n: u64,
    pub action: String,
}

/// A person at a seat: only their first name and picture are ever sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    pub seat: u8,
    pub name: String,
    pub picture: u8,
    pub here: bool,
}

impl ToServer {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a message is plain data")
    }
}

impl ToClient {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a message is plain data")
    }
}

/// A seat's key: 128 bits from the system's randomness (the browser's crypto), as 32 hexadecimal
/// digits.
pub fn new_seat_key() -> String {
    let mut bytes = [0u8; 16];
    fill_random(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(not(target_arch = "wasm32"))]
fn fill_random(bytes: &mut [u8]) {
    use rand::TryRngCore;
    rand::rngs::OsRng.try_fill_bytes(bytes).expect("the system gives randomness");
}

/// The browser's `crypto.getRandomValues`, reached through the global object.
#[cfg(target_arch = "wasm32")]
fn fill_random(bytes: &mut [u8]) {
    use wasm_bindgen::JsCast;
    let array = js_sys::Uint8Array::new_with_length(bytes.len() as u32);
    let filled = js_sys::Reflect::get(&js_sys::global(), &"crypto".into()).ok().is_some_and(|crypto| {
        js_sys::Reflect::get(&crypto, &"getRandomValues".into())
            .ok()
            .and_then(|get| get.dyn_into::<js_sys::Function>().ok())
            .is_some_and(|get| get.call1(&crypto, &array).is_ok())
    });
    assert!(filled, "the browser gives randomness");
    array.copy_to(bytes);
}

/// Whether two keys are the same, in a time that does not tell how much of them agrees.
pub fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// A first name as a seat may give it: trimmed, without control characters, at most
/// `MOST_NAME_CHARS` long.
pub fn clean_name(name: &str) -> String {
    name.chars().filter(|c| !c.is_control()).take(MOST_NAME_CHARS).collect::<String>().trim().to_string()
}
