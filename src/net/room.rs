//! One room as the server keeps it: the game's record, who sits where and the key of each seat,
//! each seat's last actions acknowledged, when the last action came, and a seat's asking to take
//! back. Written as RON (by
//! the server, by temporary file and rename, or into Redis); a room is replayed through the rules
//! whenever it is read.

use super::code::RoomCode;
use super::referee::{self, Referee};
use super::{ANY_SEAT, Asking, Event, Person, RoomClock, same_key};
use crate::history::History;
use crate::levels::{self, FromLevel, Level};
use crate::quote::cut_message;
use crate::record::{Control, Record};
use crate::robot::RobotLevel;
use crate::rules::Seat;
use serde::{Deserialize, Serialize};

pub const VERSION: u32 = 1;
/// A room ends a day after its last action.
pub const LIFETIME_SECS: u64 = 24 * 60 * 60;
/// How many of a seat's last actions the room remembers, to tell a resent action from another
/// one under the same number.
const REMEMBERED: usize = 64;
/// How far past a seat's last action a number may be (a client's count, not a made-up one).
const MOST_AHEAD: u64 = 1_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomFile {
    pub version: u32,
    pub code: String,
    /// What ends the room early; only its maker was given it.
    pub token: String,
    pub record: Record,
    /// The first name and picture given at each seat (none yet: `None`).
    pub people: Vec<Option<(String, u8)>>,
    /// Each seat's last action acknowledged, by the client's count.
    pub acted: Vec<u64>,
    /// Seconds since 1970 of the room's making or its last action.
    pub last_action: u64,
    /// How many times the room went back (a take-back agreed).
    #[serde(default)]
    pub era: u64,
    /// Grows with every change to the room, so a server writes only over the room it read.
    #[serde(default)]
    pub revision: u64,
    /// A seat's asking to take back, until it is answered or a move is played.
    #[serde(default)]
    pub asking: Option<Asking>,
    /// When the turn now being played began, in ms since 1970 (the record's clocks hold each
    /// seat's time left at that moment).
    #[serde(default)]
    pub turn_began_ms: u64,
    /// Each seat's key, given to the first device that sat there (none yet: `None`).
    #[serde(default)]
    pub keys: Vec<Option<String>>,
    /// Each seat's last actions taken, by id, as the client sent them.
    #[serde(default)]
    pub taken: Vec<Vec<(u64, String)>>,
    /// The keys of devices let go (their seats freed for another device): they sit nowhere.
    #[serde(default)]
    pub let_go: Vec<String>,
}

/// What an answer to an asking came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Answered {
    /// The room went back to event `to`, and the dice and the Robot played these after it.
    TakenBack {
        to: u64,
        events: Vec<Event>,
    },
    Declined,
}

/// What an action sent came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Acted {
    /// Played, with what the dice and the Robot played after it.
    Played(Vec<Event>),
    /// Played before (a client sending again what it had no answer for): nothing is played twice.
    Already,
    /// Not played: the clock of the seat to move had run out, which ended the game (the events).
    OutOfTime(Vec<Event>),
}

pub struct Room {
    pub file: RoomFile,
    referee: Box<dyn Referee>,
}

impl Room {
    /// A new room of the built-in level (`<game>/<variant>`, or its file's name), with its seats' players (`person`, `robot1` to `robot3`), the
    /// dice's seed, its code and its maker's token; the dice and the Robot play until a person is
    /// to act.
    pub fn make(
        level_name: &str,
        seats: &[String],
        seed: u64,
        code: RoomCode,
        token: String,
        now: u64,
    ) -> Result<Room, String> {
        let level = levels::built_in(level_name)?;
        if seats.len() != level.seat_count() {
            return Err(format!("{} has {} seats, not {}", level.file, level.seat_count(), seats.len()));
        }
        let controls = seats.iter().map(|seat| parse_control(seat)).collect::<Result<Vec<_>, _>>()?;
        if !controls.contains(&Control::Person) {
            return Err("a room needs at least one person's seat".into());
        }
        let record = crate::with_game!(level.kind(), G => new_record::<G>(&level, controls, seed));
        let count = record.seats.len();
        let file = RoomFile {
            version: VERSION,
            code: code.to_string(),
            token,
            record,
            people: vec![None; count],
            acted: vec![0; count],
            last_action: now,
            era: 0,
            revision: 0,
            asking: None,
            turn_began_ms: 0,
            keys: vec![None; count],
            taken: vec![Vec::new(); count],
            let_go: Vec::new(),
        };
        let mut room = Room::from_file(file)?;
        let settled = room.referee.settle();
        room.file.record.actions.extend(settled);
        room.file.revision = room.at() + 1;
        Ok(room)
    }

