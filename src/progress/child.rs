//! What is kept of each child: an identity of their own, their picture and name, the stars of
//! every stage, each game's figures (free play counts here too, each game once however often it
//! was undone and finished again) and the diplomas they earned. One file per child, versioned; the
//! export file carries every child to another device, where the same child (known by their
//! identity) is merged: nothing earned on either device is taken away.

use super::path::{Path, Trail};
use super::stars::{Stars, stars_of};
use crate::quote::{cut_message, quote};
use crate::record::{MOST_BYTES, Record, RecordError};
use crate::rules::{GameKind, Outcome, Seat, Winner};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The version of a child's file and of the export file this Tabla writes.
pub const VERSION: u32 = 3;
/// The oldest version this Tabla still reads (version 1 had no identity and no counted games,
/// version 2 no reading aloud).
pub const OLDEST: u32 = 1;
/// Children on one device.
pub const MOST_CHILDREN: usize = 8;
/// The pictures a child chooses from, each one animal with its own colour.
pub const ANIMALS: usize = 8;
/// The longest name a child's picture carries.
pub const NAME_LENGTH: usize = 24;
/// Finished games remembered so that each is counted once (the oldest are forgotten).
pub const MOST_COUNTED: usize = 100;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Child {
    pub version: u32,
    /// Made at random when the child is made: the same child on another device has the same one.
    /// Empty in a file of version 1 (then the picture and the name tell the child).
    #[serde(default)]
    pub id: String,
    /// Which of the animals is the child's picture (0 to 7).
    pub animal: u8,
    /// The name a grown-up typed; empty: the animal's name is shown.
    #[serde(default)]
    pub name: String,
    /// Each stage's stars, by the stage's id.
    #[serde(default)]
    pub stars: BTreeMap<String, u8>,
    /// Each game's figures.
    #[serde(default)]
    pub figures: BTreeMap<GameKind, Figures>,
    /// Each diploma earned: its game and the day (YYYY-MM-DD).
    #[serde(default)]
    pub diplomas: BTreeMap<GameKind, String>,
    /// The finished games counted in the figures, the latest last: a game finished again after
    /// an undo replaces what it counted before.
    #[serde(default)]
    pub counted: Vec<Counted>,
    /// Whether Tabla reads aloud to the child, and how fast.
    #[serde(default)]
    pub reading: Reading,
}

/// How a child hears Tabla: read aloud or not, and how fast. On for a new child: a child who
/// cannot read yet is who needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Reading {
    pub aloud: bool,
    pub slow: bool,
    /// Whether the tutor warns before a slip; unset, it does in each game's first stages.
    pub tutor: Option<bool>,
}

impl Default for Reading {
    fn default() -> Self {
        Reading { aloud: true, slow: false, tutor: None }
    }
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

/// One finished game as the figures counted it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Counted {
    /// The game's identity (`Record::identity`).
    pub identity: String,
    pub game: GameKind,
    pub won: Option<bool>,
    pub drawn: bool,
    pub hints: u32,
    pub takebacks: u32,
}

/// How a game the child played ended, as the figures count it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The game's identity: the same game finished again is counted once.
    pub identity: String,
    pub game: GameKind,
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
            identity: record.identity(),
            game: record.game,
            won: person.filter(|_| !drawn).map(|seat| outcome.winner.includes(seat)),
            drawn,
            hints: record.hints_asked,
            takebacks: record.takebacks,
            day: day.to_string(),
        }
    }

    fn counted(&self) -> Counted {
        Counted {
            identity: self.identity.clone(),
            game: self.game,
            won: self.won,
            drawn: self.drawn,
            hints: self.hints,
            takebacks: self.takebacks,
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
    pub diplomas: Vec<GameKind>,
}

/// Why a kept file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProgressError {
    /// Not a file of this kind (RON's message, with its line).
    Unreadable(String),
    /// Older than any this Tabla reads.
    UnknownVersion(u32),
    /// Written by a newer Tabla: it is left as it is, never written over.
    Newer(u32),
    /// It reads, but what it says cannot be (an animal that is not there, too many children, a
    /// stage the path does not have).
    Wrong(String),
}

