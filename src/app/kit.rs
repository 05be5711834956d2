//! The screen kit's one entry for a game: everything a game needs on screen (its turns, its
//! panels, its pieces on the board) is added by `add_game`, so a new game brings only its rules,
//! its Robot and its view file (an `AppGame`).

use super::game::AppGame;
use super::screens::{GameInfo, PlayableGames, SeatLabel};
use super::{help, hint, pieces, scoreboard, turn};
use crate::levels::Level;
use crate::rules::Seat;
use bevy::prelude::*;

pub fn add_game<G: AppGame>(app: &mut App) {
    app.init_resource::<PlayableGames>();
    app.world_mut().resource_mut::<PlayableGames>().0.push(GameInfo {
        name: G::NAME,
        picture: G::MENU_ART,
        person_seat: G::PERSON_SEAT,
        seat_by_seat: G::SEAT_BY_SEAT,
        seats: seat_labels::<G>,
    });
    turn::add_game::<G>(app);
    hint::add_game::<G>(app);
    help::add_game::<G>(app);
    scoreboard::add_game::<G>(app);
    pieces::add_game::<G>(app);
}

/// Each seat of the level's game: the words key of its name and its picture.
fn seat_labels<G: AppGame>(level: &Level) -> Vec<SeatLabel> {
    G::from_level(level)
        .map(|game| {
            Seat::all(game.seat_count()).map(|s| (game.seat_label_key(s), game.seat_art(s))).collect()
        })
        .unwrap_or_default()
}
