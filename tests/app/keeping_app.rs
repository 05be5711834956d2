//! Kept means kept (issue "Kept means kept"), in the app without a window: the keeper is told
//! what happened and turns it into saves; each game keeps its own game in progress, so starting
//! another never touches it and starting the same asks first; a file, the last game watched and a
//! game tried again write nothing until a move is made; a finished game is counted once however
//! often it is undone and finished; a write that fails is said; a file of a newer Tabla is never
//! written over; `--continue` goes on with the game of the child who played last.
use crate::common;
use crate::shared::sq;
use common::{fresh_home, screen, send, until};

use bevy::prelude::*;
use std::path::{Path, PathBuf};
use tabla::app::child::children::{ChildCommand, Children};
use tabla::app::child::keeping::SavedGame;
use tabla::app::course::clocks::Clocks;
use tabla::app::course::replay::ReplayCommand;
use tabla::app::course::turn::{GameCommand, SetControls};
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::platform::settings::Settings;
use tabla::app::platform::store::Store;
use tabla::app::session::feedback::{AskFirst, Question};
use tabla::app::session::play::{Play, Playing, Watching};
use tabla::app::{Control, Launch, MatchSetup, Opponent, Screen, core_plugin};
use tabla::record::Record;
use tabla::robot::{self, RobotLevel};
use tabla::rules::GameKind;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::Nard;
use tabla::rules::{Game, Seat};

fn saved(home: &Path, name: &str) -> Option<Record> {
    let text = std::fs::read_to_string(home.join(name)).ok()?;
    Some(Record::from_ron(&text).expect("the app writes records it can read"))
}

/// Tabla without a window on `home`, as `launch` asks.
fn started(home: &Path, seed: u64, launch: Launch) -> App {
    let launch = Launch { settings_dir: Some(home.to_path_buf()), ..launch };
    let mut app = common::launched(launch, seed, |app| {
        app.add_plugins(core_plugin);
    });
    app.update();
    app
}

/// Opens the game screen on `setup`, as the setup's Play button or a stage does.
fn open(app: &mut App, setup: MatchSetup) {
    app.world_mut().insert_resource(setup);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    app.update();
}

fn leave(app: &mut App) {
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    app.update();
}

fn knight_hunt() -> MatchSetup {
    common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One)
}

/// The person's knight moves once, as the level-1 Robot would choose, and the Robot answers.
fn knight_move(app: &mut App) {
    let play = app.world().resource::<Play>().of::<KnightHunt>();
    let before = play.moves_played();
    let chosen = robot::choose(play.game(), RobotLevel::One, before as u64).unwrap();
    common::press(app, chosen.from);
    common::press(app, chosen.to);
    until(app, |app| {
        let play = app.world().resource::<Play>().of::<KnightHunt>();
        play.moves_played() >= before + 2 || play.game().outcome().is_some()
    });
}

/// A child is made (the fox), and their map is open.
fn with_a_child(name: &str, seed: u64) -> (App, PathBuf) {
    let home = fresh_home(name);
    let mut app = started(&home, seed, Launch::default());
    send(&mut app, ChildCommand::Add { animal: 0 });
    assert_eq!(screen(&app), Screen::Map);
    (app, home)
}

/// The person's moves are tapped as the Robot at level 3 would choose them, until the game ends.
fn play_to_the_end(app: &mut App) {
    loop {
        until(app, |app| {
            let play = app.world().resource::<Play>().of::<KnightHunt>();
            play.game().outcome().is_some() || play.person_to_move().is_some()
        });
        let play = app.world().resource::<Play>().of::<KnightHunt>();
        if play.game().outcome().is_some() {
            app.update();
            return;
        }
        let chosen = robot::choose(play.game(), RobotLevel::Three, play.moves_played() as u64).unwrap();
        common::press(app, chosen.from);
        common::press(app, chosen.to);
    }
}

fn asking(app: &App) -> Option<Question> {
    app.world().resource::<AskFirst>().0.clone()
}

// 1. Told, not guessed.

