//! A game's record: its level, its seed, who played each seat, the clocks, and every action in
//! the text interface's notation, written as RON. It is what is saved, continued, exported and
//! replayed; replaying goes through the rules (`Game::parse_action` and `History::play`), so a
//! record is only ever as good as the rules say it is.

use crate::history::{History, TIME_OUT};
use crate::levels::{self, FromLevel, Level, LevelError};
use crate::quote::{cut_message, quote};
use crate::robot::RobotLevel;
use crate::rules::bunnies::BunniesAndHorses;
use crate::rules::circles::Circles;
use crate::rules::halma::Halma;
use crate::rules::knight_hunt::KnightHunt;
use crate::rules::nard::Nard;
use crate::rules::{Game, GameKind, RuleError, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The version of the record this Tabla writes and reads.
pub const VERSION: u32 = 1;
/// The largest file of a child's or a record's that is read (a megabyte); a larger one is
/// refused before it is read.
pub const MOST_BYTES: usize = 1 << 20;
/// The most actions (with those undone) a record may hold.
pub const MOST_ACTIONS: usize = 20_000;

/// Who plays a seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Control {
    Person,
    Robot(RobotLevel),
    /// A seat of a room played on another device (or by the room's Robot): its actions come from
    /// the room's server.
    Far,
}

/// One game from its start (a whole match, for Crazy Nard).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub version: u32,
    /// The level is `ron_configs/<game>/<variant>.ron`; a game Tabla does not have is refused
    /// as the record is read.
    pub game: GameKind,
    pub variant: String,
    /// The seat that starts (seats in the game's order).
    pub first: u8,
    /// The history's seed: the dice and the Robot's choices still to come follow from it.
    pub seed: u64,
    /// Who plays each seat.
    pub seats: Vec<Control>,
    /// Minutes per player; 0 without a clock.
    #[serde(default)]
    pub clock_minutes: u32,
    /// Each seat's time left; `None` without a clock.
    #[serde(default)]
    pub clock_left_ms: Option<Vec<u64>>,
    /// Every action since the start, as `Game::action_text` writes it in the state before it; a
    /// clock running out is `time_out <seat name>`.
    pub actions: Vec<String>,
    /// What redo would bring back, the next first.
    #[serde(default)]
    pub undone: Vec<String>,
    /// The numbers (from 1, over `actions` then `undone`) of the actions a hint proposed.
    #[serde(default)]
    pub hinted: Vec<u32>,
    #[serde(default)]
    pub hints_asked: u32,
    #[serde(default)]
    pub takebacks: u32,
    /// The stage of the child's path this game is played for (its id in `ron_configs/path.ron`);
    /// `None` for free play.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    /// The room this game is played in, when it is played with someone far away.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room: Option<RoomPlace>,
}

/// Where a game played with someone far away lives: the server, the room's code, this device's
/// seat and its key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoomPlace {
    pub server: String,
    pub code: String,
    pub seat: u8,
    /// This device's key to its seat (a record written before seats had keys has none).
    #[serde(default)]
    pub seat_key: Option<String>,
    /// What ends the room or frees a seat in it, when this device made it.
    #[serde(default)]
    pub token: Option<String>,
}

/// Read first and alone, so a record of another version names its version even when its other
/// fields are not this version's.
#[derive(Deserialize)]
#[serde(rename = "Record")]
struct VersionOnly {
    version: u32,
}

