//! Nothing a child did is lost: the app without a window keeps its game as it is played, goes on
//! with it after a new start (`--continue`), sets aside a save it cannot use (with a message), and
//! reads its settings field by field.
#![cfg(feature = "app")]

mod common;
use common::until;

use bevy::prelude::*;
use std::path::Path;
use tabla::app::kit::keeping::SavedGame;
use tabla::app::kit::play::Play;
use tabla::app::kit::turn::{Clocks, GameCommand, SetControls};
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::platform::settings::Settings;
use tabla::app::{Control, Launch, Opponent, Screen, core_plugin};
use tabla::record::Record;
use tabla::robot::RobotLevel;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::Nard;
use tabla::rules::{Game, Seat};

fn sq(name: &str) -> tabla::rules::board::Square {
    tabla::rules::board::BoardShape::CHESS.parse(name).unwrap()
}

fn saved(home: &Path, name: &str) -> Option<Record> {
    let text = std::fs::read_to_string(home.join(name)).ok()?;
    Some(Record::from_ron(&text).expect("the app writes records it can read"))
}

/// The app started again on the same folder, going on with the game in progress.
fn continued(home: &Path, seed: u64) -> App {
    let launch = Launch { continue_game: true, settings_dir: Some(home.to_path_buf()), ..default() };
    let mut app = common::launched(launch, seed, |app| {
        app.add_plugins(core_plugin);
    });
    app.update();
    app
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

#[test]
fn a_knight_hunt_game_is_saved_as_it_is_played_and_goes_on_after_a_new_start() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "keep-knights", 3, |_| {});
    let home = common::test_home("keep-knights");
    // Two Robots play some moves; each one reaches the file.
    let robots = vec![Control::Robot(RobotLevel::Two), Control::Robot(RobotLevel::One)];
    app.world_mut().write_message(SetControls(robots));
    until(&mut app, |app| app.world().resource::<Play<KnightHunt>>().moves_played() >= 5);
    // Two children take the seats over: the game waits for them, and who plays is saved too.
    let children = vec![Control::Person, Control::Person];
    app.world_mut().write_message(SetControls(children.clone()));
    app.update();
    let played = app.world().resource::<Play<KnightHunt>>().moves_played();
    let record = saved(&home, "game.ron").expect("the game is saved");
    assert_eq!(record.actions.len(), played, "every action is saved as it is played");
    let before = app.world().resource::<Play<KnightHunt>>().game().clone();
    let move_list = app.world().resource::<ScoreBoard>().move_list.clone();
    drop(app);

    let again = continued(&home, 99);
    assert_eq!(screen(&again), Screen::Playing, "--continue opens the game at once");
    let play = again.world().resource::<Play<KnightHunt>>();
    assert_eq!(play.game(), &before, "the board and whose turn, exactly as they stood");
    assert_eq!(play.moves_played(), played);
    assert_eq!(play.controls(), &children[..]);
    assert_eq!(again.world().resource::<ScoreBoard>().move_list, move_list, "the move list too");
}

#[test]
fn undo_and_redo_are_saved_and_redo_goes_on_after_a_new_start() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "keep-undo", 4, |_| {});
    let home = common::test_home("keep-undo");
    let game = |app: &App| app.world().resource::<Play<KnightHunt>>().game().clone();
    // The person plays g1-f3, the Robot answers; undo takes both back.
    common::press(&mut app, sq("g1"));
    common::press(&mut app, sq("f3"));
    until(&mut app, |app| app.world().resource::<Play<KnightHunt>>().moves_played() == 2);
    common::command(&mut app, GameCommand::Undo);
    assert_eq!(app.world().resource::<Play<KnightHunt>>().moves_played(), 0);
    let record = saved(&home, "game.ron").unwrap();
    assert!(record.actions.is_empty(), "the undo is saved");
    assert_eq!(record.undone.len(), 2, "and what redo brings back");
    assert_eq!(record.takebacks, 1);
    let start = game(&app);
    drop(app);
    let mut again = continued(&home, 5);
    assert_eq!(game(&again), start);
    common::command(&mut again, GameCommand::Redo);
    assert_eq!(again.world().resource::<Play<KnightHunt>>().moves_played(), 2, "redo survives a new start");
}

#[test]
fn a_crazy_nard_match_goes_on_with_its_score_cube_and_clock() {
    let mut setup = common::setup("nard/three_points", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    setup.clock_minutes = 10;
    let mut app = common::headless(setup, "keep-nard", 8, |_| {});
    let home = common::test_home("keep-nard");
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::One), Control::Robot(RobotLevel::One)]));
    // Well into the match: past the opening and a good many dice sets.
    until(&mut app, |app| app.world().resource::<Play<Nard>>().moves_played() >= 60);
    // Leaving for the menu keeps it, with the clocks as they stand.
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    let clocks = app.world().resource::<Clocks>().left.clone().expect("a clock runs");
    let before = app.world().resource::<Play<Nard>>().game().clone();
    app.update();
    assert_eq!(screen(&app), Screen::Menu);
    let card = app.world().resource::<SavedGame>().card.clone().expect("the menu offers to continue");
    assert_eq!(card.0.game, "nard");
    drop(app);

    let played = saved(&home, "game.ron").unwrap().actions.len();
    let again = continued(&home, 1);
    let play = again.world().resource::<Play<Nard>>();
    assert!(play.history().steps().len() > played, "the Robots play on from there");
    assert_eq!(
        play.history().steps()[played].game,
        before,
        "the match score, the cube and the board as they stood"
    );
    let left = again.world().resource::<Clocks>().left.clone().expect("the clock goes on");
    for (was, now) in clocks.iter().zip(&left) {
        assert!((was - now).abs() < 0.5, "the clocks as they were: {was} and {now}");
    }
}

