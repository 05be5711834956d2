//! Every rule of spec/knight_hunt.md.

mod shared;
use shared::{sq, squares};

use tabla::levels::{self, LevelGame};
use tabla::rules::board::{BoardShape, Move, Square};
use tabla::rules::knight_hunt::{KnightHunt, Setup};
use tabla::rules::{EndReason, Game, Outcome, RuleError, Seat, Winner};

const WHITE: Seat = Seat::WHITE;
const BLACK: Seat = Seat::BLACK;

fn mv(text: &str) -> Move {
    Move::parse(text, BoardShape::CHESS).unwrap()
}

/// A position: knights and pawns of White, then of Black.
fn position(capture: bool, wk: &[&str], wp: &[&str], bk: &[&str], bp: &[&str]) -> KnightHunt {
    KnightHunt::new(&Setup {
        knights_capture: capture,
        knights: [squares(wk), squares(bk)],
        pawns: [squares(wp), squares(bp)],
    })
}

fn targets(game: &KnightHunt, from: &str) -> Vec<String> {
    let mut found: Vec<String> =
        game.legal_actions().iter().filter(|m| m.from == sq(from)).map(|m| m.to.to_string()).collect();
    found.sort();
    found
}

fn level(name: &str) -> KnightHunt {
    match levels::find(&format!("ron_configs/knight_hunt/{name}.ron")).unwrap().game {
        LevelGame::KnightHunt(level) => KnightHunt::new(&level.setup),
        #[allow(unreachable_patterns)]
        other => panic!("not a Knight Hunt level: {other:?}"),
    }
}

#[test]
fn the_levels_hold_the_spec_setup() {
    for name in ["one_knight", "two_knights", "two_knights_capture"] {
        let game = level(name);
        let names = |it: &mut dyn Iterator<Item = Square>| {
            let mut v: Vec<String> = it.map(|s| s.to_string()).collect();
            v.sort();
            v
        };
        assert_eq!(
            names(&mut game.pawns(WHITE)),
            ["a4", "b5", "c4", "d5", "e4", "f5", "g4", "h5"],
            "{name}: white pawns"
        );
        assert_eq!(
            names(&mut game.pawns(BLACK)),
            ["a5", "b4", "c5", "d4", "e5", "f4", "g5", "h4"],
            "{name}: black pawns"
        );
        let (white, black) = if name == "one_knight" {
            (vec!["g1"], vec!["g8"])
        } else {
            (vec!["b1", "g1"], vec!["b8", "g8"])
        };
        assert_eq!(names(&mut game.knights(WHITE)), white);
        assert_eq!(names(&mut game.knights(BLACK)), black);
        assert_eq!(game.knights_capture(), name == "two_knights_capture");
        assert_eq!(game.to_move(), Some(WHITE), "White moves first");
    }
}

#[test]
fn a_knight_jumps_in_an_l_over_anything() {
    // g1 with every square around it occupied still reaches e2, f3 and h3.
    let game = position(false, &["g1"], &["f1", "h1", "f2", "g2", "h2"], &["a8"], &[]);
    assert_eq!(targets(&game, "g1"), ["e2", "f3", "h3"]);
}

#[test]
fn one_knight_may_not_land_on_the_enemy_knight() {
    let game = position(false, &["g1"], &[], &["f3"], &["a5"]);
    assert!(!targets(&game, "g1").contains(&"f3".to_string()));
    assert_eq!(
        game.clone().apply(&mv("g1f3")),
        Err(RuleError::Illegal("g1f3 is not a legal move now".into()))
    );
}

#[test]
fn two_knights_may_not_land_on_any_knight() {
    let game = position(false, &["g1", "e2"], &["a4"], &["h3", "b8"], &["a5"]);
    assert_eq!(targets(&game, "g1"), ["f3"], "e2 holds its own knight, h3 the enemy's");
}

#[test]
fn capturing_knights_take_enemy_knights_for_no_points_but_never_their_own() {
    let mut game = position(true, &["g1", "e2"], &["a4"], &["h3", "b8"], &["a5"]);
    assert_eq!(targets(&game, "g1"), ["f3", "h3"]);
    game.apply(&mv("g1h3")).unwrap();
    assert_eq!(game.knights_left(BLACK), 1);
    assert_eq!(game.score(WHITE), 0, "a knight is worth no points");
    assert_eq!(game.piece_at(sq("h3")), Some((WHITE, true)));
}

#[test]
fn landing_on_an_enemy_pawn_captures_it_and_scores() {
    let mut game = position(false, &["g1"], &["a4"], &["a8"], &["f3", "h5"]);
    game.apply(&mv("g1f3")).unwrap();
    assert_eq!(game.score(WHITE), 1);
    assert_eq!(game.pawns_left(BLACK), 1);
    assert_eq!(game.piece_at(sq("f3")), Some((WHITE, true)), "the knight takes the pawn's square");
    assert_eq!(game.piece_at(sq("g1")), None);
    assert_eq!(game.to_move(), Some(BLACK));
}

