//! What is kept of each child: their picture and name, the stars of every stage, each game's
//! figures (free play counts here too) and the diplomas they earned. One file per child, versioned;
//! the export file carries every child to another device, where each is added or, when that child
//! is there already, kept as the grown-up chooses.

use super::path::{Path, Trail};
use super::stars::{Stars, stars_of};
use crate::record::{Record, RecordError};
use crate::rules::{Outcome, Seat, Winner};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The version of a child's file and of the export file this Tabla writes and reads.
pub const VERSION: u32 = 1;
/// Children on one device.
pub const MOST_CHILDREN: usize = 8;
/// The pictures a child chooses from, each one animal with its own colour.
pub const ANIMALS: usize = 8;
/// The longest name a child's picture carries.
pub const NAME_LENGTH: usize = 24;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Child {
    pub version: u32,
    /// Which of the animals is the child's picture (0 to 7).
    pub animal: u8,
    /// The name a grown-up typed; empty: the animal's name is shown.
    #[serde(default)]
    pub name: String,
    /// Each stage's stars, by the stage's id.
    #[serde(default)]
    pub stars: BTreeMap<String, u8>,
    /// Each game's figures, by the game's code name.
    #[serde(default)]
    pub figures: BTreeMap<String, Figures>,
    /// Each diploma earned: the game's code name and the day (YYYY-MM-DD).
    #[serde(default)]
    pub diplomas: BTreeMap<String, String>,
}

/// What a child did in one game, stages and free play alike.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Figures {
    pub played: u32,
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
    pub hints: u32,
    pub takebacks: u32,
    pub seconds: u64,
    /// The day last played (YYYY-MM-DD); empty: never.
    pub last_played: String,
}

/// How a game the child played ended, as the figures count it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub game: String,
    /// `Some(true)` won, `Some(false)` lost, `None` a draw or a game between friends.
    pub won: Option<bool>,
    pub drawn: bool,
    pub hints: u32,
    pub takebacks: u32,
    pub day: String,
}

impl GameEnd {
    /// How `record` ended by `outcome`, for the `person` who played it against the Robot (`None`
    /// between friends: neither won nor lost).
    pub fn of(record: &Record, outcome: Outcome, person: Option<Seat>, day: &str) -> GameEnd {
        let drawn = outcome.winner == Winner::Draw;
        GameEnd {
            game: record.game.clone(),
            won: person.filter(|_| !drawn).map(|seat| outcome.winner.includes(seat)),
            drawn,
            hints: record.hints_asked,
            takebacks: record.takebacks,
            day: day.to_string(),
        }
    }
}

/// What a game won on a stage brought: its stars new to the stage, the stage it opened and the
/// diplomas it earned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StageResult {
    pub stage: String,
    pub new: Stars,
    pub opened: Option<String>,
    pub diplomas: Vec<String>,
}

/// Why a kept file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgressError {
    /// Not a file of this kind (RON's message, with its line).
    Unreadable(String),
    UnknownVersion(u32),
    /// It reads, but what it says cannot be (an animal that is not there, too many children).
    Wrong(String),
}

impl fmt::Display for ProgressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgressError::Unreadable(why) => write!(f, "it cannot be read: {why}"),
            ProgressError::UnknownVersion(v) => {
                write!(f, "unknown version {v} (this Tabla reads version {VERSION})")
            }
            ProgressError::Wrong(why) => write!(f, "{why}"),
        }
    }
}

/// Read first and alone, so a file of another version names its version (its struct's name
/// written or not).
#[derive(Deserialize)]
#[serde(rename = "Child")]
struct ChildVersion {
    version: u32,
}

#[derive(Deserialize)]
#[serde(rename = "Transfer")]
struct TransferVersion {
    version: u32,
}

fn unreadable(e: ron::error::SpannedError) -> ProgressError {
    ProgressError::Unreadable(format!("line {}: {}", e.span.start.line, e.code))
}

