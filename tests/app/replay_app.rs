//! Watch it again (the app without a window): a finished game replays to its end and back
//! through the replay's buttons, nothing is saved while it is watched, the coach reviews it in
//! slices and marks the person's slips as the rules' review does, with both arrows on the board;
//! Try again goes on from a slip as a new game; the last move keeps its trail.
use crate::common;
use common::until;

use bevy::prelude::*;
use std::path::Path;
use tabla::app::board::pieces::ArrowKind;
use tabla::app::board::view::BoardLayout;
use tabla::app::course::replay::{Replay, ReplayCommand};
use tabla::app::course::turn::{GameCommand, SetControls};
use tabla::app::panels::spoken::coach_words;
use tabla::app::platform::settings::Words;
use tabla::app::platform::speech::Utterance;
use tabla::app::session::feedback::CoachArrows;
use tabla::app::session::play::{Play, Playing};
use tabla::app::session::play_of::PlayOf;
use tabla::app::{Control, Opponent};
use tabla::record::Record;
use tabla::robot::RobotLevel;
use tabla::robot::review::{self, Reviewer};
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::{Game, Seat};

fn play(app: &App) -> &PlayOf<KnightHunt> {
    app.world().resource::<Play>().of::<KnightHunt>()
}

fn replay(app: &App) -> Replay {
    app.world().get_resource::<Replay>().cloned().expect("the game is being watched")
}

fn order(app: &mut App, command: ReplayCommand) {
    app.world_mut().write_message(command);
    app.update();
}

fn saved(home: &Path, name: &str) -> Option<String> {
    std::fs::read_to_string(home.join(name)).ok()
}

/// A Knight Hunt game played to its end by the Robot at level 1 for White and level 3 for
/// Black, then handed back to a person at White (whose moves the coach reviews).
fn finished_game(home: &str) -> App {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::Three);
    let mut app = common::headless(setup, home, 11, |_| {});
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::One), Control::Robot(RobotLevel::Three)]));
    until(&mut app, |app| play(app).game().outcome().is_some());
    app.world_mut().write_message(SetControls(vec![Control::Person, Control::Robot(RobotLevel::Three)]));
    app.update();
    app
}

fn arrows(app: &mut App, kind: ArrowKind) -> usize {
    let mut query = app.world_mut().query::<&ArrowKind>();
    query.iter(app.world()).filter(|k| **k == kind).count()
}

#[test]
fn a_finished_game_is_watched_to_its_end_and_back_and_nothing_is_saved_meanwhile() {
    let mut app = finished_game("replay-watch");
    let home = common::home_of(&app);
    let length = play(&app).moves_played();
    let end = play(&app).game().clone();
    let last_game = saved(&home, "last_game.ron").expect("the finished game is kept");
    order(&mut app, ReplayCommand::Open);
    assert_eq!((replay(&app).at, replay(&app).length), (0, length));
    assert_eq!(play(&app).moves_played(), 0, "the replay begins at the start");
    assert!(replay(&app).playing);
    // It plays on by itself; where it stops at a slip, Play goes on.
    let mut paused = 0;
    for _ in 0..20_000 {
        let shown = replay(&app);
        assert_eq!(play(&app).moves_played(), shown.at, "the board shows the replay's position");
        if shown.at == length {
            break;
        }
        if shown.playing {
            app.update();
        } else {
            assert!(shown.coach.slip_at(shown.at).is_some(), "it stops at a slip, at {}", shown.at);
            paused += 1;
            order(&mut app, ReplayCommand::Toggle);
        }
    }
    assert_eq!(replay(&app).at, length, "the replay reached the end");
    assert!(!replay(&app).playing, "and stopped there");
    assert!(paused <= replay(&app).coach.slips.len());
    assert_eq!(play(&app).game(), &end, "the end is the game as it ended");
    order(&mut app, ReplayCommand::Back);
    assert_eq!((replay(&app).at, play(&app).moves_played()), (length - 1, length - 1));
    order(&mut app, ReplayCommand::Seek(3));
    assert_eq!(play(&app).moves_played(), 3);
    order(&mut app, ReplayCommand::On);
    assert_eq!(play(&app).moves_played(), 4);
    order(&mut app, ReplayCommand::Start);
    assert_eq!(play(&app).game(), &play(&app).history().steps()[0].game);
    order(&mut app, ReplayCommand::Speed);
    assert_eq!(replay(&app).speed.number(), 3);
    for _ in 0..20 {
        app.update();
    }
    assert_eq!(saved(&home, "last_game.ron"), Some(last_game.clone()), "watching changes no file");
    assert!(saved(&home, "game-knight_hunt.ron").is_none(), "a game watched is no game to continue");
    order(&mut app, ReplayCommand::Close);
    assert!(app.world().get_resource::<Replay>().is_none());
    assert_eq!(play(&app).game(), &end, "closed: the game as it ended");
}

