//! The screens as `States`: the menu of games, a game's setup, and the game itself. Whatever a
//! screen spawns carries `DespawnOnExit`, so leaving it cleans up.

mod menu;
mod setup;

use super::art::Art;
use super::{Launch, MatchSetup};
use crate::levels;
use bevy::prelude::*;
use tracing::error;

#[derive(States, Default, Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Screen {
    #[default]
    Menu,
    Setup,
    Playing,
}

/// The game whose setup screen is open.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct SetupFor(pub String);

/// The built-in level files, read once when the app starts.
#[derive(Resource, Debug)]
pub struct Levels(pub Vec<levels::Level>);

impl Levels {
    /// A game's levels, in file order.
    pub fn of<'a>(&'a self, game: &'a str) -> impl Iterator<Item = &'a levels::Level> {
        self.0.iter().filter(move |l| l.game_name() == game)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>().init_resource::<PlayableGames>().insert_resource(Levels(levels::builtin()));
    app.add_systems(Startup, start_from_launch);
}

/// The menus drawn with egui (they need a window).
pub(super) fn ui_plugin(app: &mut App) {
    menu::plugin(app);
    setup::plugin(app);
}

fn start_from_launch(
    mut commands: Commands,
    launch: Res<Launch>,
    playable: Res<PlayableGames>,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(setup) = &launch.start {
        if playable.get(setup.level.game_name()).is_none() {
            error!("{}", no_screen_yet(&setup.level));
            return;
        }
        commands.insert_resource(SetupFor(setup.level.game_name().to_string()));
        commands.insert_resource::<MatchSetup>(setup.clone());
        next.set(Screen::Playing);
    }
}

/// What the app says when asked to open a game it holds no screen for (an app built with the
/// screen kit alone).
pub fn no_screen_yet(level: &levels::Level) -> String {
    format!(
        "{} has no board on screen yet; play it with `tabla text --level {}`",
        level.game_name(),
        level.file
    )
}

/// What the menus know of a game with a screen.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    pub name: &'static str,
    pub picture: Art,
    /// The person's seat against the Robot, when the game decides it.
    pub person_seat: Option<crate::rules::Seat>,
    /// The setup chooses each seat's player and who starts (else an opponent and a colour).
    pub seat_by_seat: bool,
    /// Each seat of a level's game: the words key of its name and its picture.
    pub seats: fn(&levels::Level) -> Vec<SeatLabel>,
}

/// A seat as the setup shows it: the words key of its name and its picture.
pub type SeatLabel = (&'static str, Option<Art>);

/// The games the app can show; each game's plugin adds itself.
#[derive(Resource, Default, Debug)]
pub struct PlayableGames(pub Vec<GameInfo>);

impl PlayableGames {
    pub fn get(&self, name: &str) -> Option<GameInfo> {
        self.0.iter().find(|g| g.name == name).copied()
    }
}

/// The playable games in menu order (the order of the built-in level files).
pub fn games(playable: &PlayableGames, levels: &Levels) -> Vec<GameInfo> {
    let mut found: Vec<GameInfo> = Vec::new();
    for level in &levels.0 {
        if let Some(info) = playable.get(level.game_name())
            && !found.iter().any(|g| g.name == info.name)
        {
            found.push(info);
        }
    }
    found
}
