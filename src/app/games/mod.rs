//! Tabla's five games on screen: one view file each, implementing `session::game::AppGame` for the
//! game's rules (what it tells, how it stands on the board). This folder's plugin puts each game
//! of `rules::GameKind`'s list on the game screen, and Crazy Nard's own systems (its dice and cube).

mod bunnies;
mod circles;
mod halma;
mod knight_hunt;
mod nard;

use crate::app::course::catalog;
use crate::rules::GameKind;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    for kind in GameKind::ALL {
        crate::with_game!(kind, G => catalog::add_game::<G>(app));
    }
    app.add_plugins(nard::plugin);
}