/// `text` as a `T`, once its `version` (read first, alone) is this Tabla's.
fn read_versioned<T: for<'de> Deserialize<'de>>(
    text: &str,
    version: Result<u32, ron::error::SpannedError>,
) -> Result<T, ProgressError> {
    let version = version.map_err(unreadable)?;
    if version != VERSION {
        return Err(ProgressError::UnknownVersion(version));
    }
    ron::from_str(text).map_err(unreadable)
}

fn pretty<T: Serialize>(value: &T) -> String {
    ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default()).expect("progress is plain data")
}

impl Child {
    pub fn new(animal: u8) -> Child {
        Child {
            version: VERSION,
            animal: animal % ANIMALS as u8,
            name: String::new(),
            stars: BTreeMap::new(),
            figures: BTreeMap::new(),
            diplomas: BTreeMap::new(),
        }
    }

    pub fn from_ron(text: &str) -> Result<Child, ProgressError> {
        let child: Child = read_versioned(text, ron::from_str::<ChildVersion>(text).map(|v| v.version))?;
        child.check()?;
        Ok(child)
    }

    pub fn to_ron(&self) -> String {
        pretty(self)
    }

    fn check(&self) -> Result<(), ProgressError> {
        if usize::from(self.animal) >= ANIMALS {
            return Err(ProgressError::Wrong(format!(
                "there is no animal {} (they are 0 to {})",
                self.animal,
                ANIMALS - 1
            )));
        }
        if self.name.chars().count() > NAME_LENGTH || self.name.chars().any(char::is_control) {
            return Err(ProgressError::Wrong(format!("a name is one line of at most {NAME_LENGTH} letters")));
        }
        Ok(())
    }

    /// A name as typed, kept to one line of at most `NAME_LENGTH` letters.
    pub fn tidy_name(name: &str) -> String {
        name.chars().filter(|c| !c.is_control()).take(NAME_LENGTH).collect::<String>().trim().to_string()
    }

    /// Every star earned on the path.
    pub fn total_stars(&self, path: &Path) -> u32 {
        path.trails.iter().map(|trail| self.trail_stars(trail)).sum()
    }

    /// A stage's stars.
    pub fn stars(&self, stage: &str) -> Stars {
        Stars(self.stars.get(stage).copied().unwrap_or(0))
    }

    /// A stage's star count, as the path's trails ask it.
    pub fn star_count(&self, stage: &str) -> u32 {
        self.stars(stage).count()
    }

    /// Keeps the stars earned on `stage`; returns the stars that are new.
    pub fn earn(&mut self, stage: &str, earned: Stars) -> Stars {
        let before = self.stars(stage);
        let now = before.with(earned);
        if now.0 != 0 {
            self.stars.insert(stage.to_string(), now.0);
        }
        Stars(now.0 & !before.0)
    }

    /// Counts a finished game in its game's figures.
    pub fn count(&mut self, end: &GameEnd) {
        let figures = self.figures.entry(end.game.clone()).or_default();
        figures.played += 1;
        match end.won {
            Some(true) => figures.won += 1,
            Some(false) => figures.lost += 1,
            None => {}
        }
        if end.drawn {
            figures.drawn += 1;
        }
        figures.hints += end.hints;
        figures.takebacks += end.takebacks;
        figures.last_played = end.day.clone();
    }

    /// A finished game: counted in its game's figures and, played on a stage this child may
    /// play, judged for its stars (which may open the next stage and bring a diploma). `Err` when
    /// the record cannot be judged (it is counted all the same).
    pub fn finish(
        &mut self,
        path: &Path,
        record: &Record,
        end: &GameEnd,
    ) -> Result<Option<StageResult>, RecordError> {
        self.count(end);
        let Some(trail) = path.trail(&record.game) else { return Ok(None) };
        let Some(index) = record.stage.as_deref().and_then(|id| trail.stages.iter().position(|s| s.id == id))
        else {
            return Ok(None);
        };
        // A stage still locked for this child earns nothing (another child's record).
        if !trail.can_play(index, |id| self.star_count(id)) {
            return Ok(None);
        }
        let stage = &trail.stages[index];
        let earned = stars_of(stage, record)?;
        let next_before = trail.next(|id| self.star_count(id));
        let new = self.earn(&stage.id, earned);
        let next_now = trail.next(|id| self.star_count(id));
        let opened = next_now.filter(|_| next_now != next_before).map(|i| trail.stages[i].id.clone());
        let diplomas = self.award_diplomas(path, &end.day);
        Ok(Some(StageResult { stage: stage.id.clone(), new, opened, diplomas }))
    }

