//! Where what a child or a parent makes is kept (the settings, each child's file, their games in
//! progress, the last game): files in the data folder on the desktop, written to a temporary file
//! of a name no other writer uses, flushed and renamed over the last one, so a kill at any instant
//! leaves the old file or the new one, whole; `localStorage` in the browser. A file that cannot be
//! read is set aside under a new name, never deleted; a file that exists but cannot be read now
//! (no permission, not text, too large) is told apart from one that is not there, so its place is
//! never taken. A write that fails is remembered and said (`tabla not-saved <file> <reason>`), and
//! the screens show it until a write of the same file succeeds. One window at a time writes the
//! device's data (`holder`): another says so and writes nothing.

use super::holder::Holder;
use crate::record::MOST_BYTES;
use crate::rules::GameKind;
use bevy::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The settings.
pub const SETTINGS: &str = "settings.ron";
/// The game in progress of one game (`game-<game>.ron`), until it ends.
pub fn game_slot(game: GameKind) -> String {
    format!("game-{game}.ron")
}
/// The one game in progress a Tabla before each game had its own kept; read once and moved to
/// its game's own place.
pub const OLD_GAME: &str = "game.ron";
/// The last game that ended.
pub const LAST_GAME: &str = "last_game.ron";
/// A child's picture, name, stars, figures and diplomas (in the child's own place).
pub const CHILD: &str = "child.ron";
/// The games of a place, the one played last first.
pub const RECENT: &str = "recent.ron";
/// The folder records are given out to.
const RECORDS: &str = "records";
/// What a set-aside file's name carries.
const ASIDE: &str = ".broken-";

/// The place things are kept: a folder on the desktop (`None` in the browser). Each child's own
/// files are in a place of their own (`child-<n>/`); the settings and the records given out are
/// the device's.
#[derive(Resource, Clone, Debug, Default)]
pub struct Store {
    dir: Option<PathBuf>,
    /// `child-<n>` for a child's own place.
    scope: Option<String>,
    /// The child playing now (0 to 7): their place keeps the games.
    child: Option<usize>,
    shared: Arc<Shared>,
}

/// What every copy of the store shares: the writes that failed, and whether this window holds
/// the data.
#[derive(Debug, Default)]
struct Shared {
    /// Each file whose last write failed (by its place and name), with why.
    not_saved: Mutex<BTreeMap<String, String>>,
    holder: Mutex<Holder>,
}

