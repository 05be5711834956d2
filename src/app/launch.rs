//! What is asked to be played: who plays each seat, the game chosen on the setup screen or the
//! command line (`MatchSetup`), and the command line's other wishes (`Launch`).

use crate::i18n::Language;
use crate::levels::{self, Level};
use crate::progress::child::MOST_CHILDREN;
use crate::quote::quote;
use crate::robot::RobotLevel;
use crate::rules::{GameKind, Seat};
use bevy::prelude::*;
use std::path::PathBuf;

/// Who plays a seat: the record's own, so a saved game names its players the same way.
pub use crate::record::Control;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Opponent {
    #[default]
    Robot,
    Friend,
    /// Someone on another device, through a room of `tabla serve`.
    Far,
}

/// The game about to be played or being played: chosen on the setup screen or the command line.
#[derive(Resource, Clone, Debug)]
pub struct MatchSetup {
    pub level: Level,
    pub opponent: Opponent,
    /// The person's seat when playing the Robot.
    pub person_seat: Seat,
    pub robot_level: RobotLevel,
    /// Minutes per player; 0 is no clock.
    pub clock_minutes: u32,
    /// Who plays each seat, when chosen seat by seat (`--seats`); empty: from `opponent`,
    /// `person_seat` and `robot_level`.
    pub seats: Vec<Control>,
    /// The stage of the child's path being played, if the game was begun from the map.
    pub stage: Option<String>,
}

impl MatchSetup {
    /// The setup a record was played with: its level (with its first seat), its players and its
    /// clock.
    pub fn of_record(record: &crate::record::Record) -> Result<MatchSetup, crate::record::RecordError> {
        let level = record.level()?.with_first(Seat(record.first));
        let robot_level = record
            .seats
            .iter()
            .find_map(|c| match c {
                Control::Robot(level) => Some(*level),
                Control::Person | Control::Far => None,
            })
            .unwrap_or(RobotLevel::One);
        let has_robot = record.seats.iter().any(|c| matches!(c, Control::Robot(_)));
        let person = record.seats.iter().position(|c| *c == Control::Person).unwrap_or(0);
        Ok(MatchSetup {
            level,
            opponent: if has_robot { Opponent::Robot } else { Opponent::Friend },
            person_seat: Seat(person as u8),
            robot_level,
            clock_minutes: record.clock_minutes,
            seats: record.seats.clone(),
            stage: record.stage.clone(),
        })
    }

    /// Who plays each of the game's `seats`: as chosen seat by seat, or else against the Robot
    /// the person takes their seat and the Robot every other one.
    pub fn controls(&self, seats: usize) -> Vec<Control> {
        if self.seats.len() == seats {
            return self.seats.clone();
        }
        Seat::all(seats)
            .map(|seat| match self.opponent {
                Opponent::Robot if seat != self.person_seat => Control::Robot(self.robot_level),
                Opponent::Far if seat != self.person_seat => Control::Far,
                _ => Control::Person,
            })
            .collect()
    }
}

/// `--seats person,robot2,…`: one player per seat, in seat order.
fn parse_seats(text: &str, level: &Level, robot_level: RobotLevel) -> Result<Vec<Control>, String> {
    let seats: Vec<Control> = text
        .split(',')
        .map(|item| match item.trim() {
            "person" => Ok(Control::Person),
            "robot" => Ok(Control::Robot(robot_level)),
            other => {
                other.strip_prefix("robot").and_then(RobotLevel::parse).map(Control::Robot).ok_or_else(|| {
                    format!("--seats takes person, robot, robot1, robot2 or robot3, not '{}'", quote(other))
                })
            }
        })
        .collect::<Result<_, _>>()?;
    if seats.len() != level.seat_count() {
        return Err(format!(
            "--seats names {} players; {} has {} seats",
            seats.len(),
            level.file,
            level.seat_count()
        ));
    }
    Ok(seats)
}

/// `--join CODE` (in the browser, `?join=CODE`): the room's code as typed.
fn join_code(code: Option<&str>) -> Result<Option<String>, String> {
    code.map(|code| {
        crate::net::code::RoomCode::parse(code)
            .map(|code| code.to_string())
            .map_err(|e| format!("--join {}: {e}", crate::quote::quote(code)))
    })
    .transpose()
}

/// What the command line asked for.
#[derive(Resource, Clone, Debug, Default)]
pub struct Launch {
    /// Start this game at once instead of showing the menu.
    pub start: Option<MatchSetup>,
    /// `--tour <dir>`: show every screen, save a picture of each, then quit.
    pub tour: Option<PathBuf>,
    pub language: Option<Language>,
    /// Where the settings and games are kept, instead of the user's configuration folder (for
    /// tests).
    pub settings_dir: Option<PathBuf>,
    /// `--continue`: go on with the game in progress at once.
    pub continue_game: bool,
    /// `--load FILE`: go on from a record file.
    pub load: Option<PathBuf>,
    /// `--seed N`: the first game's seed (its dice and the Robot's choices), so it plays as
    /// `tabla text --seed N` does.
    pub seed: Option<u64>,
    /// `--child N` (1 to 8): whose game it is; else the child who played last on this device.
    pub child: Option<usize>,
    /// `--join CODE`: join the room of that code at once (on `--server`, else the last server).
    pub join: Option<String>,
    pub server: Option<String>,
}