    /// Adds time played at a game (finished or not).
    pub fn add_time(&mut self, game: &str, seconds: u64, day: &str) {
        let figures = self.figures.entry(game.to_string()).or_default();
        figures.seconds += seconds;
        figures.last_played = day.to_string();
    }

    /// Whether every stage of the trail has a star: the game's diploma is earned.
    pub fn trail_done(&self, trail: &Trail) -> bool {
        trail.stages.iter().all(|stage| self.star_count(&stage.id) > 0)
    }

    /// Gives the diplomas newly earned (dated `day`); returns their games.
    pub fn award_diplomas(&mut self, path: &Path, day: &str) -> Vec<String> {
        let mut new = Vec::new();
        for trail in &path.trails {
            if self.trail_done(trail) && !self.diplomas.contains_key(&trail.game) {
                self.diplomas.insert(trail.game.clone(), day.to_string());
                new.push(trail.game.clone());
            }
        }
        new
    }

    /// Forgets one game's stars (and its diploma), from the grown-ups' page.
    pub fn clear_stars(&mut self, path: &Path, game: &str) {
        if let Some(trail) = path.trail(game) {
            for stage in &trail.stages {
                self.stars.remove(&stage.id);
            }
        }
        self.diplomas.remove(game);
    }

    /// All the stars earned on the game's trail.
    pub fn trail_stars(&self, trail: &Trail) -> u32 {
        trail.stages.iter().map(|stage| self.star_count(&stage.id)).sum()
    }

    /// Whether `other` is the same child (on another device): the same picture and name.
    pub fn same_child(&self, other: &Child) -> bool {
        self.animal == other.animal && self.name.trim() == other.name.trim()
    }
}

/// Every child's progress in one file, to carry to another device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transfer {
    pub version: u32,
    pub children: Vec<Child>,
}

impl Transfer {
    pub fn new(children: Vec<Child>) -> Transfer {
        Transfer { version: VERSION, children }
    }

    pub fn to_ron(&self) -> String {
        pretty(self)
    }

    pub fn from_ron(text: &str) -> Result<Transfer, ProgressError> {
        let transfer: Transfer =
            read_versioned(text, ron::from_str::<TransferVersion>(text).map(|v| v.version))?;
        if transfer.children.len() > MOST_CHILDREN {
            return Err(ProgressError::Wrong(format!(
                "it holds {} children; a device keeps {MOST_CHILDREN}",
                transfer.children.len()
            )));
        }
        for child in &transfer.children {
            child.check()?;
        }
        Ok(transfer)
    }
}

/// What bringing a file's children to a device does with each of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Merge {
    /// A child this device does not have: added in a free place.
    Add(Child),
    /// The same child on both: the grown-up chooses which to keep (`slot` is this device's).
    Choose { slot: usize, here: Child, file: Child },
    /// No free place left for this child.
    NoRoom(Child),
    /// The device has this child exactly as the file has it.
    Same,
}

/// How the file's children meet the device's (`here`, by slot; `None` a free slot).
pub fn plan_merge(here: &[Option<Child>], file: Transfer) -> Vec<Merge> {
    let mut free = here.iter().filter(|c| c.is_none()).count();
    file.children
        .into_iter()
        .map(|incoming| {
            let same = here
                .iter()
                .enumerate()
                .find_map(|(slot, c)| c.as_ref().filter(|c| c.same_child(&incoming)).map(|c| (slot, c)));
            match same {
                Some((_, existing)) if *existing == incoming => Merge::Same,
                Some((slot, existing)) => Merge::Choose { slot, here: existing.clone(), file: incoming },
                None if free > 0 => {
                    free -= 1;
                    Merge::Add(incoming)
                }
                None => Merge::NoRoom(incoming),
            }
        })
        .collect()
}

/// The day `days` after 1970-01-01, as YYYY-MM-DD (the civil calendar).
pub fn day_text(days: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
