//! What covers the board: the help, the in-game settings, the details a phone's slim panels
//! open. While anything covers it the clock stops, the Robot waits and keys leave the board alone.

use super::help::HelpOpen;
use crate::app::session::screen::Screen;
use bevy::prelude::*;

/// The panels that may cover the board, as the panels last drew them.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covers {
    pub settings: bool,
    /// The slim panels' details, open on a phone's narrow screen.
    pub details: bool,
}

/// Something covers the board; worked out once a frame from `HelpOpen` and `Covers`.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardCovered(pub bool);

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<Covers>().init_resource::<BoardCovered>();
    app.add_systems(First, work_out);
    app.add_systems(OnExit(Screen::Playing), uncover);
}

fn work_out(help: Res<HelpOpen>, covers: Res<Covers>, mut covered: ResMut<BoardCovered>) {
    covered.set_if_neq(BoardCovered(help.0 || covers.settings || covers.details));
}

fn uncover(mut help: ResMut<HelpOpen>, mut covers: ResMut<Covers>, mut covered: ResMut<BoardCovered>) {
    help.0 = false;
    *covers = Covers::default();
    covered.0 = false;
}
