//! The screen kit every game uses: what a game brings (`game`), the game being played (`play`),
//! whose turn it is (`turn`), the board and its view (`board`), the pieces on it (`pieces`),
//! input (`input`, `keys`), animation (`animate`), hints (`hint`), help's demonstration (`help`),
//! the celebration of a win (`celebrate`), the game kept as it is played (`keeping`), watched
//! again with the coach (`replay`), and the children with their path of stages (`children`).
//! `add_game` puts a game on it, so a new game brings only its rules, its Robot and its view file
//! (an `AppGame`).

pub mod animate;
pub mod board;
pub mod catalog;
pub mod celebrate;
pub mod children;
pub mod game;
pub mod help;
pub mod hint;
pub mod input;
pub mod keeping;
pub mod keys;
pub mod pieces;
pub mod play;
pub mod replay;
pub mod turn;

use bevy::prelude::*;
use game::AppGame;

pub use catalog::Screen;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        catalog::plugin,
        animate::plugin,
        board::plugin,
        input::plugin,
        keys::plugin,
        turn::plugin,
        celebrate::plugin,
        help::plugin,
        keeping::plugin,
        replay::plugin,
        children::plugin,
    ));
}

/// Everything `G` needs of the kit: its card on the menu, its turns, hints, help and pieces.
pub fn add_game<G: AppGame>(app: &mut App) {
    catalog::add_game::<G>(app);
    turn::add_game::<G>(app);
    hint::add_game::<G>(app);
    help::add_game::<G>(app);
    pieces::add_game::<G>(app);
    keeping::add_game::<G>(app);
    replay::add_game::<G>(app);
}
