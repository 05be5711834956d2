//! The screens as `States`: the menu of games, a game's setup, and the game itself. Whatever a
//! screen spawns carries `DespawnOnExit`, so leaving it cleans up.

mod menu;
mod setup;

use super::art::Art;
use super::{Launch, MatchSetup};
use crate::levels;
use bevy::prelude::*;

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

pub(super) fn plugin(app: &mut App) {
    app.init_state::<Screen>().init_resource::<PlayableGames>();
    app.add_systems(Startup, start_from_launch);
}

/// The menus drawn with egui (they need a window).
pub(super) fn ui_plugin(app: &mut App) {
    menu::plugin(app);
    setup::plugin(app);
}

fn start_from_launch(mut commands: Commands, launch: Res<Launch>, mut next: ResMut<NextState<Screen>>) {
    if let Some(setup) = &launch.start {
        commands.insert_resource(SetupFor(setup.level.game_name().to_string()));
        commands.insert_resource::<MatchSetup>(setup.clone());
        next.set(Screen::Playing);
    }
}

/// The games the app can show, by code name; each game's plugin adds itself.
#[derive(Resource, Default, Debug)]
pub struct PlayableGames(pub Vec<&'static str>);

/// The playable games in menu order (the order of the built-in level files).
pub fn games(playable: &PlayableGames) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for level in levels::builtin() {
        let name = level.game_name();
        if playable.0.contains(&name) && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

pub fn menu_picture(game: &str) -> Art {
    match game {
        _ => Art::MenuKnightHunt,
    }
}
