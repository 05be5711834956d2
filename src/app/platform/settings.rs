//! The player's settings (language, sound, reading aloud when no child plays, the last choices on
//! each setup screen, the child who played last, the room server and name last used), kept between
//! runs in the store and written only when one of them changed. The file is read field by field:
//! one bad or outdated field falls back to its default alone; a file that is no settings file is
//! set aside with a message and the defaults are used; a file of a newer Tabla (or one that cannot
//! be read now) is left as it is and never written over.

use super::store::{SETTINGS, Store};
use crate::app::launch::{Control, Launch, Opponent};
use crate::i18n::{Language, Strings};
use crate::progress::Reading;
use crate::quote::{cut_message, quote};
use crate::robot::RobotLevel;
use crate::rules::GameKind;
use bevy::prelude::*;
use ron::value::RawValue;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tracing::warn;

#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub language: Language,
    pub sound: bool,
    /// The last setup chosen for each game.
    pub choices: BTreeMap<GameKind, Choices>,
    /// The child who played last on this device (0 to 7): `--continue` goes on with their game.
    pub last_child: Option<u8>,
    /// Reading aloud when no child plays (each child has their own).
    pub reading: Reading,
    /// The room server's address last used for playing with someone far away.
    pub server: String,
    /// The first name last given there.
    pub far_name: String,
}

/// The room server's address until another is given: `tabla serve` on this computer.
pub const DEFAULT_SERVER: &str = "http://127.0.0.1:8790";

/// The room server a first room is made on: in the browser the page's own (`tabla serve --web`
/// serves both), on the desktop `DEFAULT_SERVER`.
pub fn first_server() -> String {
    super::web::page_address().map_or_else(|| DEFAULT_SERVER.to_string(), |(origin, _)| origin)
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            language: system::system_language(),
            sound: true,
            choices: BTreeMap::new(),
            last_child: None,
            reading: Reading::default(),
            server: first_server(),
            far_name: String::new(),
        }
    }
}

/// The settings file is one this Tabla must not write over (a newer Tabla's, or one it cannot
/// read now): the settings are used, never written.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct SettingsKeptAsThey(pub Option<String>);

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
    // The store is there from the first system on (the first screen looks for a saved game).
    let dir = app.world().get_resource::<Launch>().and_then(|launch| launch.settings_dir.clone());
    app.insert_resource(Store::new(dir.as_deref()));
    app.add_systems(PreStartup, load);
    app.add_systems(Update, (save, follow_language).run_if(resource_changed::<Settings>));
}

/// The version of the settings file this Tabla writes; a newer one is set aside, not guessed at.
pub const SETTINGS_VERSION: u32 = 1;

/// The settings file as written, each field kept as its own text so one bad or outdated field
/// falls back alone.
#[derive(Deserialize, Default)]
#[serde(default)]
struct RawSettings {
    #[serde(deserialize_with = "present")]
    version: Option<u32>,
    #[serde(deserialize_with = "present")]
    language: Option<Box<RawValue>>,
    #[serde(deserialize_with = "present")]
    sound: Option<Box<RawValue>>,
    #[serde(deserialize_with = "present")]
    choices: Option<BTreeMap<String, Box<RawValue>>>,
    #[serde(deserialize_with = "present")]
    last_child: Option<Box<RawValue>>,
    #[serde(deserialize_with = "present")]
    reading: Option<Box<RawValue>>,
    #[serde(deserialize_with = "present")]
    server: Option<Box<RawValue>>,
    #[serde(deserialize_with = "present")]
    far_name: Option<Box<RawValue>>,
}

/// A field that is written is there (RON would otherwise want `Some(…)` around it); a field
/// left out is `None` by `default`.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(field: D) -> Result<Option<T>, D::Error> {
    T::deserialize(field).map(Some)
}

