//! One window at a time writes the device's data, so two windows (or two browser tabs) never write
//! over each other's children, stars or games. On the desktop the holder keeps `tabla.lock` in
//! the data folder locked; a second window finds it locked and says Tabla is open elsewhere, with a
//! button to play here instead: it then names itself in `holder`, the first window (which looks
//! at that file every second) lets go and says so, and the second takes the lock and reads the data
//! afresh. In the browser the page holds a Web Lock (web/index.html) and tells the app by
//! `window.tablaHolds`.

use std::path::Path;

/// Whether this window may write the device's data.
#[derive(Debug)]
pub enum Holder {
    /// It writes (on the desktop, with `tabla.lock` locked while `lock` is open).
    Holds { lock: Option<std::fs::File>, me: String },
    /// Another window held the data when this one started; it writes nothing.
    Elsewhere { me: String },
    /// Another window took the data over since; it writes nothing any more.
    Lost { me: String },
}

impl Default for Holder {
    fn default() -> Self {
        Holder::Holds { lock: None, me: String::new() }
    }
}

/// When this window started, in milliseconds since 1970: with the process id it names the window.
#[cfg(not(target_arch = "wasm32"))]
fn started_ms() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis())
}

/// What the window that does not hold the data says, for a message.
pub const ELSEWHERE: &str = "Tabla is open in another window, which keeps the games";

impl Holder {
    /// Holds the data of `dir` if no other window does.
    pub fn take(dir: Option<&Path>) -> Holder {
        // The desktop's windows are processes; the browser names no process (nor needs a name).
        #[cfg(not(target_arch = "wasm32"))]
        let me = format!("{}-{}", std::process::id(), started_ms());
        #[cfg(target_arch = "wasm32")]
        let me = String::new();
        match system::lock(dir) {
            system::Locked::Yes(lock) => {
                system::name_holder(dir, &me);
                Holder::Holds { lock, me }
            }
            system::Locked::Elsewhere => Holder::Elsewhere { me },
        }
    }

    /// `Ok` when this window may write; else why not.
    pub fn holds(&self) -> Result<(), String> {
        match self {
            Holder::Holds { .. } if page_holds() => Ok(()),
            _ => Err(ELSEWHERE.to_string()),
        }
    }

    /// Whether another window asked for the data (it named itself in `holder`): then this one lets
    /// go. `true` when it has just let go.
    pub fn let_go_if_asked(&mut self, dir: Option<&Path>) -> bool {
        let asked = match self {
            Holder::Holds { lock: Some(_), me } => system::holder(dir).is_some_and(|named| named != *me),
            Holder::Holds { lock: None, .. } => !page_holds(),
            _ => false,
        };
        if asked {
            let me = self.me().to_string();
            *self = Holder::Lost { me };
        }
        asked
    }

    /// Asks to hold the data here: the window holding it lets go within a second or two.
    pub fn ask(&self, dir: Option<&Path>) {
        if !matches!(self, Holder::Holds { .. }) {
            system::name_holder(dir, self.me());
        }
    }

    /// Takes the data once the other window has let go; `true` when this window holds it now.
    pub fn try_take(&mut self, dir: Option<&Path>) -> bool {
        if matches!(self, Holder::Holds { .. }) {
            return true;
        }
        match system::lock(dir) {
            system::Locked::Yes(lock) => {
                let me = self.me().to_string();
                system::name_holder(dir, &me);
                *self = Holder::Holds { lock, me };
                true
            }
            system::Locked::Elsewhere => false,
        }
    }

    /// Whether another window holds the data (since the start, or since it took it over).
    pub fn elsewhere(&self) -> bool {
        !matches!(self, Holder::Holds { .. })
    }

    fn me(&self) -> &str {
        match self {
            Holder::Holds { me, .. } | Holder::Elsewhere { me } | Holder::Lost { me } => me,
        }
    }
}