#[test]
fn the_coach_marks_the_persons_slips_as_the_rules_review_does_with_both_arrows() {
    let mut app = finished_game("replay-coach");
    let steps = play(&app).history().steps().to_vec();
    let data = review::coach_data(tabla::rules::GameKind::KnightHunt).unwrap();
    let expected = Reviewer::new(&steps, |seat| seat == Seat::WHITE, data).finish();
    order(&mut app, ReplayCommand::Open);
    order(&mut app, ReplayCommand::Toggle);
    let mut frames = 0;
    until(&mut app, |app| replay(app).coach.done);
    for _ in 0..2 {
        frames += 1;
        app.update();
    }
    let coach = replay(&app).coach;
    let slips: Vec<usize> = coach.slips.iter().map(|s| s.from).collect();
    assert_eq!(slips, expected.slips().map(|s| s.from).collect::<Vec<_>>(), "after {frames} frames");
    assert!(!slips.is_empty(), "level 1 slips against level 3");
    assert!(coach.slips.iter().all(|s| s.seat == Seat::WHITE), "only the person's moves");
    let slip = coach.slips[0].clone();
    order(&mut app, ReplayCommand::Seek(slip.from));
    app.update();
    let shown = app.world().resource::<CoachArrows>().clone();
    assert_eq!(shown.played, slip.played);
    assert_eq!(shown.better, slip.better);
    assert_ne!(shown.played, shown.better);
    assert!(arrows(&mut app, ArrowKind::Slip) > 0 && arrows(&mut app, ArrowKind::Better) > 0);
    order(&mut app, ReplayCommand::On);
    app.update();
    assert_eq!(arrows(&mut app, ArrowKind::Slip), 0, "the arrows belong to the slip's position");
}

#[test]
fn try_again_from_a_slip_goes_on_as_a_new_game_that_is_kept() {
    let mut app = finished_game("replay-again");
    let home = common::home_of(&app);
    let original = Record::from_ron(&saved(&home, "last_game.ron").unwrap()).unwrap();
    order(&mut app, ReplayCommand::Open);
    until(&mut app, |app| replay(app).coach.done);
    let slip = replay(&app).coach.slips.first().cloned().expect("a slip");
    order(&mut app, ReplayCommand::Seek(slip.from));
    order(&mut app, ReplayCommand::TryAgain);
    assert!(app.world().get_resource::<Replay>().is_none());
    assert_eq!(play(&app).moves_played(), slip.from);
    assert_eq!(
        (play(&app).moves_played() + play(&app).history().undone().len()),
        slip.from,
        "what came after is gone"
    );
    assert_eq!(play(&app).person_to_move(), Some(Seat::WHITE), "the person tries the move again");
    // The better move, by two taps as a finger would.
    let (from, path) = slip.better[0].clone();
    common::press(&mut app, from);
    common::press(&mut app, *path.last().unwrap());
    until(&mut app, |app| play(app).moves_played() > slip.from + 1);
    app.update();
    let kept =
        Record::from_ron(&saved(&home, "game-knight_hunt.ron").expect("the new game is kept")).unwrap();
    assert_eq!(kept.actions[..slip.from], original.actions[..slip.from], "it begins as the game did");
    assert_ne!(kept.actions[slip.from], original.actions[slip.from], "then the better move");
    assert!(kept.undone.is_empty());
}

