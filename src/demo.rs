//! How to play, shown: each game's help opens with a few moves played on a small board, read
//! from a RON file beside the game's level files (`ron_configs/<game>/how_to_play.ron`). The file
//! names a level, moves played before the demonstration starts (to reach a telling position), and
//! the moves shown, each in the text interface's words (`g1f3`, `roll 5 5`, `24/19`) with the
//! words key of what it teaches. A broken file is reported with its name and line, never a panic.

use crate::levels::{self, FromLevel};
use crate::rules::Game;
use serde::Deserialize;

macro_rules! builtin {
    ($game:literal) => {
        (
            $game,
            concat!("ron_configs/", $game, "/how_to_play.ron"),
            include_str!(concat!("../ron_configs/", $game, "/how_to_play.ron")),
        )
    };
}

/// Each game's demonstration: the game's code name, its file and the file's text.
pub const BUILTIN: &[(&str, &str, &str)] =
    &[builtin!("knight_hunt"), builtin!("circles"), builtin!("bunnies"), builtin!("nard"), builtin!("halma")];

#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DemoScript {
    /// The level file whose start the demonstration plays from.
    pub level: String,
    /// Moves played at once, before the demonstration starts.
    #[serde(default)]
    pub before: Vec<String>,
    /// The corners of the part of a big board shown (`("a1", "i9")`); moves outside it are
    /// made at once. The whole board when left out.
    #[serde(default)]
    pub show: Option<(String, String)>,
    pub steps: Vec<DemoStep>,
}

#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DemoStep {
    /// The action, as the text interface writes it.
    pub play: String,
    /// The words key of what the move shows, if it shows something of its own.
    #[serde(default)]
    pub say: Option<String>,
}

/// A demonstration ready to be shown: the position it starts from and each move with the
/// position before and after it.
#[derive(Clone, Debug)]
pub struct Demo<G: Game> {
    pub start: G,
    pub steps: Vec<Shown<G>>,
    /// The corners of the part of the board shown, as the file names them.
    pub show: Option<(String, String)>,
}

#[derive(Clone, Debug)]
pub struct Shown<G: Game> {
    pub before: G,
    pub action: G::Action,
    pub after: G,
    pub say: Option<String>,
}

/// The demonstration of `game` (its code name), each move checked against the rules; `None` for
/// a game that has none.
pub fn demo<G: Game + FromLevel>() -> Option<Result<Demo<G>, String>> {
    let (_, file, source) = BUILTIN.iter().find(|(name, _, _)| *name == G::KIND.code())?;
    Some(parse(file, source))
}

/// Reads a demonstration file and plays it through, so every move is known to be legal.
pub fn parse<G: Game + FromLevel>(file: &str, source: &str) -> Result<Demo<G>, String> {
    let script: DemoScript =
        ron::from_str(source).map_err(|e| format!("{file}:{}: {}", e.span.start.line, e.code))?;
    let level = levels::find(&script.level).map_err(|e| format!("{file}: {e}"))?;
    let mut game =
        G::from_level(&level).ok_or(format!("{file}: {} is another game's level", script.level))?;
    for text in &script.before {
        play(&mut game, text).map_err(|e| format!("{file}: before the demonstration, {text}: {e}"))?;
    }
    let start = game.clone();
    let mut steps = Vec::new();
    for step in &script.steps {
        let before = game.clone();
        let action = play(&mut game, &step.play).map_err(|e| format!("{file}: {}: {e}", step.play))?;
        steps.push(Shown { before, action, after: game.clone(), say: step.say.clone() });
    }
    if steps.is_empty() {
        return Err(format!("{file}: a demonstration needs at least one move"));
    }
    Ok(Demo { start, steps, show: script.show })
}

fn play<G: Game>(game: &mut G, text: &str) -> Result<G::Action, String> {
    let action = game.parse_action(text).map_err(|e| e.to_string())?;
    game.apply(&action).map_err(|e| e.to_string())?;
    Ok(action)
}
