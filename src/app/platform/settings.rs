//! The player's settings (language, sound, the last choices on each setup screen), kept between
//! runs. A missing or broken settings file gives the defaults, never a crash.

use crate::app::launch::{Control, Launch, Opponent};
use crate::i18n::{Language, Strings};
use crate::robot::RobotLevel;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tracing::warn;

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub language: Language,
    pub sound: bool,
    /// The last setup chosen for each game, by the game's code name.
    pub choices: BTreeMap<String, Choices>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { language: storage::system_language(), sound: true, choices: BTreeMap::new() }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Choices {
    pub variant: String,
    pub opponent: Opponent,
    /// 0 White, 1 Black: the person's colour against the Robot.
    pub colour: u8,
    pub robot_level: RobotLevel,
    pub clock_minutes: u32,
    /// Who plays each seat, for games set up seat by seat (empty: not chosen yet).
    pub seats: Vec<Control>,
    /// The seat that starts, for games set up seat by seat.
    pub first: u8,
}

impl Default for Choices {
    fn default() -> Self {
        Choices {
            variant: String::new(),
            opponent: Opponent::Robot,
            colour: 0,
            robot_level: RobotLevel::One,
            clock_minutes: 0,
            seats: Vec::new(),
            first: 0,
        }
    }
}

/// The words of the chosen language.
#[derive(Resource, Deref)]
pub struct Words(pub Strings);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PreStartup, load);
    app.add_systems(Update, (save, follow_language).run_if(resource_changed::<Settings>));
}

fn load(mut commands: Commands, launch: Res<Launch>) {
    let mut settings = match storage::read(launch.settings_dir.as_deref()) {
        Some(text) => ron::from_str::<Settings>(&text).unwrap_or_else(|e| {
            warn!("the settings could not be read ({e}); starting from the defaults");
            Settings::default()
        }),
        None => Settings::default(),
    };
    if let Some(language) = launch.language {
        settings.language = language;
    }
    commands.insert_resource(Words(Strings::new(settings.language)));
    commands.insert_resource(settings);
}

fn save(settings: Res<Settings>, launch: Res<Launch>) {
    // The tour shows screens in several languages; it must not change the player's settings.
    if launch.tour.is_some() || settings.is_added() {
        return;
    }
    match ron::ser::to_string_pretty(&*settings, ron::ser::PrettyConfig::default()) {
        Ok(text) => storage::write(launch.settings_dir.as_deref(), &text),
        Err(e) => warn!("the settings could not be written: {e}"),
    }
}

fn follow_language(settings: Res<Settings>, mut words: ResMut<Words>) {
    if words.language != settings.language {
        words.0 = Strings::new(settings.language);
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod storage {
    use crate::i18n::Language;
    use std::path::{Path, PathBuf};

    /// The given folder, else `$TABLA_HOME`, else the user's configuration folder.
    fn file(dir: Option<&Path>) -> Option<PathBuf> {
        let dir = dir
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("TABLA_HOME").map(PathBuf::from))
            .or_else(|| std::env::var_os("XDG_CONFIG_HOME").map(|d| PathBuf::from(d).join("tabla")))
            .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".config").join("tabla")))?;
        Some(dir.join("settings.ron"))
    }

    pub fn read(dir: Option<&Path>) -> Option<String> {
        std::fs::read_to_string(file(dir)?).ok()
    }

    pub fn write(dir: Option<&Path>, text: &str) {
        let Some(path) = file(dir) else { return };
        let written =
            path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| std::fs::write(&path, text));
        if let Err(e) = written {
            tracing::warn!("the settings could not be saved to {}: {e}", path.display());
        }
    }

    pub fn system_language() -> Language {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|name| std::env::var(name).ok())
            .find(|value| !value.is_empty())
            .map(|locale| Language::from_locale(&locale))
            .unwrap_or_default()
    }
}

#[cfg(target_arch = "wasm32")]
mod storage {
    use crate::i18n::Language;

    const KEY: &str = "tabla.settings";

    fn local_storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok()?
    }

    pub fn read(_dir: Option<&std::path::Path>) -> Option<String> {
        local_storage()?.get_item(KEY).ok()?
    }

    pub fn write(_dir: Option<&std::path::Path>, text: &str) {
        if let Some(storage) = local_storage() {
            let _ = storage.set_item(KEY, text);
        }
    }

    pub fn system_language() -> Language {
        web_sys::window()
            .and_then(|w| w.navigator().language())
            .map(|locale| Language::from_locale(&locale))
            .unwrap_or_default()
    }
}
