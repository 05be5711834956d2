//! A room's connection for the app, on a thread of its own so a frame never waits for the
//! network: it makes or joins the room, passes on what the server says in order, sends the seat's
//! actions, and when the connection drops it says so, tries again with backoff, asks for the
//! events it missed and sends again every action not yet answered (under its number, so none is
//! played twice). It ends when the app lets go of it.

use super::client::{Lost, Socket, connect, receive, send, socket_url};
use super::{Event, Person, ToClient, ToServer};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

/// What the link is to do first.
#[derive(Clone, Debug)]
pub enum Want {
    /// Make a room of the level with these seats (`person`, `robot1`…), and sit at `seat`.
    Make { level: String, seats: Vec<String>, seat: u8 },
    /// Sit at a seat of a room (`ANY_SEAT`: the first free one).
    Join { code: String, seat: u8 },
}

/// What the room said, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum FromRoom {
    Made {
        code: String,
        pictures: Vec<String>,
        token: String,
    },
    /// Seated, with the room's record (RON, without its seed) and who sits where.
    Welcome {
        code: String,
        seat: u8,
        record: String,
        people: Vec<Person>,
    },
    Event(Event),
    Acked {
        id: u64,
    },
    Refused {
        id: Option<u64>,
        error: String,
    },
    Presence(Person),
    /// The connection is lost; the link tries again.
    Away(String),
    /// Connected again, with every event missed passed on before this.
    Back,
    /// The room cannot be played (it is unknown, full or ended).
    Over(String),
}

pub struct Link {
    /// Held under a lock so the app may keep the link where any of its threads reach it.
    received: std::sync::Mutex<Receiver<FromRoom>>,
    actions: Sender<ToServer>,
}

impl Link {
    /// Starts the link's thread.
    pub fn open(server: &str, want: Want, name: &str, picture: u8) -> Link {
        let (tell, received) = channel();
        let (actions, to_send) = channel();
        let (server, name) = (server.to_string(), name.to_string());
        std::thread::spawn(move || {
            let mut run = Run {
                tell,
                to_send,
                want,
                name,
                picture,
                code: None,
                seat: 0,
                at: None,
                unanswered: Vec::new(),
            };
            let end = match socket_url(&server) {
                Ok(url) => run.go(&url),
                Err(e) => e,
            };
            let _ = run.tell.send(FromRoom::Over(end));
        });
        Link { received: std::sync::Mutex::new(received), actions }
    }

    /// Sends the seat's action `id`, played when the room is at event `after`.
    pub fn act(&self, id: u64, after: u64, action: &str) {
        let _ = self.actions.send(ToServer::Act { id, after, action: action.to_string() });
    }

    /// Ends the room (the maker's token).
    pub fn end(&self, token: &str) {
        let _ = self.actions.send(ToServer::End { token: token.to_string() });
    }

    /// Everything the room said since the last call.
    pub fn take(&self) -> Vec<FromRoom> {
        self.received.lock().map(|received| received.try_iter().collect()).unwrap_or_default()
    }
}

/// How a reason that ends the link begins (the room is unknown, full or ended).
const OVER: &str = "over: ";
/// How long a reading waits for the server before the link looks for actions to send.
const LISTEN: Duration = Duration::from_millis(20);

struct Run {
    tell: Sender<FromRoom>,
    to_send: Receiver<ToServer>,
    want: Want,
    name: String,
    picture: u8,
    code: Option<String>,
    seat: u8,
    /// The last event passed on (`None`: not seated yet).
    at: Option<u64>,
    unanswered: Vec<ToServer>,
}

impl Run {
    /// Runs until the app lets go or the room cannot be played: why it ended.
    fn go(&mut self, url: &str) -> String {
        let mut pause = Duration::from_millis(100);
        let mut away = false;
        loop {
            let why = match self.connected(url) {
                Ok(socket) => {
                    pause = Duration::from_millis(100);
                    if away {
                        away = false;
                        self.say(FromRoom::Back);
                    }
                    match self.listen(socket) {
                        Ok(end) => return end,
                        Err(Lost(why)) => why,
                    }
                }
                Err(Lost(why)) => why,
            };
            if let Some(end) = why.strip_prefix(OVER).map(str::to_string).or_else(|| self.gone()) {
                return end;
            }
            if !away {
                away = true;
                self.say(FromRoom::Away(why));
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_secs(3));
        }
    }

    fn say(&self, what: FromRoom) {
        let _ = self.tell.send(what);
    }