#[test]
fn a_tap_that_only_picks_a_piece_leaves_the_game_unchanged() {
    let mut app = common::headless(knight_hunt(), "keep-pick", 3, |_| {});
    app.update();
    let before = app.world().resource_ref::<Play>().last_changed();
    common::press(&mut app, sq("g1"));
    assert_eq!(
        app.world().resource::<tabla::app::session::feedback::Selection>().0,
        Some(sq("g1")),
        "the knight is picked"
    );
    let after = app.world().resource_ref::<Play>().last_changed();
    assert_eq!(before, after, "picking a piece is no change to the game");
    // A tap on an empty square that is no move: a message, no change.
    common::press(&mut app, sq("a8"));
    assert_eq!(app.world().resource_ref::<Play>().last_changed(), before);
    // The move itself is a change.
    common::press(&mut app, sq("g1"));
    common::press(&mut app, sq("f3"));
    assert_ne!(app.world().resource_ref::<Play>().last_changed(), before);
}

// 2. One game in progress per game, for each child.

#[test]
fn another_game_leaves_the_game_in_progress_where_it_is() {
    let (mut app, home) = with_a_child("keep-two-games", 5);
    let mut nard = common::setup("nard/crazy", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    nard.seats = vec![Control::Robot(RobotLevel::One), Control::Robot(RobotLevel::One)];
    open(&mut app, nard);
    until(&mut app, |app| app.world().resource::<Play>().of::<Nard>().moves_played() >= 20);
    app.world_mut().write_message(SetControls(vec![Control::Person, Control::Person]));
    app.update();
    let match_then = saved(&home, "child-1/game-nard.ron").expect("the match is kept in its own place");
    leave(&mut app);
    // A child leaves Crazy Nard for Knight Hunt and plays.
    open(&mut app, knight_hunt());
    assert_eq!(asking(&app), None, "another game asks nothing");
    knight_move(&mut app);
    knight_move(&mut app);
    assert!(saved(&home, "child-1/game-knight_hunt.ron").is_some());
    assert_eq!(saved(&home, "child-1/game-nard.ron"), Some(match_then.clone()), "the match is untouched");
    leave(&mut app);
    let cards: Vec<GameKind> =
        app.world().resource::<SavedGame>().cards.iter().map(|(r, _)| r.game).collect();
    assert_eq!(cards, [GameKind::KnightHunt, GameKind::Nard], "both go on, the one played last first");
    // And comes back to the match, as it stood.
    let record = app.world().resource::<SavedGame>().of(GameKind::Nard).unwrap().0.clone();
    tabla::app::child::keeping::begin(
        &mut app.world_mut().commands(),
        record,
        tabla::app::session::play::Opened::Continued,
    )
    .unwrap();
    app.world_mut().flush();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    app.update();
    app.update();
    let play = app.world().resource::<Play>().of::<Nard>();
    assert_eq!(play.moves_played(), match_then.actions.len());
}

#[test]
fn starting_the_same_game_again_asks_first_and_keep_playing_goes_back_to_it() {
    let (mut app, home) = with_a_child("keep-same-game", 6);
    open(&mut app, knight_hunt());
    knight_move(&mut app);
    knight_move(&mut app);
    let kept = saved(&home, "child-1/game-knight_hunt.ron").unwrap();
    leave(&mut app);
    open(&mut app, knight_hunt());
    assert_eq!(
        asking(&app),
        Some(Question::TakePlace { game: GameKind::KnightHunt, moves: kept.actions.len() }),
        "a new game of the same kind asks first"
    );
    assert!(app.world().resource::<ScoreBoard>().asking.is_some(), "and the screen shows the question");
    common::command(&mut app, GameCommand::KeepPlaying);
    app.update();
    app.update();
    assert_eq!(asking(&app), None);
    assert_eq!(
        app.world().resource::<Play>().of::<KnightHunt>().moves_played(),
        kept.actions.len(),
        "the game in progress is back"
    );
    assert_eq!(saved(&home, "child-1/game-knight_hunt.ron"), Some(kept.clone()));
    // Asked again, the new game is started: the old one stays until its first move.
    leave(&mut app);
    open(&mut app, knight_hunt());
    common::command(&mut app, GameCommand::StartAgain);
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 0);
    assert_eq!(
        saved(&home, "child-1/game-knight_hunt.ron"),
        Some(kept.clone()),
        "nothing lost before a move"
    );
    knight_move(&mut app);
    assert_eq!(
        saved(&home, "child-1/game-knight_hunt.ron").unwrap().actions.len(),
        2,
        "the new one takes its place"
    );
}