/// Why a record cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The text is not a record (RON's message, with its line and column).
    NotARecord(String),
    UnknownVersion(u32),
    /// The record's level cannot be found or read.
    Level(LevelError),
    /// The record does not fit its level: its level's name, its seats, its first seat, its clocks
    /// or its hints.
    Mismatch(String),
    /// An action that cannot be read or that the rules refuse; `number` counts from 1 over
    /// `actions` and then `undone`.
    Action {
        number: usize,
        text: String,
        undone: bool,
        reason: String,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::NotARecord(why) => write!(f, "not a record: {why}"),
            RecordError::UnknownVersion(version) => {
                write!(f, "unknown version {version} (this Tabla reads version {VERSION})")
            }
            RecordError::Level(e) => write!(f, "the level {e}"),
            RecordError::Mismatch(why) => write!(f, "{why}"),
            RecordError::Action { number, text, undone, reason } => {
                let kept = if *undone { " (undone, kept for redo)" } else { "" };
                write!(f, "action {number} '{}'{kept}: {}", quote(text), quote(reason))
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// What a menu card shows of a record, read without knowing its game beforehand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub game: GameKind,
    pub variant: String,
    /// Actions played (rolls and cube actions count, and a clock running out).
    pub actions: usize,
    /// The name of the seat to move; `None` when the game is over or nobody in particular acts
    /// (Crazy Nard's opening dice).
    pub to_move: Option<String>,
    pub over: bool,
    pub progress: Progress,
}

/// How far a game has come.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Moves played: Making Circles, Knight Hunt, Bunnies and Horses.
    Moves(usize),
    /// Halma: each seat's pieces in its goal, in seat order.
    InGoal(Vec<GoalCount>),
    /// Crazy Nard: the score and the game of the match under way (from 1).
    Match { white: u32, black: u32, game: u32, length: u32 },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalCount {
    pub seat: String,
    pub in_goal: u32,
    /// The squares of the seat's goal.
    pub of: u32,
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Progress::Moves(moves) => write!(f, "{moves} moves"),
            Progress::InGoal(counts) => {
                let each: Vec<String> =
                    counts.iter().map(|c| format!("{} {}/{}", c.seat, c.in_goal, c.of)).collect();
                write!(f, "in goal: {}", each.join(", "))
            }
            Progress::Match { white, black, game, length } => {
                write!(f, "game {game}, white {white} black {black} of {length}")
            }
        }
    }
}

impl Record {
    /// The record of a history's game from its start, with `seats` playing it; no clock and no
    /// hints (set those fields for a game that has them).
    pub fn of_history<G: Game, N: Default + Clone>(
        level: &Level,
        history: &History<G, N>,
        seats: Vec<Control>,
    ) -> Record {
        let start = &history.steps()[0].game;
        Record {
            version: VERSION,
            game: level.kind(),
            variant: level.variant().to_string(),
            first: start_seat(start, level).0,
            seed: history.seed(),
            seats,
            clock_minutes: 0,
            clock_left_ms: None,
            actions: history.action_texts(),
            undone: history.undone_texts(),
            hinted: Vec::new(),
            hints_asked: 0,
            takebacks: 0,
            stage: None,
            room: None,
        }
    }

    /// The numbers of the steps whose note says a hint proposed them, as `hinted` counts them:
    /// the steps played, then the undone ones, the next first.
    pub fn hinted_in<G: Game, N: Default + Clone>(
        history: &History<G, N>,
        is_hinted: impl Fn(&N) -> bool,
    ) -> Vec<u32> {
        let played = history.steps().iter().skip(1);
        let undone = history.undone().iter().rev();
        (1..).zip(played.chain(undone)).filter(|(_, step)| is_hinted(&step.note)).map(|(n, _)| n).collect()
    }

    pub fn to_ron(&self) -> String {
        let pretty = ron::ser::PrettyConfig::new().new_line("\n").indentor("    ");
        ron::ser::to_string_pretty(self, pretty).expect("a record is plain data")
    }

    pub fn from_ron(text: &str) -> Result<Record, RecordError> {
        if text.len() > MOST_BYTES {
            return Err(RecordError::NotARecord(format!(
                "it is {} bytes long; at most {MOST_BYTES} are read",
                text.len()
            )));
        }
        let not_a_record = |e: ron::error::SpannedError| RecordError::NotARecord(cut_message(&e.to_string()));
        let version = ron::from_str::<VersionOnly>(text).map_err(not_a_record)?.version;
        if version != VERSION {
            return Err(RecordError::UnknownVersion(version));
        }
        let record: Record = ron::from_str(text).map_err(not_a_record)?;
        let actions = record.actions.len() + record.undone.len();
        if actions > MOST_ACTIONS {
            return Err(RecordError::Mismatch(format!(
                "the record holds {actions} actions; at most {MOST_ACTIONS} are read"
            )));
        }
        Ok(record)
    }