impl fmt::Display for ProgressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgressError::Unreadable(why) => write!(f, "it cannot be read: {why}"),
            ProgressError::UnknownVersion(v) => {
                write!(f, "unknown version {v} (this Tabla reads versions {OLDEST} to {VERSION})")
            }
            ProgressError::Newer(v) => {
                write!(f, "it was made by a newer Tabla (version {v}; this one reads up to {VERSION})")
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

/// What a newer Tabla's file of a child still tells: the picture and the name.
#[derive(Deserialize)]
#[serde(rename = "Child")]
struct Face {
    animal: u8,
    #[serde(default)]
    name: String,
}

fn unreadable(e: ron::error::SpannedError) -> ProgressError {
    ProgressError::Unreadable(cut_message(&format!("line {}: {}", e.span.start.line, e.code)))
}

/// `text` as a `T`, once it is small enough and its `version` (read first, alone) is one this
/// Tabla reads.
fn read_versioned<T: for<'de> Deserialize<'de>>(
    text: &str,
    version: impl FnOnce(&str) -> Result<u32, ron::error::SpannedError>,
) -> Result<T, ProgressError> {
    if text.len() > MOST_BYTES {
        return Err(ProgressError::Wrong(format!(
            "it is {} bytes long; at most {MOST_BYTES} are read",
            text.len()
        )));
    }
    let version = version(text).map_err(unreadable)?;
    if version > VERSION {
        return Err(ProgressError::Newer(version));
    }
    if version < OLDEST {
        return Err(ProgressError::UnknownVersion(version));
    }
    ron::from_str(text).map_err(unreadable)
}

fn pretty<T: Serialize>(value: &T) -> String {
    ron::ser::to_string_pretty(value, ron::ser::PrettyConfig::default()).expect("progress is plain data")
}

/// Characters a name never keeps: they hide or turn text (bidi overrides and isolates, marks
/// and zero-width characters), so two names that look the same would be two children.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}' | '\u{061C}' | '\u{180E}' | '\u{FEFF}' | '\u{00AD}')
}

impl Child {
    /// A child with no identity yet (as a file of version 1 has them); see `with_id`.
    pub fn new(animal: u8) -> Child {
        Child {
            version: VERSION,
            id: String::new(),
            animal: animal % ANIMALS as u8,
            name: String::new(),
            stars: BTreeMap::new(),
            figures: BTreeMap::new(),
            diplomas: BTreeMap::new(),
            counted: Vec::new(),
            reading: Reading::default(),
        }
    }

    /// The child with `id` as their identity.
    pub fn with_id(self, id: String) -> Child {
        Child { id, ..self }
    }

    pub fn from_ron(text: &str) -> Result<Child, ProgressError> {
        let mut child: Child = read_versioned(text, |t| ron::from_str::<ChildVersion>(t).map(|v| v.version))?;
        child.name = Child::clean_name(&child.name);
        child.check()?;
        child.version = VERSION;
        Ok(child)
    }

    /// The picture and name of a child's file of a newer Tabla (shown, never written over).
    pub fn peek(text: &str) -> Option<(u8, String)> {
        let face: Face = ron::from_str(text).ok()?;
        (usize::from(face.animal) < ANIMALS).then(|| (face.animal, Child::tidy_name(&face.name)))
    }

    pub fn to_ron(&self) -> String {
        pretty(&Child { version: VERSION, ..self.clone() })
    }