#[test]
fn a_finished_game_becomes_the_last_game_and_nothing_is_left_to_continue() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "keep-finished", 6, |_| {});
    let home = common::test_home("keep-finished");
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::One), Control::Robot(RobotLevel::Three)]));
    until(&mut app, |app| app.world().resource::<Play<KnightHunt>>().game().outcome().is_some());
    app.update();
    let last = saved(&home, "last_game.ron").expect("the finished game is kept as the last game");
    assert!(last.check().unwrap().over);
    assert!(saved(&home, "game.ron").is_none(), "no game in progress is left");
    drop(app);
    let again = continued(&home, 2);
    assert_eq!(screen(&again), Screen::Menu, "nothing to continue: the menu");
}

#[test]
fn restart_asks_first_and_the_game_begun_again_is_kept_as_the_last_game() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Friend, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "keep-restart", 6, |_| {});
    let home = common::test_home("keep-restart");
    for square in ["g1", "f3", "g8", "f6"] {
        common::press(&mut app, sq(square));
    }
    let played = saved(&home, "game.ron").expect("the game is saved");
    assert_eq!(played.actions, ["g1f3", "g8f6"]);
    common::command(&mut app, GameCommand::Restart);
    assert!(app.world().resource::<ScoreBoard>().asking.is_some(), "one tap asks first");
    assert_eq!(saved(&home, "game.ron").unwrap().actions, played.actions, "nothing is lost by it");
    common::command(&mut app, GameCommand::StartAgain);
    assert_eq!(app.world().resource::<Play<KnightHunt>>().moves_played(), 0);
    assert!(saved(&home, "game.ron").is_none(), "no game in progress once begun again");
    assert_eq!(saved(&home, "last_game.ron").unwrap().actions, played.actions, "it is the last game");
}

/// The app started on the menu with `game.ron` written as `text`.
fn menu_with_save(name: &str, text: &str) -> (App, std::path::PathBuf) {
    let home = common::test_home(name);
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("game.ron"), text).unwrap();
    let launch = Launch { settings_dir: Some(home.clone()), ..default() };
    let mut app = common::launched(launch, 1, |app| {
        app.add_plugins(core_plugin);
    });
    app.update();
    (app, home)
}

fn assert_set_aside(name: &str, text: &str, why: &str) {
    let (app, home) = menu_with_save(name, text);
    let saved = app.world().resource::<SavedGame>();
    assert!(saved.card.is_none(), "{name}: no card for a save that cannot be used");
    let problem = saved.problem.clone().expect("the menu tells");
    assert!(problem.contains(why), "{name}: {problem}");
    assert!(!home.join("game.ron").exists(), "{name}: the save is moved aside");
    let kept = std::fs::read_to_string(home.join("game.ron.broken-1")).expect("kept under a new name");
    assert_eq!(kept, text, "{name}: kept whole, never deleted");
}

#[test]
fn a_save_that_cannot_be_used_is_set_aside_with_a_message() {
    assert_set_aside("aside-corrupt", "(version: 1, game: \"knight_hunt\", variant:", "not a record");
    let good = Record::from_ron(&good_record()).unwrap();
    let newer = Record { version: 7, ..good.clone() }.to_ron();
    assert_set_aside("aside-version", &newer, "version 7");
    let mut refused = good;
    refused.actions.push("a1a2".to_string());
    let number = refused.actions.len().to_string();
    assert_set_aside("aside-refused", &refused.to_ron(), &format!("action {number} 'a1a2'"));
}

/// A record of a Knight Hunt game with two moves, as the app writes it.
fn good_record() -> String {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Friend, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "good-record", 2, |_| {});
    for square in ["g1", "f3", "g8", "f6"] {
        common::press(&mut app, sq(square));
    }
    std::fs::read_to_string(common::test_home("good-record").join("game.ron")).unwrap()
}

#[test]
fn settings_are_read_field_by_field_and_a_file_of_a_newer_version_is_set_aside() {
    let read = |name: &str, text: &str| {
        let home = common::test_home(name);
        let _ = std::fs::remove_dir_all(&home);
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(home.join("settings.ron"), text).unwrap();
        let app = common::launched(Launch { settings_dir: Some(home.clone()), ..default() }, 1, |app| {
            app.add_plugins(core_plugin);
        });
        (app.world().resource::<Settings>().clone(), home)
    };
    // One bad field falls back alone: the language stays.
    let (settings, _) = read("settings-one-bad", "(version: 1, language: El, sound: maybe)");
    assert_eq!(settings.language, tabla::i18n::Language::El);
    assert!(settings.sound, "the bad field is back to its default");
    // One game's choices that cannot be read leave the others.
    let (settings, _) = read(
        "settings-choices",
        "(language: It, choices: {\"halma\": (variant: 7), \"nard\": (variant: \"crazy\", robot_level: 2)})",
    );
    assert_eq!(settings.language, tabla::i18n::Language::It);
    assert!(!settings.choices.contains_key("halma"));
    assert_eq!(settings.choices["nard"].robot_level, RobotLevel::Two);
    // A newer file is kept aside, not read wrongly.
    let (settings, home) = read("settings-newer", "(version: 9, language: El)");
    assert_ne!(settings.language, tabla::i18n::Language::El);
    assert!(home.join("settings.ron.broken-1").exists());
}
