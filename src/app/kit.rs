//! The screen kit's one entry for a game: everything a game needs on screen (its turns, its
//! panels, its pieces on the board) is added by `add_game`, so a new game brings only its rules,
//! its Robot and its view file (an `AppGame`).

use super::game::AppGame;
use super::screens::{GameInfo, PlayableGames};
use super::{pieces, scoreboard, turn};
use bevy::prelude::*;

pub fn add_game<G: AppGame>(app: &mut App) {
    app.init_resource::<PlayableGames>();
    app.world_mut().resource_mut::<PlayableGames>().0.push(GameInfo {
        name: G::NAME,
        picture: G::MENU_ART,
        person_seat: G::PERSON_SEAT,
    });
    turn::add_game::<G>(app);
    scoreboard::add_game::<G>(app);
    pieces::add_game::<G>(app);
}