#[test]
fn watching_the_last_game_and_closing_it_writes_nothing() {
    let (mut app, home) = with_a_child("keep-watch", 6);
    // A finished game: the Robots play one to its end.
    open(&mut app, knight_hunt());
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::One), Control::Robot(RobotLevel::Three)]));
    until(&mut app, |app| app.world().resource::<Play>().of::<KnightHunt>().game().outcome().is_some());
    app.update();
    let last = saved(&home, "child-1/last_game.ron").expect("the last game");
    assert!(saved(&home, "child-1/game-knight_hunt.ron").is_none(), "a finished game leaves its place");
    // A game in progress of the same game.
    leave(&mut app);
    open(&mut app, knight_hunt());
    knight_move(&mut app);
    let in_progress = saved(&home, "child-1/game-knight_hunt.ron").unwrap();
    leave(&mut app);
    drop(app);
    // The app started again; the parent watches yesterday's game, and closes it.
    let mut app = started(&home, 9, Launch::default());
    send(&mut app, ChildCommand::Choose(0));
    tabla::app::child::keeping::begin(
        &mut app.world_mut().commands(),
        last.clone(),
        tabla::app::session::play::Opened::LastGame,
    )
    .unwrap();
    app.world_mut().insert_resource(Watching::Opening);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    for _ in 0..30 {
        app.update();
    }
    common::command(&mut app, GameCommand::Undo);
    app.world_mut().write_message(ReplayCommand::Close);
    for _ in 0..10 {
        app.update();
    }
    leave(&mut app);
    assert_eq!(
        saved(&home, "child-1/game-knight_hunt.ron"),
        Some(in_progress),
        "the game in progress is untouched"
    );
    assert_eq!(saved(&home, "child-1/last_game.ron"), Some(last), "and so is the last game");
}

#[test]
fn a_game_tried_again_takes_its_place_at_its_first_move_asking_first() {
    let (mut app, home) = with_a_child("keep-try-again", 7);
    open(&mut app, knight_hunt());
    play_to_the_end(&mut app);
    leave(&mut app);
    open(&mut app, knight_hunt());
    knight_move(&mut app);
    let in_progress = saved(&home, "child-1/game-knight_hunt.ron").unwrap();
    leave(&mut app);
    // The last game, watched and tried again from its start.
    let last = saved(&home, "child-1/last_game.ron").unwrap();
    tabla::app::child::keeping::begin(
        &mut app.world_mut().commands(),
        last,
        tabla::app::session::play::Opened::LastGame,
    )
    .unwrap();
    app.world_mut().insert_resource(Watching::Opening);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    for _ in 0..10 {
        app.update();
    }
    app.world_mut().write_message(ReplayCommand::Start);
    app.update();
    app.world_mut().write_message(ReplayCommand::TryAgain);
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        saved(&home, "child-1/game-knight_hunt.ron"),
        Some(in_progress.clone()),
        "read-only until a move"
    );
    knight_move(&mut app);
    assert!(
        matches!(asking(&app), Some(Question::TakePlace { .. })),
        "the place holds a game with moves: asked"
    );
    assert_eq!(
        saved(&home, "child-1/game-knight_hunt.ron"),
        Some(in_progress),
        "nothing written before the answer"
    );
    common::command(&mut app, GameCommand::StartAgain);
    app.update();
    let now = saved(&home, "child-1/game-knight_hunt.ron").unwrap();
    assert_eq!(now.actions.len(), 2, "the game tried again is kept now");
}

// 4. Failures said out loud.

