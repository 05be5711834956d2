//! The contract every game keeps, checked the same way on every built-in level file: legal actions
//! are accepted and read back from their text; well-formed actions that are not legal now, and
//! text that is no action at all, are refused with the state unchanged; undo and redo in the text
//! interface restore the states; a seeded random playout ends; and while the game is not over the
//! seat to move has an action, or dice are due.
//!
//! A new game is covered by its level files in `levels::BUILTIN` and one arm in `check_level`.

use rand::Rng;
use serde_json::Value;
use std::fmt::Debug;
use tabla::chance::{self, SeededRng};
use tabla::levels::{self, FromLevel, Level, LevelGame};
use tabla::robot::review::Coached;
use tabla::rules::RuleError;
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::circles::Circles;
use tabla::rules::halma::Halma;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::Nard;
use tabla::text::{Console, Session, session_for, state_json};

/// Random playouts per level file, each from its own seed.
const PLAYOUTS: u64 = 3;
/// A playout longer than this many actions does not end: a failure.
const MAX_ACTIONS: usize = 20_000;
/// Actions remembered from other positions, tried as illegal ones.
const REMEMBERED: usize = 64;
/// Text that is no action of any game.
const GARBAGE: &[&str] = &[
    "",
    "   ",
    "xyzzy",
    "a1",
    "a0b1",
    "a1a9",
    "i1a1",
    "g1-f3",
    "a1 b2",
    "25/19",
    "7/0",
    "24/21/18",
    "roll",
    "roll 7",
    "roll 0 3",
    "roll 1 2 3",
    "double double",
    "take 1",
    "ü",
    "🙂",
    "\t",
];

/// The one place that names the games: a new `LevelGame` does not compile until it has an arm.
fn check_level(level: &Level) {
    match &level.game {
        LevelGame::Circles(_) => check_game::<Circles>(level),
        LevelGame::KnightHunt(_) => check_game::<KnightHunt>(level),
        LevelGame::Bunnies(_) => check_game::<BunniesAndHorses>(level),
        LevelGame::Nard(_) => check_game::<Nard>(level),
        LevelGame::Halma(_) => check_game::<Halma>(level),
    }
}

#[test]
fn every_level_keeps_the_game_contract() {
    assert!(!levels::BUILTIN.is_empty());
    for (file, source) in levels::BUILTIN {
        let level = levels::parse(file, source).unwrap_or_else(|e| panic!("{e}"));
        check_level(&level);
    }
}

fn check_game<G>(level: &Level)
where
    G: Coached + FromLevel + PartialEq + Debug,
{
    let start = G::from_level(level).unwrap_or_else(|| panic!("{}: no game for this level", level.file));
    // The text interface starts every level file from the same state as the game itself.
    let mut console = session_for(level, 1);
    assert_eq!(console.handle("state"), state_json(&start), "{}: session_for", level.file);
    for seed in 0..PLAYOUTS {
        playout(&level.file, start.clone(), seed);
    }
}

/// One seeded random playout to the end, checking the contract after every action.
fn playout<G>(file: &str, mut game: G, seed: u64)
where
    G: Coached + PartialEq + Debug,
{
    let at = |step: usize| format!("{file}, seed {seed}, action {step}");
    let mut rng = chance::rng(seed);
    let mut session = Session::new(game.clone(), seed);
    let mut remembered: Vec<G::Action> = Vec::new();
    expect_refused(&mut session, "undo", &game, &at(0));
    for step in 0..=MAX_ACTIONS {
        assert!(step < MAX_ACTIONS, "{}: the playout does not end", at(step));
        check_position(&game, &remembered, &mut session, &mut rng, &at(step));
        if game.outcome().is_some() {
            break;
        }
        let legal = game.legal_actions();
        let action = match game.chance() {
            // Dice are due; a choice such as doubling may come before the roll, now and then.
            Some(rolls) if legal.is_empty() || rng.random_bool(0.8) => {
                chance::pick_chance(rolls, &mut rng).expect("a roll")
            }
            _ => legal[rng.random_range(0..legal.len())].clone(),
        };
        let rolls = game.chance().unwrap_or_default().into_iter().map(|(roll, _)| roll);
        remember(&mut remembered, legal.into_iter().chain(rolls), &mut rng);
        let before = state_json(&game);
        let text = game.action_text(&action);
        game.apply(&action).unwrap_or_else(|e| panic!("{}: {text} refused: {e}", at(step)));
        let answer = session.handle(&format!("play {text}"));
        assert_eq!(answer["ok"], true, "{}: the session refused {text}: {answer}", at(step));
        let after = state_json(&game);
        assert_eq!(session.handle("state"), after, "{}: the session after {text}", at(step));
        // Undo and redo come back to the states before and after the action.
        assert_eq!(session.handle("undo")["ok"], true, "{}", at(step));
        assert_eq!(session.handle("state"), before, "{}: undo of {text}", at(step));
        assert_eq!(session.handle("redo")["ok"], true, "{}", at(step));
        assert_eq!(session.handle("state"), after, "{}: redo of {text}", at(step));
    }
    expect_refused(&mut session, "redo", &game, &at(usize::MAX));
    // Undo goes back over the whole playout.
    while session.handle("undo")["ok"] == true {}
    let first = session.handle("state");
    assert_eq!(session.handle("undo")["ok"], false, "{file}: undo before the start");
    assert_eq!(session.handle("state"), first, "{file}: a refused undo changed the state");
}

