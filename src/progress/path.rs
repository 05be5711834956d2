//! The path: for each game, its stages in the order a child meets them. It is one RON file beside
//! the level files (`ron_configs/path.ron`), checked like them: a mistake names the file and its
//! line. A stage names its level file, the Robot's level, the child's seat and its own goal for the
//! third star, with that goal's words in every language; a new stage is a new entry, no new code.

use crate::i18n::Language;
use crate::levels::{self, Level, LevelError};
use crate::robot::RobotLevel;
use crate::rules::{GameKind, Seat};
use serde::Deserialize;
use std::collections::BTreeMap;

/// The path built into the program.
pub const BUILTIN: (&str, &str) = ("ron_configs/path.ron", include_str!("../../ron_configs/path.ron"));

/// Every game's trail, in the map's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub trails: Vec<Trail>,
}

/// One game's stages, in order: each opens when the one before has a star.
#[derive(Clone, Debug, PartialEq)]
pub struct Trail {
    pub game: GameKind,
    pub stages: Vec<Stage>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// Unique over the whole path; the stars are kept under it.
    pub id: String,
    pub level: Level,
    pub robot: RobotLevel,
    /// The child's seat (the Robot takes every other one).
    pub seat: Seat,
    pub goal: Goal,
    /// The goal in each language, by language code.
    pub goal_words: BTreeMap<String, String>,
}

/// What earns a stage's third star, in the game's own terms; it is always on top of a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum Goal {
    /// Win having made at most this many moves (Making Circles, Halma).
    WinWithin(u32),
    /// Knight Hunt: win with at least this many of the child's own pawns still on the board.
    /// (Taking all eight is no goal of its own: it is what ends nearly every game won.)
    KeepPawns(u32),
    /// Bunnies and Horses: bring every bunny into the garden in the round the child leads them.
    AllBunnies,
    /// Crazy Nard: win a game of the match by a mars (the other side bore off nothing).
    Mars,
    /// Crazy Nard: win the match without losing one of its games.
    NoGameLost,
}

impl Goal {
    /// The games whose rules give this goal a meaning.
    fn fits(self, game: GameKind) -> bool {
        match self {
            Goal::WinWithin(_) => matches!(game, GameKind::Circles | GameKind::Halma),
            Goal::KeepPawns(_) => game == GameKind::KnightHunt,
            Goal::AllBunnies => game == GameKind::Bunnies,
            Goal::Mars | Goal::NoGameLost => game == GameKind::Nard,
        }
    }
}

impl Path {
    /// The built-in path; it is checked by the tests, so it cannot fail here.
    pub fn builtin() -> Path {
        parse(BUILTIN.0, BUILTIN.1).unwrap_or_else(|e| panic!("the built-in path is broken: {e}"))
    }

    pub fn trail(&self, game: GameKind) -> Option<&Trail> {
        self.trails.iter().find(|t| t.game == game)
    }

    pub fn stage(&self, id: &str) -> Option<&Stage> {
        self.trails.iter().flat_map(|t| &t.stages).find(|s| s.id == id)
    }
}

impl Trail {
    /// Stage `index` is open when it is the first or the one before has a star.
    pub fn is_open(&self, index: usize, stars_of: impl Fn(&str) -> u32) -> bool {
        index == 0 || self.stages.get(index - 1).is_some_and(|before| stars_of(&before.id) > 0)
    }

    /// Stage `index` can be played: it is open, or it has stars already (brought from another
    /// device before the stages before it).
    pub fn can_play(&self, index: usize, stars_of: impl Fn(&str) -> u32) -> bool {
        self.stages.get(index).is_some_and(|stage| stars_of(&stage.id) > 0) || self.is_open(index, stars_of)
    }

    /// The first open stage without a star: the one to play next.
    pub fn next(&self, stars_of: impl Fn(&str) -> u32) -> Option<usize> {
        (0..self.stages.len()).find(|&i| self.is_open(i, &stars_of) && stars_of(&self.stages[i].id) == 0)
    }
}

impl Stage {
    /// The goal in `language` (every stage has all four; the tests check it).
    pub fn goal_text(&self, language: Language) -> &str {
        self.goal_words.get(language.code()).map(String::as_str).unwrap_or_default()
    }
}

