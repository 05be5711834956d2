//! The game screen's course: how a game begins (`catalog`: each game's entry), whose turn it is and the
//! buttons of the game screen (`turn`), a person's taps and keys (`taps`, `keys`), the Robot's
//! turn (`robot_turn`), the tutor's question before a slip (`tutor`), hints (`hint`), the clocks
//! (`clocks`), and a game watched again with the coach (`replay`).

pub mod catalog;
pub mod clocks;
pub mod hint;
pub mod keys;
pub mod replay;
pub mod robot_turn;
pub mod taps;
pub mod turn;
pub mod tutor;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((catalog::plugin, keys::plugin, turn::plugin, hint::plugin, replay::plugin));
}
