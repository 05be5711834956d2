//! A child's path in the app without a window (issue "A child's path"): a child made by a tap,
//! a stage played and won through the same messages a finger sends, its stars (with and without a
//! hint or a take-back, and the stage's own goal), the next stage opening, each child's own game
//! in progress, the figures, and all of it read again after a restart; a broken child's file is
//! set aside and the others still load.
use crate::common;
use common::{fresh_home, screen, send, until};

use bevy::prelude::*;
use std::path::Path as FilePath;
use tabla::app::child::children::{ChildCommand, Children, ThePath};
use tabla::app::child::stages::StageNews;
use tabla::app::course::turn::GameCommand;
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::platform::art::Art;
use tabla::app::platform::settings::Words;
use tabla::app::platform::speech::{Speaker, Utterance};
use tabla::app::platform::store::Store;
use tabla::app::session::play::{Play, Playing};
use tabla::app::{Control, Launch, Screen, core_plugin};
use tabla::progress::{Child, Stars};
use tabla::robot::{self, RobotLevel};
use tabla::rules::GameKind;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::{Game, Seat};

/// Tabla without a window on the folder `home`, at the menu.
fn started(home: &FilePath, seed: u64) -> App {
    let launch = Launch { settings_dir: Some(home.to_path_buf()), ..default() };
    common::launched(launch, seed, |app| {
        app.add_plugins(core_plugin);
    })
}

fn child(app: &App, slot: usize) -> Child {
    app.world().resource::<Children>().get(slot).expect("the child is there").clone()
}

/// The child's file as kept on disk.
fn kept_child(home: &FilePath, slot: usize) -> Child {
    let text = std::fs::read_to_string(home.join(format!("child-{}/child.ron", slot + 1))).unwrap();
    Child::from_ron(&text).unwrap()
}

/// The person's moves are tapped (from and to) as the Robot at level 3 would choose them, until
/// the game ends; `before_each` may ask for a hint or take a move back first.
fn win_by_taps(app: &mut App, mut before_each: impl FnMut(&mut App, usize)) {
    let mut turn = 0;
    loop {
        until(app, |app| {
            let play = app.world().resource::<Play>().of::<KnightHunt>();
            play.game().outcome().is_some() || play.person_to_move().is_some()
        });
        let play = app.world().resource::<Play>().of::<KnightHunt>();
        if play.game().outcome().is_some() {
            return;
        }
        before_each(app, turn);
        turn += 1;
        let play = app.world().resource::<Play>().of::<KnightHunt>();
        if play.person_to_move().is_none() {
            continue;
        }
        let seed = play.moves_played() as u64;
        let chosen = robot::choose(play.game(), RobotLevel::Three, seed).expect("a move");
        common::press(app, chosen.from);
        common::press(app, chosen.to);
    }
}

/// The person's knight moves once, by two taps.
fn one_move(app: &mut App) {
    let chosen =
        robot::choose(app.world().resource::<Play>().of::<KnightHunt>().game(), RobotLevel::One, 1).unwrap();
    common::press(app, chosen.from);
    common::press(app, chosen.to);
    common::settle(app);
}

/// A new child (the fox) plays the first Knight Hunt stage.
fn child_on_first_stage(name: &str, seed: u64) -> (App, std::path::PathBuf) {
    let home = fresh_home(name);
    let mut app = started(&home, seed);
    send(&mut app, ChildCommand::Add { animal: 0 });
    assert_eq!(screen(&app), Screen::Map, "one tap on a picture makes the child and opens their map");
    assert!(home.join("child-1/child.ron").exists(), "the child is kept at once");
    send(&mut app, ChildCommand::PlayStage("knight_hunt_1".into()));
    assert_eq!(screen(&app), Screen::Playing, "a stage plays at once, with no setup screen");
    let play = app.world().resource::<Play>().of::<KnightHunt>();
    assert_eq!(play.controls(), [Control::Person, Control::Robot(RobotLevel::One)]);
    (app, home)
}

fn news(app: &App) -> StageNews {
    app.world().get_resource::<StageNews>().expect("the stage's news").clone()
}

