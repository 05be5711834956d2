//! Tabla's five games on screen: one view file each, implementing the kit's `AppGame` for the
//! game's rules (what it tells, how it stands on the board). This folder's plugin puts each on
//! the kit and the panels.

mod bunnies;
mod circles;
mod halma;
mod knight_hunt;
mod nard;

use crate::app::kit::{self, game::AppGame};
use crate::rules::bunnies::BunniesAndHorses;
use crate::rules::circles::Circles;
use crate::rules::halma::Halma;
use crate::rules::knight_hunt::KnightHunt;
use crate::rules::nard::Nard;
use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    add::<Circles>(app);
    add::<KnightHunt>(app);
    add::<BunniesAndHorses>(app);
    add::<Halma>(app);
    add::<Nard>(app);
    app.add_plugins(nard::plugin);
}

/// A game on screen: its entry on the kit (the kit's systems are every game's).
pub fn add<G: AppGame>(app: &mut App) {
    kit::add_game::<G>(app);
}