/// Looks, once a second on a thread of its own, whether another window named itself in `holder`
/// of `dir`, and then wakes this one (which may rest, drawing nothing): `asked_since` says so.
/// Nothing in the browser, whose page hears of another tab itself.
pub fn watch(dir: Option<&Path>, wake: super::wake::Wake) {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(dir) = dir.map(Path::to_path_buf) {
        std::thread::spawn(move || {
            let mut named = system::holder(Some(&dir));
            loop {
                std::thread::sleep(std::time::Duration::from_secs(1));
                let now = system::holder(Some(&dir));
                if now != named {
                    named = now;
                    NAMED_AGAIN.store(true, std::sync::atomic::Ordering::Relaxed);
                    wake();
                }
            }
        });
    }
    #[cfg(target_arch = "wasm32")]
    let _ = (dir, wake);
}

static NAMED_AGAIN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a window named itself in `holder` since the last call (`watch`).
pub fn asked_since() -> bool {
    NAMED_AGAIN.swap(false, std::sync::atomic::Ordering::Relaxed)
}

/// Whether the browser's page holds the data (it always does on the desktop, where the lock
/// file tells).
pub fn page_holds() -> bool {
    system::page_holds()
}

#[cfg(not(target_arch = "wasm32"))]
mod system {
    use std::path::Path;

    /// The lock file, locked by the window that holds the data.
    const LOCK: &str = "tabla.lock";
    /// The window that holds the data, or asks to (its name, written by it).
    const HOLDER: &str = "holder";

    pub enum Locked {
        /// Locked by this window (`None`: where there is no folder or no locking, nothing to lock).
        Yes(Option<std::fs::File>),
        Elsewhere,
    }

    pub fn lock(dir: Option<&Path>) -> Locked {
        let Some(dir) = dir else { return Locked::Yes(None) };
        let opened = std::fs::create_dir_all(dir).and_then(|()| {
            std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(dir.join(LOCK))
        });
        // A folder that cannot be written to has nothing to hold: its writes fail and are said.
        let Ok(file) = opened else { return Locked::Yes(None) };
        match file.try_lock() {
            Ok(()) => Locked::Yes(Some(file)),
            Err(std::fs::TryLockError::WouldBlock) => Locked::Elsewhere,
            Err(std::fs::TryLockError::Error(_)) => Locked::Yes(None),
        }
    }

    pub fn holder(dir: Option<&Path>) -> Option<String> {
        std::fs::read_to_string(dir?.join(HOLDER)).ok().map(|text| text.trim().to_string())
    }

    pub fn name_holder(dir: Option<&Path>, me: &str) {
        if let Some(dir) = dir {
            let temporary = dir.join(format!(".{HOLDER}.{me}.new"));
            if std::fs::write(&temporary, me)
                .and_then(|()| std::fs::rename(&temporary, dir.join(HOLDER)))
                .is_err()
            {
                let _ = std::fs::remove_file(&temporary);
            }
        }
    }

    pub fn page_holds() -> bool {
        true
    }
}

#[cfg(target_arch = "wasm32")]
mod system {
    use std::path::Path;

    pub enum Locked {
        Yes(Option<std::fs::File>),
        Elsewhere,
    }

    /// The page took its Web Lock before the app started (web/index.html).
    pub fn lock(_dir: Option<&Path>) -> Locked {
        if page_holds() { Locked::Yes(None) } else { Locked::Elsewhere }
    }

    pub fn holder(_dir: Option<&Path>) -> Option<String> {
        None
    }

    /// The page asks for the lock itself when its "play here" is tapped.
    pub fn name_holder(_dir: Option<&Path>, _me: &str) {}

    /// `window.tablaHolds`, which the page sets `false` when another tab took the lock.
    pub fn page_holds() -> bool {
        use wasm_bindgen::JsValue;
        let Some(window) = web_sys::window() else { return true };
        js_sys::Reflect::get(&window, &JsValue::from_str("tablaHolds"))
            .map_or(true, |held| held != JsValue::FALSE)
    }
}