#[test]
fn a_stage_won_on_ones_own_earns_its_stars_opens_the_next_and_survives_a_restart() {
    let (mut app, home) = child_on_first_stage("path-win", 4);
    win_by_taps(&mut app, |_, _| {});
    let game = app.world().resource::<Play>().of::<KnightHunt>().game().clone();
    assert!(game.outcome().unwrap().winner.includes(Seat::WHITE), "the child won");
    app.update();
    let stars = child(&app, 0).stars("knight_hunt_1");
    assert!(stars.has(Stars::WON) && stars.has(Stars::ON_OWN), "{stars:?}");
    // The third star is the stage's goal: this game (seeded) was won keeping five pawns.
    assert_eq!(game.pawns_left(Seat::WHITE), 5);
    assert!(stars.has(Stars::GOAL), "{stars:?}");
    let told = news(&app);
    assert_eq!((told.stage.as_str(), told.new), ("knight_hunt_1", stars));
    assert_eq!(told.opened.as_deref(), Some("knight_hunt_2"), "one star opens the next stage");
    // The result is said aloud, then the new stars (counted a frame after the result shows).
    for _ in 0..5 {
        app.update();
    }
    let n = told.new.count().to_string();
    let words = app.world().resource::<Words>();
    let stars_said = Utterance::filled(words, "stars_new", &[("n", &n)]).text;
    let said: Vec<&str> = app.world().resource::<Speaker>().said.iter().map(|s| s.text.as_str()).collect();
    assert!(said.contains(&stars_said.as_str()), "{stars_said:?} is not among {said:#?}");
    let figures = &child(&app, 0).figures[&GameKind::KnightHunt];
    assert_eq!((figures.played, figures.won, figures.lost), (1, 1, 0));
    assert_eq!(kept_child(&home, 0), child(&app, 0), "the file has it all");
    assert!(home.join("child-1/last_game.ron").exists(), "the finished game is the child's own");
    assert!(!home.join("last_game.ron").exists());
    drop(app);

    let mut again = started(&home, 5);
    assert_eq!(child(&again, 0).stars("knight_hunt_1"), stars, "the stars are read again after a restart");
    send(&mut again, ChildCommand::Choose(0));
    assert_eq!(screen(&again), Screen::Map);
    let path = again.world().resource::<ThePath>();
    let trail = path.trail(GameKind::KnightHunt).unwrap();
    let kept = child(&again, 0);
    assert_eq!(trail.next(|id| kept.star_count(id)), Some(1), "the next stage is the one to play");
    send(&mut again, ChildCommand::PlayStage("knight_hunt_3".into()));
    assert_eq!(screen(&again), Screen::Map, "a locked stage does not open");
    send(&mut again, ChildCommand::PlayStage("knight_hunt_2".into()));
    assert_eq!(screen(&again), Screen::Playing);
    assert_eq!(
        again.world().resource::<Play>().of::<KnightHunt>().controls(),
        [Control::Person, Control::Robot(RobotLevel::Two)],
        "the second stage's Robot"
    );
}

#[test]
fn a_childs_game_against_the_robot_shows_the_childs_picture_and_name_and_the_robots_face() {
    let (mut app, _home) = child_on_first_stage("path-faces", 6);
    send(&mut app, ChildCommand::Rename(0, "Mara".into()));
    common::settle(&mut app);
    let board = app.world().resource::<ScoreBoard>().clone();
    let [child_seat, robot_seat] = [&board.seats[0], &board.seats[1]];
    assert_eq!(child_seat.face, Art::Animal(0), "the fox, the child's own picture");
    assert!(child_seat.name.starts_with("Mara "), "{}", child_seat.name);
    assert_eq!(robot_seat.face, Art::Robot);
}

#[test]
fn a_hint_or_a_take_back_keeps_a_won_stage_to_its_first_and_goal_stars() {
    let (mut app, _) = child_on_first_stage("path-hint", 2);
    win_by_taps(&mut app, |app, turn| {
        if turn == 1 {
            common::command(app, GameCommand::Hint);
            for _ in 0..20 {
                app.update();
            }
        }
    });
    app.update();
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().asked().hints, 1);
    let stars = child(&app, 0).stars("knight_hunt_1");
    assert!(stars.has(Stars::WON) && !stars.has(Stars::ON_OWN), "a hint asked: {stars:?}");
    let kept = app.world().resource::<Play>().of::<KnightHunt>().game().pawns_left(Seat::WHITE);
    assert_eq!(stars.has(Stars::GOAL), kept >= 5, "the goal's star is earned with a hint too");

    let (mut app, _) = child_on_first_stage("path-takeback", 2);
    win_by_taps(&mut app, |app, turn| {
        if turn == 2 {
            common::command(app, GameCommand::Undo);
        }
    });
    app.update();
    assert!(app.world().resource::<Play>().of::<KnightHunt>().asked().takebacks >= 1);
    let stars = child(&app, 0).stars("knight_hunt_1");
    assert!(stars.has(Stars::WON) && !stars.has(Stars::ON_OWN), "a move taken back: {stars:?}");
}

