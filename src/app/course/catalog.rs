//! What the game screen and the other screens know of the games: the built-in level files (read once) and each
//! playable game's entry (its card, how it begins, how a kept record of it opens). The screens
//! themselves are `screen::Screen`.

use crate::app::launch::MatchSetup;
use crate::app::platform::art::Art;
use crate::app::session::game::AppGame;
use crate::app::session::play::Opened;
use crate::app::session::play::Playing;
use crate::app::session::play_of::PlayOf;
use crate::levels::{self, Level};
use crate::record::{Record, RecordError};
use crate::rules::{GameKind, Seat};
use bevy::prelude::*;

/// The built-in level files, read once when the app starts.
#[derive(Resource, Debug)]
pub struct Levels(pub Vec<Level>);

impl Levels {
    /// A game's levels, in file order.
    pub fn of(&self, game: GameKind) -> impl Iterator<Item = &Level> {
        self.0.iter().filter(move |l| l.kind() == game)
    }
}

/// What the game screen and the menus know of a game with a screen: its picture and setup, and how its
/// game begins (new, or from a record); its demonstration is the help's (`help::add_demo`). Each game's view file gives
/// one (`add_game`); this is the one place a game's type is named to the game screen.
#[derive(Clone, Copy, Debug)]
pub struct GameEntry {
    pub kind: GameKind,
    pub picture: Art,
    /// The piece its stages show on the map.
    pub stage_picture: Art,
    /// The person's seat against the Robot, when the game decides it.
    pub person_seat: Option<Seat>,
    /// The setup chooses each seat's player and who starts (else an opponent and a colour).
    pub seat_by_seat: bool,
    /// Each seat of a level's game: the words key of its name and its picture.
    pub seats: fn(&Level) -> Vec<SeatLabel>,
    /// A new game of the setup's level, seeded (`None`: the level is not this game's).
    pub start: fn(&MatchSetup, u64) -> Option<Box<dyn Playing>>,
    /// A record's game, opened `from` where it came from.
    pub resume: Resumer,
}

/// How a game goes on from a record.
pub type Resumer = fn(&Record, Opened) -> Result<Box<dyn Playing>, RecordError>;

/// A seat as the setup shows it: the words key of its name and its picture.
pub type SeatLabel = (&'static str, Option<Art>);

/// The games the app can show; each game adds itself (`add_game`).
#[derive(Resource, Default, Debug)]
pub struct PlayableGames(pub Vec<GameEntry>);

impl PlayableGames {
    pub fn get(&self, kind: GameKind) -> Option<GameEntry> {
        self.0.iter().find(|g| g.kind == kind).copied()
    }

    /// The playable games in menu order (the order of the built-in level files).
    pub fn in_menu_order(&self, levels: &Levels) -> Vec<GameEntry> {
        let mut found: Vec<GameEntry> = Vec::new();
        for level in &levels.0 {
            if let Some(entry) = self.get(level.kind())
                && !found.iter().any(|g| g.kind == entry.kind)
            {
                found.push(entry);
            }
        }
        found
    }
}

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_state::<crate::app::session::screen::Screen>()
        .init_resource::<PlayableGames>()
        .insert_resource(Levels(levels::builtin()));
}

/// Puts `G` on the game screen and the menu: its entry (its card, how it begins) and its
/// demonstration. The game screen's systems are the same for every game.
pub fn add_game<G: AppGame>(app: &mut App) {
    app.init_resource::<PlayableGames>();
    app.world_mut().resource_mut::<PlayableGames>().0.push(GameEntry {
        kind: G::KIND,
        picture: G::MENU_ART,
        stage_picture: G::STAGE_ART,
        person_seat: G::PERSON_SEAT,
        seat_by_seat: G::SEAT_BY_SEAT,
        // Each seat of the level's game: the words key of its name and its picture.
        seats: |level| {
            G::from_level(level)
                .map(|game| {
                    Seat::all(game.seat_count()).map(|s| (game.seat_label_key(s), game.seat_art(s))).collect()
                })
                .unwrap_or_default()
        },
        start: |setup, seed| Some(Box::new(PlayOf::new(G::from_level(&setup.level)?, setup, seed))),
        resume: |record, from| Ok(Box::new(PlayOf::<G>::of_record(record, from)?)),
    });
    crate::app::board::help::add_demo::<G>(app);
}
