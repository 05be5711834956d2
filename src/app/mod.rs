//! Everything Bevy, in folders by role; this file only assembles their plugins.
//! - `platform/`: the edge below everything (settings, the browser glue, sound, pictures);
//! - `session/`: the game being played, whatever the game (the game traits, the session, the
//!   coach's review, what it tells a child, the screens' states);
//! - `board/`: the board on screen (its entities, the pieces, input, glides, help's demonstration);
//! - `course/`: the game screen's flow (each game's entry, whose turn, taps and keys, the Robot, the tutor,
//!   hints, clocks, watching again);
//! - `child/`: a child's things and their keeping (children, stages, time played, the kept game);
//! - `far.rs`: a game played in a room with someone far away;
//! - `frame_pace.rs`: how often the window is drawn (only while something changes);
//! - `panels/`: the egui side (the panels around the board, the phone strips, the dialogs);
//! - `games/`: one view file per game;
//! - `screens/`: who is playing, the map, the menu, the setup, the grown-ups' page, a diploma,
//!   and the word that another window holds the data;
//! - `tour.rs`: every screen in turn, pictured (the desktop's tests, with the `tour` feature).
//!
//! The rules stay in `crate::rules`; these systems ask them and mirror the answer on screen.

pub mod board;
pub mod child;
pub mod course;
pub mod far;
pub mod frame_pace;
pub mod games;
pub mod launch;
pub mod panels;
pub mod platform;
pub mod screens;
pub mod session;
// The tour takes pictures of a desktop window for the tests (the `tour` feature); a player's
// build and the browser's leave it out.
#[cfg(all(feature = "tour", not(target_arch = "wasm32")))]
mod tour;

use bevy::prelude::*;

pub use launch::{Control, Launch, MatchSetup, Opponent};
pub use session::Screen;

/// Opens the window and plays; returns how the app ended (the tour reports failures so).
pub fn run(launch: Launch) -> AppExit {
    let plugins = DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Tabla".into(),
            resolution: platform::web::first_window_size().into(),
            fit_canvas_to_parent: true,
            canvas: Some("#bevy".into()),
            prevent_default_event_handling: true,
            ..default()
        }),
        ..default()
    });
    #[cfg(not(target_arch = "wasm32"))]
    let plugins = plugins.set(bevy::log::LogPlugin { filter: platform::web::QUIET_LOGS.into(), ..default() });
    #[cfg(target_arch = "wasm32")]
    platform::web::log_to_console();
    let mut app = App::new();
    app.add_plugins(plugins)
        .add_plugins(bevy_egui::EguiPlugin::default())
        .insert_resource(ClearColor(Color::srgb(0.96, 0.93, 0.86)))
        .insert_resource(launch)
        .add_plugins((core_plugin, presentation_plugin));
    app.run()
}

/// The game itself: screens, turns, the board's entities, input messages, animation, and Tabla's
/// games. It needs no window, so the headless tests run exactly this.
pub fn core_plugin(app: &mut App) {
    app.add_plugins((game_screen_plugin, games::plugin));
}

/// Everything the game screen needs without any game: a test brings a game of its own.
pub fn game_screen_plugin(app: &mut App) {
    app.init_resource::<Launch>();
    app.add_plugins((platform::plugin, board::plugin, course::plugin, child::plugin, far::plugin));
    app.add_plugins((screens::plugin, panels::scoreboard_plugin));
}

/// What needs a real window: the egui panels, the menus, sound, the camera and the tour.
fn presentation_plugin(app: &mut App) {
    app.add_plugins((
        panels::plugin,
        screens::ui_plugin,
        platform::presentation_plugin,
        frame_pace::plugin,
        #[cfg(all(feature = "tour", not(target_arch = "wasm32")))]
        tour::plugin,
    ));
    // Without multisampling: sprites and egui's shapes smooth their own edges, and four samples a
    // pixel made every frame (the first above all) dearer for the phones' and the tests'
    // software renderers alike.
    app.add_systems(Startup, |mut commands: Commands| {
        commands.spawn((Camera2d, Msaa::Off));
    });
}