#[test]
fn a_write_that_fails_is_said_and_a_file_that_cannot_be_read_keeps_its_place() {
    let (mut app, home) = with_a_child("keep-fails", 3);
    // The child's place can no longer be written to: a file stands where its folder was.
    std::fs::remove_dir_all(home.join("child-1")).unwrap();
    std::fs::write(home.join("child-1"), "in the way").unwrap();
    open(&mut app, knight_hunt());
    knight_move(&mut app);
    let failed = app.world().resource::<Store>().not_saved();
    assert!(
        failed.iter().any(|(file, _)| file == "child-1/game-knight_hunt.ron"),
        "the failure is remembered for the screens: {failed:?}"
    );
    drop(app);
    std::fs::remove_file(home.join("child-1")).unwrap();
    // A child's file that is there but cannot be read (not text) never frees its place.
    std::fs::create_dir_all(home.join("child-1")).unwrap();
    std::fs::write(home.join("child-1/child.ron"), [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let mut app = started(&home, 1, Launch::default());
    let held = &app.world().resource::<Children>().held;
    assert!(held[0].as_ref().is_some_and(|h| h.why.contains("not text")), "{held:?}");
    send(&mut app, ChildCommand::Add { animal: 4 });
    assert_eq!(
        std::fs::read(home.join("child-1/child.ron")).unwrap(),
        [0xff, 0xfe, 0x00, 0x41],
        "never written over"
    );
    assert_eq!(
        app.world().resource::<Children>().get(1).map(|c| c.animal),
        Some(4),
        "the new child takes the next place"
    );
}

#[test]
fn a_file_of_a_newer_tabla_is_shown_and_never_written_over() {
    let home = fresh_home("keep-newer");
    std::fs::create_dir_all(home.join("child-1")).unwrap();
    let newer = "Child(version: 9, animal: 2, name: \"Ana\", wings: true)";
    std::fs::write(home.join("child-1/child.ron"), newer).unwrap();
    let newer_settings = "(version: 9, language: El, colours: [1])";
    std::fs::write(home.join("settings.ron"), newer_settings).unwrap();
    let mut app = started(&home, 1, Launch::default());
    let held = app.world().resource::<Children>().held[0].clone().expect("the place is held");
    assert_eq!(held.face, Some((2, "Ana".into())), "shown with its picture and name");
    send(&mut app, ChildCommand::Add { animal: 5 });
    app.world_mut().resource_mut::<Settings>().sound = false;
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(std::fs::read_to_string(home.join("child-1/child.ron")).unwrap(), newer, "left as it is");
    assert_eq!(std::fs::read_to_string(home.join("settings.ron")).unwrap(), newer_settings);
    assert!(!home.join("child-1/child.ron.broken-1").exists(), "never set aside");
    assert!(app.world().resource::<Children>().get(1).is_some(), "the new child took another place");
    // A newer Tabla's game in a game's place is not written over either.
    let newer_game = "(version: 4, game: \"knight_hunt\", variant: \"one_knight\", moons: 3)";
    std::fs::write(home.join("child-2/game-knight_hunt.ron"), newer_game).unwrap();
    open(&mut app, knight_hunt());
    knight_move(&mut app);
    leave(&mut app);
    assert_eq!(std::fs::read_to_string(home.join("child-2/game-knight_hunt.ron")).unwrap(), newer_game);
    assert_eq!(app.world().resource::<SavedGame>().newer.len(), 1, "the menu says so");
}

// 6. Counted once, dated right.

#[test]
fn a_game_won_after_an_undo_is_counted_once() {
    let (mut app, _) = with_a_child("keep-count-once", 4);
    open(&mut app, common::setup("knight_hunt/one_knight", Opponent::Friend, Seat::WHITE, RobotLevel::One));
    // Two Robots play it to its end for the two friends; then its last move is taken back and played again.
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::Three), Control::Robot(RobotLevel::One)]));
    until(&mut app, |app| app.world().resource::<Play>().of::<KnightHunt>().game().outcome().is_some());
    app.world_mut().write_message(SetControls(vec![Control::Person, Control::Person]));
    app.update();
    let figures =
        |app: &App| app.world().resource::<Children>().get(0).unwrap().figures[&GameKind::KnightHunt].clone();
    assert_eq!(figures(&app).played, 1);
    common::command(&mut app, GameCommand::Undo);
    assert!(app.world().resource::<Play>().of::<KnightHunt>().game().outcome().is_none());
    common::command(&mut app, GameCommand::Redo);
    app.update();
    assert!(app.world().resource::<Play>().of::<KnightHunt>().game().outcome().is_some());
    assert_eq!(figures(&app).played, 1, "the same game, finished again, is counted once");
}

// 7. Whose game.

#[test]
fn continue_goes_on_with_the_game_of_the_child_who_played_last() {
    let home = fresh_home("keep-whose");
    let mut app = started(&home, 2, Launch::default());
    send(&mut app, ChildCommand::Add { animal: 0 });
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Children);
    app.update();
    send(&mut app, ChildCommand::Add { animal: 1 });
    open(&mut app, knight_hunt());
    knight_move(&mut app);
    leave(&mut app);
    drop(app);
    assert!(saved(&home, "child-2/game-knight_hunt.ron").is_some(), "the second child's game");
    let again = started(&home, 3, Launch { continue_game: true, ..default() });
    assert_eq!(screen(&again), Screen::Playing, "--continue finds it once there are children");
    assert_eq!(again.world().resource::<Store>().child(), Some(1), "and it is the second child's game");
    assert_eq!(again.world().resource::<Play>().of::<KnightHunt>().moves_played(), 2);
    drop(again);
    // --child 1 chooses the first child: a game opened for them is kept in their place.
    let mut first = started(&home, 4, Launch { start: Some(knight_hunt()), child: Some(0), ..default() });
    assert_eq!(first.world().resource::<Store>().child(), Some(0));
    let told = first
        .world()
        .resource::<tabla::app::session::feedback::Notices>()
        .0
        .clone()
        .expect("whose game it is");
    assert!(
        told.key.contains("Fox")
            || told.key.contains("Vulpița")
            || told.key.contains("Volpe")
            || told.key.contains("Αλεπού"),
        "{told:?}"
    );
    knight_move(&mut first);
    assert!(saved(&home, "child-1/game-knight_hunt.ron").is_some());
}

