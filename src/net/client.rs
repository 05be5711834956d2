//! `tabla text --join`: one seat of a room, played with the text interface's commands. It speaks
//! the room protocol through the app's own client (`session::Session`: the hello with the seat's
//! key, the actions numbered and sent again under their number on a new connection, the events
//! passed on in order), keeps its own copy of the game (a text session fed every event), and its
//! commands wait for the room's word. A lost connection is tried again with backoff, on the next
//! address given when there are several. `wss://` goes through TLS, trusting the system's
//! certificates (and `SSL_CERT_FILE`'s). The desktop app's link (`link`) uses the socket here.

use super::referee::ROLL;
use super::session::{Backoff, FromRoom, LetGo, Session, Want, socket_url};
use super::{Asking, Person, RoomClock, ToClient, ToServer};
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
const POLL: Duration = Duration::from_millis(200);
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

/// Connects to `url` and talks until `session` is seated: the socket, its readings waiting at most
/// `listen` each. What the room said meanwhile waits in the session.
pub(super) fn seat_on(
    url: &str,
    session: &mut Session,
    listen: Duration,
    answer_within: Duration,
) -> Result<Socket, LetGo> {
    let lost = |Lost(why)| LetGo::Retry(why);
    let mut socket = connect(url).map_err(LetGo::Retry)?;
    let _ = tcp(&socket).set_read_timeout(Some(listen));
    for message in session.opened() {
        send(&mut socket, &message).map_err(lost)?;
    }
    let until = Instant::now() + answer_within;
    while !session.seated() {
        let message = receive(&mut socket, until)
            .map_err(lost)?
            .ok_or_else(|| LetGo::Retry("the server did not answer".into()))?;
        for answer in session.heard(message)? {
            send(&mut socket, &answer).map_err(lost)?;
        }
    }
    Ok(socket)
}

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
        json!({"room": self.code, "pictures": self.pictures, "token": self.token, "seat_key": seat.session.seat_key()})
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

pub struct RoomSeat {
    urls: Vec<String>,
    which: usize,
    socket: Option<Socket>,
    session: Session,
    /// What frees a seat for another device, when this seat made the room.
    token: Option<String>,
    mirror: Box<dyn Console>,
    people: Vec<Person>,
    /// The copy's answer to each event played since the last action was sent, by number.
    played: Vec<(u64, Value)>,
    /// A seat's asking to take back, until it is answered or a move is played.
    asking: Option<Asking>,
    /// The room's clocks as its server last said.
    clock: Option<RoomClock>,
}

impl RoomSeat {
    /// Makes a room of `level` (`<game>/<variant>`) with `seats` on the first of `urls` and sits
    /// at its seat `seat`: the seat, and the room as it was made.
    pub fn make(
        urls: Vec<String>,
        level: &str,
        seats: Vec<String>,
        clock_minutes: u32,
        (seat, name, picture): (u8, &str, u8),
    ) -> Result<(RoomSeat, Made), String> {
        let want = Want::Make { level: level.to_string(), seats, seat, clock_minutes };
        let (mut room_seat, heard) = RoomSeat::sit(urls, Session::new(want, name, picture), None)?;
        let made = heard
            .into_iter()
            .find_map(|heard| match heard {
                FromRoom::Made { code, pictures, token } => Some(Made { code, pictures, token }),
                _ => None,
            })
            .ok_or("the room was not made")?;
        room_seat.token = Some(made.token.clone());
        Ok((room_seat, made))
    }

    /// Sits at the seat of the room on the first of `urls` that answers.
    pub fn join(urls: Vec<String>, wanted: SeatWanted, name: &str, picture: u8) -> Result<RoomSeat, String> {
        let want = Want::Join { code: wanted.code, seat: wanted.seat, seat_key: wanted.seat_key };
        RoomSeat::sit(urls, Session::new(want, name, picture), wanted.token).map(|(seat, _)| seat)
    }