impl Store {
    /// The given folder, else `$TABLA_HOME`, else the user's configuration folder; this window
    /// holds its data unless another one does.
    pub fn new(dir: Option<&Path>) -> Store {
        let dir = dir
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("TABLA_HOME").map(PathBuf::from))
            .or_else(|| std::env::var_os("XDG_CONFIG_HOME").map(|d| PathBuf::from(d).join("tabla")))
            .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".config").join("tabla")));
        let holder = Holder::take(dir.as_deref());
        let shared = Shared { holder: Mutex::new(holder), ..Shared::default() };
        Store { dir, scope: None, child: None, shared: Arc::new(shared) }
    }

    /// The data folder (desktop only).
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The place of the child in `slot` (0 to 7).
    pub fn of_child(&self, slot: usize) -> Store {
        Store { scope: Some(format!("child-{}", slot + 1)), child: None, ..self.clone() }
    }

    /// The child now playing, whose place keeps the games.
    pub fn child(&self) -> Option<usize> {
        self.child
    }

    pub fn choose_child(&mut self, slot: Option<usize>) {
        self.child = slot;
    }

    /// The device's own place (the settings, and games played before there were children).
    pub fn games_of_device(&self) -> Store {
        Store { scope: None, child: None, ..self.clone() }
    }

    /// Where the games are kept: the playing child's place, or the device's when nobody chose.
    pub fn games(&self) -> Store {
        match self.child {
            Some(slot) => self.of_child(slot),
            None => self.games_of_device(),
        }
    }

    /// The folder and the name a file of this place has (in the browser: no folder, and the
    /// place before the name).
    fn place(&self, name: &str) -> (Option<PathBuf>, String) {
        match &self.scope {
            None => (self.dir.clone(), name.to_string()),
            Some(scope) if cfg!(target_arch = "wasm32") => (None, format!("{scope}/{name}")),
            Some(scope) => (self.dir.as_ref().map(|dir| dir.join(scope)), name.to_string()),
        }
    }

    /// The name `name` of this place is known by (`child-2/child.ron`), as messages and the
    /// browser's last moment name it.
    pub fn scoped(&self, name: &str) -> String {
        match &self.scope {
            Some(scope) => format!("{scope}/{name}"),
            None => name.to_string(),
        }
    }

    /// The text kept as `name`: `Ok(None)` when there is none; `Err` when there is one that cannot
    /// be read now (its place is then not free).
    pub fn read(&self, name: &str) -> Result<Option<String>, String> {
        let (dir, file) = self.place(name);
        backend::read(dir.as_deref(), &file).map_err(|why| format!("{}: {why}", self.scoped(name)))
    }

    /// Keeps `text` as `name`; an error says what failed, and the failure is remembered (and
    /// logged as `tabla not-saved <file> <reason>`) until a write of the same file succeeds.
    pub fn write(&self, name: &str, text: &str) -> Result<(), String> {
        let known = self.scoped(name);
        let written = self.holding().and_then(|()| {
            let (dir, file) = self.place(name);
            backend::write(dir.as_deref(), &file, text)
        });
        let mut not_saved = self.shared.not_saved.lock().unwrap_or_else(|e| e.into_inner());
        match &written {
            Ok(()) => {
                not_saved.remove(&known);
            }
            Err(why) => {
                tracing::warn!("tabla not-saved {known} {why}");
                not_saved.insert(known, why.clone());
            }
        }
        written
    }

    /// Remembers (and logs) that `name` of this place is not kept, and why, when the keeper
    /// decided not to write it (a newer Tabla's file in its place).
    pub fn note_not_saved(&self, name: &str, why: &str) {
        let known = self.scoped(name);
        tracing::warn!("tabla not-saved {known} {why}");
        self.shared.not_saved.lock().unwrap_or_else(|e| e.into_inner()).insert(known, why.to_string());
    }

    pub fn remove(&self, name: &str) {
        if self.holding().is_ok() {
            let (dir, file) = self.place(name);
            backend::remove(dir.as_deref(), &file);
        }
    }

    /// The files whose last write failed, each with why (the screens tell a grown-up).
    pub fn not_saved(&self) -> Vec<(String, String)> {
        let not_saved = self.shared.not_saved.lock().unwrap_or_else(|e| e.into_inner());
        not_saved.iter().map(|(file, why)| (file.clone(), why.clone())).collect()
    }

    /// Whether this window holds the device's data, and if not, why.
    pub fn holding(&self) -> Result<(), String> {
        self.shared.holder.lock().unwrap_or_else(|e| e.into_inner()).holds()
    }

    /// The holder of the data, to ask or change (`holder.rs`).
    pub fn with_holder<T>(&self, f: impl FnOnce(&mut Holder, Option<&Path>) -> T) -> T {
        let mut holder = self.shared.holder.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut holder, self.dir.as_deref())
    }

    /// Gives `text` out as a file of its own, `file_name`: on the desktop into `records/` in the
    /// store's folder, in the browser as a download. Says where it went.
    pub fn export(&self, file_name: &str, text: &str) -> Result<String, String> {
        self.export_to(RECORDS, file_name, text)
    }

    /// As `export`, into `folder` on the desktop.
    pub fn export_to(&self, folder: &str, file_name: &str, text: &str) -> Result<String, String> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let dir = self.dir.as_ref().ok_or("no folder to keep it in")?.join(folder);
            backend::write(Some(&dir), file_name, text)?;
            Ok(dir.join(file_name).display().to_string())
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = folder;
            super::web::download(file_name, text)?;
            Ok(file_name.to_string())
        }
    }

    /// The record files given out to `records/` (desktop only), newest first.
    pub fn records(&self) -> Vec<PathBuf> {
        self.files_in(RECORDS)
    }

    /// The RON files in `folder` of the data folder (desktop only), newest first.
    pub fn files_in(&self, folder: &str) -> Vec<PathBuf> {
        let Some(dir) = &self.dir else { return Vec::new() };
        let Ok(entries) = std::fs::read_dir(dir.join(folder)) else { return Vec::new() };
        let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|e| e == "ron"))
            .map(|path| (path.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH), path))
            .collect();
        files.sort_by(|a, b| b.cmp(a));
        files.into_iter().map(|(_, path)| path).collect()
    }

    /// Gives a picture (RGBA pixels, row by row) out as a PNG file of its own: on the desktop
    /// into `diplomas/` in the store's folder, in the browser as a download. Says where it went.
    pub fn export_picture(
        &self,
        file_name: &str,
        width: u32,
        height: u32,
        rgba: &[u8],
    ) -> Result<String, String> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let mut png = Vec::new();
            let mut encoder = png::Encoder::new(&mut png, width, height);
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_depth(png::BitDepth::Eight);
            let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
            writer.write_image_data(rgba).map_err(|e| e.to_string())?;
            writer.finish().map_err(|e| e.to_string())?;
            let dir = self.dir.as_ref().ok_or("no folder to keep it in")?.join("diplomas");
            backend::write_bytes(Some(&dir), file_name, &png)?;
            Ok(dir.join(file_name).display().to_string())
        }
        #[cfg(target_arch = "wasm32")]
        {
            super::web::download_picture(file_name, width, height, rgba)?;
            Ok(file_name.to_string())
        }
    }

    /// Moves `name` aside under a new name (never over another) and says where, with `why`.
    pub fn set_aside(&self, name: &str, why: &str) -> String {
        let (dir, file) = self.place(name);
        let name = self.scoped(name);
        let moved = self.holding().and_then(|()| backend::set_aside(dir.as_deref(), &file));
        let message = match moved {
            Ok(kept) => format!("{name} could not be used ({why}); it is kept as {kept}"),
            Err(e) => format!("{name} could not be used ({why}), and could not be set aside: {e}"),
        };
        tracing::warn!("{message}");
        message
    }

    /// Every file set aside in the device's data (the children's places too), by the name it is
    /// known by.
    pub fn set_aside_files(&self) -> Vec<String> {
        backend::names(self.dir.as_deref()).into_iter().filter(|name| name.contains(ASIDE)).collect()
    }

    /// Deletes every file set aside (the grown-ups' page asks first); how many went.
    pub fn clear_set_aside(&self) -> usize {
        if self.holding().is_err() {
            return 0;
        }
        let files = self.set_aside_files();
        for name in &files {
            backend::remove_known(self.dir.as_deref(), name);
        }
        files.len()
    }
}