#[test]
fn a_knight_never_lands_on_its_own_pawn() {
    let game = position(true, &["g1"], &["f3", "a4"], &["a8"], &["h5"]);
    assert_eq!(targets(&game, "g1"), ["e2", "h3"]);
    let before = game.clone();
    let mut tried = game.clone();
    assert!(tried.apply(&mv("g1f3")).is_err());
    assert_eq!(tried, before, "a refused move changes nothing");
}

#[test]
fn a_player_without_a_jump_passes() {
    // Black's knight on a8 can only reach b6 and c7, both its own pawns.
    let mut game = position(false, &["g1"], &["a4"], &["a8"], &["b6", "c7", "h5"]);
    game.apply(&mv("g1f3")).unwrap();
    assert_eq!(game.passed(), vec![BLACK]);
    assert_eq!(game.to_move(), Some(WHITE), "White moves again");
    assert!(game.outcome().is_none());
    game.apply(&mv("f3h4")).unwrap();
    assert_eq!(game.passed(), vec![BLACK]);
}

#[test]
fn a_player_with_no_knight_left_passes_every_turn() {
    let mut game = position(true, &["g1"], &["a4"], &["h3"], &["f3", "e2", "h5"]);
    game.apply(&mv("g1h3")).unwrap();
    assert_eq!(game.knights_left(BLACK), 0);
    assert_eq!(game.passed(), vec![BLACK]);
    assert_eq!(game.to_move(), Some(WHITE));
    game.apply(&mv("h3g5")).unwrap();
    assert_eq!(game.to_move(), Some(WHITE));
    game.apply(&mv("g5h7")).unwrap();
    game.apply(&mv("h7f6")).unwrap();
    game.apply(&mv("f6h5")).unwrap();
    assert_eq!(game.score(WHITE), 1, "White keeps capturing while Black cannot move");
}

#[test]
fn white_taking_the_last_pawn_gives_black_one_last_move() {
    // White takes Black's last pawn on f3; Black can still take one white pawn on b6.
    let mut game = position(false, &["g1"], &["b6", "a1"], &["a8"], &["f3"]);
    game.apply(&mv("g1f3")).unwrap();
    assert!(game.outcome().is_none(), "Black still has its last move");
    assert!(game.is_black_last_move());
    assert_eq!(game.to_move(), Some(BLACK));
    game.apply(&mv("a8b6")).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Goal)), "1–1 after Black's last move");
    assert_eq!(game.to_move(), None);
}

#[test]
fn the_last_move_ends_the_game_even_without_a_capture() {
    let mut game = position(false, &["g1"], &["h5", "a1"], &["a8"], &["f3"]);
    game.apply(&mv("g1f3")).unwrap();
    game.apply(&mv("a8c7")).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::win(WHITE, EndReason::Goal)));
}

#[test]
fn black_taking_the_last_pawn_ends_the_game_at_once() {
    let mut game = position(false, &["a1"], &["f6"], &["g8"], &["c2", "h5"]);
    game.apply(&mv("a1b3")).unwrap();
    assert!(game.outcome().is_none());
    game.apply(&mv("g8f6")).unwrap();
    // White could still take c2 or h5 next, but the game stops: Black has taken all of White's pawns.
    assert_eq!(game.outcome(), Some(Outcome::win(BLACK, EndReason::Goal)));
    assert!(game.legal_actions().is_empty());
}

#[test]
fn the_game_ends_when_nobody_can_move() {
    let game = position(false, &["a1"], &["b3", "c2"], &["h8"], &["g6", "f7"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoMoves)));
    assert_eq!(game.to_move(), None);
}

#[test]
fn more_pawns_wins() {
    let mut game = position(false, &["g1"], &["a4", "b3"], &["a1"], &["f3", "h4"]);
    game.apply(&mv("g1f3")).unwrap();
    game.apply(&mv("a1b3")).unwrap();
    game.apply(&mv("f3h4")).unwrap();
    assert_eq!(game.outcome().map(|o| o.winner), None, "Black has its last move");
    let mut black_misses = game.clone();
    black_misses.apply(&mv("b3a5")).unwrap();
    assert_eq!(black_misses.outcome(), Some(Outcome::win(WHITE, EndReason::Goal)), "2–1 for White");
}

#[test]
fn running_out_of_time_loses_whatever_the_score() {
    let mut game = position(false, &["g1"], &["a4"], &["a8"], &["f3", "h5"]);
    game.apply(&mv("g1f3")).unwrap();
    game.time_out(WHITE);
    assert_eq!(game.outcome(), Some(Outcome::win(BLACK, EndReason::OutOfTime)));
    assert_eq!(game.outcome().unwrap().winner, Winner::Seat(BLACK));
    assert!(game.apply(&mv("a8b6")).is_err(), "no move after the flag falls");
}

#[test]
fn actions_are_read_as_two_squares() {
    let game = level("one_knight");
    assert_eq!(game.parse_action("g1f3"), Ok(mv("g1f3")));
    assert!(matches!(game.parse_action("knight to f3"), Err(RuleError::Unreadable(_))));
    assert!(matches!(game.parse_action("g1z3"), Err(RuleError::Unreadable(_))));
}