    fn check(&self) -> Result<(), ProgressError> {
        if usize::from(self.animal) >= ANIMALS {
            return Err(ProgressError::Wrong(format!(
                "there is no animal {} (they are 0 to {})",
                self.animal,
                ANIMALS - 1
            )));
        }
        if self.name.chars().count() > NAME_LENGTH {
            return Err(ProgressError::Wrong(format!("a name is one line of at most {NAME_LENGTH} letters")));
        }
        if self.id.len() > 32 || !self.id.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(ProgressError::Wrong(format!("'{}' is no child's identity", quote(&self.id))));
        }
        Ok(())
    }

    /// Checks everything a file brought from elsewhere says against this Tabla's path: known
    /// stages only, real days, a diploma only with the stars it is for. `Err` names the first
    /// entry that cannot be.
    fn check_on(&self, path: &Path) -> Result<(), String> {
        for (stage, &stars) in &self.stars {
            if path.stage(stage).is_none() {
                return Err(format!("the stage '{}' is not on the path", quote(stage)));
            }
            if stars > 7 {
                return Err(format!("the stage {stage} has stars {stars} (they are 0 to 7)"));
            }
        }
        for (&game, day) in &self.diplomas {
            let Some(trail) = path.trail(game) else {
                return Err(format!("a diploma of {game}, which has no trail"));
            };
            if !is_day(day) {
                return Err(format!("the diploma of {game} is dated '{}', which is no day", quote(day)));
            }
            if !self.trail_done(trail) {
                return Err(format!("a diploma of {game} without a star on every stage"));
            }
        }
        for (game, figures) in &self.figures {
            if !figures.last_played.is_empty() && !is_day(&figures.last_played) {
                return Err(format!(
                    "{game} was last played on '{}', which is no day",
                    quote(&figures.last_played)
                ));
            }
        }
        if self.counted.len() > MOST_COUNTED {
            return Err(format!("{} counted games (at most {MOST_COUNTED})", self.counted.len()));
        }
        Ok(())
    }

    /// A name as typed, kept to one line of at most `NAME_LENGTH` letters, without the
    /// characters that hide or turn text.
    pub fn tidy_name(name: &str) -> String {
        Child::clean_name(name).chars().take(NAME_LENGTH).collect::<String>().trim().to_string()
    }

    /// A name without the characters that hide or turn text, and no space at either end.
    fn clean_name(name: &str) -> String {
        name.chars().filter(|c| !hidden(*c)).collect::<String>().trim().to_string()
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

    /// Counts a finished game in its game's figures: once per game, so the same game finished
    /// again (after an undo) replaces what it counted before.
    pub fn count(&mut self, end: &GameEnd) {
        let before =
            self.counted.iter().position(|c| c.identity == end.identity).map(|i| self.counted.remove(i));
        let figures = self.figures.entry(end.game).or_default();
        match &before {
            Some(before) => figures.take_away(before),
            None => figures.played = figures.played.saturating_add(1),
        }
        figures.add(&end.counted());
        figures.last_played = end.day.clone();
        self.counted.push(end.counted());
        if self.counted.len() > MOST_COUNTED {
            self.counted.remove(0);
        }
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
        let Some(trail) = path.trail(record.game) else { return Ok(None) };
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
    pub fn add_time(&mut self, game: GameKind, seconds: u64, day: &str) {
        let figures = self.figures.entry(game).or_default();
        figures.seconds = figures.seconds.saturating_add(seconds);
        figures.last_played = day.to_string();
    }

    /// Whether every stage of the trail has a star: the game's diploma is earned.
    pub fn trail_done(&self, trail: &Trail) -> bool {
        trail.stages.iter().all(|stage| self.star_count(&stage.id) > 0)
    }

    /// Gives the diplomas newly earned (dated `day`); returns their games.
    pub fn award_diplomas(&mut self, path: &Path, day: &str) -> Vec<GameKind> {
        let mut new = Vec::new();
        for trail in &path.trails {
            if self.trail_done(trail) && !self.diplomas.contains_key(&trail.game) {
                self.diplomas.insert(trail.game, day.to_string());
                new.push(trail.game);
            }
        }
        new
    }

    /// Forgets one game's stars (and its diploma), from the grown-ups' page.
    pub fn clear_stars(&mut self, path: &Path, game: GameKind) {
        if let Some(trail) = path.trail(game) {
            for stage in &trail.stages {
                self.stars.remove(&stage.id);
            }
        }
        self.diplomas.remove(&game);
    }

    /// All the stars earned on the game's trail.
    pub fn trail_stars(&self, trail: &Trail) -> u32 {
        trail.stages.iter().map(|stage| self.star_count(&stage.id)).sum()
    }

    /// Whether `other` is the same child (on another device): the same identity, or, where either
    /// has none yet (a file of version 1), the same picture and name.
    pub fn same_child(&self, other: &Child) -> bool {
        if !self.id.is_empty() && !other.id.is_empty() {
            return self.id == other.id;
        }
        self.animal == other.animal && self.name.trim() == other.name.trim()
    }

    /// `other`'s progress (the same child, from another device) added to this child's: every star
    /// of either, each diploma at its earliest day, the larger of each figure. Nothing this child
    /// earned is taken away; their picture and name stay.
    pub fn merge(&mut self, other: &Child) {
        for (stage, stars) in &other.stars {
            let now = self.stars.entry(stage.clone()).or_default();
            *now |= stars;
        }
        for (&game, day) in &other.diplomas {
            let kept = self.diplomas.entry(game).or_insert_with(|| day.clone());
            if day < kept {
                *kept = day.clone();
            }
        }
        for (&game, theirs) in &other.figures {
            self.figures.entry(game).or_default().take_larger(theirs);
        }
        for counted in &other.counted {
            if !self.counted.iter().any(|c| c.identity == counted.identity) {
                self.counted.push(counted.clone());
            }
        }
        let excess = self.counted.len().saturating_sub(MOST_COUNTED);
        self.counted.drain(..excess);
        if self.name.is_empty() {
            self.name = other.name.clone();
        }
        if self.id.is_empty() {
            self.id = other.id.clone();
        }
    }
}

impl Figures {
    fn add(&mut self, counted: &Counted) {
        match counted.won {
            Some(true) => self.won = self.won.saturating_add(1),
            Some(false) => self.lost = self.lost.saturating_add(1),
            None => {}
        }
        if counted.drawn {
            self.drawn = self.drawn.saturating_add(1);
        }
        self.hints = self.hints.saturating_add(counted.hints);
        self.takebacks = self.takebacks.saturating_add(counted.takebacks);
    }

    fn take_away(&mut self, counted: &Counted) {
        match counted.won {
            Some(true) => self.won = self.won.saturating_sub(1),
            Some(false) => self.lost = self.lost.saturating_sub(1),
            None => {}
        }
        if counted.drawn {
            self.drawn = self.drawn.saturating_sub(1);
        }
        self.hints = self.hints.saturating_sub(counted.hints);
        self.takebacks = self.takebacks.saturating_sub(counted.takebacks);
    }

    fn take_larger(&mut self, other: &Figures) {
        self.played = self.played.max(other.played);
        self.won = self.won.max(other.won);
        self.lost = self.lost.max(other.lost);
        self.drawn = self.drawn.max(other.drawn);
        self.hints = self.hints.max(other.hints);
        self.takebacks = self.takebacks.max(other.takebacks);
        self.seconds = self.seconds.max(other.seconds);
        if other.last_played > self.last_played {
            self.last_played = other.last_played.clone();
        }
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
        let children = self.children.iter().map(|c| Child { version: VERSION, ..c.clone() }).collect();
        pretty(&Transfer { version: VERSION, children })
    }

    /// A file brought in, checked whole against `path`: the first entry that cannot be is named
    /// and nothing of the file is taken.
    pub fn from_ron(text: &str, path: &Path) -> Result<Transfer, ProgressError> {
        let mut transfer: Transfer =
            read_versioned(text, |t| ron::from_str::<TransferVersion>(t).map(|v| v.version))?;
        if transfer.children.len() > MOST_CHILDREN {
            return Err(ProgressError::Wrong(format!(
                "it holds {} children; a device keeps {MOST_CHILDREN}",
                transfer.children.len()
            )));
        }
        for (number, child) in transfer.children.iter_mut().enumerate() {
            let wrong = |why: String| ProgressError::Wrong(format!("child {}: {why}", number + 1));
            if child.version > VERSION {
                return Err(ProgressError::Newer(child.version));
            }
            child.name = Child::clean_name(&child.name);
            child.check().map_err(|e| wrong(e.to_string()))?;
            child.check_on(path).map_err(wrong)?;
            child.version = VERSION;
        }
        Ok(transfer)
    }
}

/// What bringing a file's children to a device does with each of them.
#[derive(Clone, Debug, PartialEq)]
pub enum Merge {
    /// A child this device does not have: added in a free place.
    Add(Child),
    /// The same child on both: `merged` is this device's child (`slot`) with the file's progress
    /// added.
    Merged { slot: usize, merged: Child },
    /// No free place left for this child.
    NoRoom(Child),
    /// The device has all this child's progress already.
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
                Some((slot, existing)) => {
                    let mut merged = existing.clone();
                    merged.merge(&incoming);
                    if merged == *existing { Merge::Same } else { Merge::Merged { slot, merged } }
                }
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

/// Whether `text` is a real day written YYYY-MM-DD.
pub fn is_day(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let [year, month, day] = parts[..] else { return false };
    let number = |part: &str, digits: usize| {
        (part.len() == digits && part.bytes().all(|b| b.is_ascii_digit()))
            .then(|| part.parse::<u32>().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (number(year, 4), number(month, 2), number(day, 2)) else {
        return false;
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}
