//! A room's connection for the desktop app, on a thread of its own so a frame never waits for the
//! network: `session::Session` decides what is said; this thread carries it over a socket, and
//! when the connection drops it tries again with backoff. It ends when the app lets go of it.
//! Whatever it passes on wakes the app (`Wake`: a window at rest draws nothing until woken).

use super::ToServer;
use super::client::{Lost, Socket, receive, seat_on, send};
use super::session::{Backoff, LetGo, Session, socket_url};
pub use super::session::{FromRoom, Wake, Want};
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::time::{Duration, Instant};

pub struct Link {
    /// Held under a lock so the app may keep the link where any of its threads reach it.
    received: std::sync::Mutex<Receiver<FromRoom>>,
    actions: Sender<ToServer>,
}

impl Link {
    /// Starts the link's thread.
    pub fn open(server: &str, want: Want, name: &str, picture: u8, wake: Wake) -> Link {
        let (tell, received) = channel();
        let (actions, to_send) = channel();
        let url = socket_url(server);
        let session = Session::new(want, name, picture);
        std::thread::spawn(move || {
            let mut run = Run { tell, to_send, session, wake };
            let end = run.go(&url);
            run.session.ended(&end);
            run.say();
        });
        Link { received: std::sync::Mutex::new(received), actions }
    }

    /// Sends the seat's action, played when the room is at event `after` (the session numbers it).
    pub fn act(&self, after: u64, action: &str) {
        let _ = self.actions.send(ToServer::Act { id: 0, after, action: action.to_string() });
    }

    /// Ends the room (the maker's token).
    pub fn end(&self, token: &str) {
        let _ = self.actions.send(ToServer::End { token: token.to_string() });
    }

    /// Sends anything else a seat says (an asking to take back, an answer to one): sent once, on
    /// this connection or the next.
    pub fn say(&self, message: ToServer) {
        let _ = self.actions.send(message);
    }

    /// Everything the room said since the last call.
    pub fn take(&self) -> Vec<FromRoom> {
        self.received.lock().map(|received| received.try_iter().collect()).unwrap_or_default()
    }
}

/// How long a reading waits for the server before the link looks for actions to send.
const LISTEN: Duration = Duration::from_millis(20);
/// How long a new connection waits for the server's first answer.
const ANSWER_WITHIN: Duration = Duration::from_secs(30);

struct Run {
    tell: Sender<FromRoom>,
    to_send: Receiver<ToServer>,
    session: Session,
    wake: Wake,
}

impl Run {
    /// Runs until the app lets go or the room cannot be played: why it ended.
    fn go(&mut self, url: &str) -> String {
        let mut backoff = Backoff::default();
        loop {
            let why = match self.connected(url) {
                Ok(socket) => {
                    backoff.reset();
                    self.listen(socket)
                }
                Err(drop) => drop,
            };
            let why = match why {
                LetGo::End(end) => return end,
                LetGo::Retry(why) => why,
            };
            self.session.lost(&why);
            self.say();
            if let Some(end) = self.gone() {
                return end;
            }
            std::thread::sleep(backoff.pause());
        }
    }

    /// Passes on what the session heard.
    fn say(&mut self) {
        let heard = self.session.take();
        if heard.is_empty() {
            return;
        }
        for heard in heard {
            let _ = self.tell.send(heard);
        }
        (self.wake)();
    }

    /// Whether the app let go of the link (an action waiting is kept for the next connection).
    fn gone(&mut self) -> Option<String> {
        loop {
            match self.to_send.try_recv() {
                Err(TryRecvError::Disconnected) => return Some("the game was left".into()),
                Ok(message) => {
                    self.session.act(message);
                }
                Err(TryRecvError::Empty) => return None,
            }
        }
    }

    /// Connects and talks until seated: the socket.
    fn connected(&mut self, url: &str) -> Result<Socket, LetGo> {
        let seated = seat_on(url, &mut self.session, LISTEN, ANSWER_WITHIN);
        self.say();
        seated
    }

    /// Passes on what the server says and sends the seat's actions until the connection is let go.
    fn listen(&mut self, mut socket: Socket) -> LetGo {
        let lost = |Lost(why)| LetGo::Retry(why);
        loop {
            let sent = loop {
                match self.to_send.try_recv() {
                    Ok(action) => {
                        if let Some(action) = self.session.act(action)
                            && let Err(e) = send(&mut socket, &action)
                        {
                            break Err(lost(e));
                        }
                    }
                    Err(TryRecvError::Empty) => break Ok(()),
                    Err(TryRecvError::Disconnected) => break Err(LetGo::End("the game was left".into())),
                }
            };
            let heard = sent.and_then(|()| receive(&mut socket, Instant::now()).map_err(lost));
            let answers = match heard {
                Ok(Some(message)) => self.session.heard(message),
                Ok(None) => Ok(Vec::new()),
                Err(drop) => Err(drop),
            };
            self.say();
            match answers {
                Ok(answers) => {
                    for answer in answers {
                        if let Err(e) = send(&mut socket, &answer) {
                            return lost(e);
                        }
                    }
                }
                Err(drop) => return drop,
            }
        }
    }
}