    /// The room with a clock of `minutes` for each seat (0: none), which must be one of its
    /// level's clock choices.
    pub fn with_clock(mut self, minutes: u32, now_ms: u64) -> Result<Room, String> {
        if minutes == 0 {
            return Ok(self);
        }
        let level = levels::built_in(&self.file.record.level_file())?;
        if !level.clock_minutes().contains(&minutes) {
            return Err(format!("{} has no clock of {minutes} minutes", level.file));
        }
        let seats = self.file.record.seats.len();
        self.file.record.clock_minutes = minutes;
        self.file.record.clock_left_ms = Some(vec![u64::from(minutes) * 60_000; seats]);
        self.file.turn_began_ms = now_ms;
        Ok(self)
    }

    /// The room's clocks at `now_ms`, when it has them.
    pub fn clock(&self, now_ms: u64) -> Option<RoomClock> {
        let left_ms = self.file.record.clock_left_ms.clone()?;
        let running = self.clock_runs();
        let running_ms = if running { now_ms.saturating_sub(self.file.turn_began_ms) } else { 0 };
        Some(RoomClock { left_ms, running_ms, running })
    }

    /// The clocks run once a person has acted, until the game is over.
    fn clock_runs(&self) -> bool {
        self.file.record.clock_left_ms.is_some()
            && self.file.acted.iter().any(|&id| id > 0)
            && !self.is_over()
    }

    /// The seat to move and how long its turn has run, while the clocks run; `Err` when its time
    /// is up.
    fn turn_time(&self, now_ms: u64) -> Result<Option<(Seat, u64)>, Seat> {
        let Some(seat) = self.referee.to_move().filter(|_| self.clock_runs()) else { return Ok(None) };
        let ran = now_ms.saturating_sub(self.file.turn_began_ms);
        let left = self.file.record.clock_left_ms.as_ref().and_then(|left| left.get(seat.index())).copied();
        match left {
            Some(left) if ran >= left => Err(seat),
            _ => Ok(Some((seat, ran))),
        }
    }

    /// The seat's action as `act` plays it, on the clock: when the seat to move has no time left,
    /// its clock's end is played instead; else the time it took comes off its clock, and the next
    /// turn begins now.
    pub fn act_on_clock(
        &mut self,
        seat: u8,
        id: u64,
        after: u64,
        text: &str,
        now_ms: u64,
    ) -> Result<Acted, String> {
        let Ok(turn) = self.turn_time(now_ms) else {
            return self.time_out(now_ms).map(Acted::OutOfTime);
        };
        let acted = self.act(seat, id, after, text, now_ms / 1000)?;
        if matches!(acted, Acted::Played(_)) {
            self.charge(turn, now_ms);
        }
        Ok(acted)
    }

    fn charge(&mut self, turn: Option<(Seat, u64)>, now_ms: u64) {
        if let (Some((seat, ran)), Some(left)) = (turn, self.file.record.clock_left_ms.as_mut())
            && let Some(left) = left.get_mut(seat.index())
        {
            *left = left.saturating_sub(ran);
        }
        self.file.turn_began_ms = now_ms;
    }

    /// A client says the clock of the seat to move has run out: the game ends so when it has,
    /// with the events; else how long is left.
    pub fn time_out(&mut self, now_ms: u64) -> Result<Vec<Event>, String> {
        let seat = match self.turn_time(now_ms) {
            Err(seat) => seat,
            Ok(Some((seat, ran))) => {
                let left = self.file.record.clock_left_ms.as_ref().map_or(0, |left| left[seat.index()]);
                return Err(format!("{} ms are left on the clock", left - ran));
            }
            Ok(None) => return Err("no clock runs".into()),
        };
        if let Some(left) = self.file.record.clock_left_ms.as_mut() {
            left[seat.index()] = 0;
        }
        self.file.asking = None;
        self.file.turn_began_ms = now_ms;
        let text = self.referee.time_out(seat);
        Ok(self.add(vec![text], now_ms / 1000))
    }

    /// The room a file keeps, its game replayed through the rules.
    pub fn from_file(mut file: RoomFile) -> Result<Room, String> {
        // A room written before revisions were kept (none is 0 since): its event count stood
        // for one.
        if file.revision == 0 {
            file.revision = file.record.actions.len() as u64;
        }
        if file.version != VERSION {
            return Err(format!("room version {} (this Tabla reads {VERSION})", file.version));
        }
        let referee = referee::referee(&file.record).map_err(|e| e.to_string())?;
        let seats = referee.seat_count();
        if file.people.len() != seats || file.acted.len() != seats {
            return Err(format!("the room names {} people for {seats} seats", file.people.len()));
        }
        // A room written before seats had keys or actions were remembered: none yet.
        file.keys.resize(seats, None);
        file.taken.resize(seats, Vec::new());
        Ok(Room { file, referee })
    }

