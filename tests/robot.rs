//! The Robot: legal, repeatable, and it thinks the same in slices as in one go.

mod shared;
use shared::squares;

use tabla::levels::{self, FromLevel, LevelGame};
use tabla::robot::{self, RobotPlayer};
use tabla::robot::{RobotLevel, SLICE_NODES, Thinker};
use tabla::rules::board::{BoardShape, Move};
use tabla::rules::circles::Circles;
use tabla::rules::knight_hunt::{KnightHunt, Setup};
use tabla::rules::{Game, Seat};

fn start() -> KnightHunt {
    match levels::find("ron_configs/knight_hunt/two_knights_capture.ron").unwrap().game {
        LevelGame::KnightHunt(level) => KnightHunt::new(&level.setup),
        #[allow(unreachable_patterns)]
        other => panic!("{other:?}"),
    }
}

#[test]
fn level_three_takes_a_free_pawn_and_avoids_losing_its_knight() {
    // White's g1 knight can take the pawn on f3; from h3 it would be taken by the black knight on g5.
    let game = KnightHunt::new(&Setup {
        knights_capture: true,
        knights: [squares(&["g1"]), squares(&["g5"])],
        pawns: [squares(&["a2"]), squares(&["f3", "a7"])],
    });
    let choice = robot::choose(&game, RobotLevel::Three, 1).unwrap();
    assert_eq!(choice, Move::parse("g1f3", BoardShape::CHESS).unwrap());
}

#[test]
fn the_same_seed_gives_the_same_choice_and_slices_change_nothing() {
    let mut game = start();
    for seed in 0..6u64 {
        for level in RobotLevel::ALL {
            let whole = robot::choose(&game, level, seed).unwrap();
            assert_eq!(robot::choose(&game, level, seed).unwrap(), whole);
            let mut thinker = game.thinker(level, seed);
            let sliced = loop {
                if let Some(action) = thinker.step(50) {
                    break action;
                }
            };
            assert_eq!(sliced, whole, "level {level}, seed {seed}");
        }
        let next = robot::choose(&game, RobotLevel::Two, seed).unwrap();
        game.play(&next);
    }
}

#[test]
fn every_robot_choice_is_legal_to_the_end_of_the_game() {
    for seed in 0..4u64 {
        let mut game = start();
        while let Some(seat) = game.to_move() {
            let level =
                if seat == Seat::WHITE { RobotLevel::Three } else { RobotLevel::ALL[(seed % 3) as usize] };
            let action = robot::choose(&game, level, seed).unwrap();
            assert!(game.legal_actions().contains(&action));
            game.apply(&action).unwrap();
        }
        assert!(game.outcome().is_some());
    }
}

/// Thinks to the end in slices of `budget` nodes, checking that every slice does its budget's
/// work and no more, wherever the search stands (at the root or deep below it): a slice that has
/// not decided spent at least `budget` nodes, and none spent more than `budget` and one more
/// unit of work (`unit` nodes: one position, or a root move played on the real game). Returns
/// the choice and the number of slices.
fn think_in_bounded_slices<G: RobotPlayer>(
    thinker: &mut dyn Thinker<G>,
    budget: u64,
    unit: u64,
) -> (G::Action, usize) {
    let mut slices = 0;
    loop {
        let before = thinker.nodes();
        let choice = thinker.step(budget);
        let spent = thinker.nodes() - before;
        slices += 1;
        assert!(spent <= budget + unit, "a slice of {budget} nodes did {spent}");
        match choice {
            Some(action) => return (action, slices),
            None => assert!(spent >= budget, "a slice of {budget} nodes stopped after {spent}"),
        }
    }
}

#[test]
fn every_slice_of_the_search_is_bounded_by_its_budget_at_any_depth() {
    // A root action of level 3 searches thousands of positions below it, so small slices stop
    // deep inside one; the choice stays the one made in one go.
    let circles = Circles::from_level(&levels::find("ron_configs/circles/classic.ron").unwrap()).unwrap();
    let mut knight_hunt = start();
    for seed in 0..3u64 {
        for budget in [1, 7, 100, SLICE_NODES] {
            let whole = robot::choose(&knight_hunt, RobotLevel::Three, seed).unwrap();
            let mut thinker = knight_hunt.thinker(RobotLevel::Three, seed);
            let (sliced, slices) = think_in_bounded_slices(thinker.as_mut(), budget, 1);
            assert_eq!(sliced, whole, "knight hunt, seed {seed}, budget {budget}");
            assert!(slices as u64 > thinker.nodes() / (budget + 1), "{slices} slices");

            let whole = robot::choose(&circles, RobotLevel::Three, seed).unwrap();
            let mut thinker = circles.thinker(RobotLevel::Three, seed);
            let (sliced, _) = think_in_bounded_slices(thinker.as_mut(), budget, 1);
            assert_eq!(sliced, whole, "circles, seed {seed}, budget {budget}");
        }
        let next = robot::choose(&knight_hunt, RobotLevel::Two, seed).unwrap();
        knight_hunt.play(&next);
    }
}

/// Halma's largest unit of work: a root move played on the real game, and the position after it.
const HALMA_UNIT: u64 = <tabla::robot::halma::HalmaTree as tabla::robot::search::Tree>::ROOT_CHILD_NODES + 1;

#[test]
fn halma_slices_are_bounded_at_any_depth_with_two_and_four_seats() {
    // Level 3 searches a root move's whole subtree below it; small slices stop deep inside.
    for file in ["two_players", "four_one_army"] {
        let level = levels::find(&format!("ron_configs/halma/{file}.ron")).unwrap();
        let mut game = tabla::rules::halma::Halma::from_level(&level).unwrap();
        for seed in 0..3u64 {
            for budget in [1, 7, 100, SLICE_NODES] {
                let whole = robot::choose(&game, RobotLevel::Three, seed).unwrap();
                let mut thinker = game.thinker(RobotLevel::Three, seed);
                let (sliced, slices) = think_in_bounded_slices(thinker.as_mut(), budget, HALMA_UNIT);
                assert_eq!(sliced, whole, "{file}, seed {seed}, budget {budget}");
                assert!(slices as u64 > thinker.nodes() / (budget + HALMA_UNIT), "{slices} slices");
            }
            for _ in 0..7 {
                let next = robot::choose(&game, RobotLevel::Two, seed).unwrap();
                game.play(&next);
            }
        }
    }
}

#[test]
fn the_robots_hash_writes_a_usize_as_eight_bytes_on_every_platform() {
    // An array's length goes in as a usize: 4 bytes in the browser, 8 on the desktop, unless the
    // hasher fixes its width.
    assert_eq!(robot::stable_hash(&7usize), robot::stable_hash(&7u64));
    assert_eq!(robot::stable_hash(&-7isize), robot::stable_hash(&-7i64));
    assert_eq!(robot::stable_hash(&[3u8, 4]), robot::stable_hash(&(2u64, 3u8, 4u8)));
    assert_ne!(robot::stable_hash(&(1u32, 2u8)), robot::stable_hash(&(2u32, 1u8)));
}