    /// What tells this game from every other: its level, its first seat and its seed (a game
    /// begun again, or tried again from a position, takes a new seed). A game undone and finished
    /// again keeps it, so it is counted once.
    pub fn identity(&self) -> String {
        format!("{}-{}-{}-{:016x}", self.game, self.variant, self.first, self.seed)
    }

    /// A record file, refused before it is read when it is larger than `MOST_BYTES`.
    pub fn read_file(file: &std::path::Path) -> Result<Record, String> {
        let in_file = |e: &dyn fmt::Display| format!("{}: {e}", file.display());
        Record::from_ron(&read_small_file(file).map_err(|e| in_file(&e))?).map_err(|e| in_file(&e))
    }

    /// The level file the record names.
    pub fn level_file(&self) -> String {
        format!("ron_configs/{}/{}.ron", self.game, self.variant)
    }

    /// The record's level, built in or from `ron_configs/` on disk.
    pub fn level(&self) -> Result<Level, RecordError> {
        if !is_plain_name(&self.variant) {
            return Err(RecordError::Mismatch(format!(
                "the level's name '{}' is not a plain name (small letters, digits and _)",
                quote(&self.variant)
            )));
        }
        levels::find(&self.level_file()).map_err(RecordError::Level)
    }

    /// Replays the record on its own level; see `replay_on`.
    pub fn replay<G: Game + FromLevel, N: Default + Clone>(
        &self,
        note: impl FnMut(&G, &G::Action, usize) -> N,
    ) -> Result<History<G, N>, RecordError> {
        self.replay_on(&self.level()?, note)
    }

    /// The record's history rebuilt on `level` (which must be the record's game and variant):
    /// every action played through the rules, then the undone ones played and undone again so
    /// redo brings them back. `note` gives each action's note from the state before it, the
    /// action and its index (from 0, over `actions` then `undone`).
    pub fn replay_on<G: Game + FromLevel, N: Default + Clone>(
        &self,
        level: &Level,
        mut note: impl FnMut(&G, &G::Action, usize) -> N,
    ) -> Result<History<G, N>, RecordError> {
        self.check_fits(level)?;
        let start = self.start(level)?;
        let mut history = History::new(start, self.seed);
        for (index, text) in self.actions.iter().enumerate() {
            self.replay_action(&mut history, index, text, &mut note)?;
        }
        for (index, text) in (self.actions.len()..).zip(&self.undone) {
            self.replay_action(&mut history, index, text, &mut note)?;
        }
        for _ in &self.undone {
            history.undo();
        }
        Ok(history)
    }

    /// Replays the record on its level whatever its game, for what a menu card shows.
    pub fn check(&self) -> Result<Summary, RecordError> {
        let level = self.level()?;
        crate::with_game!(level.kind(), G => self.summary::<G>(&level))
    }

    fn summary<G: Summarized>(&self, level: &Level) -> Result<Summary, RecordError> {
        let history: History<G> = self.replay_on(level, |_, _, _| ())?;
        let game = history.game();
        Ok(Summary {
            game: self.game,
            variant: self.variant.clone(),
            actions: self.actions.len(),
            to_move: game.to_move().map(|seat| game.seat_name(seat).to_string()),
            over: game.outcome().is_some(),
            progress: G::progress(&history),
        })
    }

    /// Whether the record's seats, clocks and hints fit the level.
    fn check_fits(&self, level: &Level) -> Result<(), RecordError> {
        let mismatch = |why: String| Err(RecordError::Mismatch(why));
        if (level.kind(), level.variant()) != (self.game, self.variant.as_str()) {
            return mismatch(format!(
                "the record is of {}, not of the level {}",
                quote(&self.level_file()),
                level.file
            ));
        }
        let seats = level.seat_count();
        if self.seats.len() != seats {
            return mismatch(format!(
                "the record names {} players; {} has {seats} seats",
                self.seats.len(),
                level.file
            ));
        }
        if let Some(left) = self.clock_left_ms.as_ref().filter(|left| left.len() != seats) {
            return mismatch(format!(
                "the record has {} clocks; {} has {seats} seats",
                left.len(),
                level.file
            ));
        }
        let actions = self.actions.len() + self.undone.len();
        if let Some(n) = self.hinted.iter().find(|&&n| n == 0 || n as usize > actions) {
            return mismatch(format!("hinted action {n}: the record has actions 1 to {actions}"));
        }
        Ok(())
    }

