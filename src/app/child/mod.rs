//! A child's things and their keeping: the children of the device (`children`), their stages on
//! the map (`stages`), the time they play (`time_played`), their progress given out and brought
//! in (`transfer`), and the game kept as it is played (`keeping`).

pub mod children;
pub mod keeping;
pub mod stages;
pub mod time_played;
pub mod transfer;

use bevy::prelude::*;

pub fn plugin(app: &mut App) {
    app.add_plugins((
        keeping::plugin,
        children::plugin,
        stages::plugin,
        transfer::plugin,
        time_played::plugin,
    ));
}
