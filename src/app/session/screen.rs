//! The app's screens as `States`. Whatever a screen spawns carries `DespawnOnExit`, so leaving it
//! cleans up.

use bevy::prelude::*;

#[derive(States, Default, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Screen {
    #[default]
    Menu,
    Setup,
    Playing,
    /// Who is playing? Each child's picture, and a new child's.
    Children,
    /// The playing child's path: a trail of stages per game.
    Map,
    /// The grown-ups' page, behind its gate.
    Grownups,
    /// A diploma, big enough to print.
    Diploma,
    /// Another window holds the data: this one says so, with a button to play here instead.
    Elsewhere,
    /// Making a room to play with someone far away (behind the grown-ups' gate), or joining one.
    Far,
}