// 8. Addresses.

#[test]
fn an_address_drops_what_it_cannot_use_one_option_at_a_time() {
    let flags = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    };
    let (launch, warnings) = Launch::from_address(&flags(&[("game", "nard"), ("fbclid", "1")]));
    assert_eq!(launch.start.as_ref().map(|s| s.level.kind().code()), Some("nard"), "the game still opens");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let (launch, warnings) = Launch::from_address(&flags(&[
        ("game", "knight_hunt"),
        ("robot-level", "9"),
        ("lang", "ro"),
        ("clock", "x"),
    ]));
    assert_eq!(
        launch.start.as_ref().map(|s| s.robot_level),
        Some(RobotLevel::One),
        "a bad level falls back alone"
    );
    assert_eq!(launch.language, Some(tabla::i18n::Language::Ro), "the rest stays");
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    let (launch, _) = Launch::from_address(&flags(&[("tour", "/tmp/x"), ("game", "halma")]));
    assert!(launch.tour.is_none(), "the browser takes no tour from its address");
    let (launch, _) = Launch::from_address(&flags(&[("game", "chess")]));
    assert!(launch.start.is_none(), "an unknown game: the menu, as usual");
    // A room's link: its code (typed as a child may), and the server when it is another.
    let link = [("join", "ec7-yk3"), ("server", "http://192.168.1.5:8790")];
    let (launch, warnings) = Launch::from_address(&flags(&link));
    assert_eq!(launch.join.as_deref(), Some("EC7YK3"), "{warnings:?}");
    assert_eq!(launch.server.as_deref(), Some("http://192.168.1.5:8790"));
    let (launch, warnings) = Launch::from_address(&flags(&[("join", "nope!"), ("lang", "el")]));
    assert_eq!(
        (launch.join, launch.language),
        (None, Some(tabla::i18n::Language::El)),
        "a bad code goes alone"
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
}

#[test]
fn a_crazy_nard_match_goes_on_with_its_score_cube_and_clock() {
    let home = fresh_home("keep-nard");
    let mut setup = common::setup("nard/three_points", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    setup.clock_minutes = 10;
    let mut app = started(&home, 8, Launch { start: Some(setup), ..default() });
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::One), Control::Robot(RobotLevel::One)]));
    until(&mut app, |app| app.world().resource::<Play>().of::<Nard>().moves_played() >= 60);
    let clocks = app.world().resource::<Clocks>().left.clone().expect("a clock runs");
    let before = app.world().resource::<Play>().of::<Nard>().game().clone();
    leave(&mut app);
    assert_eq!(app.world().resource::<SavedGame>().latest().map(|(r, _)| r.game), Some(GameKind::Nard));
    drop(app);
    let played = saved(&home, "game-nard.ron").unwrap().actions.len();
    let again = started(&home, 1, Launch { continue_game: true, ..default() });
    let play = again.world().resource::<Play>().of::<Nard>();
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
fn a_game_of_the_single_place_before_goes_to_its_own_games_place() {
    let home = fresh_home("keep-old-place");
    let mut app = started(&home, 1, Launch { start: Some(knight_hunt()), ..default() });
    knight_move(&mut app);
    leave(&mut app);
    drop(app);
    let record = saved(&home, "game-knight_hunt.ron").unwrap();
    std::fs::rename(home.join("game-knight_hunt.ron"), home.join("game.ron")).unwrap();
    let mut app = started(&home, 1, Launch::default());
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    app.update();
    assert_eq!(app.world().resource::<SavedGame>().latest().map(|(r, _)| r.clone()), Some(record.clone()));
    assert_eq!(saved(&home, "game-knight_hunt.ron"), Some(record), "moved to its own place");
    assert!(!home.join("game.ron").exists());
}

