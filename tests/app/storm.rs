//! A storm of seeded random input on the headless app: taps and drags anywhere (off the board too),
//! pinches and wheel turns of the view, undo, redo, restart, rolls, clock changes, keys, and trips
//! to the menu and back, over every game on screen. Nothing may panic, an input the rules refuse
//! leaves the game as it was, an accepted one is exactly one legal action, and when the storm is
//! over the entities on the board mirror the rules state.
use crate::common::{self, pieces_in_rules, pieces_shown};
use tabla::chance;

use bevy::prelude::*;
use rand::Rng;
use tabla::app::board::input::{BoardDrop, BoardPress, BoardTap};
use tabla::app::board::view::ViewCommand;
use tabla::app::course::turn::GameCommand;
use tabla::app::session::feedback::AskFirst;
use tabla::app::session::game::AppGame;
use tabla::app::session::play::{Play, Playing};
use tabla::app::{Opponent, Screen};
use tabla::robot::RobotLevel;
use tabla::rules::board::{BoardShape, Move, Square};
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::circles::Circles;
use tabla::rules::halma::Halma;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::Nard;
use tabla::rules::{Game, Seat};

/// Every key the game answers, and one it does not.
const KEYS: [KeyCode; 17] = [
    KeyCode::ArrowLeft,
    KeyCode::ArrowRight,
    KeyCode::ArrowUp,
    KeyCode::ArrowDown,
    KeyCode::Enter,
    KeyCode::Enter,
    KeyCode::Escape,
    KeyCode::KeyU,
    KeyCode::KeyR,
    KeyCode::Space,
    KeyCode::KeyD,
    KeyCode::Equal,
    KeyCode::Minus,
    KeyCode::KeyT,
    KeyCode::KeyF,
    KeyCode::KeyH,
    KeyCode::KeyQ,
];

/// Inputs in all, shared among the five games.
const STORM: usize = 10_000;

fn storm_app(level: &str) -> App {
    let setup = common::setup(level, Opponent::Friend, Seat::WHITE, RobotLevel::One);
    let home = format!("storm-{}", setup.level.variant());
    common::headless(setup, &home, 77, |_| {})
}

fn random_square(rng: &mut chance::SeededRng, shape: BoardShape) -> Square {
    // Off the board now and then: such a square must be ignored.
    Square::new(rng.random_range(0..shape.files + 2), rng.random_range(0..shape.ranks + 2))
}

