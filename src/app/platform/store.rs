//! Where what a child or a parent makes is kept (the settings, the game in progress, the last
//! game): files in the data folder on the desktop, written to a temporary file, flushed and
//! renamed over the last one, so a kill at any instant leaves the old file or the new one, whole;
//! `localStorage` in the browser. A file that cannot be read is set aside under a new name,
//! never deleted.

use bevy::prelude::*;
use std::path::{Path, PathBuf};

/// The settings.
pub const SETTINGS: &str = "settings.ron";
/// The game in progress, until it ends.
pub const GAME: &str = "game.ron";
/// The last game that ended.
pub const LAST_GAME: &str = "last_game.ron";
/// A child's picture, name, stars, figures and diplomas (in the child's own place).
pub const CHILD: &str = "child.ron";
/// The folder records are given out to.
const RECORDS: &str = "records";

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
}

impl Store {
    /// The given folder, else `$TABLA_HOME`, else the user's configuration folder.
    pub fn new(dir: Option<&Path>) -> Store {
        let dir = dir
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("TABLA_HOME").map(PathBuf::from))
            .or_else(|| std::env::var_os("XDG_CONFIG_HOME").map(|d| PathBuf::from(d).join("tabla")))
            .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".config").join("tabla")));
        Store { dir, scope: None, child: None }
    }

    /// The place of the child in `slot` (0 to 7).
    pub fn of_child(&self, slot: usize) -> Store {
        Store { dir: self.dir.clone(), scope: Some(format!("child-{}", slot + 1)), child: None }
    }

    /// The child now playing, whose place keeps the games.
    pub fn child(&self) -> Option<usize> {
        self.child
    }

    pub fn choose_child(&mut self, slot: Option<usize>) {
        self.child = slot;
    }

    /// Where the games are kept: the playing child's place, or the device's when nobody chose.
    pub fn games(&self) -> Store {
        match self.child {
            Some(slot) => self.of_child(slot),
            None => self.clone(),
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

    /// The name the browser keeps `name` of this place under (for the page's last moment).
    pub fn scoped(&self, name: &str) -> String {
        match &self.scope {
            Some(scope) => format!("{scope}/{name}"),
            None => name.to_string(),
        }
    }

    pub fn read(&self, name: &str) -> Option<String> {
        let (dir, name) = self.place(name);
        backend::read(dir.as_deref(), &name)
    }

    /// Keeps `text` as `name`; an error says what failed.
    pub fn write(&self, name: &str, text: &str) -> Result<(), String> {
        let (dir, name) = self.place(name);
        backend::write(dir.as_deref(), &name, text)
    }

    pub fn remove(&self, name: &str) {
        let (dir, name) = self.place(name);
        backend::remove(dir.as_deref(), &name);
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
        let message = match backend::set_aside(dir.as_deref(), &file) {
            Ok(kept) => format!("{name} could not be used ({why}); it is kept as {kept}"),
            Err(e) => format!("{name} could not be used ({why}), and could not be set aside: {e}"),
        };
        tracing::warn!("{message}");
        message
    }
}

/// The name a file set aside gets: the first `<name>.broken-<n>` not taken yet.
fn aside_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    (1..).map(|n| format!("{name}.broken-{n}")).find(|candidate| !taken(candidate)).expect("a free name")
}

#[cfg(not(target_arch = "wasm32"))]
mod backend {
    use std::io::Write;
    use std::path::Path;

    pub fn read(dir: Option<&Path>, name: &str) -> Option<String> {
        std::fs::read_to_string(dir?.join(name)).ok()
    }

    pub fn write(dir: Option<&Path>, name: &str, text: &str) -> Result<(), String> {
        write_bytes(dir, name, text.as_bytes())
    }

    pub fn write_bytes(dir: Option<&Path>, name: &str, bytes: &[u8]) -> Result<(), String> {
        let dir = dir.ok_or("no folder to keep it in")?;
        let path = dir.join(name);
        let temporary = dir.join(format!(".{name}.new"));
        let written = std::fs::create_dir_all(dir).and_then(|()| {
            let mut file = std::fs::File::create(&temporary)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            std::fs::rename(&temporary, &path)?;
            // The rename itself lasts once the folder is flushed too.
            std::fs::File::open(dir).and_then(|folder| folder.sync_all())
        });
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
}

#[cfg(target_arch = "wasm32")]
mod backend {
    use std::path::Path;

    fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok()?
    }

    use crate::app::platform::web::storage_key as key;

    pub fn read(_dir: Option<&Path>, name: &str) -> Option<String> {
        storage()?.get_item(&key(name)).ok()?
    }

    pub fn write(_dir: Option<&Path>, name: &str, text: &str) -> Result<(), String> {
        let storage = storage().ok_or("this browser keeps nothing (no localStorage)")?;
        storage.set_item(&key(name), text).map_err(|_| "the browser's storage is full".to_string())
    }

    pub fn remove(_dir: Option<&Path>, name: &str) {
        if let Some(storage) = storage() {
            let _ = storage.remove_item(&key(name));
        }
    }

    pub fn set_aside(_dir: Option<&Path>, name: &str) -> Result<String, String> {
        let storage = storage().ok_or("no localStorage")?;
        let text = storage.get_item(&key(name)).ok().flatten().ok_or("nothing kept")?;
        let kept =
            super::aside_name(&key(name), |candidate| storage.get_item(candidate).ok().flatten().is_some());
        storage.set_item(&kept, &text).map_err(|_| "the browser's storage is full".to_string())?;
        let _ = storage.remove_item(&key(name));
        Ok(kept)
    }
}