impl Launch {
    pub fn from_flags(flags: &[(String, String)]) -> Result<Launch, String> {
        let get = |name: &str| flags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str());
        let known = [
            "game",
            "variant",
            "players",
            "seats",
            "color",
            "colour",
            "robot-level",
            "clock",
            "lang",
            "tour",
            "continue",
            "load",
            "seed",
            "child",
            "join",
            "server",
        ];
        if let Some((name, _)) = flags.iter().find(|(n, _)| !known.contains(&n.as_str())) {
            return Err(format!("unknown option --{}", crate::quote::quote(name)));
        }
        if get("tour").is_some() && !cfg!(feature = "tour") {
            return Err(
                "this Tabla has no tour: it is built for the tests (cargo build --features tour)".into()
            );
        }
        let language = match get("lang") {
            None => None,
            Some(code) => Some(
                Language::ALL
                    .into_iter()
                    .find(|l| l.code() == code)
                    .ok_or_else(|| format!("--lang is one of ro, en, it, el, not '{}'", quote(code)))?,
            ),
        };
        let start = match get("game") {
            None => None,
            Some(game) => {
                let game = GameKind::parse(game).map_err(|why| format!("--game {why}"))?;
                let variant = get("variant").map(str::to_string).unwrap_or_else(|| default_variant(game));
                let level = levels::find(&format!("ron_configs/{game}/{variant}.ron"))
                    .map_err(|e| crate::quote::cut_message(&e.to_string()))?;
                let opponent = match get("players").unwrap_or("robot") {
                    "robot" | "1" => Opponent::Robot,
                    "friend" | "2" => Opponent::Friend,
                    other => return Err(format!("--players is robot or friend, not '{}'", quote(other))),
                };
                let person_seat = match get("color").or(get("colour")).unwrap_or("white") {
                    "white" => Seat::WHITE,
                    "black" => Seat::BLACK,
                    other => return Err(format!("--color is white or black, not '{}'", quote(other))),
                };
                let robot_level = RobotLevel::parse(get("robot-level").unwrap_or("1"))
                    .ok_or("--robot-level is 1, 2 or 3")?;
                let clock_minutes: u32 =
                    get("clock").unwrap_or("0").parse().map_err(|_| "--clock is a number of minutes")?;
                let seats = match get("seats") {
                    Some(text) => parse_seats(text, &level, robot_level)?,
                    None => Vec::new(),
                };
                Some(MatchSetup {
                    level,
                    opponent,
                    person_seat,
                    robot_level,
                    clock_minutes,
                    seats,
                    stage: None,
                })
            }
        };
        let tour = get("tour").map(PathBuf::from);
        Ok(Launch {
            start,
            // The tour keeps what it makes in its own folder, never in the player's.
            settings_dir: tour.as_ref().map(|dir| dir.join("home")),
            tour,
            language,
            continue_game: get("continue").is_some(),
            load: get("load").map(PathBuf::from),
            seed: match get("seed") {
                None => None,
                Some(n) => {
                    Some(n.parse().map_err(|_| format!("--seed is a whole number, not '{}'", quote(n)))?)
                }
            },
            child: match get("child") {
                None => None,
                Some(n) => Some(
                    n.parse::<usize>()
                        .ok()
                        .filter(|n| (1..=MOST_CHILDREN).contains(n))
                        .map(|n| n - 1)
                        .ok_or_else(|| format!("--child is 1 to {MOST_CHILDREN}, not '{}'", quote(n)))?,
                ),
            },
            join: join_code(get("join"))?,
            server: get("server").map(str::to_string),
        })
    }

    /// The page's address as options: an option Tabla does not know, or one whose value cannot be
    /// used, is left out alone (each said in `warnings`), and the rest are taken. The browser takes
    /// no tour from its address.
    pub fn from_address(flags: &[(String, String)]) -> (Launch, Vec<String>) {
        let mut warnings = Vec::new();
        let mut flags: Vec<(String, String)> = flags
            .iter()
            .filter(|(name, _)| {
                let known = ADDRESS_OPTIONS.contains(&name.as_str());
                if !known {
                    warnings.push(format!(
                        "the address's option '{}' is not Tabla's: it is left out",
                        quote(name)
                    ));
                }
                known
            })
            // One spelling, so a refusal's name finds it.
            .map(|(name, value)| {
                (if name == "colour" { "color".into() } else { name.clone() }, value.clone())
            })
            .collect();
        // Each refusal names its option; that one goes, and the rest are tried again.
        for _ in 0..=ADDRESS_OPTIONS.len() {
            match Launch::from_flags(&flags) {
                Ok(launch) => return (launch, warnings),
                Err(why) => {
                    let named = flags.iter().position(|(name, _)| why.contains(&format!("--{name} ")));
                    // A level that cannot be found names no option: its variant goes first, then the game.
                    let culprit = named
                        .or_else(|| flags.iter().position(|(name, _)| name == "variant"))
                        .or_else(|| flags.iter().position(|(name, _)| name == "game"));
                    let Some(culprit) = culprit else { break };
                    warnings.push(format!("the address's option '{}' is left out: {why}", flags[culprit].0));
                    flags.remove(culprit);
                }
            }
        }
        (Launch::default(), warnings)
    }
}

/// The options a page's address may carry (the command line's, without the tour).
const ADDRESS_OPTIONS: [&str; 15] = [
    "game",
    "variant",
    "players",
    "seats",
    "color",
    "colour",
    "robot-level",
    "clock",
    "lang",
    "continue",
    "load",
    "seed",
    "child",
    "join",
    "server",
];

/// The first built-in variant of a game.
fn default_variant(game: GameKind) -> String {
    levels::builtin()
        .into_iter()
        .find(|l| l.kind() == game)
        .map(|l| l.variant().to_string())
        .unwrap_or_default()
}
