//! The screens around the game: who is playing, the child's map of stages, the menu of games
//! (free play) and a game's setup (the game screen itself is the kit's and the panels'), the
//! grown-ups' page and a diploma; and the start straight into a game the command line asked for.

mod children;
mod diploma;
mod grownups;
mod map;
mod menu;
mod setup;

pub use diploma::SaveDiploma;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) use grownups::pass_gate;
pub use setup::SetupFor;

use crate::app::kit::catalog::{PlayableGames, Screen};
use crate::app::kit::keeping::{self, SavedGame, read_record_file, read_saved_game};
use crate::app::launch::{Launch, MatchSetup};
use crate::app::platform::store::Store;
use crate::levels;
use bevy::prelude::*;
use tracing::{error, warn};

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, start_from_launch);
}

/// The menus drawn with egui (they need a window).
pub fn ui_plugin(app: &mut App) {
    menu::plugin(app);
    setup::plugin(app);
    children::plugin(app);
    map::plugin(app);
    grownups::plugin(app);
    diploma::plugin(app);
    app.add_systems(Startup, who_is_playing.after(start_from_launch));
}

/// A start with nothing asked for on the command line asks who is playing first.
fn who_is_playing(launch: Res<Launch>, mut next: ResMut<NextState<Screen>>) {
    if launch.start.is_none() && launch.load.is_none() && !launch.continue_game && launch.tour.is_none() {
        next.set(Screen::Children);
    }
}

fn start_from_launch(
    mut commands: Commands,
    launch: Res<Launch>,
    playable: Res<PlayableGames>,
    store: Res<Store>,
    mut saved: ResMut<SavedGame>,
    mut next: ResMut<NextState<Screen>>,
) {
    if launch.continue_game || launch.load.is_some() {
        let record = match &launch.load {
            Some(file) => read_record_file(file),
            None => match read_saved_game(&store) {
                Ok(Some((record, _))) => Ok(record),
                Ok(None) => {
                    // Nothing went wrong: the menu opens as usual.
                    warn!("there is no game in progress to continue");
                    return;
                }
                Err(problem) => Err(problem),
            },
        };
        match record.and_then(|record| keeping::begin(&mut commands, record).map_err(|e| e.to_string())) {
            Ok(setup) => {
                commands.insert_resource(SetupFor(setup.level.game_name().to_string()));
                next.set(Screen::Playing);
            }
            Err(problem) => {
                error!("{problem}");
                saved.problem = Some(problem);
            }
        }
        return;
    }
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