    /// Whether the app let go of the link.
    fn gone(&mut self) -> Option<String> {
        match self.to_send.try_recv() {
            Err(TryRecvError::Disconnected) => Some("the game was left".into()),
            // Sent once connected again.
            Ok(message) => {
                self.unanswered.push(message);
                None
            }
            Err(TryRecvError::Empty) => None,
        }
    }

    /// Connects, makes the room if it is to, and sits at the seat: the socket, welcomed.
    fn connected(&mut self, url: &str) -> Result<Socket, Lost> {
        let mut socket = connect(url).map_err(Lost)?;
        if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_mut() {
            let _ = stream.set_read_timeout(Some(LISTEN));
        }
        let until = || Instant::now() + Duration::from_secs(30);
        if self.code.is_none() {
            if let Want::Make { level, seats, seat } = self.want.clone() {
                send(&mut socket, &ToServer::New { level, seats })?;
                match receive(&mut socket, until())? {
                    Some(ToClient::Made { room, pictures, token }) => {
                        self.code = Some(room.clone());
                        self.seat = seat;
                        self.say(FromRoom::Made { code: room, pictures, token });
                    }
                    Some(ToClient::Refused { error, .. }) => return Err(Lost(format!("{OVER}{error}"))),
                    other => return Err(Lost(format!("the server answered {other:?}"))),
                }
            } else if let Want::Join { code, seat } = self.want.clone() {
                self.code = Some(code);
                self.seat = seat;
            }
        }
        let code = self.code.clone().expect("made or joined above");
        let hello = ToServer::Hello {
            room: code.clone(),
            seat: self.seat,
            last: self.at.unwrap_or(0),
            name: self.name.clone(),
            picture: self.picture,
        };
        send(&mut socket, &hello)?;
        loop {
            match receive(&mut socket, until())? {
                Some(ToClient::Welcome { seat, record, events, people, .. }) => {
                    self.seat = seat;
                    match (self.at, record) {
                        (Some(_), None) => {
                            for person in people {
                                self.say(FromRoom::Presence(person));
                            }
                            for event in events {
                                self.pass(event)?;
                            }
                        }
                        (_, Some(record)) => {
                            let actions = crate::record::Record::from_ron(&record)
                                .map_err(|e| Lost(format!("{OVER}the room's record: {e}")))?
                                .actions
                                .len();
                            self.at = Some(actions as u64);
                            self.say(FromRoom::Welcome { code: code.clone(), seat, record, people });
                        }
                        (None, None) => return Err(Lost(format!("{OVER}no record came"))),
                    }
                    for action in &self.unanswered {
                        send(&mut socket, action)?;
                    }
                    return Ok(socket);
                }
                Some(ToClient::Refused { error, .. }) => return Err(Lost(format!("{OVER}{error}"))),
                Some(ToClient::Ended { reason }) => return Err(Lost(format!("{OVER}{reason}"))),
                Some(_) => {}
                None => return Err(Lost("the server did not answer".into())),
            }
        }
    }

    fn pass(&mut self, event: Event) -> Result<(), Lost> {
        let at = self.at.unwrap_or(0);
        if event.n <= at {
            return Ok(());
        }
        if event.n > at + 1 {
            return Err(Lost(format!("event {} came after {at}: asking again", event.n)));
        }
        self.at = Some(event.n);
        self.say(FromRoom::Event(event));
        Ok(())
    }

    /// Passes on what the server says and sends the seat's actions until the connection drops
    /// (`Err`) or the link ends (`Ok`, why).
    fn listen(&mut self, mut socket: Socket) -> Result<String, Lost> {
        loop {
            loop {
                match self.to_send.try_recv() {
                    Ok(action) => {
                        if matches!(action, ToServer::Act { .. }) {
                            self.unanswered.push(action.clone());
                        }
                        send(&mut socket, &action)?;
                    }
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => return Ok("the game was left".into()),
                }
            }
            let Some(message) = receive(&mut socket, Instant::now())? else { continue };
            match message {
                ToClient::Event(event) => self.pass(event)?,
                ToClient::Ack { id, .. } => {
                    self.unanswered.retain(|a| !matches!(a, ToServer::Act { id: i, .. } if *i == id));
                    self.say(FromRoom::Acked { id });
                }
                ToClient::Refused { id, error } => {
                    if let Some(id) = id {
                        self.unanswered.retain(|a| !matches!(a, ToServer::Act { id: i, .. } if *i == id));
                    }
                    self.say(FromRoom::Refused { id, error });
                }
                ToClient::Presence(person) => self.say(FromRoom::Presence(person)),
                ToClient::Ended { reason } => return Ok(reason),
                ToClient::Made { .. } | ToClient::Welcome { .. } => {}
            }
        }
    }
}
