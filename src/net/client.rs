//! `tabla text --join`: one seat of a room, played with the text interface's commands. The seat
//! keeps its own copy of the game (a text session fed every event the server numbers), proposes
//! actions and waits for the server's word; a lost connection is tried again with backoff (on the
//! next address given, when there are several), the missed events asked for by number, and an
//! action without an answer sent again under its number, so it is never played twice. The seat's
//! key (from its first welcome, or `--seat-key`) goes with every hello, and its actions are
//! numbered after the last one the room took from the seat. `wss://` goes through TLS, trusting
//! the system's certificates (and `SSL_CERT_FILE`'s).

use super::session::socket_url;
use super::{Asking, Event, Person, RoomClock, ToClient, ToServer, referee::ROLL};
use crate::levels;
use crate::record::Record;
use crate::robot::RobotLevel;
use crate::rules::Seat;
use crate::text::{self, Console};
use serde_json::{Value, json};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;

pub(super) type Socket = tungstenite::WebSocket<MaybeTlsStream<TcpStream>>;

/// How long a reading waits before looking again (the connection stays open).
pub(super) const POLL: Duration = Duration::from_millis(200);
/// How long the seat tries to reach a server again before it gives up.
const RECONNECT_FOR: Duration = Duration::from_secs(180);
/// How long `wait` and an action wait for the room.
const WAIT_FOR: Duration = Duration::from_secs(600);
/// How the server's refusal of a client sending too fast begins, and the pause before the action
/// is sent again.
const TOO_MANY: &str = "too many messages";
const SLOW_DOWN: Duration = Duration::from_millis(100);

/// Why the seat cannot go on.
pub(super) struct Lost(pub(super) String);

pub struct RoomSeat {
    urls: Vec<String>,
    which: usize,
    socket: Option<Socket>,
    code: String,
    seat: u8,
    /// The seat's key, from its first welcome.
    seat_key: String,
    /// What frees a seat for another device, when this seat made the room.
    token: Option<String>,
    name: String,
    picture: u8,
    mirror: Box<dyn Console>,
    /// The number of the last event the copy has played.
    at: u64,
    next_id: u64,
    /// Connections made so far (an action is sent again on a new one).
    connections: u64,
    people: Vec<Person>,
    /// The copy's answer to each event played since the last action was sent, by number.
    played: Vec<(u64, Value)>,
    /// A seat's asking to take back, until it is answered or a move is played.
    asking: Option<Asking>,
    /// The room's clocks as its server last said.
    clock: Option<RoomClock>,
}

pub(super) fn connect(url: &str) -> Result<Socket, String> {
    let (socket, _) = tungstenite::connect(url).map_err(|e| format!("{url}: {e}"))?;
    let stream = tcp(&socket);
    stream.set_read_timeout(Some(POLL)).map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    Ok(socket)
}

/// The connection's TCP stream, under its TLS when it has one.
pub(super) fn tcp(socket: &Socket) -> &TcpStream {
    match socket.get_ref() {
        MaybeTlsStream::Rustls(stream) => stream.get_ref(),
        MaybeTlsStream::Plain(stream) => stream,
        _ => unreachable!("tungstenite is built with rustls alone"),
    }
}

pub(super) fn send(socket: &mut Socket, message: &ToServer) -> Result<(), Lost> {
    socket.send(tungstenite::Message::Text(message.to_json().into())).map_err(|e| Lost(e.to_string()))
}