    /// Seated on the first of `urls`, with its copy of the game made from the room's record:
    /// the seat and what the room said.
    fn sit(
        urls: Vec<String>,
        mut session: Session,
        token: Option<String>,
    ) -> Result<(RoomSeat, Vec<FromRoom>), String> {
        let urls: Vec<String> = urls.iter().map(|url| socket_url(url)).collect();
        let socket =
            seat_on(&urls[0], &mut session, POLL, WAIT_FOR).map_err(|drop| drop.why().to_string())?;
        let heard = session.take();
        let record = heard
            .iter()
            .find_map(|heard| match heard {
                FromRoom::Welcome { record, .. } => Some(record.as_str()),
                _ => None,
            })
            .ok_or("no record came")?;
        let mirror = mirror_of(record)?;
        let mut seat = RoomSeat {
            urls,
            which: 0,
            socket: Some(socket),
            session,
            token,
            mirror,
            people: Vec::new(),
            played: Vec::new(),
            asking: None,
            clock: None,
        };
        let heard = seat.apply(heard).map_err(|Lost(why)| why)?;
        Ok((seat, heard))
    }

    /// Keeps what the room said: the copy of the game, who is here, the asking, the clocks. The
    /// room's ending is why the seat cannot go on.
    fn apply(&mut self, heard: Vec<FromRoom>) -> Result<Vec<FromRoom>, Lost> {
        for news in &heard {
            match news {
                FromRoom::Welcome { record, people, asking, clock, .. } => {
                    self.mirror = mirror_of(record).map_err(Lost)?;
                    self.people = people.clone();
                    self.asking = *asking;
                    self.clock = clock.clone();
                }
                FromRoom::Event(event) => {
                    // A move played answers any asking.
                    self.asking = None;
                    let answer = self.mirror.handle(&format!("play {}", event.action));
                    if answer["ok"] != json!(true) {
                        return Err(Lost(format!(
                            "event {} '{}' does not fit this seat's game: {answer}",
                            event.n, event.action
                        )));
                    }
                    self.played.push((event.n, answer));
                }
                FromRoom::Presence(person) => {
                    self.people.retain(|p| p.seat != person.seat);
                    self.people.push(person.clone());
                }
                FromRoom::Clock(clock) => self.clock = Some(clock.clone()),
                FromRoom::Asked(asking) => self.asking = *asking,
                FromRoom::Declined { .. } => self.asking = None,
                FromRoom::Freed { seat } => self.people.retain(|p| p.seat != *seat),
                FromRoom::TakenBack { to } => {
                    self.asking = None;
                    self.go_back(*to)?;
                }
                FromRoom::Over(why) => return Err(Lost(format!("the room has ended: {why}"))),
                FromRoom::Made { .. }
                | FromRoom::Acked { .. }
                | FromRoom::Refused { .. }
                | FromRoom::Strange(_)
                | FromRoom::Away(_)
                | FromRoom::Back => {}
            }
        }
        Ok(heard)
    }

    /// The room went back to event `to`: the copy is made again from its own record cut there.
    fn go_back(&mut self, to: u64) -> Result<(), Lost> {
        let text = self.mirror.handle("record")["record"].as_str().unwrap_or_default().to_string();
        let mut record = Record::from_ron(&text).map_err(|e| Lost(format!("this seat's record: {e}")))?;
        record.actions.truncate(to as usize);
        record.undone.clear();
        self.mirror = mirror_of(&record.to_ron()).map_err(Lost)?;
        Ok(())
    }

    /// Connects again (to the next address after a failure) with backoff, until seated.
    fn reconnect(&mut self) -> Result<(), Lost> {
        let started = Instant::now();
        let mut backoff = Backoff::default();
        loop {
            match self.try_connect() {
                Ok(()) => return Ok(()),
                Err(Lost(why)) if started.elapsed() > RECONNECT_FOR => {
                    return Err(Lost(format!("no server answered for {} s: {why}", RECONNECT_FOR.as_secs())));
                }
                Err(_) => {
                    std::thread::sleep(backoff.pause());
                    self.which = (self.which + 1) % self.urls.len();
                }
            }
        }
    }

    /// One try on the address in use: seated again, with what was missed played on the copy.
    fn try_connect(&mut self) -> Result<(), Lost> {
        let seated = seat_on(&self.urls[self.which], &mut self.session, POLL, WAIT_FOR);
        if let Err(drop) = &seated {
            self.session.lost(drop.why());
        }
        let heard = self.session.take();
        self.apply(heard)?;
        self.socket = Some(seated.map_err(|drop| Lost(drop.why().to_string()))?);
        Ok(())
    }

    /// Takes a message from the room, sending the session's answers.
    fn hear(&mut self, message: ToClient) -> Result<(), LetGo> {
        let answers = self.session.heard(message)?;
        let socket = self.socket.as_mut().expect("a message came on it");
        for answer in answers {
            send(socket, &answer).map_err(|Lost(why)| LetGo::Retry(why))?;
        }
        Ok(())
    }