#[test]
fn each_child_keeps_their_own_game_in_progress() {
    let (mut app, home) = child_on_first_stage("path-own-game", 3);
    one_move(&mut app);
    assert!(home.join("child-1/game-knight_hunt.ron").exists(), "the game is kept in the child's place");
    assert!(!home.join("game-knight_hunt.ron").exists());
    let record = tabla::record::Record::from_ron(
        &std::fs::read_to_string(home.join("child-1/game-knight_hunt.ron")).unwrap(),
    )
    .unwrap();
    assert_eq!(record.stage.as_deref(), Some("knight_hunt_1"), "the record names its stage");
    // A second child has no game to continue.
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Children);
    app.update();
    send(&mut app, ChildCommand::Add { animal: 5 });
    let in_progress = |app: &App| {
        let store = app.world().resource::<Store>().games();
        tabla::app::child::keeping::read_games_in_progress(&store, &[GameKind::KnightHunt]).0.len()
    };
    assert_eq!(app.world().resource::<Store>().child(), Some(1));
    assert_eq!(in_progress(&app), 0);
    send(&mut app, ChildCommand::Choose(0));
    assert_eq!(in_progress(&app), 1, "the first child's game is theirs");
}

#[test]
fn a_broken_childs_file_is_set_aside_and_the_other_children_still_load() {
    let home = fresh_home("path-broken");
    let mut app = started(&home, 1);
    send(&mut app, ChildCommand::Add { animal: 3 });
    send(&mut app, ChildCommand::Add { animal: 4 });
    drop(app);
    std::fs::write(home.join("child-2/child.ron"), "Child(version: 1, animal: ").unwrap();
    let app = started(&home, 1);
    let children = app.world().resource::<Children>();
    assert_eq!(children.get(0).map(|c| c.animal), Some(3), "the good child still loads");
    assert!(children.get(1).is_none());
    assert!(children.problems[0].contains("child-2/child.ron"), "{:?}", children.problems);
    assert!(home.join("child-2/child.ron.broken-1").exists(), "set aside, never deleted");
}

