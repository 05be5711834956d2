//! Level files: every variant of every game is a RON file under `ron_configs/<game>/`. This module
//! holds what a level is and reads one; each game's file reads and checks its own format
//! (`circles`, `knight_hunt`, `bunnies`, `nard`, `halma`) with the checks they share (`checker`).
//! A broken file is reported with its name and line, never a panic.

mod bunnies;
mod checker;
mod circles;
mod halma;
mod knight_hunt;
mod nard;

use crate::rules::{self, GameKind};
use checker::Checker;
use serde::Deserialize;
use std::fmt;
use std::path::Path;

macro_rules! builtin {
    ($name:literal) => {
        (concat!("ron_configs/", $name), include_str!(concat!("../../ron_configs/", $name)))
    };
}

/// The level files built into the program, so the browser build needs no file system.
pub const BUILTIN: &[(&str, &str)] = &[
    builtin!("circles/classic.ron"),
    builtin!("knight_hunt/one_knight.ron"),
    builtin!("knight_hunt/two_knights.ron"),
    builtin!("knight_hunt/two_knights_capture.ron"),
    builtin!("bunnies/one_horse.ron"),
    builtin!("bunnies/two_horses.ron"),
    builtin!("halma/two_players.ron"),
    builtin!("halma/three_players.ron"),
    builtin!("halma/four_one_army.ron"),
    builtin!("halma/four_both_armies.ron"),
    builtin!("nard/crazy.ron"),
    builtin!("nard/one_point.ron"),
    builtin!("nard/three_points.ron"),
    builtin!("nard/seven_points.ron"),
    builtin!("nard/five_points_no_cube.ron"),
    builtin!("nard/head_per_turn.ron"),
];

#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// Where the level came from, as given when it was loaded.
    pub file: String,
    pub game: LevelGame,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LevelGame {
    Circles(CirclesLevel),
    KnightHunt(KnightHuntLevel),
    Bunnies(BunniesLevel),
    Nard(NardLevel),
    Halma(HalmaLevel),
}

impl Level {
    /// The level's game (its folder is `ron_configs/<its code>/`).
    pub fn kind(&self) -> GameKind {
        match self.game {
            LevelGame::Circles(_) => GameKind::Circles,
            LevelGame::KnightHunt(_) => GameKind::KnightHunt,
            LevelGame::Bunnies(_) => GameKind::Bunnies,
            LevelGame::Nard(_) => GameKind::Nard,
            LevelGame::Halma(_) => GameKind::Halma,
        }
    }

    /// The variant's code name, the key of its title in the string tables.
    pub fn variant(&self) -> &str {
        match &self.game {
            LevelGame::Circles(level) => &level.variant,
            LevelGame::KnightHunt(level) => &level.variant,
            LevelGame::Bunnies(level) => &level.variant,
            LevelGame::Nard(level) => &level.variant,
            LevelGame::Halma(level) => &level.variant,
        }
    }

    pub fn clock_minutes(&self) -> &[u32] {
        match &self.game {
            LevelGame::Circles(level) => &level.clock_minutes,
            LevelGame::KnightHunt(level) => &level.clock_minutes,
            LevelGame::Bunnies(level) => &level.clock_minutes,
            LevelGame::Nard(level) => &level.clock_minutes,
            LevelGame::Halma(level) => &level.clock_minutes,
        }
    }

    /// The same level with the first turn given to `seat` (seats in the game's order), for games
    /// where the setup says who starts; other levels are returned as they are.
    pub fn with_first(&self, seat: rules::Seat) -> Level {
        let mut level = self.clone();
        if let LevelGame::Halma(halma) = &mut level.game {
            let mut corners: Vec<rules::halma::Corner> = halma.setup.seats.iter().map(|s| s.corner).collect();
            corners.sort();
            if let Some(&corner) = corners.get(seat.index()) {
                halma.setup.first = corner;
            }
        }
        level
    }

    /// The seat that moves first in this level (seats in the game's order).
    pub fn first_seat(&self) -> rules::Seat {
        match &self.game {
            LevelGame::Halma(halma) => {
                let mut corners: Vec<rules::halma::Corner> =
                    halma.setup.seats.iter().map(|s| s.corner).collect();
                corners.sort();
                let at = corners.iter().position(|&c| c == halma.setup.first).unwrap_or(0);
                rules::Seat(at as u8)
            }
            _ => rules::Seat::WHITE,
        }
    }

