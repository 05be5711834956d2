//! The Hint in every game, without a window: offered only on a person's turn with a piece to
//! move (never on the Robot's, never while dice are due), shown as the move's own preview and
//! nothing played, played by ✔ or by a tap on its target, then marked: counted in the seat's
//! panel (and starred in the move list where the game keeps one), and gone again with Undo.
use crate::common;

use common::{command, press};

use bevy::prelude::*;
use tabla::app::Opponent;
use tabla::app::course::turn::GameCommand;
use tabla::app::panels::scoreboard::{HINT_MARK, ScoreBoard};
use tabla::app::platform::settings::Words;
use tabla::app::session::feedback::{Preview, Selection};
use tabla::app::session::game::{AppGame, Extra};
use tabla::app::session::play::{Play, Playing};
use tabla::app::session::play_of::PlayOf;
use tabla::robot::RobotLevel;
use tabla::rules::Seat;
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::circles::Circles;
use tabla::rules::halma::Halma;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::Nard;

fn app(level: &str, person: Seat) -> App {
    let setup = common::setup(level, Opponent::Robot, person, RobotLevel::One);
    common::headless(setup, &format!("hint-{}", level.replace('/', "-")), 21, |_| {})
}

fn play<G: AppGame>(app: &App) -> &PlayOf<G> {
    app.world().resource::<Play>().of::<G>()
}

fn board(app: &App) -> ScoreBoard {
    app.world().resource::<ScoreBoard>().clone()
}

/// Runs frames until `done`, rolling the person's dice when they are due; panics after many.
fn until(app: &mut App, what: &str, done: impl Fn(&App) -> bool, roll: impl Fn(&App) -> bool) {
    for _ in 0..3000 {
        if done(app) {
            return;
        }
        if roll(app) {
            assert!(!board(app).can_hint, "no hint while the dice are due");
            command(app, GameCommand::Roll);
        } else {
            app.update();
        }
    }
    panic!("{what} never came");
}

fn hints_line(app: &App, seat: Seat) -> Option<String> {
    let words = app.world().resource::<Words>();
    let wanted = words.fill("hints_used", &[("count", "1")]);
    board(app).seats[seat.index()].extras.iter().find_map(|e| match e {
        Extra::Text(text) if *text == wanted => Some(text.clone()),
        _ => None,
    })
}

/// Asks for a hint on the person's turn and checks all a hint must do; `by_tap` plays it by a
/// tap on its target, else by ✔. Returns the app after the hinted move was played.
fn hint_is_a_preview_played_and_marked<G: AppGame>(level: &str, person: Seat, by_tap: bool) -> App {
    let mut app = app(level, person);
    // The Robot's turn, if it opens: no hint is offered, and asking changes nothing.
    if play::<G>(&app).robot_to_move().is_some() {
        assert!(!board(&app).can_hint, "{level}: no hint on the Robot's turn");
    }
    let can_roll = |app: &App| play::<G>(app).can_roll();
    until(&mut app, "the person's turn", |app| play::<G>(app).can_hint(), can_roll);
    app.update();
    assert!(board(&app).can_hint, "{level}: the Hint button shows on the person's turn");
    let before = play::<G>(&app).moves_played();
    command(&mut app, GameCommand::Hint);
    until(&mut app, "the hint", |app| !app.world().resource::<Preview>().0.is_empty(), |_| false);
    let from = app.world().resource::<Selection>().0.expect("the hint lights a piece");
    let path = app.world().resource::<Preview>().0.clone();
    let game = play::<G>(&app).game().clone();
    let to = *path.last().unwrap();
    let action = game.action_between(from, to).expect("the hinted move is a legal move");
    assert_eq!(game.path_of(&action), path, "{level}: the preview is the move's own path");
    assert_eq!(play::<G>(&app).moves_played(), before, "{level}: a hint plays nothing");
    assert!(play::<G>(&app).game().legal_actions().contains(&action));
    assert_eq!(hints_line(&app, person), None, "{level}: nothing is counted before it is played");
    if by_tap {
        press(&mut app, to);
    } else {
        command(&mut app, GameCommand::Confirm);
    }
    // A game that drafts (Crazy Nard) keeps the move in its draft until the dice set is confirmed.
    assert!(
        play::<G>(&app).moves_played() > before || play::<G>(&app).drafting(),
        "{level}: the hinted move is played"
    );
    assert_eq!(play::<G>(&app).hints_used(person), 1);
    app.update();
    assert!(hints_line(&app, person).is_some(), "{level}: the seat's panel counts the hint");
    app
}

#[test]
fn knight_hunt_hint_by_confirm_is_counted_and_undone() {
    let mut app =
        hint_is_a_preview_played_and_marked::<KnightHunt>("knight_hunt/one_knight", Seat::WHITE, false);
    // The Robot answers; on its turn no hint is offered.
    if play::<KnightHunt>(&app).robot_to_move().is_some() {
        assert!(!board(&app).can_hint, "no hint on the Robot's turn");
    }
    for _ in 0..60 {
        app.update();
    }
    command(&mut app, GameCommand::Undo);
    assert_eq!(play::<KnightHunt>(&app).hints_used(Seat::WHITE), 0, "Undo takes the hinted move back");
    app.update();
    assert_eq!(hints_line(&app, Seat::WHITE), None);
}

#[test]
fn circles_hint_by_tap_is_starred_in_the_move_list() {
    let app = hint_is_a_preview_played_and_marked::<Circles>("circles/classic", Seat::WHITE, true);
    let list = board(&app).move_list;
    let first = list.first().expect("the move list has the move");
    let white_move = first.trim_start_matches("1. ").split_whitespace().next().unwrap();
    assert!(white_move.ends_with(HINT_MARK), "the hinted move is starred: {list:?}");
}

#[test]
fn bunnies_hint() {
    let _ = hint_is_a_preview_played_and_marked::<BunniesAndHorses>("bunnies/one_horse", Seat::WHITE, true);
}

#[test]
fn halma_hint() {
    let app = hint_is_a_preview_played_and_marked::<Halma>("halma/two_players", Seat(0), false);
    assert!(play::<Halma>(&app).history().steps()[1].note.hinted, "the history marks the hinted move");
    // A Robot move is never marked.
    let mut app = app;
    for _ in 0..400 {
        app.update();
    }
    let steps = play::<Halma>(&app).history().steps();
    assert!(steps.len() > 2, "the Robot answered");
    assert!(
        steps.iter().filter(|s| s.mover == Some(Seat(1))).all(|s| !s.note.hinted),
        "the Robot's moves are not"
    );
}

#[test]
fn nard_hint_goes_into_the_draft_and_counts_when_confirmed() {
    let mut app = hint_is_a_preview_played_and_marked::<Nard>("nard/three_points", Seat::WHITE, true);
    // The rest of the dice set: more hints, then ✔ plays the draft into the history.
    while play::<Nard>(&app).can_hint() && play::<Nard>(&app).drafting() {
        command(&mut app, GameCommand::Hint);
        until(&mut app, "a hint", |app| !app.world().resource::<Preview>().0.is_empty(), |_| false);
        command(&mut app, GameCommand::Confirm);
    }
    let hinted = play::<Nard>(&app).hints_used(Seat::WHITE);
    assert!(hinted >= 1);
    if play::<Nard>(&app).draft_done() {
        command(&mut app, GameCommand::Confirm);
    }
    assert!(!play::<Nard>(&app).drafting(), "✔ plays the draft");
    assert_eq!(play::<Nard>(&app).hints_used(Seat::WHITE), hinted, "the hints stay counted in the history");
}
