//! The help's moving demonstration in the app, without a window: it plays only while the help is
//! open, from the start each time it opens, every scripted move in turn (its piece ringed, its
//! path marked, the piece gliding there), saying what each shows, for every game.
use crate::common;

use bevy::prelude::*;
use std::collections::BTreeSet;
use tabla::app::Opponent;
use tabla::app::board::help::{DemoFrame, HelpOpen};
use tabla::app::session::game::AppGame;
use tabla::demo;
use tabla::robot::RobotLevel;
use tabla::rules::Seat;
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::circles::Circles;
use tabla::rules::halma::Halma;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::Nard;

fn frame(app: &App) -> DemoFrame {
    app.world().resource::<DemoFrame>().clone()
}

/// Plays the demonstration of `G` once round (frames of 50 ms) and checks what it showed.
fn demonstration_plays_every_move<G: AppGame>(level: &str) {
    let setup = common::setup(level, Opponent::Friend, Seat(0), RobotLevel::One);
    let mut app = common::headless(setup, &format!("help-{}", G::KIND), 3, |_| {});
    let demo = demo::demo::<G>().expect("a demonstration").unwrap();
    let script_says: BTreeSet<String> = demo.steps.iter().filter_map(|s| s.say.clone()).collect();
    // Every move that says what it shows is seen (a big board's other corner is made at once).
    let moves =
        demo.steps.iter().filter(|s| s.say.is_some() && s.before.motion_of(&s.action).is_some()).count();
    app.update();
    assert!(frame(&app).pieces.is_empty(), "{}: nothing plays while the help is closed", G::KIND);
    app.world_mut().resource_mut::<HelpOpen>().0 = true;
    let (mut says, mut lit_moves, mut last_lit) = (BTreeSet::new(), 0, None);
    // The whole demonstration is well under a minute.
    for _ in 0..1200 {
        app.update();
        let now = frame(&app);
        assert_eq!(now.game, Some(G::KIND));
        assert_eq!(now.problem, None);
        assert!(!now.cells.is_empty() && !now.pieces.is_empty(), "{}: a board with its pieces", G::KIND);
        says.extend(now.say.clone());
        if let Some(lit) = now.lit {
            assert!(
                now.pieces.iter().any(|(at, _)| *at == lit),
                "{}: the ringed place holds a piece",
                G::KIND
            );
            assert!(!now.path.is_empty(), "{}: the ringed piece's path is marked", G::KIND);
        }
        if now.lit.is_some() && last_lit.is_none() {
            lit_moves += 1;
        }
        last_lit = now.lit;
        if says == script_says && lit_moves >= moves {
            break;
        }
    }
    assert_eq!(says, script_says, "{}: every move says what it shows", G::KIND);
    assert!(lit_moves >= moves, "{}: every move is shown ({lit_moves} of {moves})", G::KIND);
    // Closed and opened again, it starts from the beginning.
    app.world_mut().resource_mut::<HelpOpen>().0 = false;
    app.update();
    app.world_mut().resource_mut::<HelpOpen>().0 = true;
    app.update();
    assert_eq!(frame(&app).say, demo.steps[0].say, "{}: it starts again from its first move", G::KIND);
}

#[test]
fn knight_hunt_demonstration() {
    demonstration_plays_every_move::<KnightHunt>("knight_hunt/one_knight");
}

#[test]
fn circles_demonstration() {
    demonstration_plays_every_move::<Circles>("circles/classic");
}

#[test]
fn bunnies_demonstration() {
    demonstration_plays_every_move::<BunniesAndHorses>("bunnies/two_horses");
}

#[test]
fn nard_demonstration_shows_its_dice() {
    demonstration_plays_every_move::<Nard>("nard/one_point");
    // Its rolls show as dice over the board.
    let setup = common::setup("nard/one_point", Opponent::Friend, Seat(0), RobotLevel::One);
    let mut app = common::headless(setup, "help-nard-dice", 3, |_| {});
    app.world_mut().resource_mut::<HelpOpen>().0 = true;
    let mut dice_seen = false;
    for _ in 0..400 {
        app.update();
        dice_seen |=
            frame(&app).decorations.iter().any(|d| matches!(d.art, tabla::app::platform::art::Art::Die(_)));
    }
    assert!(dice_seen, "the dice show");
}

#[test]
fn halma_demonstration() {
    demonstration_plays_every_move::<Halma>("halma/two_players");
}