    /// How many seats the game of this level has.
    pub fn seat_count(&self) -> usize {
        match &self.game {
            LevelGame::Halma(level) => level.setup.seats.len(),
            _ => 2,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct CirclesLevel {
    pub variant: String,
    pub setup: rules::circles::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct KnightHuntLevel {
    pub variant: String,
    pub setup: rules::knight_hunt::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BunniesLevel {
    pub variant: String,
    pub setup: rules::bunnies::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct NardLevel {
    pub variant: String,
    pub setup: rules::nard::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HalmaLevel {
    pub variant: String,
    pub setup: rules::halma::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    pub file: String,
    /// 1-based; 0 when the file could not be read at all.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

impl std::error::Error for LevelError {}

pub fn load(path: &Path) -> Result<Level, LevelError> {
    let file = path.display().to_string();
    let source = std::fs::read_to_string(path).map_err(|e| LevelError {
        file: file.clone(),
        line: 0,
        message: format!("cannot read the file: {e}"),
    })?;
    parse(&file, &source)
}

/// The built-in levels, in menu order.
pub fn builtin() -> Vec<Level> {
    BUILTIN
        .iter()
        .map(|(file, source)| {
            parse(file, source).unwrap_or_else(|e| panic!("a built-in level is broken: {e}"))
        })
        .collect()
}

/// A game set up from a level file.
pub trait FromLevel: Sized {
    /// The game for a level file, if the file is one of this game's.
    fn from_level(level: &Level) -> Option<Self>;
}

macro_rules! from_level {
    ($game:ty, $variant:ident) => {
        impl FromLevel for $game {
            fn from_level(level: &Level) -> Option<Self> {
                match &level.game {
                    LevelGame::$variant(level) => Some(<$game>::new(&level.setup)),
                    _ => None,
                }
            }
        }
    };
}

from_level!(rules::circles::Circles, Circles);
from_level!(rules::knight_hunt::KnightHunt, KnightHunt);
from_level!(rules::bunnies::BunniesAndHorses, Bunnies);
from_level!(rules::nard::Nard, Nard);
from_level!(rules::halma::Halma, Halma);

/// A built-in level's file name and text, by its file's name (`ron_configs/<game>/<variant>.ron`,
/// with or without a leading `./`).
fn builtin_file(file: &str) -> Option<&'static (&'static str, &'static str)> {
    let file = file.trim_start_matches("./");
    BUILTIN.iter().find(|(builtin, _)| *builtin == file)
}

/// A built-in level by its file name, or a level file from disk.
pub fn find(path: &str) -> Result<Level, LevelError> {
    match builtin_file(path) {
        Some((file, source)) if !Path::new(path).exists() => parse(file, source),
        _ => load(Path::new(path)),
    }
}

/// A built-in level by its name, `<game>/<variant>` or its file `ron_configs/<game>/<variant>.ron`,
/// never read from disk: what a room's server plays, whatever a client names.
pub fn built_in(name: &str) -> Result<Level, String> {
    let found = builtin_file(name).or_else(|| builtin_file(&format!("ron_configs/{name}.ron")));
    match found {
        Some((file, source)) => parse(file, source).map_err(|e| e.to_string()),
        None => Err(format!(
            "no level is named '{}': name one as game/variant, such as knight_hunt/one_knight",
            crate::quote::quote(name)
        )),
    }
}

pub fn parse(file: &str, source: &str) -> Result<Level, LevelError> {
    let checker = Checker { file, source };
    let raw: RawLevel = ron::from_str(source).map_err(|e| LevelError {
        file: file.to_string(),
        line: e.span.start.line,
        message: e.code.to_string(),
    })?;
    let game = match raw {
        RawLevel::Circles(raw) => LevelGame::Circles(checker.circles(raw)?),
        RawLevel::KnightHunt(raw) => LevelGame::KnightHunt(checker.knight_hunt(raw)?),
        RawLevel::Bunnies(raw) => LevelGame::Bunnies(checker.bunnies(raw)?),
        RawLevel::Nard(raw) => LevelGame::Nard(checker.nard(raw)?),
        RawLevel::Halma(raw) => LevelGame::Halma(checker.halma(raw)?),
    };
    Ok(Level { file: file.to_string(), game })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
enum RawLevel {
    Circles(circles::RawCircles),
    KnightHunt(knight_hunt::RawKnightHunt),
    Bunnies(bunnies::RawBunnies),
    Nard(nard::RawNard),
    Halma(halma::RawHalma),
}