#[test]
fn the_last_move_keeps_its_trail_until_the_next_one() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "replay-trail", 3, |_| {});
    app.update();
    assert_eq!(arrows(&mut app, ArrowKind::LastMove), 0, "no move yet, no trail");
    let game = play(&app).game().clone();
    let first = game.legal_actions()[0];
    common::press(&mut app, first.from);
    common::press(&mut app, first.to);
    until(&mut app, |app| play(app).moves_played() >= 2);
    for _ in 0..3 {
        app.update();
    }
    assert!(arrows(&mut app, ArrowKind::LastMove) > 0, "the Robot's move leaves a trail");
    let robot_move = play(&app).last_move().expect("the Robot moved");
    let layout = app.world().resource::<BoardLayout>();
    let middle = (layout.local(robot_move.from) + layout.local(robot_move.to)) / 2.0;
    let mut query = app.world_mut().query::<(&ArrowKind, &Transform)>();
    let on_the_move = query
        .iter(app.world())
        .any(|(kind, at)| *kind == ArrowKind::LastMove && at.translation.truncate().distance(middle) < 0.1);
    assert!(on_the_move, "the trail runs from {} to {}", robot_move.from, robot_move.to);
}

#[test]
fn watching_a_game_in_progress_keeps_what_redo_would_bring_back() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Friend, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "replay-mid-game", 4, |_| {});
    app.update();
    for played in 1..=3 {
        let action = play(&app).game().legal_actions()[0];
        common::press(&mut app, action.from);
        common::press(&mut app, action.to);
        until(&mut app, |app| play(app).moves_played() == played);
    }
    common::command(&mut app, GameCommand::Undo);
    let game = play(&app).game().clone();
    assert_eq!(
        (play(&app).moves_played(), (play(&app).moves_played() + play(&app).history().undone().len())),
        (2, 3)
    );
    order(&mut app, ReplayCommand::Open);
    assert_eq!(replay(&app).length, 2, "the replay shows the game as it stands");
    order(&mut app, ReplayCommand::End);
    order(&mut app, ReplayCommand::On);
    assert_eq!(play(&app).moves_played(), 2, "no further than where the game stood");
    order(&mut app, ReplayCommand::Close);
    assert_eq!(play(&app).game(), &game);
    common::command(&mut app, GameCommand::Redo);
    assert_eq!(play(&app).moves_played(), 3, "redo still brings the move back");
}

#[test]
fn a_game_only_robots_played_is_reviewed_for_both_seats_in_words_that_name_the_robot() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::Three);
    let mut app = common::headless(setup, "replay-robots", 11, |_| {});
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::One), Control::Robot(RobotLevel::Three)]));
    until(&mut app, |app| play(app).game().outcome().is_some());
    let steps = play(&app).history().steps().to_vec();
    let data = review::coach_data(tabla::rules::GameKind::KnightHunt).unwrap();
    let expected = Reviewer::new(&steps, |_| true, data).finish();
    order(&mut app, ReplayCommand::Open);
    until(&mut app, |app| replay(app).coach.done);
    let coach = replay(&app).coach;
    let slips: Vec<usize> = coach.slips.iter().map(|s| s.from).collect();
    assert_eq!(slips, expected.slips().map(|s| s.from).collect::<Vec<_>>(), "every seat is reviewed");
    let marks: Vec<_> = coach.slips.iter().chain(coach.best.iter()).cloned().collect();
    assert!(!marks.is_empty(), "level 1 against level 3 leaves something to mark");
    assert!(marks.iter().all(|mark| mark.by_robot), "no mark is a person's");
    let mark = &marks[0];
    order(&mut app, ReplayCommand::Seek(mark.from));
    app.update();
    let words = app.world().resource::<Words>();
    let said: Vec<String> = coach_words(&replay(&app), words).into_iter().map(|u| u.text).collect();
    let robot =
        if coach.slip_at(mark.from).is_some() { "say_coach_arrows_robot" } else { "coach_best_robot" };
    assert!(said.contains(&Utterance::of(words, robot).text), "{said:?} names the Robot ({robot})");
    let yours = ["say_coach_arrows", "coach_best"].map(|key| Utterance::of(words, key).text);
    assert!(said.iter().all(|text| !yours.contains(text)), "{said:?} says 'your'");
}