    /// What the room said since the last look, kept; a connection let go is tried again later.
    fn heard(&mut self, result: Result<(), LetGo>) -> Result<Vec<FromRoom>, Lost> {
        let ended = match result {
            Ok(()) => None,
            Err(LetGo::Retry(why)) => {
                self.socket = None;
                self.session.lost(&why);
                None
            }
            Err(LetGo::End(why)) => {
                self.socket = None;
                self.session.lost(&why);
                Some(why)
            }
        };
        let heard = self.session.take();
        let heard = self.apply(heard)?;
        match ended {
            Some(why) => Err(Lost(format!("the room has ended: {why}"))),
            None => Ok(heard),
        }
    }

    /// The next message from the room (none when none came before `until`), connecting again when
    /// the connection is lost: what the room said.
    fn next(&mut self, until: Instant) -> Result<Vec<FromRoom>, Lost> {
        if self.socket.is_none() {
            self.reconnect()?;
        }
        let socket = self.socket.as_mut().expect("connected above");
        let result = match receive(socket, until) {
            Ok(Some(message)) => self.hear(message),
            Ok(None) => Ok(()),
            Err(Lost(why)) => Err(LetGo::Retry(why)),
        };
        self.heard(result)
    }

    /// Sends the action, played when the room is at event `after`: its number.
    fn send_action(&mut self, after: u64, action: &str) -> Result<u64, Lost> {
        if self.socket.is_none() {
            self.reconnect()?;
        }
        let kept = self.session.act(ToServer::Act { id: 0, after, action: action.to_string() });
        let Some(message @ ToServer::Act { id, .. }) = kept else {
            return Err(Lost("the action was not numbered".into()));
        };
        // A failed send is sent again under its number on the next connection.
        let socket = self.socket.as_mut().expect("connected above");
        if let Err(Lost(why)) = send(socket, &message) {
            self.socket = None;
            self.session.lost(&why);
        }
        Ok(id)
    }

    /// Sends the action and waits for the room's word (the session sends it again after a
    /// reconnection).
    fn act(&mut self, action: &str) -> Value {
        let until = Instant::now() + WAIT_FOR;
        let after = self.session.at();
        self.played.clear();
        let mut id = match self.send_action(after, action) {
            Ok(id) => id,
            Err(Lost(why)) => return refuse(why),
        };
        let mut acked: Option<u64> = None;
        while Instant::now() < until {
            if acked.is_some_and(|at| self.session.at() >= at) {
                return self.acted(after);
            }
            let heard = match self.next(until) {
                Ok(heard) => heard,
                Err(Lost(why)) => return refuse(why),
            };
            for news in heard {
                match news {
                    FromRoom::Acked { id: acked_id, at } if acked_id == id => acked = Some(at),
                    // Too fast for the server (a Robot playing a seat through text): after a
                    // pause, the same action again.
                    FromRoom::Refused { action: Some(refused), error } if refused == action => {
                        if !error.starts_with(TOO_MANY) {
                            return refuse(error);
                        }
                        std::thread::sleep(SLOW_DOWN);
                        id = match self.send_action(after, action) {
                            Ok(id) => id,
                            Err(Lost(why)) => return refuse(why),
                        };
                    }
                    _ => {}
                }
            }
        }
        refuse("the server gave no answer")
    }