    pub fn from_ron(text: &str) -> Result<Room, String> {
        if text.len() > crate::record::MOST_BYTES {
            return Err(format!("the room is {} bytes long", text.len()));
        }
        Room::from_file(ron::from_str(text).map_err(|e| cut_message(&e.to_string()))?)
    }

    pub fn to_ron(&self) -> String {
        ron::ser::to_string(&self.file).expect("a room is plain data")
    }

    /// The number of the room's last event.
    pub fn at(&self) -> u64 {
        self.file.record.actions.len() as u64
    }

    pub fn events_after(&self, last: u64) -> Vec<Event> {
        let actions = &self.file.record.actions;
        (last as usize..actions.len())
            .map(|i| Event { n: i as u64 + 1, action: actions[i].clone() })
            .collect()
    }

    /// Whether a person plays the seat.
    pub fn is_persons(&self, seat: u8) -> bool {
        self.file.record.seats.get(seat as usize) == Some(&Control::Person)
    }

    /// Whether the seat is a person's that nobody sat at yet (or whose device was let go).
    fn is_free(&self, seat: u8) -> bool {
        self.is_persons(seat) && self.file.keys.get(seat as usize) == Some(&None)
    }

    /// The seat a hello may sit at: the seat that holds its key (a device coming back); else, when
    /// its key is none or one the device made for itself, the asked seat if nobody sat there yet
    /// (for `ANY_SEAT`, the first such). A device's key is its own from its first hello on, so a
    /// device that never heard its first welcome sits again with the same key. A key of a device
    /// let go (its seat freed for another device) sits nowhere.
    pub fn seat_for(&self, seat: u8, key: Option<&str>) -> Option<u8> {
        let seats = 0..self.file.keys.len() as u8;
        if let Some(key) = key {
            if self.file.let_go.iter().any(|gone| same_key(gone, key)) {
                return None;
            }
            if let Some(held) = seats.clone().find(|&s| self.holds(s, key) && (seat == ANY_SEAT || s == seat))
            {
                return Some(held);
            }
        }
        match seat {
            ANY_SEAT => seats.into_iter().find(|&s| self.is_free(s)),
            seat => self.is_free(seat).then_some(seat),
        }
    }

    /// Whether `key` is the seat's.
    pub fn holds(&self, seat: u8, key: &str) -> bool {
        matches!(self.file.keys.get(seat as usize), Some(Some(held)) if same_key(held, key))
    }

    /// The seat's key; when nobody sat there yet, the key the device made for itself (when it is
    /// one: 32 to 64 hexadecimal digits), else `new_key`.
    pub fn key_of(&mut self, seat: u8, proposed: Option<&str>, new_key: impl FnOnce() -> String) -> String {
        let proposed = proposed.filter(|key| is_key(key)).map(str::to_string);
        let key =
            self.file.keys[seat as usize].get_or_insert_with(|| proposed.unwrap_or_else(new_key)).clone();
        self.touch();
        key
    }

    /// The seat is freed for another device: its key sits nowhere any more, and the next to sit
    /// there brings or is given a new one.
    pub fn free(&mut self, seat: u8) -> Result<(), String> {
        if !self.is_persons(seat) {
            return Err(format!("seat {seat} is no person's seat in this room"));
        }
        if let Some(key) = self.file.keys[seat as usize].take() {
            self.file.let_go.push(key);
        }
        self.touch();
        Ok(())
    }

    /// The last action id the room took from the seat.
    pub fn last_id(&self, seat: u8) -> u64 {
        self.file.acted.get(seat as usize).copied().unwrap_or(0)
    }

    pub fn seat_names(&self) -> Vec<String> {
        self.file.record.seats.iter().map(|control| control_name(*control)).collect()
    }

    pub fn sit(&mut self, seat: u8, name: String, picture: u8) {
        self.file.people[seat as usize] = Some((name, picture));
        self.touch();
    }

    pub fn person(&self, seat: u8, here: bool) -> Option<Person> {
        let (name, picture) = self.file.people.get(seat as usize)?.clone()?;
        Some(Person { seat, name, picture, here })
    }

    /// The seat's action `id`, sent when the client had the room up to event `after`.
    pub fn act(&mut self, seat: u8, id: u64, after: u64, text: &str, now: u64) -> Result<Acted, String> {
        if !self.is_persons(seat) {
            return Err(format!("seat {seat} is no person's seat in this room"));
        }
        let last = self.file.acted[seat as usize];
        let text = text.trim();
        if id > last.saturating_add(MOST_AHEAD) {
            return Err(format!("action {id} is far past this seat's last, {last}: number it after {last}"));
        }
        if id <= last {
            let taken = self.file.taken[seat as usize].iter().find(|(taken, _)| *taken == id);
            return match taken {
                Some((_, taken)) if taken == text => Ok(Acted::Already),
                Some(_) => {
                    Err(format!("action {id} of this seat was another action: number it after {last}"))
                }
                None => Err(format!("action {id} is older than this room remembers: number it after {last}")),
            };
        }
        if after != self.at() {
            return Err(format!("the room is at event {}, not {after}: take the events first", self.at()));
        }
        let played = self.referee.act(Seat(seat), text)?;
        self.file.acted[seat as usize] = id;
        let taken = &mut self.file.taken[seat as usize];
        taken.push((id, text.to_string()));
        if taken.len() > REMEMBERED {
            taken.remove(0);
        }
        self.file.asking = None;
        Ok(Acted::Played(self.add(played, now)))
    }