/// Reads a settings file field by field: what cannot be read falls back to its default alone,
/// named in the notes. `Err` when the file is no settings file at all, or of a newer version.
pub fn read_settings(text: &str) -> Result<(Settings, Vec<String>), SettingsError> {
    let raw: RawSettings = ron::from_str(text).map_err(|e| {
        SettingsError::Unreadable(format!("not a settings file: {}", cut_message(&e.to_string())))
    })?;
    if let Some(version) = raw.version.filter(|&v| v > SETTINGS_VERSION) {
        return Err(SettingsError::Newer(format!(
            "settings of version {version}, made by a newer Tabla (this one reads version {SETTINGS_VERSION})"
        )));
    }
    let mut settings = Settings::default();
    let mut notes = Vec::new();
    let mut field = |name: &str, value: &Option<Box<RawValue>>, apply: &mut dyn FnMut(&RawValue) -> bool| {
        if let Some(value) = value
            && !apply(value)
        {
            notes.push(format!(
                "the setting '{}' ({}) could not be read; it is back to its default",
                quote(name),
                quote(value.get_ron().trim())
            ));
        }
    };
    field("language", &raw.language, &mut |v| v.into_rust().map(|l| settings.language = l).is_ok());
    field("sound", &raw.sound, &mut |v| v.into_rust().map(|on| settings.sound = on).is_ok());
    field("last_child", &raw.last_child, &mut |v| {
        v.into_rust::<Option<u8>>().map(|slot| settings.last_child = slot.filter(|&s| s < 8)).is_ok()
    });
    field("reading", &raw.reading, &mut |v| v.into_rust().map(|r| settings.reading = r).is_ok());
    field("server", &raw.server, &mut |v| v.into_rust().map(|s| settings.server = s).is_ok());
    field("far_name", &raw.far_name, &mut |v| v.into_rust().map(|n| settings.far_name = n).is_ok());
    for (game, value) in raw.choices.unwrap_or_default() {
        field(&format!("choices of {game}"), &Some(value), &mut |v| {
            let kind = GameKind::parse(&game);
            kind.and_then(|kind| {
                v.into_rust::<Choices>().map(|c| settings.choices.insert(kind, c)).map_err(|e| e.to_string())
            })
            .is_ok()
        });
    }
    Ok((settings, notes))
}

/// The settings as the file keeps them, with their version.
fn write_settings(settings: &Settings) -> Result<String, String> {
    #[derive(Serialize)]
    struct Written<'a> {
        version: u32,
        language: Language,
        sound: bool,
        choices: &'a BTreeMap<GameKind, Choices>,
        last_child: Option<u8>,
        reading: Reading,
        server: &'a str,
        far_name: &'a str,
    }
    let written = Written {
        version: SETTINGS_VERSION,
        language: settings.language,
        sound: settings.sound,
        choices: &settings.choices,
        last_child: settings.last_child,
        reading: settings.reading,
        server: &settings.server,
        far_name: &settings.far_name,
    };
    ron::ser::to_string_pretty(&written, ron::ser::PrettyConfig::default()).map_err(|e| e.to_string())
}

/// Why a settings file is not read.
#[derive(Clone, Debug, PartialEq)]
pub enum SettingsError {
    /// It is no settings file: it is set aside.
    Unreadable(String),
    /// A newer Tabla's: it is left as it is.
    Newer(String),
}

/// The settings as kept (the command line's language on top), and whether they may be written.
pub fn read_kept_settings(store: &Store, launch: &Launch) -> (Settings, SettingsKeptAsThey) {
    let (mut settings, kept_as_they) = match store.read(SETTINGS) {
        Ok(None) => (Settings::default(), None),
        Ok(Some(text)) => match read_settings(&text) {
            Ok((settings, notes)) => {
                for note in notes {
                    warn!("{note}");
                }
                (settings, None)
            }
            Err(SettingsError::Unreadable(why)) => {
                store.set_aside(SETTINGS, &why);
                (Settings::default(), None)
            }
            Err(SettingsError::Newer(why)) => {
                warn!("{why}: used as they are, never written over");
                (Settings::default(), Some(why))
            }
        },
        Err(why) => {
            warn!("{why}");
            (Settings::default(), Some(why))
        }
    };
    if let Some(language) = launch.language {
        settings.language = language;
    }
    (settings, SettingsKeptAsThey(kept_as_they))
}

fn load(mut commands: Commands, launch: Res<Launch>, store: Res<Store>) {
    let (settings, kept_as_they) = read_kept_settings(&store, &launch);
    commands.insert_resource(Words(Strings::new(settings.language)));
    commands.insert_resource(settings);
    commands.insert_resource(kept_as_they);
}

fn save(
    settings: Res<Settings>,
    launch: Res<Launch>,
    store: Res<Store>,
    kept_as_they: Res<SettingsKeptAsThey>,
) {
    // The tour shows screens in several languages; it must not change the player's settings.
    if launch.tour.is_some() || settings.is_added() || kept_as_they.0.is_some() {
        return;
    }
    if let Ok(text) = write_settings(&settings) {
        // A failure is remembered and said by the store.
        let _ = store.write(SETTINGS, &text);
    }
}

fn follow_language(settings: Res<Settings>, mut words: ResMut<Words>) {
    if words.language != settings.language {
        words.0 = Strings::new(settings.language);
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod system {
    use crate::i18n::Language;

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
mod system {
    use crate::i18n::Language;

    pub fn system_language() -> Language {
        web_sys::window()
            .and_then(|w| w.navigator().language())
            .map(|locale| Language::from_locale(&locale))
            .unwrap_or_default()
    }
}