#[derive(Deserialize)]
#[serde(rename = "Path", deny_unknown_fields)]
struct RawPath {
    games: Vec<RawTrail>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTrail {
    game: String,
    stages: Vec<RawStage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStage {
    id: String,
    level: String,
    robot: u8,
    seat: u8,
    goal: Goal,
    goal_words: BTreeMap<String, String>,
}

/// A level built into the program (as the menu reads it, whatever lies on the disk), else a
/// level file of the path's own.
fn builtin_or_file(file: &str) -> Result<Level, LevelError> {
    match levels::BUILTIN.iter().find(|(name, _)| *name == file) {
        Some((name, source)) => levels::parse(name, source),
        None => levels::load(std::path::Path::new(file)),
    }
}

/// Reads a path file; a mistake names `file` and the line it is on.
pub fn parse(file: &str, source: &str) -> Result<Path, LevelError> {
    let error = |line: usize, message: String| LevelError { file: file.to_string(), line, message };
    let raw: RawPath = ron::from_str(source).map_err(|e| error(e.span.start.line, e.code.to_string()))?;
    // The first line holding `text`, or the first line.
    let line_of = |text: &str| source.lines().position(|l| l.contains(text)).map_or(1, |i| i + 1);
    let mut trails = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for raw_trail in raw.games {
        let game_line = line_of(&format!("\"{}\"", raw_trail.game));
        let kind = GameKind::parse(&raw_trail.game).map_err(|why| error(game_line, why))?;
        if trails.iter().any(|t: &Trail| t.game == kind) {
            return Err(error(game_line, format!("the game \"{}\" has two trails", raw_trail.game)));
        }
        if raw_trail.stages.is_empty() {
            return Err(error(game_line, format!("the game \"{}\" has no stage", raw_trail.game)));
        }
        let mut stages = Vec::new();
        for raw in raw_trail.stages {
            let line = line_of(&format!("\"{}\"", raw.id));
            // The line of a field of this stage (at or after its id's line).
            let field_line = |field: &str| {
                source
                    .lines()
                    .enumerate()
                    .skip(line - 1)
                    .find(|(_, l)| l.trim_start().starts_with(field))
                    .map_or(line, |(i, _)| i + 1)
            };
            let fail_at = |field: &str, message: String| Err(error(field_line(field), message));
            let fail = |message: String| Err(error(line, message));
            if ids.contains(&raw.id) {
                return fail(format!("two stages are called \"{}\"", raw.id));
            }
            ids.push(raw.id.clone());
            let level = match builtin_or_file(&format!("ron_configs/{}", raw.level)) {
                Ok(level) => level,
                Err(e) => return fail_at("level", format!("stage \"{}\": the level {e}", raw.id)),
            };
            if level.kind() != kind {
                return fail(format!(
                    "stage \"{}\": {} is not a level of {}",
                    raw.id, raw.level, raw_trail.game
                ));
            }
            let Some(robot) = RobotLevel::from_number(raw.robot) else {
                return fail_at(
                    "robot",
                    format!("stage \"{}\": the Robot's level is 1, 2 or 3, not {}", raw.id, raw.robot),
                );
            };
            if usize::from(raw.seat) >= level.seat_count() {
                return fail_at(
                    "seat",
                    format!(
                        "stage \"{}\": seat {} is not one of the level's {} seats (they count from 0)",
                        raw.id,
                        raw.seat,
                        level.seat_count()
                    ),
                );
            }
            if !raw.goal.fits(kind) {
                return fail_at(
                    "goal:",
                    format!(
                        "stage \"{}\": the goal {:?} is not one of {}'s",
                        raw.id, raw.goal, raw_trail.game
                    ),
                );
            }
            if matches!(raw.goal, Goal::WinWithin(0) | Goal::KeepPawns(0)) {
                return fail_at(
                    "goal:",
                    format!("stage \"{}\": the goal's number must be at least 1", raw.id),
                );
            }
            for language in Language::ALL {
                if raw.goal_words.get(language.code()).is_none_or(|w| w.trim().is_empty()) {
                    return fail_at(
                        "goal_words",
                        format!("stage \"{}\": the goal has no words in \"{}\"", raw.id, language.code()),
                    );
                }
            }
            if let Some(unknown) =
                raw.goal_words.keys().find(|code| !Language::ALL.iter().any(|l| l.code() == *code))
            {
                return fail_at(
                    "goal_words",
                    format!("stage \"{}\": \"{unknown}\" is not one of the languages ro, en, it, el", raw.id),
                );
            }
            stages.push(Stage {
                id: raw.id,
                level,
                robot,
                seat: Seat(raw.seat),
                goal: raw.goal,
                goal_words: raw.goal_words,
            });
        }
        trails.push(Trail { game: kind, stages });
    }
    Ok(Path { trails })
}
