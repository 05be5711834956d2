//! A room's connection for the browser, through the page's WebSocket: `session::Session` decides
//! what is said; this carries it, and when the connection drops it connects again with backoff.
//! The page gives the module one thread, so the link does its work when the app asks what the
//! room said (each frame) and the socket's events only fill its inbox and wake the app (`Wake`:
//! a window at rest draws nothing until woken), as does the time to connect again.

use super::session::{Backoff, LetGo, Session, socket_url};
pub use super::session::{FromRoom, Wake, Want};
use super::{ToClient, ToServer};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{CloseEvent, MessageEvent, WebSocket};

/// A room's link, kept in this thread's table (a page's socket cannot move between threads).
pub struct Link {
    id: u32,
}

thread_local! {
    static LINKS: RefCell<(u32, HashMap<u32, Open>)> = RefCell::new((0, HashMap::new()));
}

impl Link {
    pub fn open(server: &str, want: Want, name: &str, picture: u8, wake: Wake) -> Link {
        let open = Open {
            wake,
            url: socket_url(server),
            session: Session::new(want, name, picture),
            connection: None,
            retry_at: 0.0,
            backoff: Backoff::default(),
            over: false,
        };
        LINKS.with(|links| {
            let (next, links) = &mut *links.borrow_mut();
            *next += 1;
            links.insert(*next, open);
            Link { id: *next }
        })
    }

    /// Sends the seat's action, played when the room is at event `after` (the session numbers it).
    pub fn act(&self, after: u64, action: &str) {
        self.with(|open| open.send_kept(ToServer::Act { id: 0, after, action: action.to_string() }));
    }

    /// Ends the room (the maker's token).
    pub fn end(&self, token: &str) {
        self.with(|open| open.send_kept(ToServer::End { token: token.to_string() }));
    }

    /// Sends anything else a seat says (an asking to take back, an answer to one): sent once, on
    /// this connection or the next.
    pub fn say(&self, message: ToServer) {
        self.with(|open| open.send_kept(message));
    }

    /// Everything the room said since the last call.
    pub fn take(&self) -> Vec<FromRoom> {
        self.with(|open| {
            open.step();
            open.session.take()
        })
        .unwrap_or_default()
    }

    fn with<T>(&self, work: impl FnOnce(&mut Open) -> T) -> Option<T> {
        LINKS.with(|links| links.borrow_mut().1.get_mut(&self.id).map(work))
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        let open = LINKS.with(|links| links.borrow_mut().1.remove(&self.id));
        if let Some(connection) = open.and_then(|open| open.connection) {
            connection.close();
        }
    }
}

struct Open {
    wake: Wake,
    url: String,
    session: Session,
    connection: Option<Connection>,
    /// When to connect again (the page's clock, ms).
    retry_at: f64,
    backoff: Backoff,
    over: bool,
}

impl Open {
    fn send_kept(&mut self, message: ToServer) {
        if let Some(message) = self.session.act(message) {
            self.send(&message);
        }
    }

    fn send(&self, message: &ToServer) {
        if let Some(connection) = &self.connection {
            // A failed send is a closed socket, whose close event follows.
            let _ = connection.socket.send_with_str(&message.to_json());
        }
    }

    /// Connects when it is time, and takes what the socket brought.
    fn step(&mut self) {
        if self.over {
            return;
        }
        let now = js_sys::Date::now();
        if self.connection.is_none() && now >= self.retry_at {
            match Connection::open(&self.url, &self.wake) {
                Ok(connection) => self.connection = Some(connection),
                Err(why) => return self.let_go(LetGo::End(why)),
            }
        }
        let Some(inbox) = self.connection.as_ref().map(|c| c.inbox.take()) else { return };
        if inbox.opened {
            for message in self.session.opened() {
                self.send(&message);
            }
        }
        for text in inbox.messages {
            let answers = serde_json::from_str::<ToClient>(&text)
                .map_err(|e| LetGo::Retry(format!("the server said: {e}")))
                .and_then(|message| self.session.heard(message));
            match answers {
                Ok(answers) => answers.iter().for_each(|answer| self.send(answer)),
                Err(drop) => return self.let_go(drop),
            }
        }
        if self.session.seated() {
            self.backoff.reset();
        }
        if let Some(why) = inbox.closed {
            self.let_go(LetGo::Retry(why));
        }
    }

    fn let_go(&mut self, drop: LetGo) {
        if let Some(connection) = self.connection.take() {
            connection.close();
        }
        match drop {
            LetGo::Retry(why) => {
                self.session.lost(&why);
                let pause = self.backoff.pause().as_secs_f64() * 1000.0;
                self.retry_at = js_sys::Date::now() + pause;
                wake_after(pause, &self.wake);
            }
            LetGo::End(why) => {
                self.over = true;
                self.session.ended(&why);
            }
        }
    }
}

/// Wakes the app after `ms`, when the link connects again.
fn wake_after(ms: f64, wake: &Wake) {
    let Some(window) = web_sys::window() else { return };
    let wake = wake.clone();
    let ring = Closure::once_into_js(move || wake());
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(ring.unchecked_ref(), ms as i32);
}

/// What a socket's events left for the link.
#[derive(Default)]
struct Inbox {
    opened: bool,
    messages: Vec<String>,
    closed: Option<String>,
}

struct Connection {
    socket: WebSocket,
    inbox: Rc<RefCell<Inbox>>,
    _handlers: [Closure<dyn FnMut(JsValue)>; 3],
}

impl Connection {
    fn open(url: &str, wake: &Wake) -> Result<Connection, String> {
        let socket = WebSocket::new(url).map_err(|e| format!("{url}: {e:?}"))?;
        let inbox = Rc::new(RefCell::new(Inbox::default()));
        let on = |work: fn(&mut Inbox, JsValue)| {
            let inbox = inbox.clone();
            let wake = wake.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |event| {
                work(&mut inbox.borrow_mut(), event);
                wake();
            })
        };
        let handlers = [
            on(|inbox, _| inbox.opened = true),
            on(|inbox, event| {
                if let Some(text) = event.unchecked_into::<MessageEvent>().data().as_string() {
                    inbox.messages.push(text);
                }
            }),
            on(|inbox, event| {
                let event = event.unchecked_into::<CloseEvent>();
                inbox.closed = Some(format!("the connection closed ({})", event.code()));
            }),
        ];
        socket.set_onopen(Some(handlers[0].as_ref().unchecked_ref()));
        socket.set_onmessage(Some(handlers[1].as_ref().unchecked_ref()));
        socket.set_onclose(Some(handlers[2].as_ref().unchecked_ref()));
        Ok(Connection { socket, inbox, _handlers: handlers })
    }

    fn close(self) {
        self.socket.set_onopen(None);
        self.socket.set_onmessage(None);
        self.socket.set_onclose(None);
        let _ = self.socket.close();
    }
}