/// The next message, `Ok(None)` when none came before `until`.
pub(super) fn receive(socket: &mut Socket, until: Instant) -> Result<Option<ToClient>, Lost> {
    loop {
        match socket.read() {
            Ok(tungstenite::Message::Text(text)) => {
                return serde_json::from_str(text.as_str())
                    .map(Some)
                    .map_err(|e| Lost(format!("the server said: {e}")));
            }
            Ok(tungstenite::Message::Close(_)) => {
                return Err(Lost("the server closed the connection".into()));
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
            {
                if Instant::now() >= until {
                    return Ok(None);
                }
            }
            Err(e) => return Err(Lost(e.to_string())),
        }
    }
}

/// Makes a room of the level on the first server that answers: its `made` message.
/// A room just made: its code, its pictures and the token that ends it or frees its seats.
pub struct Made {
    pub code: String,
    pub pictures: Vec<String>,
    pub token: String,
}

impl Made {
    /// The first line `tabla text --join URL new` prints once its maker sat down: the room's code,
    /// pictures and token, and the maker's seat key.
    pub fn line(&self, seat: &RoomSeat) -> Value {
        json!({"room": self.code, "pictures": self.pictures, "token": self.token, "seat_key": seat.seat_key})
    }
}

pub fn make_room(
    urls: &[String],
    level: &str,
    seats: Vec<String>,
    clock_minutes: u32,
) -> Result<Made, String> {
    let mut socket = connect(&socket_url(&urls[0]))?;
    send(&mut socket, &ToServer::New { level: level.to_string(), seats, clock_minutes })
        .map_err(|Lost(e)| e)?;
    match receive(&mut socket, Instant::now() + WAIT_FOR).map_err(|Lost(e)| e)? {
        Some(ToClient::Made { room, pictures, token }) => Ok(Made { code: room, pictures, token }),
        Some(ToClient::Refused { error, .. }) => Err(error),
        other => Err(format!("the server answered {other:?}")),
    }
}

/// A seat to sit at: the room's code, the seat (`ANY_SEAT`: the first free one), its key when
/// this seat sat there before, and the room's token when this seat made it.
pub struct SeatWanted {
    pub code: String,
    pub seat: u8,
    pub seat_key: Option<String>,
    pub token: Option<String>,
}

impl RoomSeat {
    /// Sits at the seat of the room on the first of `urls` that answers.
    pub fn join(urls: Vec<String>, wanted: SeatWanted, name: &str, picture: u8) -> Result<RoomSeat, String> {
        let urls = urls.iter().map(|url| socket_url(url)).collect::<Vec<_>>();
        let mut socket = connect(&urls[0])?;
        let hello = ToServer::Hello {
            room: wanted.code.clone(),
            seat: wanted.seat,
            last: 0,
            name: name.to_string(),
            picture,
            era: 0,
            // A seat sat at before takes its key; a new one is sat at with a key made here.
            seat_key: Some(wanted.seat_key.unwrap_or_else(super::new_seat_key)),
        };
        send(&mut socket, &hello).map_err(|Lost(e)| e)?;
        let (seat, record, level, people, asking, clock, seat_key, last_id) =
            match receive(&mut socket, Instant::now() + WAIT_FOR).map_err(|Lost(e)| e)? {
                Some(ToClient::Welcome {
                    seat,
                    record: Some(record),
                    level,
                    people,
                    asking,
                    clock,
                    seat_key,
                    last_id,
                    ..
                }) => (seat, record, level, people, asking, clock, seat_key, last_id),
                Some(ToClient::Refused { error, .. }) => return Err(error),
                Some(ToClient::Ended { reason }) => return Err(format!("the room has ended: {reason}")),
                other => return Err(format!("the server answered {other:?}")),
            };
        let mirror = mirror_of(&level, &record)?;
        let at = Record::from_ron(&record).map_err(|e| e.to_string())?.actions.len() as u64;
        Ok(RoomSeat {
            urls,
            which: 0,
            socket: Some(socket),
            code: wanted.code,
            seat,
            seat_key,
            token: wanted.token,
            name: name.to_string(),
            picture,
            mirror,
            at,
            next_id: last_id.saturating_add(1),
            connections: 1,
            people,
            played: Vec::new(),
            asking,
            clock,
        })
    }

    fn take(&mut self, message: ToClient) -> Result<(), Lost> {
        match message {
            ToClient::Event(event) => {
                // A move played answers any asking.
                self.asking = None;
                self.play_event(event)
            }
            ToClient::Asked(asking) => {
                self.asking = Some(asking);
                Ok(())
            }
            ToClient::Declined { .. } => {
                self.asking = None;
                Ok(())
            }
            ToClient::Freed { seat } => {
                self.people.retain(|p| p.seat != seat);
                Ok(())
            }
            ToClient::Clock(clock) => {
                self.clock = Some(clock);
                Ok(())
            }
            ToClient::Presence(person) => {
                self.people.retain(|p| p.seat != person.seat);
                self.people.push(person);
                Ok(())
            }
            ToClient::Ended { reason } => Err(Lost(format!("the room has ended: {reason}"))),
            ToClient::TakenBack { to, .. } => {
                self.asking = None;
                self.go_back(to)
            }
            _ => Ok(()),
        }
    }

    /// The room went back to event `to`: the copy is made again from its own record cut there.
    fn go_back(&mut self, to: u64) -> Result<(), Lost> {
        let text = self.mirror.handle("record")["record"].as_str().unwrap_or_default().to_string();
        let mut record = Record::from_ron(&text).map_err(|e| Lost(format!("this seat's record: {e}")))?;
        record.actions.truncate(to as usize);
        record.undone.clear();
        self.mirror = mirror_of(&record.level_file(), &record.to_ron()).map_err(Lost)?;
        self.at = self.at.min(to);
        Ok(())
    }

    fn play_event(&mut self, event: Event) -> Result<(), Lost> {
        if event.n <= self.at {
            return Ok(());
        }
        if event.n > self.at + 1 {
            // A gap: the next hello asks for what is missing.
            self.socket = None;
            return Ok(());
        }
        let answer = self.mirror.handle(&format!("play {}", event.action));
        if answer["ok"] != json!(true) {
            return Err(Lost(format!(
                "event {} '{}' does not fit this seat's game: {answer}",
                event.n, event.action
            )));
        }
        self.at = event.n;
        self.played.push((event.n, answer));
        Ok(())
    }

    /// Connects again (to the next address after a failure), says hello with the last event, and
    /// takes what was missed.
    fn reconnect(&mut self) -> Result<(), Lost> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(100);
        loop {
            match self.try_hello() {
                Ok(()) => return Ok(()),
                Err(Lost(why)) if started.elapsed() > RECONNECT_FOR => {
                    return Err(Lost(format!("no server answered for {} s: {why}", RECONNECT_FOR.as_secs())));
                }
                Err(_) => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_secs(3));
                    self.which = (self.which + 1) % self.urls.len();
                }
            }
        }
    }

    fn try_hello(&mut self) -> Result<(), Lost> {
        let mut socket = connect(&self.urls[self.which]).map_err(Lost)?;
        let hello = ToServer::Hello {
            room: self.code.clone(),
            seat: self.seat,
            last: self.at,
            name: self.name.clone(),
            picture: self.picture,
            // Not kept here: a seat of an earlier era is sent the whole record.
            era: 0,
            seat_key: Some(self.seat_key.clone()),
        };
        send(&mut socket, &hello)?;
        loop {
            match receive(&mut socket, Instant::now() + WAIT_FOR)? {
                Some(ToClient::Welcome { events, people, record, level, asking, clock, last_id, .. }) => {
                    self.next_id = self.next_id.max(last_id.saturating_add(1));
                    self.people = people;
                    self.asking = asking;
                    self.clock = clock;
                    if let Some(record) = record {
                        self.mirror = mirror_of(&level, &record).map_err(Lost)?;
                        self.at =
                            Record::from_ron(&record).map_err(|e| Lost(e.to_string()))?.actions.len() as u64;
                    }
                    self.socket = Some(socket);
                    self.connections += 1;
                    for event in events {
                        self.play_event(event)?;
                    }
                    return Ok(());
                }
                Some(ToClient::Refused { error, .. }) => return Err(Lost(error)),
                Some(ToClient::Ended { reason }) => return Err(Lost(reason)),
                Some(_) => {}
                None => return Err(Lost("no welcome".into())),
            }
        }
    }

    /// The next message from the room, connecting again when the connection is lost.
    fn next(&mut self, until: Instant) -> Result<Option<ToClient>, Lost> {
        if self.socket.is_none() {
            self.reconnect()?;
        }
        let socket = self.socket.as_mut().expect("connected above");
        receive(socket, until).or_else(|_| {
            self.socket = None;
            Ok(None)
        })
    }

    /// Sends the action and waits for the server's word, sending it again after a reconnection.
    fn act(&mut self, action: &str) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let after = self.at;
        self.played.clear();
        let message = ToServer::Act { id, after, action: action.to_string() };
        let until = Instant::now() + WAIT_FOR;
        let mut acked: Option<u64> = None;
        let mut sent_on: Option<u64> = None;
        while Instant::now() < until {
            if acked.is_some_and(|at| self.at >= at) {
                return self.acted(after);
            }
            if self.socket.is_none()
                && let Err(Lost(why)) = self.reconnect()
            {
                return refuse(why);
            }
            // Connected again since it was sent: the action goes again under its number.
            if sent_on != Some(self.connections) {
                let socket = self.socket.as_mut().expect("connected above");
                if send(socket, &message).is_err() {
                    self.socket = None;
                    continue;
                }
                sent_on = Some(self.connections);
            }
            match self.next(until) {
                Err(Lost(why)) => return refuse(why),
                Ok(None) => {}
                Ok(Some(ToClient::Ack { id: acked_id, at })) if acked_id == id => acked = Some(at),
                // A late answer to an earlier action (sent again after a lost connection).
                Ok(Some(ToClient::Ack { id: earlier, .. })) if earlier < id => {}
                Ok(Some(ToClient::Ack { id: other, .. })) => {
                    return refuse(format!("the room answered action {other}, which this seat did not send"));
                }
                // Too fast for the server (a Robot playing a seat through text): after a pause,
                // the same action again.
                Ok(Some(ToClient::Refused { id: Some(refused_id), error }))
                    if refused_id == id && error.starts_with(TOO_MANY) =>
                {
                    std::thread::sleep(SLOW_DOWN);
                    sent_on = None;
                }
                Ok(Some(ToClient::Refused { id: Some(refused_id), error })) if refused_id == id => {
                    return refuse(error);
                }
                Ok(Some(message)) => {
                    if let Err(Lost(why)) = self.take(message) {
                        return refuse(why);
                    }
                }
            }
        }
        refuse("the server gave no answer")
    }

    /// Takes every message already come, without waiting; a connection lost is tried again once
    /// (so `state` follows the room after its server came back).
    fn drain(&mut self) -> Result<(), Lost> {
        if self.socket.is_none() && self.try_hello().is_err() {
            return Ok(());
        }
        loop {
            let Some(socket) = self.socket.as_mut() else { return Ok(()) };
            let _ = tcp(socket).set_nonblocking(true);
            let message = receive(socket, Instant::now());
            let _ = tcp(socket).set_nonblocking(false);
            match message {
                Ok(Some(message)) => self.take(message)?,
                Ok(None) => return Ok(()),
                Err(_) => {
                    self.socket = None;
                    return Ok(());
                }
            }
        }
    }

    /// The answer to an action the server played: the copy's answer to its event, with whose turn
    /// it is after the dice and the Robot.
    fn acted(&mut self, after: u64) -> Value {
        let mut answer = self
            .played
            .iter()
            .find(|(n, _)| *n == after + 1)
            .map_or_else(|| json!({"ok": true}), |(_, a)| a.clone());
        let state = self.mirror.handle("state");
        answer["to_move"] = state["to_move"].clone();
        answer["outcome"] = state["outcome"].clone();
        answer["at"] = json!(self.at);
        answer
    }

    /// Waits until this seat is to act or the game is over: the state then.
    fn wait(&mut self) -> Value {
        let until = Instant::now() + WAIT_FOR;
        while !(self.mirror.is_over() || self.my_turn()) {
            if Instant::now() >= until {
                return refuse("nobody played for ten minutes");
            }
            match self.next(until) {
                Err(Lost(why)) => return refuse(why),
                Ok(Some(message)) => {
                    if let Err(Lost(why)) = self.take(message) {
                        return refuse(why);
                    }
                }
                Ok(None) => {}
            }
        }
        self.state()
    }

    /// Whether this seat is to act: its turn, and not dice the server throws by itself (dice with
    /// no choice before them), which are still to come.
    fn my_turn(&mut self) -> bool {
        self.mirror.seat_to_move() == Some(Seat(self.seat))
            && !(self.mirror.dice_due()
                && self.mirror.handle("legal")["legal"].as_array().is_none_or(Vec::is_empty))
    }

    fn state(&mut self) -> Value {
        let mut state = self.mirror.handle("state");
        let people: Vec<Value> =
            self.people.iter().map(|p| json!({"seat": p.seat, "name": p.name, "here": p.here})).collect();
        state["room"] = json!({
            "code": self.code,
            "seat": self.seat,
            "seat_key": self.seat_key,
            "connected": self.socket.is_some(),
            "at": self.at,
            "people": people,
            "asking": self.asking,
            "clock": self.clock,
        });
        state
    }

    /// Asks the others to take back this seat's last move (and what followed it), and waits for
    /// their answer.
    fn take_back(&mut self) -> Value {
        let Some(to) = self.mirror.before_last_of(Seat(self.seat)) else {
            return refuse("this seat has no move to take back");
        };
        self.ask_and_wait(ToServer::TakeBack { to: to as u64 }, false)
    }

    /// Answers another seat's asking to take back, and waits for the room to go back or on.
    fn answer(&mut self, yes: &str) -> Value {
        let yes = match yes {
            "yes" => true,
            "no" => false,
            _ => return refuse("answer yes or answer no"),
        };
        if self.asking.is_none_or(|asking| asking.seat == self.seat) {
            return refuse("nobody else asks to take back");
        }
        self.ask_and_wait(ToServer::Answer { yes }, true)
    }

    /// Sends an asking or an answer, and waits until the room goes back (the state then), says
    /// no (the state, when `no_is_done`), refuses it, or plays a move instead.
    fn ask_and_wait(&mut self, message: ToServer, no_is_done: bool) -> Value {
        let until = Instant::now() + WAIT_FOR;
        if let Err(refused) = self.send_once(&message) {
            return refused;
        }
        while Instant::now() < until {
            let message = match self.next(until) {
                Err(Lost(why)) => return refuse(why),
                Ok(None) => continue,
                Ok(Some(message)) => message,
            };
            let answered = match &message {
                ToClient::TakenBack { to, .. } => Some(Ok(Some(*to))),
                ToClient::Declined { .. } if no_is_done => Some(Ok(None)),
                ToClient::Declined { seat } => Some(Err(format!("seat {seat} said no: the game goes on"))),
                ToClient::Refused { id: None, error } => Some(Err(error.clone())),
                ToClient::Event(_) if self.asking.is_some() => Some(Err("a move was played instead".into())),
                _ => None,
            };
            if let Err(Lost(why)) = self.take(message) {
                return refuse(why);
            }
            match answered {
                None => {}
                Some(Err(why)) => return refuse(why),
                Some(Ok(to)) => {
                    if self.socket.is_none()
                        && let Err(Lost(why)) = self.reconnect()
                    {
                        return refuse(why);
                    }
                    let mut state = self.state();
                    state["ok"] = json!(true);
                    state["taken_back_to"] = json!(to);
                    return state;
                }
            }
        }
        refuse("nobody answered for ten minutes")
    }

    /// Sends a message that is not an action, once, connecting first when the connection is lost;
    /// the refusal to answer when it could not be sent.
    fn send_once(&mut self, message: &ToServer) -> Result<(), Value> {
        if self.socket.is_none() {
            self.reconnect().map_err(|Lost(why)| refuse(why))?;
        }
        let socket = self.socket.as_mut().expect("connected above");
        send(socket, message).map_err(|_| {
            self.socket = None;
            refuse("the connection was lost before it was sent; try again")
        })
    }

    /// Frees another seat for another device (this seat made the room), and waits for the room's
    /// word: the state then.
    fn free(&mut self, seat: &str) -> Value {
        let Some(token) = self.token.clone() else {
            return refuse("only the seat that made the room frees a seat");
        };
        let Ok(seat) = seat.parse::<u8>() else { return refuse("free SEAT, the seat's number") };
        if let Err(refused) = self.send_once(&ToServer::Free { token, seat }) {
            return refused;
        }
        let until = Instant::now() + WAIT_FOR;
        while Instant::now() < until {
            match self.next(until) {
                Err(Lost(why)) => return refuse(why),
                Ok(Some(ToClient::Freed { seat: freed })) if freed == seat => {
                    let _ = self.take(ToClient::Freed { seat });
                    let mut state = self.state();
                    state["ok"] = json!(true);
                    return state;
                }
                Ok(Some(ToClient::Refused { id: None, error })) => return refuse(error),
                Ok(Some(message)) => {
                    if let Err(Lost(why)) = self.take(message) {
                        return refuse(why);
                    }
                }
                Ok(None) => {}
            }
        }
        refuse("the server gave no answer")
    }

    /// What this seat sends for the Robot's choice: `roll` for dice the server throws.
    fn robot(&mut self, level: &str) -> Value {
        let Some(level) = RobotLevel::parse(if level.is_empty() { "3" } else { level }) else {
            return refuse(format!("the Robot's level is 1, 2 or 3, not '{level}'"));
        };
        if !self.my_turn() {
            return refuse("it is not this seat's turn");
        }
        match self.mirror.robot_text(level) {
            None => refuse("nobody is to move"),
            Some(text) if self.mirror.dice_due() && text.starts_with("roll") => self.act(ROLL),
            Some(text) => self.act(&text),
        }
    }
}

