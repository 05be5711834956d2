//! The Robot: legal, repeatable, and it thinks the same in slices as in one go.

use tabla::levels::{self, LevelGame};
use tabla::robot::RobotLevel;
use tabla::robot::{self, RobotPlayer};
use tabla::rules::board::{BoardShape, Move, Square};
use tabla::rules::knight_hunt::{KnightHunt, Setup};
use tabla::rules::{Game, Seat};

fn start() -> KnightHunt {
    match levels::find("ron_configs/knight_hunt/two_knights_capture.ron").unwrap().game {
        LevelGame::KnightHunt(level) => KnightHunt::new(&level.setup),
        #[allow(unreachable_patterns)]
        other => panic!("{other:?}"),
    }
}

fn squares(names: &[&str]) -> Vec<Square> {
    names.iter().map(|n| BoardShape::CHESS.parse(n).unwrap()).collect()
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
