//! The board on screen, for any game: its squares, marks and trays as entities (`view`), the
//! pieces on it (`pieces`), a finger's and a mouse's input on it (`input`), glides (`animate`),
//! the celebration of a win (`celebrate`), help's demonstration played on it (`help`), and what
//! covers it (`covered`).

pub mod animate;
pub mod celebrate;
pub mod covered;
pub mod help;
pub mod input;
pub mod pieces;
pub mod view;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        animate::plugin,
        view::plugin,
        input::plugin,
        pieces::plugin,
        celebrate::plugin,
        help::plugin,
        covered::plugin,
    ));
}