/// The name a file set aside gets: the first `<name>.broken-<n>` not taken yet.
fn aside_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    (1..).map(|n| format!("{name}{ASIDE}{n}")).find(|candidate| !taken(candidate)).expect("a free name")
}

#[cfg(not(target_arch = "wasm32"))]
mod backend {
    use super::MOST_BYTES;
    use std::io::{ErrorKind, Write};
    use std::path::Path;
    use std::sync::atomic::{AtomicU64, Ordering};

    pub fn read(dir: Option<&Path>, name: &str) -> Result<Option<String>, String> {
        let Some(dir) = dir else { return Ok(None) };
        let path = dir.join(name);
        let size = match std::fs::metadata(&path) {
            Ok(metadata) => metadata.len(),
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e.to_string()),
        };
        if size > MOST_BYTES as u64 {
            return Err(format!("it is {size} bytes long; at most {MOST_BYTES} are read"));
        }
        match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8(bytes).map(Some).map_err(|_| "it is not text (not UTF-8)".into()),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }

    pub fn write(dir: Option<&Path>, name: &str, text: &str) -> Result<(), String> {
        write_bytes(dir, name, text.as_bytes())
    }

    /// A temporary name no other write uses, in this process or another.
    fn temporary_name(name: &str) -> String {
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let n = WRITES.fetch_add(1, Ordering::Relaxed);
        format!(".{name}.{}-{n}.new", std::process::id())
    }

    pub fn write_bytes(dir: Option<&Path>, name: &str, bytes: &[u8]) -> Result<(), String> {
        let dir = dir.ok_or("no folder to keep it in")?;
        let path = dir.join(name);
        let temporary = dir.join(temporary_name(name));
        let written = std::fs::create_dir_all(dir).and_then(|()| {
            let mut file = std::fs::File::create(&temporary)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            std::fs::rename(&temporary, &path)?;
            // The rename itself lasts once the folder is flushed too.
            std::fs::File::open(dir).and_then(|folder| folder.sync_all())
        });
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written.map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn remove(dir: Option<&Path>, name: &str) {
        if let Some(dir) = dir {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }

    pub fn set_aside(dir: Option<&Path>, name: &str) -> Result<String, String> {
        let dir = dir.ok_or("no folder")?;
        let kept = super::aside_name(name, |candidate| dir.join(candidate).exists());
        std::fs::rename(dir.join(name), dir.join(&kept)).map_err(|e| e.to_string())?;
        Ok(dir.join(kept).display().to_string())
    }

    /// The files of the data folder and of each child's place in it, by the name they are known
    /// by (`child-2/child.ron`).
    pub fn names(dir: Option<&Path>) -> Vec<String> {
        let Some(dir) = dir else { return Vec::new() };
        let list = |folder: &Path| -> Vec<(String, bool)> {
            let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
            entries
                .filter_map(Result::ok)
                .map(|e| (e.file_name().to_string_lossy().to_string(), e.path().is_dir()))
                .collect()
        };
        let mut names = Vec::new();
        for (name, is_dir) in list(dir) {
            if is_dir && name.starts_with("child-") {
                names.extend(
                    list(&dir.join(&name))
                        .into_iter()
                        .filter(|(_, d)| !d)
                        .map(|(f, _)| format!("{name}/{f}")),
                );
            } else if !is_dir {
                names.push(name);
            }
        }
        names.sort();
        names
    }

    pub fn remove_known(dir: Option<&Path>, known: &str) {
        if let Some(dir) = dir {
            let _ = std::fs::remove_file(dir.join(known));
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod backend {
    use super::MOST_BYTES;
    use crate::app::platform::web::storage_key as key;
    use std::path::Path;

    fn storage() -> Result<web_sys::Storage, String> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| "this browser keeps nothing (its storage is turned off)".to_string())
    }

    pub fn read(_dir: Option<&Path>, name: &str) -> Result<Option<String>, String> {
        let Ok(storage) = storage() else { return Ok(None) };
        let text =
            storage.get_item(&key(name)).map_err(|_| "the browser's storage cannot be read".to_string())?;
        match text {
            Some(text) if text.len() > MOST_BYTES => {
                Err(format!("it is {} bytes long; at most {MOST_BYTES} are read", text.len()))
            }
            other => Ok(other),
        }
    }

    pub fn write(_dir: Option<&Path>, name: &str, text: &str) -> Result<(), String> {
        storage()?.set_item(&key(name), text).map_err(|e| crate::app::platform::web::storage_error(&e))
    }

    pub fn remove(_dir: Option<&Path>, name: &str) {
        if let Ok(storage) = storage() {
            let _ = storage.remove_item(&key(name));
        }
    }

    pub fn set_aside(_dir: Option<&Path>, name: &str) -> Result<String, String> {
        let storage = storage()?;
        let text = storage.get_item(&key(name)).ok().flatten().ok_or("nothing kept")?;
        let kept =
            super::aside_name(&key(name), |candidate| storage.get_item(candidate).ok().flatten().is_some());
        storage.set_item(&kept, &text).map_err(|e| crate::app::platform::web::storage_error(&e))?;
        let _ = storage.remove_item(&key(name));
        Ok(kept)
    }

    /// Every key Tabla keeps, as it is known (`tabla.child-2/child`).
    pub fn names(_dir: Option<&Path>) -> Vec<String> {
        let Ok(storage) = storage() else { return Vec::new() };
        let count = storage.length().unwrap_or(0);
        let mut names: Vec<String> = (0..count)
            .filter_map(|i| storage.key(i).ok().flatten())
            .filter(|k| k.starts_with("tabla."))
            .collect();
        names.sort();
        names
    }

    pub fn remove_known(_dir: Option<&Path>, known: &str) {
        if let Ok(storage) = storage() {
            let _ = storage.remove_item(known);
        }
    }
}
