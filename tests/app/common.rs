//! The headless app the app tests share: Tabla's game plugins without a window, a fixed frame
//! time, a Robot that does not dawdle, and settings kept in a folder of the test's own.
#![allow(dead_code)]

use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
use bevy::input::{ButtonState, InputPlugin};
use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use std::path::PathBuf;
use std::time::Duration;
use tabla::app::board::view::PieceView;
use tabla::app::child::children::ChildCommand;
use tabla::app::course::robot_turn::{RobotPace, ThinkBudget};
use tabla::app::course::turn::GameSeed;
use tabla::app::platform::art::Art;
use tabla::app::session::game::GameView;
use tabla::app::{Launch, MatchSetup, Opponent, Screen, core_plugin, game_screen_plugin};
use tabla::levels;
use tabla::robot::RobotLevel;
use tabla::rules::Seat;
use tabla::rules::board::Square;

/// Runs frames until `done`, or fails after a frame limit.
pub fn until(app: &mut App, done: impl Fn(&App) -> bool) {
    for _ in 0..20_000 {
        if done(app) {
            return;
        }
        app.update();
    }
    panic!("it never came");
}

/// This run's folder `name`, empty (a run before may have left things in it).
pub fn fresh_home(name: &str) -> PathBuf {
    let home = test_home(name);
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    home
}

/// The screen on show.
pub fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// A tap's order on the children's screen or the map, and the two frames it takes.
pub fn send(app: &mut App, order: ChildCommand) {
    app.world_mut().write_message(order);
    app.update();
    app.update();
}

/// A folder of this test run's own, named `name`.
pub fn test_home(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tabla-test-{}-{name}", std::process::id()))
}

/// The game of `ron_configs/<level>.ron` as the setup screen would start it.
pub fn setup(level: &str, opponent: Opponent, person_seat: Seat, robot_level: RobotLevel) -> MatchSetup {
    let level = levels::find(&format!("ron_configs/{level}.ron")).unwrap();
    MatchSetup { level, opponent, person_seat, robot_level, clock_minutes: 0, seats: Vec::new(), stage: None }
}

/// A game against the Robot on `level`, the person in the first seat.
pub fn setup_of(level: levels::Level) -> MatchSetup {
    MatchSetup {
        level,
        opponent: Opponent::Robot,
        person_seat: Seat::WHITE,
        robot_level: RobotLevel::One,
        clock_minutes: 0,
        seats: Vec::new(),
        stage: None,
    }
}

/// The app started on `setup`'s game, seeded with `seed`; `add` adds plugins of the test's own
/// before it starts.
pub fn headless(setup: MatchSetup, home: &str, seed: u64, add: impl FnOnce(&mut App)) -> App {
    headless_with(setup, home, seed, |app| {
        app.add_plugins(core_plugin);
        add(app);
    })
}

/// The game screen alone, started on `setup`'s level with the game `add` brings.
pub fn headless_kit(setup: MatchSetup, home: &str, seed: u64, add: impl FnOnce(&mut App)) -> App {
    headless_with(setup, home, seed, |app| {
        app.add_plugins(game_screen_plugin);
        add(app);
    })
}

/// Each app of a test run in a folder of its own, empty (one window writes a folder at a time,
/// and a game kept by another test would be asked about).
fn fresh_folder(home: &str) -> PathBuf {
    static APPS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = APPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let folder = test_home(&format!("{home}-{n}"));
    let _ = std::fs::remove_dir_all(&folder);
    folder
}

/// The folder an app keeps its things in.
pub fn home_of(app: &App) -> PathBuf {
    app.world().resource::<tabla::app::platform::store::Store>().dir().expect("a folder").to_path_buf()
}

fn headless_with(setup: MatchSetup, home: &str, seed: u64, add: impl FnOnce(&mut App)) -> App {
    let launch = Launch { start: Some(setup), settings_dir: Some(fresh_folder(home)), ..default() };
    let app = launched(launch, seed, add);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    app
}

/// The tests' pace: no pause before the Robot's moves, and a frame's thinking counted in slices,
/// not milliseconds, so a test's frames do the same work whatever the machine (with the clock's
/// 50 ms a frame, `TimeUpdateStrategy::ManualDuration`).
pub const TEST_PACE: RobotPace = RobotPace { think: 0.0, show: 0.0, budget: ThinkBudget::Slices(256) };

/// Tabla's game plugins without a window, started as `launch` asks (its folder the test's own),
/// after three frames.
pub fn launched(launch: Launch, seed: u64, add: impl FnOnce(&mut App)) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, AssetPlugin::default(), InputPlugin))
        .init_asset::<Image>()
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(50)))
        .insert_resource(launch);
    add(&mut app);
    app.insert_resource(TEST_PACE).insert_resource(GameSeed(seed));
    for _ in 0..3 {
        app.update();
    }
    app
}

/// Runs frames until the app is settled: what was sent before taken (at least one frame), no new
/// screen waiting, the Robot neither to move nor thinking, the tutor holding no move, nothing
/// gliding; at most 600 frames (30 s of the tests' clock).
pub fn settle(app: &mut App) {
    for _ in 0..600 {
        app.update();
        if settled(app) {
            return;
        }
    }
    panic!("the app did not settle within 600 frames");
}

fn settled(app: &mut App) -> bool {
    use tabla::app::{board::animate::Glide, course::robot_turn::Thinking, course::tutor::Tutoring};
    let world = app.world_mut();
    let robot = world
        .get_resource::<tabla::app::session::play::Play>()
        .is_some_and(|play| play.robot_to_move().is_some() && play.game().outcome().is_none());
    let thinking = world.get_resource::<Thinking>().is_some_and(Thinking::busy);
    let held = world.get_resource::<Tutoring>().is_some_and(Tutoring::busy);
    let gliding = world.query_filtered::<(), With<Glide>>().iter(world).next().is_some();
    let new_screen =
        world.get_resource::<NextState<Screen>>().is_some_and(|next| !matches!(next, NextState::Unchanged));
    !(robot || thinking || held || gliding || new_screen)
}

/// A finger's press on a place of the board, and a frame.
pub fn press(app: &mut App, square: Square) {
    app.world_mut().write_message(tabla::app::board::input::BoardPress(square));
    app.update();
}

/// A button of the game screen, and a frame.
pub fn command(app: &mut App, command: tabla::app::course::turn::GameCommand) {
    app.world_mut().write_message(command);
    app.update();
}

/// Presses and lets go of a key, as a keyboard would, and runs a frame.
pub fn press_key(app: &mut App, key_code: KeyCode) {
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput {
            key_code,
            logical_key: Key::Unidentified(NativeKey::Unidentified),
            state,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
    }
    app.update();
}

/// The piece entities on the board: each one's place and picture, in order.
pub fn pieces_shown(app: &mut App) -> Vec<(Square, Art)> {
    let mut query = app.world_mut().query::<&PieceView>();
    let mut shown: Vec<_> = query.iter(app.world()).map(|v| (v.square, v.art)).collect();
    shown.sort();
    shown
}

/// The pieces the rules of `game` have, in the order of `pieces_shown`.
pub fn pieces_in_rules(game: &impl GameView) -> Vec<(Square, Art)> {
    let mut pieces = game.pieces();
    pieces.sort();
    pieces
}
