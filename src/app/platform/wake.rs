//! Waking a window at rest. A window draws nothing while nothing changes (`frame_pace`), so
//! whatever comes from outside a frame wakes it: a room's message, a file picked in the browser,
//! another window asking for the data (`wake_window`, callable from any thread or callback), and
//! whatever must show at a time of its own, a clock's next second above all (`WakeWithin`, which
//! arms an alarm: a thread on the desktop, a timer of the page in the browser).

use bevy::prelude::*;
use bevy::winit::{EventLoopProxyWrapper, WinitUserEvent};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Something that wakes the window, from any thread (the room's link takes one too).
pub use crate::net::session::Wake;

static WINDOW: OnceLock<Wake> = OnceLock::new();

/// Wakes the window for a frame (nothing where there is no window: the tests).
pub fn wake_window() {
    if let Some(wake) = WINDOW.get() {
        wake();
    }
}

/// `wake_window` as a value, for a thread or a link to keep.
pub fn waker() -> Wake {
    Arc::new(wake_window)
}

/// The soonest a frame is wanted while nothing moves (seconds from now), asked for afresh each
/// frame by whatever shows time passing: a running clock's next second, the time played to keep.
#[derive(Resource, Default, Debug)]
pub struct WakeWithin(Option<f64>);

impl WakeWithin {
    pub fn within(&mut self, seconds: f64) {
        let seconds = seconds.max(0.0);
        self.0 = Some(self.0.map_or(seconds, |soonest| soonest.min(seconds)));
    }

    /// The soonest asked for this frame, and a fresh start for the next.
    pub fn take(&mut self) -> Option<f64> {
        self.0.take()
    }
}

static STIRRED: AtomicBool = AtomicBool::new(false);

/// Something came from outside (a room's message, a file picked): what it sets going (a new
/// screen, a piece to move, a message) is drawn on as after a touch.
pub fn stir() {
    STIRRED.store(true, Ordering::Relaxed);
}

/// `stir`, from outside a frame: the window is woken too.
pub fn stir_window() {
    stir();
    wake_window();
}

/// Whether something came from outside since the last call.
pub fn take_stirred() -> bool {
    STIRRED.swap(false, Ordering::Relaxed)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<WakeWithin>();
}

/// The window's event loop, woken through its proxy (a window's app, at its start).
pub fn window_plugin(app: &mut App) {
    app.add_systems(Startup, |proxy: Option<Res<EventLoopProxyWrapper>>| {
        if let Some(proxy) = proxy {
            let proxy = (**proxy).clone();
            let _ = WINDOW.set(Arc::new(move || {
                let _ = proxy.send_event(WinitUserEvent::WakeUp);
            }));
        }
    });
}

/// Arms the alarm to wake the window in `seconds` (`None` disarms it).
pub fn alarm(seconds: Option<f64>) {
    system::alarm(seconds);
}

#[cfg(not(target_arch = "wasm32"))]
mod system {
    use std::sync::OnceLock;
    use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
    use std::time::{Duration, Instant};

    static ALARM: OnceLock<Sender<Option<Instant>>> = OnceLock::new();

    pub fn alarm(seconds: Option<f64>) {
        let at = seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.min(86_400.0)));
        let alarm = ALARM.get_or_init(|| {
            let (set, settings) = channel::<Option<Instant>>();
            std::thread::spawn(move || {
                let mut at: Option<Instant> = None;
                loop {
                    let next = match at {
                        Some(at) => settings.recv_timeout(at.saturating_duration_since(Instant::now())),
                        None => settings.recv().map_err(|_| RecvTimeoutError::Disconnected),
                    };
                    match next {
                        Ok(set) => at = set,
                        Err(RecvTimeoutError::Timeout) => {
                            at = None;
                            super::wake_window();
                        }
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
            });
            set
        });
        let _ = alarm.send(at);
    }
}

#[cfg(target_arch = "wasm32")]
mod system {
    use std::cell::{Cell, OnceCell};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    thread_local! {
        /// The page's timer armed.
        static TIMER: Cell<Option<i32>> = const { Cell::new(None) };
        /// What the timer calls: made once and kept (it is never dropped while it runs).
        static RING: OnceCell<Closure<dyn Fn()>> = const { OnceCell::new() };
    }

    pub fn alarm(seconds: Option<f64>) {
        let Some(window) = web_sys::window() else { return };
        if let Some(timer) = TIMER.take() {
            window.clear_timeout_with_handle(timer);
        }
        let Some(seconds) = seconds else { return };
        let ms = (seconds * 1000.0).clamp(0.0, 86_400_000.0) as i32;
        RING.with(|ring| {
            let ring = ring.get_or_init(|| Closure::<dyn Fn()>::new(super::wake_window));
            if let Ok(timer) = window
                .set_timeout_with_callback_and_timeout_and_arguments_0(ring.as_ref().unchecked_ref(), ms)
            {
                TIMER.set(Some(timer));
            }
        });
    }
}