#[test]
fn a_save_that_cannot_be_used_is_set_aside_with_a_message() {
    let good = {
        let home = fresh_home("keep-good-record");
        let mut app = started(&home, 2, Launch { start: Some(knight_hunt()), ..default() });
        knight_move(&mut app);
        drop(app);
        std::fs::read_to_string(home.join("game-knight_hunt.ron")).unwrap()
    };
    let aside = |name: &str, text: &str, why: &str| {
        let home = fresh_home(name);
        std::fs::write(home.join("game-knight_hunt.ron"), text).unwrap();
        let mut app = started(&home, 1, Launch::default());
        app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
        app.update();
        app.update();
        let saved = app.world().resource::<SavedGame>();
        assert!(saved.cards.is_empty(), "{name}: no card for a save that cannot be used");
        let problem = saved.problem.clone().expect("the menu tells");
        assert!(problem.contains(why), "{name}: {problem}");
        let kept = std::fs::read_to_string(home.join("game-knight_hunt.ron.broken-1"))
            .expect("kept under a new name");
        assert_eq!(kept, text, "{name}: kept whole, never deleted");
    };
    aside("aside-corrupt", "(version: 1, game: \"knight_hunt\", variant:", "not a record");
    let mut refused = Record::from_ron(&good).unwrap();
    refused.actions.push("a1a2".to_string());
    let number = refused.actions.len().to_string();
    aside("aside-refused", &refused.to_ron(), &format!("action {number} 'a1a2'"));
}

#[test]
fn settings_are_read_field_by_field() {
    let read = |name: &str, text: &str| {
        let home = fresh_home(name);
        std::fs::write(home.join("settings.ron"), text).unwrap();
        let app = started(&home, 1, Launch::default());
        app.world().resource::<Settings>().clone()
    };
    let settings = read("settings-one-bad", "(version: 1, language: El, sound: maybe)");
    assert_eq!(settings.language, tabla::i18n::Language::El);
    assert!(settings.sound, "the bad field is back to its default");
    let settings = read(
        "settings-choices",
        "(language: It, choices: {\"halma\": (variant: 7), \"nard\": (variant: \"crazy\", robot_level: 2)}, last_child: Some(3))",
    );
    assert_eq!(settings.language, tabla::i18n::Language::It);
    assert!(!settings.choices.contains_key(&GameKind::Halma));
    assert_eq!(settings.choices[&GameKind::Nard].robot_level, RobotLevel::Two);
    assert_eq!(settings.last_child, Some(3));
}

#[test]
fn undo_and_redo_are_kept_and_redo_goes_on_after_a_new_start() {
    let home = fresh_home("keep-undo");
    let mut app = started(&home, 4, Launch { start: Some(knight_hunt()), ..default() });
    common::press(&mut app, sq("g1"));
    common::press(&mut app, sq("f3"));
    until(&mut app, |app| app.world().resource::<Play>().of::<KnightHunt>().moves_played() == 2);
    common::command(&mut app, GameCommand::Undo);
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 0);
    let record = saved(&home, "game-knight_hunt.ron").unwrap();
    assert!(record.actions.is_empty(), "the undo is kept");
    assert_eq!(record.undone.len(), 2, "and what redo brings back");
    assert_eq!(record.takebacks, 1);
    drop(app);
    let mut again = started(&home, 5, Launch { continue_game: true, ..default() });
    common::command(&mut again, GameCommand::Redo);
    assert_eq!(
        again.world().resource::<Play>().of::<KnightHunt>().moves_played(),
        2,
        "redo survives a new start"
    );
}

#[test]
fn a_game_left_after_another_was_chosen_is_kept_with_its_own_level() {
    let home = fresh_home("keep-own-level");
    let mut app = started(&home, 2, Launch { start: Some(knight_hunt()), ..default() });
    knight_move(&mut app);
    // The next game is chosen before this one's screen is left (as the tour and a stage do).
    app.world_mut().insert_resource(common::setup(
        "knight_hunt/two_knights",
        Opponent::Friend,
        Seat::WHITE,
        RobotLevel::One,
    ));
    leave(&mut app);
    let kept = saved(&home, "game-knight_hunt.ron").unwrap();
    assert_eq!(kept.variant, "one_knight", "the game's own level");
    assert!(kept.check().is_ok(), "a record its level accepts");
}