/// Checks one position of a playout.
fn check_position<G>(
    game: &G,
    remembered: &[G::Action],
    session: &mut Session<G>,
    rng: &mut SeededRng,
    at: &str,
) where
    G: Coached + PartialEq + Debug,
{
    let legal = game.legal_actions();
    let rolls: Vec<G::Action> = game.chance().unwrap_or_default().into_iter().map(|(a, _)| a).collect();
    match game.outcome() {
        Some(_) => {
            assert_eq!(game.to_move(), None, "{at}: nobody moves after the end");
            assert!(legal.is_empty() && rolls.is_empty(), "{at}: actions after the end");
            for action in remembered {
                let mut tried = game.clone();
                assert_eq!(tried.apply(action), Err(RuleError::GameOver), "{at}");
                assert_eq!(&tried, game, "{at}: a refused action changed the ended game");
            }
        }
        None => {
            // The seat to move has an action, or dice are due.
            assert!(!rolls.is_empty() || (game.to_move().is_some() && !legal.is_empty()), "{at}: stuck");
            let mut seen = std::collections::HashSet::new();
            for action in &legal {
                let text = game.action_text(action);
                assert!(seen.insert(text.clone()), "{at}: {text} listed twice");
                assert_eq!(game.parse_action(&text).as_ref(), Ok(action), "{at}: {text} reads back");
                let mut tried = game.clone();
                tried.apply(action).unwrap_or_else(|e| panic!("{at}: legal {text} refused: {e}"));
            }
            for action in &rolls {
                let text = game.action_text(action);
                assert_eq!(game.parse_action(&text).as_ref(), Ok(action), "{at}: roll {text} reads back");
            }
            // Actions legal elsewhere are refused here, and change nothing.
            for action in remembered.iter().filter(|a| !legal.contains(a) && !rolls.contains(a)) {
                let mut tried = game.clone();
                let text = game.action_text(action);
                assert!(tried.apply(action).is_err(), "{at}: {text} from another position accepted");
                assert_eq!(&tried, game, "{at}: the refused {text} changed the state");
                if rng.random_bool(0.1) {
                    expect_refused(session, &format!("play {text}"), game, at);
                }
            }
        }
    }
    // Text that is no action here is unreadable; text another board could mean (a1a9 names two
    // squares of Halma's 16×16 board) may read as an action, but is then refused unless legal.
    for text in GARBAGE {
        match game.parse_action(text) {
            Err(RuleError::Unreadable(_)) => {}
            Ok(action) => {
                let mut tried = game.clone();
                if tried.apply(&action).is_err() {
                    assert_eq!(&tried, game, "{at}: the refused '{text}' changed the state");
                }
            }
            Err(other) => panic!("{at}: '{text}' gave {other:?} instead of unreadable"),
        }
    }
    if rng.random_bool(0.1) {
        let garbage = GARBAGE[rng.random_range(0..GARBAGE.len())];
        let legal_here = game.parse_action(garbage).is_ok_and(|a| game.legal_actions().contains(&a));
        if !legal_here {
            expect_refused(session, &format!("play {garbage}"), game, at);
        }
    }
}

/// Keeps a few of this position's actions to try as illegal ones later.
fn remember<A: Clone + PartialEq>(
    remembered: &mut Vec<A>,
    seen: impl Iterator<Item = A>,
    rng: &mut SeededRng,
) {
    for action in seen {
        if remembered.contains(&action) {
            continue;
        }
        if remembered.len() < REMEMBERED {
            remembered.push(action);
        } else if rng.random_bool(0.2) {
            let slot = rng.random_range(0..REMEMBERED);
            remembered[slot] = action;
        }
    }
}

/// The session refuses the command and its state stays the game's.
fn expect_refused<G: Coached>(session: &mut Session<G>, command: &str, game: &G, at: &str) {
    let answer: Value = session.handle(command);
    assert_eq!(answer["ok"], false, "{at}: '{command}' was accepted: {answer}");
    assert_eq!(session.handle("state"), state_json(game), "{at}: the refused '{command}' changed the state");
}
