//! Level files: every variant of every game is a RON file under `ron_configs/`. A broken file is
//! reported with its name and line, never a panic.

use crate::rules::board::{BoardShape, Square, SquareError};
use crate::rules::{GameKind, bunnies, circles, halma, knight_hunt, nard};
use serde::Deserialize;
use std::fmt;
use std::path::Path;

macro_rules! builtin {
    ($name:literal) => {
        (concat!("ron_configs/", $name), include_str!(concat!("../ron_configs/", $name)))
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
    pub fn with_first(&self, seat: crate::rules::Seat) -> Level {
        let mut level = self.clone();
        if let LevelGame::Halma(halma) = &mut level.game {
            let mut corners: Vec<halma::Corner> = halma.setup.seats.iter().map(|s| s.corner).collect();
            corners.sort();
            if let Some(&corner) = corners.get(seat.index()) {
                halma.setup.first = corner;
            }
        }
        level
    }

    /// The seat that moves first in this level (seats in the game's order).
    pub fn first_seat(&self) -> crate::rules::Seat {
        match &self.game {
            LevelGame::Halma(halma) => {
                let mut corners: Vec<halma::Corner> = halma.setup.seats.iter().map(|s| s.corner).collect();
                corners.sort();
                let at = corners.iter().position(|&c| c == halma.setup.first).unwrap_or(0);
                crate::rules::Seat(at as u8)
            }
            _ => crate::rules::Seat::WHITE,
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
    pub setup: circles::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct KnightHuntLevel {
    pub variant: String,
    pub setup: knight_hunt::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BunniesLevel {
    pub variant: String,
    pub setup: bunnies::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct NardLevel {
    pub variant: String,
    pub setup: nard::Setup,
    pub clock_minutes: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HalmaLevel {
    pub variant: String,
    pub setup: halma::Setup,
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

from_level!(circles::Circles, Circles);
from_level!(knight_hunt::KnightHunt, KnightHunt);
from_level!(bunnies::BunniesAndHorses, Bunnies);
from_level!(nard::Nard, Nard);
from_level!(halma::Halma, Halma);

/// A built-in level by its file name, or a level file from disk.
pub fn find(path: &str) -> Result<Level, LevelError> {
    let wanted = path.trim_start_matches("./");
    match BUILTIN.iter().find(|(file, _)| *file == wanted) {
        Some((file, source)) if !Path::new(path).exists() => parse(file, source),
        _ => load(Path::new(path)),
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
    Circles(RawCircles),
    KnightHunt(RawKnightHunt),
    Bunnies(RawBunnies),
    Nard(RawNard),
    Halma(RawHalma),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCircles {
    variant: String,
    centre: (f64, f64),
    max_back_step_deg: f64,
    white: RawRacers,
    black: RawRacers,
    barrier: Vec<String>,
    no_progress_plies: u32,
    max_rounds: u32,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRacers {
    rook: String,
    bishop: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawKnightHunt {
    variant: String,
    knights_capture: bool,
    white: RawArmy,
    black: RawArmy,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBunnies {
    variant: String,
    bunnies: Vec<String>,
    horses: Vec<String>,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNard {
    variant: String,
    match_length: u32,
    cube: bool,
    crawford: bool,
    head_rule: nard::HeadRule,
    /// Each side's checkers as (own point, checkers), the same for both sides.
    start: Vec<(u8, u8)>,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHalma {
    variant: String,
    mode: halma::Mode,
    /// One seat a line: its corner, its camp's row lengths, its goal's corner and row lengths.
    seats: Vec<RawHalmaSeat>,
    /// Partners by corner (team modes only).
    partners: Vec<(String, String)>,
    first: String,
    /// After this many of a seat's own moves, every piece must leave its starting camp.
    clear_camp_after: u32,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHalmaSeat {
    corner: String,
    camp: Vec<u8>,
    goal: String,
    goal_camp: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArmy {
    knights: Vec<String>,
    pawns: Vec<String>,
}

/// The most moves of its own a Halma seat may make before it must clear its starting camp: the
/// rule must come into force in a game that is played, or a piece left at home could keep
/// another army out of its goal for ever.
const MAX_CLEAR_CAMP_AFTER: u32 = 1000;

/// The longest clock a level may offer, in minutes per player.
const MAX_CLOCK_MINUTES: u32 = 999;

/// Checks the meaning of a file that parsed, pointing at the line of each mistake.
struct Checker<'a> {
    file: &'a str,
    source: &'a str,
}

impl Checker<'_> {
    fn error(&self, line: usize, message: String) -> LevelError {
        LevelError { file: self.file.to_string(), line, message }
    }

    /// The line of the `nth` (0-based) appearance of `"text"` in the file.
    fn line_of(&self, text: &str, nth: usize) -> usize {
        let quoted = format!("\"{text}\"");
        self.source
            .match_indices(&quoted)
            .nth(nth)
            .map(|(at, _)| self.source[..at].matches('\n').count() + 1)
            .unwrap_or(0)
    }

    /// The line where a field is first written, or 1.
    fn line_of_field(&self, field: &str) -> usize {
        let written = format!("{field}:");
        self.source.find(&written).map(|at| self.source[..at].matches('\n').count() + 1).unwrap_or(1)
    }

    fn squares(&self, names: &[String], shape: BoardShape) -> Result<Vec<Square>, LevelError> {
        names
            .iter()
            .map(|name| {
                shape.parse(name).map_err(|e| {
                    let hint = match e {
                        SquareError::Unknown(_) => " (squares are written like \"g1\")".to_string(),
                        SquareError::OffBoard(_) => {
                            format!(
                                " (this board has files a-{} and ranks 1-{})",
                                (b'a' + shape.files - 1) as char,
                                shape.ranks
                            )
                        }
                    };
                    self.error(self.line_of(name, 0), format!("{e}{hint}"))
                })
            })
            .collect()
    }

    /// The clock choices: minutes per player, each offered once, 1 to 999 (off is always
    /// offered, so 0 would be a second "off").
    fn clock_minutes(&self, minutes: Vec<u32>) -> Result<Vec<u32>, LevelError> {
        for (nth, &m) in minutes.iter().enumerate() {
            if !(1..=MAX_CLOCK_MINUTES).contains(&m) || minutes[..nth].contains(&m) {
                return Err(self.error(
                    self.line_of_field("clock_minutes"),
                    format!(
                        "clock_minutes are different choices of 1 to {MAX_CLOCK_MINUTES} minutes, not {m} \
                         (off is always offered)"
                    ),
                ));
            }
        }
        Ok(minutes)
    }

    /// Every piece must have a square of its own.
    fn one_piece_per_square(&self, lists: &[&[Square]]) -> Result<(), LevelError> {
        let mut seen = Vec::new();
        for square in lists.iter().flat_map(|list| list.iter()) {
            if seen.contains(square) {
                let name = square.to_string();
                return Err(self.error(self.line_of(&name, 1), format!("two pieces on square \"{name}\"")));
            }
            seen.push(*square);
        }
        Ok(())
    }

    fn circles(&self, raw: RawCircles) -> Result<CirclesLevel, LevelError> {
        let shape = BoardShape::CHESS;
        let pair = |racers: &RawRacers| -> Result<[Square; 2], LevelError> {
            let squares = self.squares(&[racers.rook.clone(), racers.bishop.clone()], shape)?;
            Ok([squares[0], squares[1]])
        };
        let homes = [pair(&raw.white)?, pair(&raw.black)?];
        let barrier = self.squares(&raw.barrier, shape)?;
        self.one_piece_per_square(&[&homes[0], &homes[1], &barrier])?;
        // The centre in half squares: every direction from it is then exact (circles::Setup).
        let halves = |v: f64| -> Option<i32> {
            let twice = v * 2.0;
            (v.is_finite() && (0.0..=shape.files as f64).contains(&v) && twice == twice.round())
                .then_some(twice as i32)
        };
        let centre_halves = match (halves(raw.centre.0), halves(raw.centre.1)) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                return Err(self.error(
                    self.line_of_field("centre"),
                    "the centre must lie on the board, in half squares (such as 4.0 or 3.5)".into(),
                ));
            }
        };
        // A square whose middle is the centre has no direction to measure.
        let on_middle = shape.squares().find(|s| {
            2 * i32::from(s.file) + 1 == centre_halves.0 && 2 * i32::from(s.rank) + 1 == centre_halves.1
        });
        if let Some(square) = on_middle.filter(|s| !barrier.contains(s)) {
            return Err(self.error(
                self.line_of_field("centre"),
                format!("the centre is the middle of square \"{square}\"; put it on a corner or the barrier"),
            ));
        }
        if !(0.0..90.0).contains(&raw.max_back_step_deg) {
            return Err(self.error(
                self.line_of_field("max_back_step_deg"),
                "max_back_step_deg must be at least 0 and below 90".into(),
            ));
        }
        for (field, value) in [("no_progress_plies", raw.no_progress_plies), ("max_rounds", raw.max_rounds)] {
            if value == 0 {
                return Err(self.error(self.line_of_field(field), format!("{field} must be at least 1")));
            }
        }
        // The game counts turns, two a round, in 32 bits.
        if raw.max_rounds > u32::MAX / 2 {
            return Err(self.error(
                self.line_of_field("max_rounds"),
                format!("max_rounds is at most {} (the game counts two turns a round)", u32::MAX / 2),
            ));
        }
        Ok(CirclesLevel {
            variant: raw.variant,
            setup: circles::Setup {
                centre_halves,
                max_back_step_deg: raw.max_back_step_deg,
                homes,
                barrier,
                no_progress_plies: raw.no_progress_plies,
                max_rounds: raw.max_rounds,
            },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }

    fn knight_hunt(&self, raw: RawKnightHunt) -> Result<KnightHuntLevel, LevelError> {
        let shape = BoardShape::CHESS;
        let knights = [self.squares(&raw.white.knights, shape)?, self.squares(&raw.black.knights, shape)?];
        let pawns = [self.squares(&raw.white.pawns, shape)?, self.squares(&raw.black.pawns, shape)?];
        self.one_piece_per_square(&[&knights[0], &knights[1], &pawns[0], &pawns[1]])?;
        if knights.iter().any(|k| k.is_empty()) {
            return Err(
                self.error(self.line_of_field("knights"), "each side needs at least one knight".into())
            );
        }
        // Pawns never move, and a knight never lands on its own side's: a pawn that no enemy
        // knight can ever reach past them can never be taken, and if neither side can take all
        // the game never ends.
        let bits = |squares: &[Square]| squares.iter().fold(0u64, |acc, s| acc | s.bit());
        for (side, name, other) in [(0, "white", "black"), (1, "black", "white")] {
            let walls = bits(&pawns[side]);
            let mut reached = bits(&knights[side]);
            loop {
                let next = crate::rules::board::squares_of(reached)
                    .fold(reached, |acc, s| acc | crate::rules::board::KNIGHT_ATTACKS[s.index64()])
                    & !walls;
                if next == reached {
                    break;
                }
                reached = next;
            }
            if let Some(pawn) = pawns[1 - side].iter().find(|p| reached & p.bit() == 0) {
                let square = pawn.to_string();
                return Err(self.error(
                    self.line_of(&square, 0),
                    format!(
                        "the {other} pawn on \"{square}\" can never be taken: no {name} knight can reach it \
                         past the {name} pawns"
                    ),
                ));
            }
        }
        Ok(KnightHuntLevel {
            variant: raw.variant,
            setup: knight_hunt::Setup { knights_capture: raw.knights_capture, knights, pawns },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }

    fn bunnies(&self, raw: RawBunnies) -> Result<BunniesLevel, LevelError> {
        let shape = BoardShape::CHESS;
        let bunnies = self.squares(&raw.bunnies, shape)?;
        let horses = self.squares(&raw.horses, shape)?;
        self.one_piece_per_square(&[&bunnies, &horses])?;
        if let Some(square) = bunnies.iter().find(|s| s.rank == shape.ranks - 1) {
            let name = square.to_string();
            return Err(self.error(
                self.line_of(&name, 0),
                format!("a bunny on \"{name}\" would already be in the garden (rank 8)"),
            ));
        }
        for (field, squares) in [("bunnies", &bunnies), ("horses", &horses)] {
            if squares.is_empty() {
                return Err(self.error(self.line_of_field(field), format!("the level needs {field}")));
            }
        }
        Ok(BunniesLevel {
            variant: raw.variant,
            setup: bunnies::Setup { bunnies, horses },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }

    /// The line of the `nth` (0-based) `(` after the field `field:`, or the field's line.
    fn line_of_entry(&self, field: &str, nth: usize) -> usize {
        let written = format!("{field}:");
        let Some(start) = self.source.find(&written) else { return 1 };
        self.source[start..]
            .match_indices('(')
            .nth(nth)
            .map(|(at, _)| self.source[..start + at].matches('\n').count() + 1)
            .unwrap_or_else(|| self.line_of_field(field))
    }

    fn nard(&self, raw: RawNard) -> Result<NardLevel, LevelError> {
        if !(1..=25).contains(&raw.match_length) {
            return Err(self.error(
                self.line_of_field("match_length"),
                format!("a match is 1 to 25 points long, not {}", raw.match_length),
            ));
        }
        if raw.cube && raw.match_length == 1 {
            return Err(
                self.error(self.line_of_field("cube"), "a 1-point match plays without the cube".into())
            );
        }
        if let Some(nth) = raw.start.iter().position(|&(_, checkers)| checkers == 0) {
            let point = raw.start[nth].0;
            return Err(self.error(
                self.line_of_entry("start", nth),
                format!("point {point} is given with no checkers"),
            ));
        }
        // The board names the point it refuses: the line is that entry's (the second one given
        // for a point given twice).
        let start = nard::Board::symmetric(&raw.start).map_err(|e| {
            let entry = |point: u8| raw.start.iter().rposition(|&(p, _)| p == point);
            let nth = match e {
                nard::BoardError::PointOffBoard(point) | nard::BoardError::PointTwice(point) => entry(point),
                _ => None,
            };
            let line =
                nth.map_or_else(|| self.line_of_field("start"), |nth| self.line_of_entry("start", nth));
            self.error(line, e.to_string())
        })?;
        let total: u32 = raw.start.iter().map(|&(_, checkers)| checkers as u32).sum();
        if total != nard::CHECKERS as u32 {
            return Err(self.error(
                self.line_of_field("start"),
                format!("each side starts with 15 checkers, this start places {total}"),
            ));
        }
        // Every game starts from this board: one that can only be drawn would make the match go on
        // for ever.
        let seats = [crate::rules::Seat::WHITE, crate::rules::Seat::BLACK];
        if !seats.iter().any(|&seat| start.can_move_any(seat)) {
            return Err(self.error(
                self.line_of_field("start"),
                "no checker of either side can ever move from this start (home checkers wait, every other \
                 point they reach is closed): every game would be a draw"
                    .into(),
            ));
        }
        if start.is_deadlock() {
            return Err(self.error(
                self.line_of_field("start"),
                "this start is already a deadlock (each side holds its whole home and has checkers in its \
                 first quarter): every game would be a draw"
                    .into(),
            ));
        }
        if seats.iter().any(|&seat| start.has_forbidden_prime(seat)) {
            return Err(self.error(
                self.line_of_field("start"),
                "this start holds six points in a row with no opposing checker ahead of them, which the \
                 prime rule forbids"
                    .into(),
            ));
        }
        Ok(NardLevel {
            variant: raw.variant,
            setup: nard::Setup {
                match_length: raw.match_length,
                cube: raw.cube,
                crawford: raw.crawford,
                head_rule: raw.head_rule,
                start,
            },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }

    /// The line of the `nth` (0-based) occurrence of `text` after the field `field:`.
    fn line_after_field(&self, field: &str, text: &str, nth: usize) -> usize {
        let written = format!("{field}:");
        let Some(start) = self.source.find(&written) else { return 1 };
        self.source[start..]
            .match_indices(text)
            .nth(nth)
            .map(|(at, _)| self.source[..start + at].matches('\n').count() + 1)
            .unwrap_or_else(|| self.line_of_field(field))
    }

    fn corner(&self, name: &str, line: usize) -> Result<halma::Corner, LevelError> {
        halma::Corner::parse(name).ok_or_else(|| {
            self.error(line, format!("unknown corner \"{name}\" (the corners are a1, p1, p16 and a16)"))
        })
    }

    fn camp_rows(&self, rows: &[u8], line: usize, what: &str) -> Result<(), LevelError> {
        if rows.is_empty() || rows.len() > 16 || rows.iter().any(|&r| r == 0 || r > 16) {
            return Err(self
                .error(line, format!("{what} is 1 to 16 rows of 1 to 16 squares, counted from its corner")));
        }
        Ok(())
    }

    fn halma(&self, raw: RawHalma) -> Result<HalmaLevel, LevelError> {
        let seat_line = |nth: usize| self.line_after_field("seats", "corner:", nth);
        if !(2..=4).contains(&raw.seats.len()) {
            return Err(self.error(
                self.line_of_field("seats"),
                format!("Halma is played by 2 to 4 seats, this file has {}", raw.seats.len()),
            ));
        }
        let mut seats = Vec::new();
        let mut taken = crate::rules::grid16::Grid16::EMPTY;
        let mut goals: Vec<Square> = Vec::new();
        for (nth, seat) in raw.seats.iter().enumerate() {
            let line = seat_line(nth);
            let corner = self.corner(&seat.corner, line)?;
            let goal_corner = self.corner(&seat.goal, line)?;
            if seats.iter().any(|s: &halma::SeatSetup| s.corner == corner) {
                return Err(self.error(line, format!("two seats in corner \"{}\"", seat.corner)));
            }
            if goal_corner == corner {
                return Err(self
                    .error(line, format!("the seat at \"{}\" has its goal in its own corner", seat.corner)));
            }
            self.camp_rows(&seat.camp, line, "a camp")?;
            self.camp_rows(&seat.goal_camp, line, "a goal")?;
            let camp = halma::camp_squares(corner, &seat.camp);
            let goal = halma::camp_squares(goal_corner, &seat.goal_camp);
            // Clearing the starting camp forbids ending a move there: a goal in it could never
            // be filled.
            if let Some(square) = goal.iter().find(|s| camp.contains(s)) {
                return Err(self.error(
                    line,
                    format!(
                        "the seat at \"{}\" has its goal over its own camp (on \"{square}\")",
                        seat.corner
                    ),
                ));
            }
            // Two armies can never both fill one square.
            if let Some(square) = goal.iter().find(|&&s| goals.contains(&s)) {
                return Err(self.error(line, format!("two goals overlap on square \"{square}\"")));
            }
            goals.extend(goal.iter().copied());
            if camp.len() != goal.len() {
                return Err(self.error(
                    line,
                    format!(
                        "the seat at \"{}\" has {} pieces but its goal has {} squares",
                        seat.corner,
                        camp.len(),
                        goal.len()
                    ),
                ));
            }
            for square in &camp {
                let index = crate::rules::grid16::index(*square);
                if taken.contains(index) {
                    return Err(
                        self.error(line, format!("two pieces on square \"{square}\": the camps overlap"))
                    );
                }
                taken.insert(index);
            }
            seats.push(halma::SeatSetup {
                corner,
                camp: seat.camp.clone(),
                goal_corner,
                goal: seat.goal_camp.clone(),
            });
        }
        let partners_line = self.line_of_field("partners");
        let mut partners = Vec::new();
        let mut partnered: Vec<halma::Corner> = Vec::new();
        for (a, b) in &raw.partners {
            let (a, b) = (self.corner(a, partners_line)?, self.corner(b, partners_line)?);
            for c in [a, b] {
                if !seats.iter().any(|s| s.corner == c) {
                    return Err(self.error(
                        partners_line,
                        format!("no seat in corner \"{}\" to be a partner", c.name()),
                    ));
                }
                if partnered.contains(&c) {
                    return Err(
                        self.error(partners_line, format!("the seat at \"{}\" has two partners", c.name()))
                    );
                }
                partnered.push(c);
            }
            partners.push((a, b));
        }
        match raw.mode {
            halma::Mode::Individual if !partners.is_empty() => {
                return Err(
                    self.error(partners_line, "individual play has no partners (partners: [])".into())
                );
            }
            halma::Mode::OneArmy | halma::Mode::BothArmies if seats.len() != 4 || partnered.len() != 4 => {
                return Err(
                    self.error(partners_line, "a team game needs four seats in two pairs of partners".into())
                );
            }
            _ => {}
        }
        let first_line = self.line_of_field("first");
        let first = self.corner(&raw.first, first_line)?;
        if !seats.iter().any(|s| s.corner == first) {
            return Err(self.error(first_line, format!("no seat in corner \"{}\" to move first", raw.first)));
        }
        if !(1..=MAX_CLEAR_CAMP_AFTER).contains(&raw.clear_camp_after) {
            return Err(self.error(
                self.line_of_field("clear_camp_after"),
                format!(
                    "clear_camp_after is 1 to {MAX_CLEAR_CAMP_AFTER} moves (after them every piece must leave home), not {}",
                    raw.clear_camp_after
                ),
            ));
        }
        seats.sort_by_key(|s| s.corner);
        Ok(HalmaLevel {
            variant: raw.variant,
            setup: halma::Setup {
                seats,
                mode: raw.mode,
                partners,
                first,
                clear_camp_after: raw.clear_camp_after,
            },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }
}