fn storm<G: AppGame + PartialEq>(level: &str, inputs: usize, seed: u64) {
    let mut app = storm_app(level);
    let mut rng = chance::rng(seed);
    let mut played = 0;
    let shape = app.world().resource::<Play>().of::<G>().game().shape();
    for i in 0..inputs {
        let playing = *app.world().resource::<State<Screen>>().get() == Screen::Playing;
        let before = app
            .world()
            .get_resource::<Play>()
            .map(Play::of::<G>)
            .map(|p| (p.game().clone(), p.moves_played(), p.history().seed()));
        let mut board_input = false;
        // A question on the screen (start again? keep playing that game?) is soon answered, as a
        // child would.
        if app.world().resource::<AskFirst>().0.is_some() && rng.random_bool(0.3) {
            let answer =
                if rng.random_bool(0.5) { GameCommand::StartAgain } else { GameCommand::KeepPlaying };
            app.world_mut().write_message(answer);
            app.update();
            continue;
        }
        match rng.random_range(0..100) {
            0..=29 => {
                app.world_mut().write_message(BoardPress(random_square(&mut rng, shape)));
                board_input = true;
            }
            30..=39 => {
                // A finger on a board of any size, anywhere near a square.
                let square = random_square(&mut rng, shape);
                let local = Vec2::new(rng.random_range(-9.0..9.0), rng.random_range(-9.0..9.0));
                let pointer = Vec2::new(rng.random_range(0.0..800.0), rng.random_range(0.0..800.0));
                let pitch = rng.random_range(10.0..80.0);
                app.world_mut().write_message(BoardTap { square, pointer, local, pitch });
                board_input = true;
            }
            40..=54 => {
                let from = random_square(&mut rng, shape);
                let to = rng.random_bool(0.9).then(|| random_square(&mut rng, shape));
                app.world_mut().write_message(BoardDrop { from, to });
                board_input = true;
            }
            55..=64
                if let Some(play) = app.world().get_resource::<Play>().map(Play::of::<G>)
                    && (play.draft_done() || play.game().chance().is_some()) =>
            {
                // What a child does next: rolls the dice that are due, or confirms a played set.
                let command = if play.draft_done() { GameCommand::Confirm } else { GameCommand::Roll };
                board_input = true;
                app.world_mut().write_message(command);
            }
            55..=64 => {
                // A move a child would make: one of the legal ones, dragged.
                let moves: Vec<Move> = before
                    .as_ref()
                    .map(|(game, _, _)| {
                        game.legal_actions().iter().filter_map(|a| game.motion_of(a)).collect()
                    })
                    .unwrap_or_default();
                if !moves.is_empty() {
                    let chosen = moves[rng.random_range(0..moves.len())];
                    app.world_mut().write_message(BoardDrop { from: chosen.from, to: Some(chosen.to) });
                    // Where moves are previewed first, the child confirms it.
                    if G::CONFIRM_MOVES {
                        app.world_mut().write_message(GameCommand::Confirm);
                    }
                    board_input = true;
                }
            }
            65..=74 => {
                let command = match rng.random_range(0..4) {
                    0 => ViewCommand::Turn,
                    1 => ViewCommand::Fit,
                    2 => ViewCommand::Pan(Vec2::new(
                        rng.random_range(-80.0..80.0),
                        rng.random_range(-80.0..80.0),
                    )),
                    _ => {
                        let around = Vec2::new(rng.random_range(0.0..800.0), rng.random_range(0.0..800.0));
                        ViewCommand::Zoom { factor: rng.random_range(0.5..2.0), around: Some(around) }
                    }
                };
                app.world_mut().write_message(command);
            }
            75..=84 => {
                let command = match rng.random_range(0..13) {
                    0 => GameCommand::Undo,
                    1 => GameCommand::Redo,
                    2 => GameCommand::Restart,
                    3 => GameCommand::Roll,
                    4 => GameCommand::SetClock(rng.random_range(0..4)),
                    5 => GameCommand::NewGame,
                    6 => GameCommand::Hint,
                    7 => GameCommand::Choose(rng.random_range(0..3)),
                    8 | 9 => GameCommand::Confirm,
                    10 => GameCommand::StartAgain,
                    11 => GameCommand::KeepPlaying,
                    _ => GameCommand::Deselect,
                };
                // Buttons that may play an action count as board input.
                board_input = matches!(command, GameCommand::Confirm | GameCommand::Choose(_));
                app.world_mut().write_message(command);
            }
            85..=95 => {
                // Enter presses the square under the cursor: board input like a tap.
                let key = KEYS[rng.random_range(0..KEYS.len())];
                board_input = key == KeyCode::Enter;
                common::press_key(&mut app, key);
            }
            96..=97 => app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu),
            _ => app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing),
        }
        app.update();
        if !(playing && board_input) {
            continue;
        }
        let (Some((game_before, moves_before, seed)), Some(play)) =
            (before, app.world().get_resource::<Play>().map(Play::of::<G>))
        else {
            continue;
        };
        // Another game on the screen (the game in progress taken up again, when the keeper asked
        // whether a new one may take its place): no action of this input's.
        if play.history().seed() != seed {
            continue;
        }
        if play.moves_played() == moves_before {
            if play.game() != &game_before {
                // A move tried out in a draft: legal moves from the game shown lead there.
                assert!(
                    G::DRAFTS && reachable(&game_before, play.game()),
                    "input {i}: a tap changed the game"
                );
                played += 1;
            }
        } else if G::DRAFTS && play.game() == &game_before {
            // A draft confirmed: its moves went into the history, the board stays as it was.
            played += 1;
        } else {
            assert_eq!(play.moves_played(), moves_before + 1, "input {i}: one input, one action");
            assert!(
                play.previous() == Some(&game_before),
                "input {i}: the action was played on the game shown"
            );
            played += 1;
        }
    }
    assert!(played > inputs / 50, "{level}: the storm played only {played} moves");
    // Back on the game screen and at rest, the pieces are the rules' pieces.
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    for _ in 0..60 {
        app.update();
    }
    let expected = pieces_in_rules(app.world().resource::<Play>().of::<G>().game());
    assert_eq!(pieces_shown(&mut app), expected, "{level}: the board mirrors the rules after the storm");
}

/// Whether a few legal actions (a checker moved by up to four numbers) lead from one game to the
/// other.
fn reachable<G: Game + PartialEq>(from: &G, to: &G) -> bool {
    let mut frontier = vec![from.clone()];
    for _ in 0..4 {
        let mut next = Vec::new();
        for game in &frontier {
            for action in game.legal_actions() {
                let mut after = game.clone();
                if after.apply(&action).is_ok() {
                    if &after == to {
                        return true;
                    }
                    next.push(after);
                }
            }
        }
        frontier = next;
    }
    false
}

#[test]
fn a_storm_of_input_on_knight_hunt() {
    storm::<KnightHunt>("knight_hunt/two_knights_capture", STORM / 5, 1);
}

#[test]
fn a_storm_of_input_on_making_circles() {
    storm::<Circles>("circles/classic", STORM / 5, 2);
}

#[test]
fn a_storm_of_input_on_bunnies_and_horses() {
    storm::<BunniesAndHorses>("bunnies/two_horses", STORM / 5, 3);
}

#[test]
fn a_storm_of_input_on_halma_for_four() {
    storm::<Halma>("halma/four_one_army", STORM / 5, 4);
}

#[test]
fn a_storm_of_input_on_crazy_nard() {
    storm::<Nard>("nard/crazy", STORM / 5, 5);
}