fn refuse(error: impl ToString) -> Value {
    json!({ "ok": false, "error": error.to_string() })
}

fn mirror_of(level_file: &str, record: &str) -> Result<Box<dyn Console>, String> {
    let level = levels::built_in(level_file)?;
    let record = Record::from_ron(record).map_err(|e| e.to_string())?;
    text::session_from_record(&level, &record).map_err(|e| e.to_string())
}

impl Console for RoomSeat {
    fn handle(&mut self, line: &str) -> Value {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        // Take what came meanwhile, so `state` and `legal` are up to date.
        if let Err(Lost(why)) = self.drain() {
            return refuse(why);
        }
        match command {
            "play" if !rest.is_empty() => self.act(rest),
            "robot" => self.robot(rest),
            "wait" => self.wait(),
            "state" => self.state(),
            "legal" => {
                let mut legal = self.mirror.handle("legal");
                let mine = self.mirror.seat_to_move() == Some(Seat(self.seat));
                if let (true, true, Some(list)) =
                    (mine, self.mirror.dice_due(), legal["legal"].as_array_mut())
                {
                    list.push(json!(ROLL));
                }
                legal
            }
            // In a room a move is taken back only when the other side agrees.
            "undo" => self.take_back(),
            "answer" => self.answer(rest),
            "free" => self.free(rest),
            "redo" => refuse("in a room, nothing taken back comes again: play the move"),
            _ => self.mirror.handle(line),
        }
    }

    fn seat_to_move(&self) -> Option<Seat> {
        self.mirror.seat_to_move()
    }

    fn dice_due(&self) -> bool {
        self.mirror.dice_due()
    }

    fn is_over(&self) -> bool {
        self.mirror.is_over()
    }

    fn robot_text(&self, level: RobotLevel) -> Option<String> {
        self.mirror.robot_text(level)
    }

    fn before_last_of(&self, seat: Seat) -> Option<usize> {
        self.mirror.before_last_of(seat)
    }
}
