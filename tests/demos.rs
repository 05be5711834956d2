//! The help's moving demonstrations (`ron_configs/<game>/how_to_play.ron`): each plays through
//! the rules move by move, shows what the issue asks of it (checked against the rules, not
//! against the file), names only words every language has, and a broken or illegal file is a
//! clear message.

use std::collections::BTreeSet;
use tabla::demo::{self, Demo};
use tabla::i18n::{Language, table};
use tabla::rules::Seat;
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::circles::Circles;
use tabla::rules::halma::{Halma, HalmaAction};
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::{Event, Nard, NardAction, SetKind};

#[test]
fn knight_hunt_shows_the_l_jump_and_a_catch() {
    let demo: Demo<KnightHunt> = demo::demo().expect("a demonstration").unwrap();
    let jump = |m: &tabla::rules::board::Move| {
        let (df, dr) = (m.from.file.abs_diff(m.to.file), m.from.rank.abs_diff(m.to.rank));
        (df, dr) == (1, 2) || (df, dr) == (2, 1)
    };
    assert!(demo.steps.iter().all(|s| jump(&s.action)), "every move is an L-jump");
    let caught = demo.steps.iter().any(|s| {
        s.after.score(Seat::WHITE) + s.after.score(Seat::BLACK)
            > s.before.score(Seat::WHITE) + s.before.score(Seat::BLACK)
    });
    assert!(caught, "a pawn is caught");
}

#[test]
fn circles_shows_the_clockwise_race_and_the_small_step() {
    let demo: Demo<Circles> = demo::demo().expect("a demonstration").unwrap();
    let deltas: Vec<f64> = demo.steps.iter().map(|s| s.before.delta(s.action.from, s.action.to)).collect();
    assert!(deltas.iter().any(|d| *d > 45.0), "a long clockwise move: {deltas:?}");
    assert!(deltas.iter().any(|d| *d < 0.0), "a small step back: {deltas:?}");
}

#[test]
fn bunnies_shows_step_double_step_catch_and_the_horse() {
    let demo: Demo<BunniesAndHorses> = demo::demo().expect("a demonstration").unwrap();
    let bunny_moves: Vec<_> = demo
        .steps
        .iter()
        .filter(|s| s.before.bunnies().any(|b| b == s.action.from))
        .map(|s| {
            (
                s.action,
                s.before.horses().any(|h| h == s.action.to)
                    && s.after.horses().count() < s.before.horses().count(),
            )
        })
        .collect();
    let rank_gain = |m: &tabla::rules::board::Move| m.to.rank.abs_diff(m.from.rank);
    assert!(bunny_moves.iter().any(|(m, _)| m.from.file == m.to.file && rank_gain(m) == 1), "a step");
    assert!(bunny_moves.iter().any(|(m, _)| m.from.file == m.to.file && rank_gain(m) == 2), "a double step");
    assert!(
        bunny_moves.iter().any(|(m, caught)| *caught && m.from.file != m.to.file && rank_gain(m) == 1),
        "a diagonal catch"
    );
    let horse_jumps = demo.steps.iter().filter(|s| s.before.horses().any(|h| h == s.action.from)).count();
    assert!(horse_jumps >= 1, "a horse's jump");
}

#[test]
fn nard_shows_a_roll_a_chain_step_and_a_passed_number() {
    let demo: Demo<Nard> = demo::demo().expect("a demonstration").unwrap();
    assert!(
        demo.steps.iter().any(|s| matches!(s.action, NardAction::Roll(a, b) if a == b)),
        "a double rolled"
    );
    assert!(
        demo.steps.iter().any(|s| s.after.dice_set().is_some_and(|set| set.kind == SetKind::Chain)),
        "a step of the doubles chain"
    );
    assert!(
        demo.steps.iter().any(|s| s.after.events().iter().any(|e| matches!(e, Event::NumbersPassed { .. }))),
        "a number passed to the other side"
    );
}

#[test]
fn halma_shows_a_jump_chain() {
    let demo: Demo<Halma> = demo::demo().expect("a demonstration").unwrap();
    let longest = demo
        .steps
        .iter()
        .filter_map(|s| match s.action {
            HalmaAction::Move { from, to } => s.before.path(from, to).map(|p| p.len()),
            _ => None,
        })
        .max();
    assert!(longest >= Some(2), "a chain of two hops or more");
}

#[test]
fn every_caption_is_in_every_language() {
    let mut said = BTreeSet::new();
    for (_, _, source) in demo::BUILTIN {
        let script: demo::DemoScript = ron::from_str(source).unwrap();
        said.extend(script.steps.into_iter().filter_map(|s| s.say));
    }
    assert!(said.len() >= 10, "the demonstrations say something: {said:?}");
    for language in Language::ALL {
        let words = table(language).unwrap();
        for game in ["knight_hunt", "circles", "bunnies", "nard", "halma"] {
            assert!(words.contains_key(&format!("help_short_{game}")), "{language:?} help_short_{game}");
        }
        let missing: Vec<_> = said.iter().filter(|key| !words.contains_key(*key)).collect();
        assert!(missing.is_empty(), "{language:?} lacks {missing:?}");
    }
}

#[test]
fn a_broken_or_illegal_demonstration_is_a_clear_message() {
    let broken = demo::parse::<KnightHunt>("x/how_to_play.ron", "DemoScript(\n  level: 3,\n)").unwrap_err();
    assert!(broken.starts_with("x/how_to_play.ron:2:"), "{broken}");
    let illegal = r#"DemoScript(level: "ron_configs/knight_hunt/one_knight.ron", steps: [(play: "g1g3")])"#;
    let message = demo::parse::<KnightHunt>("x.ron", illegal).unwrap_err();
    assert!(message.contains("g1g3"), "{message}");
    let other = r#"DemoScript(level: "ron_configs/circles/classic.ron", steps: [(play: "a1a8")])"#;
    assert!(demo::parse::<KnightHunt>("x.ron", other).unwrap_err().contains("another game's level"));
    let empty = r#"DemoScript(level: "ron_configs/knight_hunt/one_knight.ron", steps: [])"#;
    assert!(demo::parse::<KnightHunt>("x.ron", empty).is_err());
}