#[test]
fn the_grown_ups_export_carries_children_to_another_device_which_merges_the_same_child() {
    let home = fresh_home("path-export");
    let mut app = started(&home, 1);
    send(&mut app, ChildCommand::Add { animal: 6 });
    send(&mut app, ChildCommand::Rename(0, "Ana".into()));
    app.world_mut().resource_mut::<Children>().slots[0].as_mut().unwrap().earn("bunnies_1", Stars::WON);
    send(&mut app, ChildCommand::Export);
    let exported: Vec<_> =
        std::fs::read_dir(home.join("progress")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(exported.len(), 1, "one progress file given out, beside the records");
    let text = std::fs::read_to_string(&exported[0]).expect("the export is a file");

    // The other device has this child already (brought there before), with a star of its own.
    let other = fresh_home("path-import");
    let mut there = started(&other, 1);
    send(&mut there, ChildCommand::Import(text.clone()));
    assert_eq!(child(&there, 0).id, child(&app, 0).id, "the same child, by identity");
    there.world_mut().resource_mut::<Children>().slots[0].as_mut().unwrap().earn("nard_1", Stars::WON);
    send(&mut there, ChildCommand::Add { animal: 1 });
    // Played on here meanwhile, and brought again: merged, nothing taken away.
    app.world_mut().resource_mut::<Children>().slots[0].as_mut().unwrap().earn("halma_1", Stars::WON);
    send(&mut app, ChildCommand::Export);
    let newest = std::fs::read_dir(home.join("progress"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .max_by_key(|p| std::fs::metadata(p).unwrap().modified().unwrap())
        .unwrap();
    send(&mut there, ChildCommand::Import(std::fs::read_to_string(newest).unwrap()));
    let merged = child(&there, 0);
    assert_eq!(
        (merged.star_count("bunnies_1"), merged.star_count("halma_1"), merged.star_count("nard_1")),
        (1, 1, 1),
        "the stars of both devices"
    );
    assert_eq!(kept_child(&other, 0), merged);
    assert_eq!(child(&there, 1).animal, 1, "the other child stays");
    send(&mut there, ChildCommand::Import("not a progress file".into()));
    let notice = there.world().resource::<tabla::app::child::transfer::Transferred>().0.clone();
    assert!(
        matches!(&notice, Some(tabla::app::child::transfer::TransferNotice::Failed(why)) if why.contains("cannot be read")),
        "{notice:?}"
    );
    assert_eq!(child(&there, 0).star_count("bunnies_1"), 1, "a bad file changes nothing");
}

#[test]
fn removing_a_child_sets_their_file_aside_and_clearing_forgets_one_games_stars() {
    let home = fresh_home("path-remove");
    let mut app = started(&home, 1);
    send(&mut app, ChildCommand::Add { animal: 2 });
    app.world_mut().resource_mut::<Children>().slots[0].as_mut().unwrap().earn("halma_1", Stars::WON);
    app.world_mut().resource_mut::<Children>().slots[0].as_mut().unwrap().earn("nard_1", Stars::WON);
    send(&mut app, ChildCommand::ClearStars(0, GameKind::Halma));
    assert_eq!(kept_child(&home, 0).star_count("halma_1"), 0);
    assert_eq!(kept_child(&home, 0).star_count("nard_1"), 1, "only that game's stars");
    send(&mut app, ChildCommand::Remove(0));
    assert!(app.world().resource::<Children>().get(0).is_none());
    assert!(!home.join("child-1/child.ron").exists());
    assert!(home.join("child-1/child.ron.broken-1").exists(), "kept aside, not deleted");
}

#[test]
fn a_second_child_starting_a_game_leaves_the_first_childs_game_alone() {
    let (mut app, home) = child_on_first_stage("path-two-games", 3);
    one_move(&mut app);
    let first = std::fs::read_to_string(home.join("child-1/game-knight_hunt.ron")).unwrap();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Children);
    app.update();
    send(&mut app, ChildCommand::Add { animal: 7 });
    send(&mut app, ChildCommand::PlayStage("knight_hunt_1".into()));
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        std::fs::read_to_string(home.join("child-1/game-knight_hunt.ron")).unwrap(),
        first,
        "still the first child's"
    );
    assert!(!home.join("child-2/last_game.ron").exists(), "no game of another child became the second's");
}

#[test]
fn a_finished_game_opened_again_is_not_counted_again() {
    let (mut app, home) = child_on_first_stage("path-open-again", 4);
    win_by_taps(&mut app, |_, _| {});
    app.update();
    let before = child(&app, 0);
    let last = tabla::record::Record::from_ron(
        &std::fs::read_to_string(home.join("child-1/last_game.ron")).unwrap(),
    )
    .unwrap();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Map);
    app.update();
    tabla::app::child::keeping::begin(
        &mut app.world_mut().commands(),
        last,
        tabla::app::session::play::Opened::File,
    )
    .unwrap();
    app.world_mut().flush();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    for _ in 0..5 {
        app.update();
    }
    assert!(
        app.world().resource::<Play>().of::<KnightHunt>().game().outcome().is_some(),
        "the finished game is open"
    );
    let (now, then) =
        (&child(&app, 0).figures[&GameKind::KnightHunt], &before.figures[&GameKind::KnightHunt]);
    assert_eq!((now.played, now.won), (then.played, then.won), "counted once, when it was played");
    assert_eq!((now.played, now.won), (1, 1));
}

#[test]
fn the_device_games_from_before_become_the_first_childs() {
    let home = fresh_home("path-before");
    std::fs::create_dir_all(&home).unwrap();
    let setup =
        common::setup("knight_hunt/one_knight", tabla::app::Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let launch = Launch { start: Some(setup), settings_dir: Some(home.clone()), ..default() };
    let mut app = common::launched(launch, 3, |app| {
        app.add_plugins(core_plugin);
    });
    let chosen =
        robot::choose(app.world().resource::<Play>().of::<KnightHunt>().game(), RobotLevel::One, 1).unwrap();
    common::press(&mut app, chosen.from);
    common::press(&mut app, chosen.to);
    let before =
        std::fs::read_to_string(home.join("game-knight_hunt.ron")).expect("a game kept before any child");
    drop(app);
    let mut app = started(&home, 1);
    send(&mut app, ChildCommand::Add { animal: 1 });
    assert_eq!(std::fs::read_to_string(home.join("child-1/game-knight_hunt.ron")).unwrap(), before);
    assert!(!home.join("game-knight_hunt.ron").exists());
}
