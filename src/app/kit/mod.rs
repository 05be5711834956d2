//! The screen kit every game uses, each of its systems once for all the games:
//! - what a game brings (`game`: the traits its view file implements) and how the kit sees any
//!   game (`shown`); each game's entry (`catalog`: its card, how it begins);
//! - the game being played (`play`, holding a `play_of::PlayOf` of the game's own type), whose
//!   turn it is (`turn`), a person's taps (`taps`), the Robot's turn (`robot_turn`), the clocks
//!   (`clocks`), the messages, marks and sounds (`feedback`);
//! - the board and its view (`board`), the pieces on it (`pieces`), input (`input`, `keys`),
//!   animation (`animate`), the celebration of a win (`celebrate`);
//! - a game played in a room with someone far away (`far`);
//! - hints (`hint`), help's demonstration (`help`), what covers the board (`covered`), watching
//!   again (`replay`) with the coach (`coach`);
//! - the screens' states (`screen`); how often a window is drawn (`frame_pace`: only while
//!   something moves, and a moment after);
//! - the game kept as it is played (`keeping`); the children (`children`), their stages
//!   (`stages`), the time they play (`time_played`), their progress given out and brought in
//!   (`transfer`).
//!
//! `add_game` puts a game on it: its entry in `catalog` and its demonstration in `help`, nothing
//! else; `games::plugin` adds every game of `rules::GameKind`'s list. docs/adding-a-game.md says
//! what a new game brings and where each thing of it lives.

pub mod animate;
pub mod board;
pub mod catalog;
pub mod celebrate;
pub mod children;
pub mod clocks;
pub mod coach;
pub mod covered;
pub mod far;
pub mod feedback;
pub mod frame_pace;
pub mod game;
pub mod help;
pub mod hint;
pub mod input;
pub mod keeping;
pub mod keys;
pub mod pieces;
pub mod play;
pub mod play_of;
pub mod replay;
pub mod robot_turn;
pub mod screen;
pub mod shown;
pub mod stages;
pub mod taps;
pub mod time_played;
pub mod transfer;
pub mod turn;
pub mod tutor;

use bevy::prelude::*;
use game::AppGame;

pub use screen::Screen;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        catalog::plugin,
        animate::plugin,
        board::plugin,
        input::plugin,
        keys::plugin,
        turn::plugin,
        hint::plugin,
        pieces::plugin,
        celebrate::plugin,
        help::plugin,
        covered::plugin,
        keeping::plugin,
        replay::plugin,
    ));
    app.add_plugins((children::plugin, stages::plugin, transfer::plugin, time_played::plugin));
    app.add_plugins(far::plugin);
}

/// Puts `G` on the kit: its entry (its card on the menu, how its game begins and shows its
/// demonstration). The kit's systems are the same for every game.
pub fn add_game<G: AppGame>(app: &mut App) {
    catalog::add_game::<G>(app);
}