    /// Takes every message already come, without waiting; a connection lost is tried again once
    /// (so `state` follows the room after its server came back).
    fn drain(&mut self) -> Result<(), Lost> {
        if self.socket.is_none() && self.try_connect().is_err() {
            return Ok(());
        }
        loop {
            let Some(socket) = self.socket.as_mut() else { return Ok(()) };
            let _ = tcp(socket).set_nonblocking(true);
            let message = receive(socket, Instant::now());
            let _ = tcp(socket).set_nonblocking(false);
            let result = match message {
                Ok(Some(message)) => self.hear(message),
                Ok(None) => return Ok(()),
                Err(Lost(why)) => Err(LetGo::Retry(why)),
            };
            self.heard(result)?;
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
        answer["at"] = json!(self.session.at());
        answer
    }

    /// Waits until this seat is to act or the game is over: the state then.
    fn wait(&mut self) -> Value {
        let until = Instant::now() + WAIT_FOR;
        while !(self.mirror.is_over() || self.my_turn()) {
            if Instant::now() >= until {
                return refuse("nobody played for ten minutes");
            }
            if let Err(Lost(why)) = self.next(until) {
                return refuse(why);
            }
        }
        self.state()
    }

    fn seat(&self) -> Seat {
        Seat(self.session.seat())
    }

    /// Whether this seat is to act: its turn, and not dice the server throws by itself (dice with
    /// no choice before them), which are still to come.
    fn my_turn(&mut self) -> bool {
        self.mirror.seat_to_move() == Some(self.seat())
            && !(self.mirror.dice_due()
                && self.mirror.handle("legal")["legal"].as_array().is_none_or(Vec::is_empty))
    }

    fn state(&mut self) -> Value {
        let mut state = self.mirror.handle("state");
        let people: Vec<Value> =
            self.people.iter().map(|p| json!({"seat": p.seat, "name": p.name, "here": p.here})).collect();
        state["room"] = json!({
            "code": self.session.code(),
            "seat": self.session.seat(),
            "seat_key": self.session.seat_key(),
            "connected": self.socket.is_some(),
            "at": self.session.at(),
            "people": people,
            "asking": self.asking,
            "clock": self.clock,
        });
        state
    }

    /// Asks the others to take back this seat's last move (and what followed it), and waits for
    /// their answer.
    fn take_back(&mut self) -> Value {
        let Some(to) = self.mirror.before_last_of(self.seat()) else {
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
        if self.asking.is_none_or(|asking| asking.seat == self.session.seat()) {
            return refuse("nobody else asks to take back");
        }
        self.ask_and_wait(ToServer::Answer { yes }, true)
    }

    /// Sends an asking or an answer, and waits until the room goes back (the state then), says
    /// no (the state, when `no_is_done`), refuses it, or plays a move instead.
    fn ask_and_wait(&mut self, message: ToServer, no_is_done: bool) -> Value {
        let until = Instant::now() + WAIT_FOR;
        if let Err(refused) = self.send_once(message) {
            return refused;
        }
        while Instant::now() < until {
            let asking = self.asking.is_some();
            let heard = match self.next(until) {
                Err(Lost(why)) => return refuse(why),
                Ok(heard) => heard,
            };
            for news in heard {
                let answered = match news {
                    FromRoom::TakenBack { to } => Ok(Some(to)),
                    FromRoom::Declined { .. } if no_is_done => Ok(None),
                    FromRoom::Declined { seat } => Err(format!("seat {seat} said no: the game goes on")),
                    FromRoom::Refused { action: None, error } => Err(error),
                    FromRoom::Event(_) if asking => Err("a move was played instead".into()),
                    _ => continue,
                };
                let to = match answered {
                    Ok(to) => to,
                    Err(why) => return refuse(why),
                };
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
        refuse("nobody answered for ten minutes")
    }

    /// Sends a message that is not an action, once, connecting first when the connection is lost;
    /// the refusal to answer when it could not be sent.
    fn send_once(&mut self, message: ToServer) -> Result<(), Value> {
        if self.socket.is_none() {
            self.reconnect().map_err(|Lost(why)| refuse(why))?;
        }
        let Some(message) = self.session.act(message) else {
            return Err(refuse("the connection was lost before it was sent; try again"));
        };
        let socket = self.socket.as_mut().expect("connected above");
        send(socket, &message).map_err(|Lost(why)| {
            self.socket = None;
            self.session.lost(&why);
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
        if let Err(refused) = self.send_once(ToServer::Free { token, seat }) {
            return refused;
        }
        let until = Instant::now() + WAIT_FOR;
        while Instant::now() < until {
            let heard = match self.next(until) {
                Err(Lost(why)) => return refuse(why),
                Ok(heard) => heard,
            };
            for news in heard {
                match news {
                    FromRoom::Freed { seat: freed } if freed == seat => {
                        let mut state = self.state();
                        state["ok"] = json!(true);
                        return state;
                    }
                    FromRoom::Refused { action: None, error } => return refuse(error),
                    _ => {}
                }
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

/// A text session on a room's record (RON), of the level it names.
fn mirror_of(record: &str) -> Result<Box<dyn Console>, String> {
    let record = Record::from_ron(record).map_err(|e| e.to_string())?;
    let level = levels::built_in(&record.level_file())?;
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
                let mine = self.mirror.seat_to_move() == Some(self.seat());
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
