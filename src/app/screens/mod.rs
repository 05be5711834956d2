//! The screens around the game: who is playing, the child's map of stages, the menu of games
//! (free play) and a game's setup (the game screen itself is `session/`, `board/` and `course/`'s, with the panels), the
//! grown-ups' page and a diploma; the word that another window holds the data (`elsewhere`); and
//! the start straight into a game the command line asked for, as a child's game; what these screens
//! say aloud (`spoken`).

mod children;
mod diploma;
mod elsewhere;
mod far;
mod grownups;
mod map;
mod menu;
mod setup;
mod spoken;

pub use diploma::SaveDiploma;
pub use elsewhere::{PlayHere, TakingOver};
pub use far::FarPage;
#[cfg(not(target_arch = "wasm32"))]
#[cfg(feature = "tour")]
pub(crate) use grownups::pass_gate;
pub use setup::SetupFor;

use crate::app::child::children::Children;
use crate::app::child::children::name_of;
use crate::app::child::keeping::{self, SavedGame, read_games_in_progress, read_record_file};
use crate::app::course::catalog::PlayableGames;
use crate::app::launch::{Launch, MatchSetup};
use crate::app::platform::settings::{Settings, Words};
use crate::app::platform::store::Store;
use crate::app::session::feedback::{Notice, Notices};
use crate::app::session::play::Opened;
use crate::app::session::screen::Screen;
use crate::levels;
use crate::rules::GameKind;
use bevy::prelude::*;
use tracing::{error, warn};

pub fn plugin(app: &mut App) {
    app.add_systems(Startup, start_from_launch.after(crate::app::child::children::load));
    elsewhere::plugin(app);
    spoken::plugin(app);
    app.add_systems(OnEnter(Screen::Playing), tell_whose.after(crate::app::course::turn::StartSet));
}

/// The menus drawn with egui (they need a window).
pub fn ui_plugin(app: &mut App) {
    menu::plugin(app);
    setup::plugin(app);
    children::plugin(app);
    map::plugin(app);
    grownups::plugin(app);
    diploma::plugin(app);
    elsewhere::ui_plugin(app);
    far::plugin(app);
    app.add_systems(Startup, who_is_playing.after(start_from_launch));
}

/// A start with nothing asked for on the command line asks who is playing first; one where
/// another window holds the data says so first.
fn who_is_playing(launch: Res<Launch>, store: Res<Store>, mut next: ResMut<NextState<Screen>>) {
    if store.holding().is_err() {
        next.set(Screen::Elsewhere);
    } else if launch.start.is_none()
        && launch.join.is_none()
        && launch.load.is_none()
        && !launch.continue_game
        && launch.tour.is_none()
    {
        next.set(Screen::Children);
    }
}

/// A game the command line (or the page's address) opened is the game of a child: the one it
/// names, else the one who played last on this device, else the first. Their name is shown when
/// the game begins.
#[derive(Resource, Clone, Debug)]
struct TellWhose(String);

/// Whose game a game opened by the command line is: `Err` when the child it names is not there.
fn launch_child(launch: &Launch, settings: &Settings, children: &Children) -> Result<Option<usize>, String> {
    if let Some(slot) = launch.child {
        return match children.get(slot) {
            Some(_) => Ok(Some(slot)),
            None => Err(format!("there is no child {} on this device", slot + 1)),
        };
    }
    let last = settings.last_child.map(usize::from).filter(|&slot| children.get(slot).is_some());
    Ok(last.or_else(|| children.each().next().map(|(slot, _)| slot)))
}

#[allow(clippy::too_many_arguments)]
fn start_from_launch(
    mut commands: Commands,
    launch: Res<Launch>,
    playable: Res<PlayableGames>,
    settings: Res<Settings>,
    children: Res<Children>,
    words: Res<Words>,
    mut store: ResMut<Store>,
    mut saved: ResMut<SavedGame>,
    mut next: ResMut<NextState<Screen>>,
) {
    if launch.start.is_none() && launch.load.is_none() && !launch.continue_game {
        return;
    }
    match launch_child(&launch, &settings, &children) {
        Ok(Some(slot)) => {
            store.choose_child(Some(slot));
            if let Some(child) = children.get(slot) {
                commands.insert_resource(TellWhose(name_of(&words, child)));
            }
        }
        Ok(None) => {}
        Err(problem) => {
            error!("{problem}");
            saved.problem = Some(problem);
            return;
        }
    }
    if launch.continue_game || launch.load.is_some() {
        let games: Vec<GameKind> = playable.0.iter().map(|entry| entry.kind).collect();
        let (record, from) = match &launch.load {
            Some(file) => (read_record_file(file), Opened::File),
            None => match read_games_in_progress(&store.games(), &games) {
                (cards, _, _) if !cards.is_empty() => (Ok(cards[0].0.clone()), Opened::Continued),
                (_, problems, _) if !problems.is_empty() => (Err(problems[0].clone()), Opened::Continued),
                _ => {
                    // Nothing went wrong: the menu opens as usual.
                    warn!("there is no game in progress to continue");
                    return;
                }
            },
        };
        match record.and_then(|record| keeping::begin(&mut commands, record, from).map_err(|e| e.to_string()))
        {
            Ok(setup) => {
                commands.insert_resource(SetupFor(setup.level.kind()));
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
        if playable.get(setup.level.kind()).is_none() {
            error!("{}", no_screen_yet(&setup.level));
            return;
        }
        commands.insert_resource(SetupFor(setup.level.kind()));
        commands.insert_resource::<MatchSetup>(setup.clone());
        next.set(Screen::Playing);
    }
}

/// The first game the command line opened says whose game it is.
fn tell_whose(
    whose: Option<Res<TellWhose>>,
    words: Res<Words>,
    mut notices: ResMut<Notices>,
    mut commands: Commands,
) {
    let Some(whose) = whose else { return };
    let key = words.fill("whose_game", &[("name", &whose.0)]);
    notices.0 = Some(Notice { key, seat: None, seconds_left: 4.0, big: false, ready: true });
    commands.remove_resource::<TellWhose>();
}

/// What the app says when asked to open a game it holds no screen for (an app built with the
/// game screen alone, without the games).
pub fn no_screen_yet(level: &levels::Level) -> String {
    format!("{} has no board on screen yet; play it with `tabla text --level {}`", level.kind(), level.file)
}