    /// The level's start with the record's first seat to move.
    fn start<G: Game + FromLevel>(&self, level: &Level) -> Result<G, RecordError> {
        let first = Seat(self.first);
        let level = level.with_first(first);
        let start = G::from_level(&level)
            .ok_or_else(|| RecordError::Mismatch(format!("{} is not a level of this game", level.file)))?;
        if start_seat(&start, &level) != first {
            return Err(RecordError::Mismatch(format!(
                "first seat {}: {} cannot start with it",
                self.first, level.file
            )));
        }
        Ok(start)
    }

    fn replay_action<G: Game, N: Default + Clone>(
        &self,
        history: &mut History<G, N>,
        index: usize,
        text: &str,
        note: &mut impl FnMut(&G, &G::Action, usize) -> N,
    ) -> Result<(), RecordError> {
        let refused = |reason: String| RecordError::Action {
            number: index + 1,
            text: text.to_string(),
            undone: index >= self.actions.len(),
            reason,
        };
        if let Some(name) = text.strip_prefix(TIME_OUT).and_then(|rest| rest.strip_prefix(' ')) {
            let seat = timed_out_seat(history.game(), name).map_err(refused)?;
            history.time_out(seat);
            return Ok(());
        }
        let action = history.game().parse_action(text).map_err(|e| refused(e.to_string()))?;
        let step_note = note(history.game(), &action, index);
        history.play(&action, step_note).map_err(|e| refused(e.to_string()))
    }
}

/// The seat that moves first in a game's start: the one to move, or the level's first where
/// nobody in particular moves yet (Crazy Nard's opening dice).
fn start_seat<G: Game>(start: &G, level: &Level) -> Seat {
    start.to_move().unwrap_or_else(|| level.first_seat())
}

/// The seat a `time_out` names, while the game goes on.
fn timed_out_seat<G: Game>(game: &G, name: &str) -> Result<Seat, String> {
    if game.outcome().is_some() {
        return Err(RuleError::GameOver.to_string());
    }
    let seats: Vec<Seat> = Seat::all(game.seat_count()).collect();
    seats.iter().copied().find(|&seat| game.seat_name(seat) == name).ok_or_else(|| {
        let names: Vec<&str> = seats.iter().map(|&seat| game.seat_name(seat)).collect();
        format!("no seat is called '{}' (the seats are {})", quote(name), names.join(", "))
    })
}

/// A file's text, refused before it is read when it is larger than `MOST_BYTES`; `Err` says why.
pub fn read_small_file(file: &std::path::Path) -> Result<String, String> {
    let size = std::fs::metadata(file).map_err(|e| e.to_string())?.len();
    if size > MOST_BYTES as u64 {
        return Err(format!("it is {size} bytes long; at most {MOST_BYTES} are read"));
    }
    std::fs::read_to_string(file).map_err(|e| e.to_string())
}

fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// How far a game has come, for a menu card: the moves made, unless the game tells it better.
pub trait Summarized: Game + FromLevel {
    fn progress(history: &History<Self>) -> Progress {
        Progress::Moves(history.steps().iter().filter(|step| step.action.is_some()).count())
    }
}

impl Summarized for Circles {}
impl Summarized for KnightHunt {}
impl Summarized for BunniesAndHorses {}

/// Halma: each seat's pieces in its goal.
impl Summarized for Halma {
    fn progress(history: &History<Halma>) -> Progress {
        let game = history.game();
        let count = |seat: Seat| GoalCount {
            seat: game.seat_name(seat).to_string(),
            in_goal: game.in_goal(seat),
            of: game.goal_grid(seat).count(),
        };
        Progress::InGoal(game.seats().map(count).collect())
    }
}

/// Crazy Nard: the match's score and the game being played.
impl Summarized for Nard {
    fn progress(history: &History<Nard>) -> Progress {
        let game = history.game();
        Progress::Match {
            white: game.score(Seat::WHITE),
            black: game.score(Seat::BLACK),
            game: game.game_number(),
            length: game.match_length(),
        }
    }
}