    /// The room's actions played now, as numbered events.
    fn add(&mut self, played: Vec<String>, now: u64) -> Vec<Event> {
        let first = self.at();
        self.file.record.actions.extend(played.iter().cloned());
        self.file.last_action = now;
        self.touch();
        played.into_iter().enumerate().map(|(i, action)| Event { n: first + i as u64 + 1, action }).collect()
    }

    /// The number every change raises (see `RoomFile::revision`).
    pub fn revision(&self) -> u64 {
        self.file.revision
    }

    fn touch(&mut self) {
        self.file.revision += 1;
    }

    /// The seat asks to take the room back to event `to`: the event after it must be the seat's
    /// own move. With no other person to ask, it is taken back at once.
    pub fn ask_take_back(&mut self, seat: u8, to: u64, now: u64) -> Result<Option<Answered>, String> {
        if !self.is_persons(seat) {
            return Err(format!("seat {seat} is no person's seat in this room"));
        }
        if self.is_over() {
            return Err("the game is over".into());
        }
        if self.file.record.clock_left_ms.is_some() {
            return Err("nothing is taken back while the clocks run".into());
        }
        if let Some(asking) = self.file.asking {
            return Err(format!("seat {} asked to take back already", asking.seat));
        }
        if to >= self.at() || self.referee.mover_of(to as usize) != Some(Seat(seat)) {
            return Err(format!("event {} is no move of seat {seat}'s to take back", to + 1));
        }
        let others = (0..self.file.people.len() as u8).any(|s| s != seat && self.is_persons(s));
        if !others {
            return self.take_back(to, now).map(Some);
        }
        self.file.asking = Some(Asking { seat, to });
        self.touch();
        Ok(None)
    }

    /// Another person's seat answers the asking.
    pub fn answer(&mut self, seat: u8, yes: bool, now: u64) -> Result<Answered, String> {
        let asking = self.file.asking.ok_or("nobody asked to take back")?;
        if asking.seat == seat || !self.is_persons(seat) {
            return Err(format!("seat {seat} does not answer this asking"));
        }
        if yes {
            return self.take_back(asking.to, now);
        }
        self.file.asking = None;
        self.touch();
        Ok(Answered::Declined)
    }

    fn take_back(&mut self, to: u64, now: u64) -> Result<Answered, String> {
        let mut record = self.file.record.clone();
        record.actions.truncate(to as usize);
        self.referee = referee::referee(&record).map_err(|e| e.to_string())?;
        self.file.record = record;
        self.file.era += 1;
        self.file.asking = None;
        let settled = self.referee.settle();
        let events = self.add(settled, now);
        Ok(Answered::TakenBack { to, events })
    }

    pub fn is_over(&self) -> bool {
        self.referee.is_over()
    }

    pub fn expired(&self, now: u64) -> bool {
        now >= self.file.last_action + LIFETIME_SECS
    }
}

/// Whether a key is one a device may bring: 32 to 64 hexadecimal digits (128 bits or more).
pub fn is_key(key: &str) -> bool {
    (32..=64).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_hexdigit())
}

fn new_record<G: crate::rules::Game + FromLevel>(level: &Level, seats: Vec<Control>, seed: u64) -> Record {
    let start = G::from_level(level).expect("a level sets up the game it names");
    Record::of_history(level, &History::<G>::new(start, seed), seats)
}

/// `person`, or `robot1` to `robot3`.
pub fn parse_control(text: &str) -> Result<Control, String> {
    match text.strip_prefix("robot") {
        None if text == "person" => Ok(Control::Person),
        Some(level) => RobotLevel::parse(level).map(Control::Robot).ok_or_else(|| {
            format!("a Robot's seat is robot1, robot2 or robot3, not '{}'", crate::quote::quote(text))
        }),
        None => {
            Err(format!("a seat is 'person' or 'robot1' to 'robot3', not '{}'", crate::quote::quote(text)))
        }
    }
}

pub fn control_name(control: Control) -> String {
    match control {
        Control::Person | Control::Far => "person".into(),
        Control::Robot(level) => format!("robot{}", level.number()),
    }
}
