//! Every rule of spec/halma.md, the level files, the text interface and the Robot.

mod shared;
use shared::{halma_sq as sq, halma_squares as squares, session};
use tabla::chance;

use serde_json::{Value, json};
use tabla::levels::{self, FromLevel};
use tabla::robot::{self, RobotLevel};
use tabla::rules::board::{BoardShape, Square};
use tabla::rules::halma::{Corner, Halma, HalmaAction, HeldAtHome, Mode, Setup, camp_squares};
use tabla::rules::{EndReason, Game, Outcome, Seat, SeatSet, Winner};
use tabla::text;

fn level(name: &str) -> Halma {
    Halma::from_level(&levels::find(&format!("ron_configs/halma/{name}.ron")).unwrap()).unwrap()
}

fn setup(name: &str) -> Setup {
    level(name).setup().clone()
}

fn mv(text: &str) -> HalmaAction {
    let game = level("two_players");
    match game.parse_action(text).unwrap() {
        HalmaAction::Move { from, to } => HalmaAction::Move { from, to },
        other => panic!("{other:?}"),
    }
}

fn sorted_names(list: impl IntoIterator<Item = Square>) -> Vec<String> {
    let mut names: Vec<String> = list.into_iter().map(|s| s.to_string()).collect();
    names.sort();
    names
}

/// The destinations of the piece on `from`.
fn reach(game: &Halma, from: &str) -> Vec<String> {
    sorted_names(game.reach(sq(from)).into_iter().map(|(to, _)| to))
}

/// A two-player position: seat a1's pieces, then seat p16's, a1 to move.
fn two(a1: &[&str], p16: &[&str]) -> Halma {
    Halma::from_position(&setup("two_players"), &[squares(a1), squares(p16)], Seat(0))
}

fn play(game: &mut Halma, text: &str) {
    let action = game.parse_action(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(&action).unwrap_or_else(|e| panic!("{text}: {e}"));
}

#[test]
fn the_levels_hold_the_spec_seatings() {
    let two = level("two_players");
    assert_eq!(two.seat_count(), 2);
    assert_eq!(two.corner(Seat(0)), Corner::A1);
    assert_eq!(two.corner(Seat(1)), Corner::P16);
    assert_eq!(
        sorted_names(two.pieces(Seat(0))),
        sorted_names(squares(&[
            "a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2", "a3", "b3", "c3", "d3", "a4", "b4",
            "c4", "a5", "b5"
        ]))
    );
    assert_eq!(two.pieces(Seat(1)).count(), 19);
    assert!(two.pieces(Seat(1)).all(|s| s.file >= 11 && s.rank >= 11), "p16's camp is the mirrored corner");
    assert_eq!(sorted_names(two.goal(Seat(0))), sorted_names(two.camp(Seat(1))));
    assert_eq!(two.mode(), Mode::Individual);
    assert_eq!(two.to_move(), Some(Seat(0)));

    let three = level("three_players");
    let names: Vec<&str> = three.seats().map(|s| three.seat_name(s)).collect();
    assert_eq!(names, ["a1", "p1", "p16"]);
    assert_eq!(three.pieces(Seat(0)).count(), 19);
    assert_eq!(three.pieces(Seat(1)).count(), 13);
    assert_eq!(three.pieces(Seat(2)).count(), 19);
    // The 13 run to the empty a16 corner.
    assert_eq!(three.goal_corner(Seat(1)), Corner::A16);
    assert_eq!(sorted_names(three.goal(Seat(1))), sorted_names(camp_squares(Corner::A16, &[4, 4, 3, 2])));
    assert!(three.goal(Seat(1)).iter().all(|&s| three.piece_at(s).is_none()));
    assert_eq!(three.goal_corner(Seat(0)), Corner::P16);
    assert_eq!(three.goal_corner(Seat(2)), Corner::A1);

    for (name, mode) in [("four_one_army", Mode::OneArmy), ("four_both_armies", Mode::BothArmies)] {
        let four = level(name);
        assert_eq!(four.mode(), mode);
        assert_eq!(four.seat_count(), 4);
        for seat in four.seats() {
            assert_eq!(four.pieces(seat).count(), 13, "{name}");
            assert_eq!(four.goal_corner(seat), four.corner(seat).opposite());
            assert_eq!(four.partner(seat), Some(Seat((seat.0 + 2) % 4)), "opposite seats are partners");
        }
    }
    assert_eq!(camp_squares(Corner::A1, &[4, 4, 3, 2]).len(), 13);
}

#[test]
fn the_two_player_opening_has_forty_moves() {
    // By hand, for a1's camp (a1–e1, a2–e2, a3–d3, a4–c4, a5–b5):
    // steps: e1 f1 f2 · e2 f1 f2 f3 e3 · d2 e3 · d3 e3 d4 e4 · c3 d4 · c4 d4 c5 d5 · b4 c5 ·
    //        b5 c5 a6 b6 c6 · a5 a6 b6 = 21;
    // jumps: c1e3 d1f1 d1f3 e1e3 b2d4 c2e4 d2f2 d2d4 a3c5 b3d5 c3e3 c3c5 d3f1 a4a6 a4c6 b4d4 b4b6
    //        c4a6 a5c5 = 19, none of which can jump on.
    let game = level("two_players");
    let moves = game.moves();
    let steps = moves.iter().filter(|(f, t)| f.file.abs_diff(t.file) <= 1 && f.rank.abs_diff(t.rank) <= 1);
    assert_eq!(steps.count(), 21);
    assert_eq!(moves.len(), 40);
    assert_eq!(game.legal_actions().len(), 41, "the moves and the draw offer");
    assert_eq!(game.legal_actions().last(), Some(&HalmaAction::ProposeDraw));
}

#[test]
fn a_piece_steps_in_eight_directions_to_empty_squares_only() {
    let game = two(&["h8"], &["h9", "p1"]);
    assert_eq!(reach(&game, "h8"), sorted_names(squares(&["g7", "g8", "g9", "h7", "i7", "i8", "i9", "h10"])));
    // h9 is taken; h10 is the jump over it.
    let corner = two(&["a1"], &["p16"]);
    assert_eq!(reach(&corner, "a1"), ["a2", "b1", "b2"], "the board's edge ends the steps");
}

#[test]
fn a_jump_chain_may_turn_and_stop_after_any_jump() {
    // c3 over d4 to e5, then turning over f5 to g5.
    let game = two(&["c3"], &["d4", "f5", "p16"]);
    let destinations = game.reach(sq("c3"));
    let path = |to: &str| destinations.iter().find(|(t, _)| *t == sq(to)).map(|(_, p)| p.clone());
    assert_eq!(path("e5"), Some(squares(&["e5"])), "it may stop after the first jump");
    assert_eq!(path("g5"), Some(squares(&["e5", "g5"])));
    assert_eq!(game.further_landings(&squares(&["c3", "e5"])), squares(&["g5"]));
    assert!(game.further_landings(&squares(&["c3", "e5", "g5"])).is_empty());
    let mut by_path = game.clone();
    play(&mut by_path, "c3e5g5");
    let mut by_ends = game.clone();
    play(&mut by_ends, "c3g5");
    assert_eq!(by_path, by_ends, "a chain is known by its two ends");
    assert_eq!(by_path.pieces(Seat(0)).collect::<Vec<_>>(), squares(&["g5"]));
    assert_eq!(by_path.pieces(Seat(1)).count(), 3, "jumped pieces stay");
}

#[test]
fn a_chain_never_ends_on_its_start_nor_lands_twice() {
    // c3 → e3 (over d3) → e5 (over e4) → c5 (over d5) → back to c3 (over c4) is a loop.
    let game = two(&["c3"], &["d3", "e4", "d5", "c4", "p16"]);
    let to = reach(&game, "c3");
    assert!(!to.contains(&"c3".to_string()), "never ends on its start: {to:?}");
    assert!(
        to.contains(&"c5".to_string()) && to.contains(&"e5".to_string()) && to.contains(&"e3".to_string())
    );
    assert!(!game.further_landings(&squares(&["c3", "e3", "e5", "c5"])).contains(&sq("c3")));
    for bad in ["c3e3e5c5c3", "c3e3e5e3", "c3c5e5e3c5"] {
        let before = game.clone();
        assert!(game.parse_action(bad).is_err(), "{bad} lands twice on a square");
        assert_eq!(game, before);
    }
}

#[test]
fn steps_and_jumps_never_mix() {
    // c4 is a step, but c4 → c6 over c5 would be a step then a jump.
    let game = two(&["c3"], &["c5", "p16"]);
    let to = reach(&game, "c3");
    assert!(to.contains(&"c4".to_string()));
    assert!(!to.contains(&"c6".to_string()), "{to:?}");
    assert!(game.parse_action("c3c4c6").is_err());
    let mut after = game.clone();
    assert!(after.apply(&mv("c3c6")).is_err());
    assert_eq!(after, game);
}

#[test]
fn two_chains_to_one_square_are_one_move() {
    // e5 is reached over d3 and e4, and over c4 and d5.
    let game = two(&["c3"], &["d3", "e4", "c4", "d5", "p16"]);
    let to_e5 = game.legal_actions().into_iter().filter(|a| *a == mv("c3e5")).count();
    assert_eq!(to_e5, 1);
    assert_eq!(game.reach(sq("c3")).iter().filter(|(t, _)| *t == sq("e5")).count(), 1);
    let mut one = game.clone();
    play(&mut one, "c3e3e5");
    let mut other = game.clone();
    play(&mut other, "c3c5e5");
    assert_eq!(one, other);
}

#[test]
fn turns_go_a1_p1_p16_a16_skipping_empty_corners() {
    let mut four = level("four_one_army");
    let mut order = Vec::new();
    for _ in 0..5 {
        let seat = four.to_move().unwrap();
        order.push(four.seat_name(seat));
        let m = four.moves()[0];
        four.play(&HalmaAction::Move { from: m.0, to: m.1 });
    }
    assert_eq!(order, ["a1", "p1", "p16", "a16", "a1"]);

    let mut three = level("three_players");
    let mut order = Vec::new();
    for _ in 0..4 {
        order.push(three.seat_name(three.to_move().unwrap()));
        let m = three.moves()[0];
        three.play(&HalmaAction::Move { from: m.0, to: m.1 });
    }
    assert_eq!(order, ["a1", "p1", "p16", "a1"]);

    // The setup chooses the first seat; a new game moves it on.
    let mut later = setup("four_one_army");
    later.first = Corner::P16;
    assert_eq!(Halma::new(&later).to_move(), Some(Seat(2)));
    assert_eq!(later.with_next_first().first, Corner::A16);
    assert_eq!(later.with_next_first().with_next_first().first, Corner::A1);
}

#[test]
fn a_seat_with_no_move_passes() {
    // a1's one piece is boxed in: no empty neighbour and no landing beyond.
    let boxed = ["b1", "a2", "b2", "c1", "a3", "c3", "c2", "b3"];
    let mut p16: Vec<&str> = boxed.to_vec();
    p16.push("p16");
    let mut game = two(&["a1"], &p16);
    assert_eq!(game.to_move(), Some(Seat(1)), "a1 passes at once");
    assert_eq!(game.passed(), [Seat(0)]);
    play(&mut game, "p16p15");
    assert_eq!(game.to_move(), Some(Seat(1)));
    assert_eq!(game.passed(), [Seat(0)]);
    assert!(game.outcome().is_none());
}

#[test]
fn nobody_able_to_move_is_a_draw() {
    let all: Vec<Square> = BoardShape::HALMA.squares().collect();
    let (a, b) = all.split_at(128);
    let game = Halma::from_position(&setup("two_players"), &[a.to_vec(), b.to_vec()], Seat(0));
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoMoves)));
}

/// Seat a1 one step from its goal: its goal but l16, and a piece on k16; p16 in the middle.
fn a1_one_step_from_goal() -> Vec<Vec<Square>> {
    let game = level("two_players");
    let mut a1: Vec<Square> = game.goal(Seat(0)).into_iter().filter(|&s| s != sq("l16")).collect();
    a1.push(sq("k16"));
    vec![a1, squares(&["h8", "a1"])]
}

#[test]
fn filling_the_whole_goal_wins_in_individual_play() {
    let pieces = a1_one_step_from_goal();
    let mut game = Halma::from_position(&setup("two_players"), &pieces, Seat(0));
    assert_eq!(game.in_goal(Seat(0)), 18);
    play(&mut game, "k16l16");
    assert_eq!(game.outcome(), Some(Outcome::win(Seat(0), EndReason::Goal)));
    assert_eq!(text::outcome_json(&game), json!({"result": "a1", "reason": "goal"}));
}

#[test]
fn the_p16_corner_is_a_square_like_any_other() {
    // Its index is 255, the last of the board: a piece can step or jump onto it like onto any
    // other square, so a1 can fill its goal's corner.
    let game = level("two_players");
    let a1: Vec<Square> = game.goal(Seat(0)).into_iter().filter(|&s| s != sq("p16")).collect();
    let mut near = Halma::from_position(&setup("two_players"), &[a1, squares(&["h8", "a1"])], Seat(0));
    for from in ["n14", "o16", "o15", "p15"] {
        assert!(reach(&near, from).contains(&"p16".to_string()), "{from}: {:?}", reach(&near, from));
    }
    play(&mut near, "n14p16");
    assert!(near.pieces(Seat(0)).any(|s| s == sq("p16")));
    let jump = two(&["n16"], &["o16", "a1"]);
    assert_eq!(jump.path(sq("n16"), sq("p16")), Some(squares(&["p16"])));
}

/// The position turned half round with the seats swapped (and their move counts).
fn turned(game: &Halma) -> Halma {
    let turn = |s: Square| Square::new(15 - s.file, 15 - s.rank);
    let (a1, p16): (Vec<Square>, Vec<Square>) =
        (game.pieces(Seat(0)).collect(), game.pieces(Seat(1)).collect());
    let pieces = [p16.into_iter().map(turn).collect(), a1.into_iter().map(turn).collect()];
    let to_move = Seat(1 - game.to_move().unwrap().0);
    let made = [game.moves_made(Seat(1)), game.moves_made(Seat(0))];
    Halma::from_position_with_moves(&setup("two_players"), &pieces, to_move, &made)
}

#[test]
fn the_two_seats_are_mirror_images() {
    // Every position offers the seat to move the mirror image of what the turned position
    // offers the other seat: no corner of the board is favoured.
    for seed in 0..40u64 {
        let mut game = level("two_players");
        let mut rng = chance::rng(seed);
        for _ in 0..seed * 5 {
            match robot::halma::greedy(&game, &mut rng) {
                Some(action) if game.outcome().is_none() => game.play(&action),
                _ => break,
            }
        }
        if game.outcome().is_some() {
            continue;
        }
        let turn = |s: Square| Square::new(15 - s.file, 15 - s.rank);
        let mut here: Vec<(Square, Square)> = game.moves();
        let mut there: Vec<(Square, Square)> =
            turned(&game).moves().into_iter().map(|(from, to)| (turn(from), turn(to))).collect();
        here.sort_by_key(|(a, b)| (a.rank, a.file, b.rank, b.file));
        there.sort_by_key(|(a, b)| (a.rank, a.file, b.rank, b.file));
        assert_eq!(here, there, "seed {seed}");
    }
}

#[test]
fn the_three_player_seat_from_p1_wins_in_the_empty_a16_corner() {
    let game = level("three_players");
    let goal = game.goal(Seat(1));
    // p1's 13 on its goal but d16; one piece on e16.
    let mut p1: Vec<Square> = goal.iter().copied().filter(|&s| s != sq("d16")).collect();
    p1.push(sq("e16"));
    let pieces = vec![game.camp(Seat(0)), p1, game.camp(Seat(2))];
    let mut game = Halma::from_position(&setup("three_players"), &pieces, Seat(1));
    play(&mut game, "e16d16");
    assert_eq!(game.outcome(), Some(Outcome::win(Seat(1), EndReason::Goal)));
}

#[test]
fn one_army_wins_for_both_partners() {
    // p16 (partner of a1) fills its goal, the a1 corner.
    let game = level("four_one_army");
    let mut p16: Vec<Square> = game.goal(Seat(2)).into_iter().filter(|&s| s != sq("d1")).collect();
    p16.push(sq("e1"));
    let pieces = vec![vec![sq("h8")], vec![sq("i8")], p16, vec![sq("j8")]];
    let mut game = Halma::from_position(&setup("four_one_army"), &pieces, Seat(2));
    play(&mut game, "e1d1");
    assert_eq!(game.outcome(), Some(Outcome::team(SeatSet::of(&[Seat(0), Seat(2)]), EndReason::Goal)));
    assert_eq!(text::outcome_json(&game)["result"], "a1+p16");
}

#[test]
fn both_armies_a_finished_partner_moves_only_its_partners_pieces() {
    let game = level("four_both_armies");
    // a1 is one step from its goal (p16's corner); p16 one step from its own (a1's corner).
    let mut a1: Vec<Square> = game.goal(Seat(0)).into_iter().filter(|&s| s != sq("m16")).collect();
    a1.push(sq("l16"));
    let mut p16: Vec<Square> = game.goal(Seat(2)).into_iter().filter(|&s| s != sq("d1")).collect();
    p16.push(sq("e1"));
    let pieces = vec![a1, vec![sq("h8")], p16, vec![sq("j8")]];
    let mut game = Halma::from_position(&setup("four_both_armies"), &pieces, Seat(0));
    play(&mut game, "l16m16");
    assert!(game.outcome().is_none(), "one partner home is not enough");
    assert!(game.has_finished(Seat(0)));
    assert_eq!(game.army_of(Seat(0)), Seat(2));
    play(&mut game, "h8h9"); // p1
    play(&mut game, "e1e2"); // p16 steps away from its goal
    play(&mut game, "j8j9"); // a16
    // a1's turn: it moves p16's pieces, and only those.
    assert_eq!(game.to_move(), Some(Seat(0)));
    let from: Vec<Square> = game.moves().iter().map(|m| m.0).collect();
    assert!(from.iter().all(|&s| game.piece_at(s) == Some(Seat(2))), "{from:?}");
    assert!(game.apply(&mv("m16l16")).is_err(), "its own pieces stay home");
    play(&mut game, "e2d1");
    assert_eq!(game.outcome(), Some(Outcome::team(SeatSet::of(&[Seat(0), Seat(2)]), EndReason::Goal)));
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    let mut game = two(&["e5"], &["k10"]);
    let cycle = ["e5e6", "k10k11", "e6e5", "k11k10"];
    for (ply, text) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert!(game.outcome().is_none(), "still on at ply {ply}");
        play(&mut game, text);
    }
    // The start (first occurrence), after ply 4 (second), after ply 8 (third).
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn a_refused_draw_returns_the_turn_to_the_proposer() {
    let mut game = level("three_players");
    play(&mut game, "offer_draw");
    assert_eq!(game.to_move(), Some(Seat(1)), "p1 votes");
    assert_eq!(game.legal_actions(), [HalmaAction::Vote(true), HalmaAction::Vote(false)]);
    play(&mut game, "accept_draw");
    assert_eq!(game.to_move(), Some(Seat(2)), "then p16");
    play(&mut game, "refuse_draw");
    assert_eq!(game.to_move(), Some(Seat(0)), "back to a1");
    assert_eq!(game.plies(), 0, "votes are not moves");
    assert!(game.outcome().is_none());
    assert!(!game.legal_actions().contains(&HalmaAction::ProposeDraw), "once per turn");
    play(&mut game, "e2f3");
    assert_eq!(game.to_move(), Some(Seat(1)));
    assert!(game.legal_actions().contains(&HalmaAction::ProposeDraw), "a new turn, a new offer");
}

#[test]
fn a_draw_every_other_seat_accepts_ends_the_game() {
    let mut game = level("four_both_armies");
    play(&mut game, "d2e3");
    play(&mut game, "offer_draw");
    for _ in 0..3 {
        assert!(game.outcome().is_none());
        play(&mut game, "accept_draw");
    }
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Agreement)));
}

// ---- Clearing the starting camp ------------------------------------------------------------

/// A two-player position with the seats' move counts: seat a1's pieces, then seat p16's, a1 to
/// move.
fn two_after(a1: &[&str], p16: &[&str], moves_made: [u32; 2]) -> Halma {
    Halma::from_position_with_moves(&setup("two_players"), &[squares(a1), squares(p16)], Seat(0), &moves_made)
}

fn moves_from(game: &Halma) -> Vec<String> {
    let mut from: Vec<String> = game.moves().iter().map(|(f, _)| f.to_string()).collect();
    from.sort();
    from.dedup();
    from
}

fn is_move(game: &Halma, text: &str) -> bool {
    game.legal_actions().contains(&mv(text))
}

#[test]
fn every_halma_level_clears_the_camp_after_its_count() {
    for (name, after) in
        [("two_players", 40), ("three_players", 40), ("four_one_army", 30), ("four_both_armies", 30)]
    {
        let game = level(name);
        assert_eq!(game.clear_camp_after(), after, "{name}");
        assert_eq!(game.setup().clear_camp_after, after, "{name}");
        assert!(game.seats().all(|s| game.moves_made(s) == 0 && !game.clears_camp(s)), "{name}");
    }
}

#[test]
fn after_the_count_no_move_ends_in_the_own_camp() {
    // a1's camp is a1-e1, a2-e2, a3-d3, a4-c4, a5-b5. From c6, b5 is a step back into it.
    let before = two_after(&["c6"], &["p16"], [39, 0]);
    assert!(!before.clears_camp(Seat(0)));
    assert!(is_move(&before, "c6b5"), "39 moves made: the camp is open");
    let after = two_after(&["c6"], &["p16"], [40, 0]);
    assert!(after.clears_camp(Seat(0)));
    assert!(!is_move(&after, "c6b5"));
    assert!(is_move(&after, "c6c5") && is_move(&after, "c6b6"), "outside the camp as usual");
    let camp = after.camp(Seat(0));
    assert!(after.moves().iter().all(|(_, to)| !camp.contains(to)), "{:?}", after.moves());
    assert!(after.clone().apply(&mv("c6b5")).is_err());
    // The other seat's count is its own: p16 at 0 moves may still go back into its camp.
    let p16 = Halma::from_position_with_moves(
        &setup("two_players"),
        &[squares(&["c6"]), squares(&["k11"])],
        Seat(1),
        &[40, 0],
    );
    assert!(p16.legal_actions().contains(&mv("k11l12")), "l12 is in p16's camp");
}

#[test]
fn a_jump_chain_may_pass_through_the_camp_but_not_end_there() {
    // c6 over c5 to c4 (in the camp), then over d4 to e4 (outside).
    let game = two_after(&["c6"], &["c5", "d4", "p16"], [40, 0]);
    assert!(!reach(&game, "c6").contains(&"c4".to_string()));
    assert!(reach(&game, "c6").contains(&"e4".to_string()));
    assert_eq!(game.path(sq("c6"), sq("e4")), Some(squares(&["c4", "e4"])));
    assert_eq!(game.path(sq("c6"), sq("c4")), None);
    // The screen may offer c4 as a landing on the way, since the chain can go on out of the camp.
    assert!(game.further_landings(&squares(&["c6"])).contains(&sq("c4")));
    assert_eq!(game.further_landings(&squares(&["c6", "c4"])), squares(&["e4"]));
    assert!(game.is_jump_chain(&squares(&["c6", "c4", "e4"])));
    assert!(!game.is_jump_chain(&squares(&["c6", "c4"])));
    assert!(game.parse_action("c6c4").is_ok_and(|a| !game.legal_actions().contains(&a)));
    assert!(game.parse_action("c6c4e4").is_ok_and(|a| game.legal_actions().contains(&a)));
    // Without d4 the chain could only end in the camp: c4 is no landing worth offering.
    let dead_end = two_after(&["c6"], &["c5", "p16"], [40, 0]);
    assert!(!dead_end.further_landings(&squares(&["c6"])).contains(&sq("c4")));
    let open = two_after(&["c6"], &["c5", "p16"], [0, 0]);
    assert!(open.further_landings(&squares(&["c6"])).contains(&sq("c4")), "before the count it may");
}

#[test]
fn a_piece_still_at_home_that_can_leave_must_be_the_one_to_move() {
    // e1 is in the camp and can step out to f1 or f2; h8 is far outside.
    let game = two_after(&["e1", "h8"], &["p16"], [40, 0]);
    assert_eq!(moves_from(&game), ["e1"]);
    let mut to: Vec<String> = game.moves().iter().map(|(_, t)| t.to_string()).collect();
    to.sort();
    assert_eq!(to, ["f1", "f2"], "only the moves that leave the camp");
    assert_eq!(game.held_at_home(sq("h8")), Some(HeldAtHome::OthersMustLeave));
    assert_eq!(game.reach(sq("h8")), Vec::new());
    assert_eq!(game.held_at_home(sq("e1")), None, "e1 may move");
    // A jump out counts as leaving too: e1 over f1 to g1.
    let jump = two_after(&["e1", "h8"], &["f1", "f2", "p16"], [40, 0]);
    assert_eq!(moves_from(&jump), ["e1"]);
    assert!(is_move(&jump, "e1g1") && is_move(&jump, "e1g3"));
    // One move before the count, every piece is free.
    let free = two_after(&["e1", "h8"], &["p16"], [39, 0]);
    assert_eq!(moves_from(&free), ["e1", "h8"]);
    assert!(is_move(&free, "e1d1") && free.held_at_home(sq("h8")).is_none());
}

#[test]
fn when_no_piece_can_leave_the_seat_moves_as_usual_but_never_into_the_camp() {
    // The piece on a1 can only step to a2, b1 or b2, all in the camp: it cannot leave, so f2 moves,
    // though not onto e1 or e2 (camp squares).
    let game = two_after(&["a1", "f2"], &["p16"], [40, 0]);
    assert_eq!(moves_from(&game), ["f2"]);
    assert_eq!(game.held_at_home(sq("a1")), Some(HeldAtHome::WouldEndAtHome));
    let f2 = reach(&game, "f2");
    assert_eq!(f2, ["e3", "f1", "f3", "g1", "g2", "g3"]);
    // With only the a1 piece the seat has no move at all and passes.
    let mut alone = two_after(&["a1"], &["p16"], [40, 0]);
    assert_eq!(alone.to_move(), Some(Seat(1)));
    assert_eq!(alone.passed(), [Seat(0)]);
    play(&mut alone, "p16p15");
    assert_eq!(alone.moves_made(Seat(0)), 40, "a pass is not a move");
    assert_eq!(alone.moves_made(Seat(1)), 1);
    assert_eq!(alone.passed(), [Seat(0)]);
}

#[test]
fn held_at_home_names_only_pieces_the_rule_holds_back() {
    let game = two_after(&["a1", "f2"], &["p16"], [40, 0]);
    assert_eq!(game.held_at_home(sq("f2")), None, "it may move");
    assert_eq!(game.held_at_home(sq("p16")), None, "not the seat to move's");
    assert_eq!(game.held_at_home(sq("h8")), None, "an empty square");
    // Before the count the same piece on a1 is free.
    assert_eq!(two_after(&["a1", "f2"], &["p16"], [39, 0]).held_at_home(sq("a1")), None);
    // A piece boxed in has no move at all: the rule does not hold it, the board does.
    let boxed = ["b1", "a2", "b2", "c1", "a3", "c3", "c2", "b3", "p16"];
    let game = two_after(&["a1", "h8"], &boxed, [40, 0]);
    assert_eq!(game.held_at_home(sq("a1")), None);
    assert!(game.reach(sq("a1")).is_empty());
    // A piece outside whose only steps lead home: a1's piece on f1 is walled in on f2, g1 and g2
    // and can step only onto e1 or e2; the camp's piece on a1 cannot leave; h8 moves.
    let walls = ["f2", "g1", "g2", "h3", "h1", "f3", "p16"];
    let game = two_after(&["a1", "f1", "h8"], &walls, [40, 0]);
    assert_eq!(game.held_at_home(sq("f1")), Some(HeldAtHome::WouldEndAtHome));
    assert_eq!(game.held_at_home(sq("a1")), Some(HeldAtHome::WouldEndAtHome));
    assert_eq!(moves_from(&game), ["h8"]);
    // Without h8 the seat has no legal move: it passes, and nothing is "held" on p16's turn.
    let stuck = two_after(&["a1", "f1"], &walls, [40, 0]);
    assert_eq!(stuck.passed(), [Seat(0)]);
    assert_eq!(stuck.held_at_home(sq("f1")), None);
    assert_eq!(HeldAtHome::OthersMustLeave.key(), "others_must_leave");
}

#[test]
fn votes_are_not_moves_for_the_count() {
    let mut game = two_after(&["c6"], &["k10"], [39, 39]);
    play(&mut game, "offer_draw");
    play(&mut game, "refuse_draw");
    assert_eq!(game.moves_made(Seat(0)), 39);
    assert_eq!(game.moves_made(Seat(1)), 39);
    assert!(is_move(&game, "c6b5"), "still 39 moves: b5 is open");
    play(&mut game, "c6b5");
    assert_eq!(game.moves_made(Seat(0)), 40);
    play(&mut game, "k10k11");
    assert_eq!(game.moves_made(Seat(1)), 40);
    // a1 has made 40 moves: its piece on b5 must leave, and may not go back.
    assert!(game.clears_camp(Seat(0)));
    assert!(game.moves().iter().all(|(from, to)| *from == sq("b5") && !game.camp(Seat(0)).contains(to)));
    // The whole game's count, through the text interface, with offers and votes between moves.
    let mut console = session("ron_configs/halma/two_players.ron", 3);
    for text in ["play e2f3", "play offer_draw", "play refuse_draw", "play o12n11", "play offer_draw"] {
        assert_eq!(console.handle(text)["ok"], true, "{text}");
    }
    assert_eq!(console.handle("play refuse_draw")["ok"], true);
    let state = console.handle("state");
    assert_eq!(state["moves_made"], json!({"a1": 1, "p16": 1}));
    assert_eq!(state["clear_camp_after"], 40);
}

#[test]
fn the_move_counts_are_no_part_of_a_position_for_repetition() {
    // e5-e6 and back, k10-k11 and back: the third time the position comes back is a draw,
    // although each seat has made more moves every time.
    let mut game = two_after(&["e5"], &["k10"], [40, 40]);
    let cycle = ["e5e6", "k10k11", "e6e5", "k11k10"];
    for text in cycle.iter().chain(cycle.iter()) {
        assert!(game.outcome().is_none());
        play(&mut game, text);
    }
    assert_eq!(game.moves_made(Seat(0)), 44);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

#[test]
fn a_finished_partner_clears_its_partners_camp_counting_its_own_moves() {
    // A both-armies game with a1 and p1 as partners: a1 has filled its goal (p16's corner), so
    // a1 moves p1's pieces. p1's camp is p1-m1, p2-m2, p3-n3, p4-o4.
    let mut partners = setup("four_both_armies");
    partners.partners = vec![(Corner::A1, Corner::P1), (Corner::P16, Corner::A16)];
    let start = Halma::new(&partners);
    let a1_done = start.goal(Seat(0));
    let pieces = vec![a1_done, squares(&["m1", "h8"]), squares(&["h10"]), squares(&["j10"])];
    // a1 has made 30 moves of its own, p1 none.
    let game = Halma::from_position_with_moves(&partners, &pieces, Seat(0), &[30, 0, 0, 0]);
    assert!(game.has_finished(Seat(0)));
    assert_eq!(game.army_of(Seat(0)), Seat(1));
    assert!(game.clears_camp(Seat(0)) && !game.clears_camp(Seat(1)));
    // a1's turn: p1's piece on m1 must leave p1's camp; the one on h8 is held back.
    assert_eq!(moves_from(&game), ["m1"]);
    assert!(game.moves().iter().all(|(_, to)| !game.camp(Seat(1)).contains(to)));
    assert_eq!(game.held_at_home(sq("h8")), Some(HeldAtHome::OthersMustLeave));
    let mut game = game;
    play(&mut game, "m1l1");
    assert_eq!(game.moves_made(Seat(0)), 31, "a1 counts its own moves");
    assert_eq!(game.moves_made(Seat(1)), 0);
    // p1's own turn: with no moves made the camp is open to it.
    assert_eq!(game.to_move(), Some(Seat(1)));
    assert!(game.legal_actions().contains(&mv("l1m1")));
    play(&mut game, "h8h7");
    play(&mut game, "h10h11");
    play(&mut game, "j10j11");
    // a1 again: p1's pieces are all out and may not go back in.
    assert_eq!(game.to_move(), Some(Seat(0)));
    assert!(!game.legal_actions().contains(&mv("l1m1")));
    assert!(game.legal_actions().contains(&mv("l1k1")));
    // Had a1 made 29 moves, the rule would not hold for it yet.
    let early = Halma::from_position_with_moves(&partners, &pieces, Seat(0), &[29, 30, 0, 0]);
    assert_eq!(moves_from(&early), ["h8", "m1"]);
}

#[test]
fn a_piece_left_at_home_in_the_goal_must_make_way() {
    // a1 has 18 pieces in its goal (p16's camp) and one on k16; p16's piece on l16 sits in the
    // goal's last square, its own camp, and could stay there for ever while p16 moves its c3.
    let goal = level("two_players").goal(Seat(0));
    let mut a1: Vec<Square> = goal.iter().copied().filter(|&s| s != sq("l16")).collect();
    a1.push(sq("k16"));
    let pieces = vec![a1, squares(&["l16", "c3"])];
    let blocking = Halma::from_position_with_moves(&setup("two_players"), &pieces, Seat(1), &[39, 39]);
    assert!(blocking.legal_actions().contains(&mv("c3c4")), "39 moves: it may stay");
    // After its 40th move it must move out, and a1 walks in and wins, whichever way it leaves.
    let cleared = Halma::from_position_with_moves(&setup("two_players"), &pieces, Seat(1), &[40, 40]);
    assert_eq!(moves_from(&cleared), ["l16"]);
    for (from, to) in cleared.moves() {
        let mut game = cleared.clone();
        game.play(&HalmaAction::Move { from, to });
        play(&mut game, "k16l16");
        assert_eq!(game.outcome(), Some(Outcome::win(Seat(0), EndReason::Goal)), "after l16{to}");
    }
}

/// The move nearest the goal for the seat to move, ties drawn with `rng`; with `keep`, a piece
/// on that square moves only when nothing else can.
fn forward_move(game: &Halma, keep: Option<Square>, rng: &mut chance::SeededRng) -> HalmaAction {
    let seat = game.to_move().expect("a seat to move");
    let dist = game.distances(game.army_of(seat));
    let key = |(from, to): (Square, Square)| {
        let gain = dist[tabla::rules::grid16::index(to) as usize] as i32
            - dist[tabla::rules::grid16::index(from) as usize] as i32;
        (Some(from) == keep, gain)
    };
    let moves = game.moves();
    let best = moves.iter().map(|&m| key(m)).min().expect("a move");
    let ties: Vec<(Square, Square)> = moves.into_iter().filter(|&m| key(m) == best).collect();
    let (from, to) = ties[rand::Rng::random_range(rng, 0..ties.len())];
    HalmaAction::Move { from, to }
}

/// Seeded games of a1 racing forward against a p16 that keeps its corner piece on p16 (a1's
/// goal) as long as it may: how many a1 wins, and how many end with that piece still there.
fn against_a_blocker(setup: &Setup, seeds: u64) -> (usize, usize) {
    let (mut a1_wins, mut still_blocked) = (0, 0);
    for seed in 0..seeds {
        let mut game = Halma::new(setup);
        let mut rng = chance::rng(seed);
        while game.outcome().is_none() {
            assert!(game.plies() < 2_000, "seed {seed}: the game does not end");
            let keep = (game.to_move() == Some(Seat(1))).then(|| sq("p16"));
            let action = forward_move(&game, keep, &mut rng);
            game.play(&action);
        }
        a1_wins += usize::from(game.outcome().is_some_and(|o| o.winner == Winner::Seat(Seat(0))));
        still_blocked += usize::from(game.piece_at(sq("p16")) == Some(Seat(1)));
    }
    (a1_wins, still_blocked)
}

#[test]
fn a_piece_kept_at_home_no_longer_blocks_a_goal_for_ever() {
    // Without the rule (a count never reached) the piece on p16 stays and a1 can never fill its
    // goal: every game ends in a draw by repetition. With the level's 40 moves it is made to
    // leave unless it is walled in, and most games end with a goal filled.
    let mut never = setup("two_players");
    never.clear_camp_after = u32::MAX;
    assert_eq!(against_a_blocker(&never, 30), (0, 30));
    let (a1_wins, still_blocked) = against_a_blocker(&setup("two_players"), 30);
    assert!(a1_wins >= 10, "a1 won {a1_wins} of 30");
    assert!(still_blocked <= 5, "the corner piece stayed home in {still_blocked} of 30");
}

const GOOD: &str = include_str!("../ron_configs/halma/three_players.ron");

fn broken(from: &str, to: &str) -> levels::LevelError {
    assert!(GOOD.contains(from), "the test edit must apply: {from}");
    levels::parse("broken.ron", &GOOD.replacen(from, to, 1)).unwrap_err()
}

fn line_of(needle: &str) -> usize {
    GOOD.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn broken_level_files_name_file_and_line() {
    let error = broken("(corner: \"p1\"", "(corner: \"q1\"");
    assert_eq!(error.line, line_of("(corner: \"p1\""), "{error}");
    assert!(error.to_string().starts_with(&format!("broken.ron:{}: unknown corner", error.line)), "{error}");

    let error = broken("camp: [4, 4, 3, 2], goal", "camp: [4, 4, 3, 2, 1], goal");
    assert_eq!(error.line, line_of("(corner: \"p1\""));
    assert!(error.message.contains("14 pieces but its goal has 13"), "{error}");

    let error = broken("(corner: \"p1\", camp: [4, 4, 3, 2]", "(corner: \"p1\", camp: [12, 1]");
    assert!(error.message.contains("camps overlap"), "{error}");

    let error = broken("first: \"a1\"", "first: \"a16\"");
    assert_eq!(error.line, line_of("first:"));
    assert!(error.message.contains("no seat in corner \"a16\""), "{error}");

    let error = broken("partners: []", "partners: [(\"a1\", \"p16\")]");
    assert_eq!(error.line, line_of("partners:"));

    // Clearing the starting camp must be given, and a count of moves that can come.
    let error = broken("    clear_camp_after: 40,\n", "");
    assert_eq!(error.file, "broken.ron");
    assert!(error.line > 0, "{error}");
    assert!(error.message.contains("clear_camp_after"), "{error}");
    for bad in ["0", "1001", "4294967295"] {
        let error = broken("clear_camp_after: 40", &format!("clear_camp_after: {bad}"));
        assert_eq!(error.line, line_of("clear_camp_after:"), "{bad}: {error}");
        assert!(error.message.contains("clear_camp_after is 1 to 1000"), "{error}");
    }
    let error = broken("clear_camp_after: 40", "clear_camp_after: -3");
    assert_eq!(error.line, line_of("clear_camp_after:"), "{error}");
    let error = broken("clear_camp_after: 40", "clear_camp_after: \"many\"");
    assert_eq!(error.line, line_of("clear_camp_after:"), "{error}");
    assert!(
        levels::parse("ok.ron", &GOOD.replacen("clear_camp_after: 40", "clear_camp_after: 1000", 1)).is_ok()
    );

    // A goal over its own camp could never be filled once no move may end in the camp.
    let error = broken(
        "(corner: \"p1\", camp: [4, 4, 3, 2], goal: \"a16\"",
        "(corner: \"p1\", camp: [4, 4, 3, 2], goal: \"p16\"",
    );
    assert_eq!(error.line, line_of("(corner: \"p1\""), "{error}");
    assert!(error.message.contains("two goals overlap"), "{error}");
    let error = broken(
        "(corner: \"p1\", camp: [4, 4, 3, 2], goal: \"a16\", goal_camp: [4, 4, 3, 2])",
        // p16 down to p4, and p4 is in p1's own camp.
        "(corner: \"p1\", camp: [4, 4, 3, 2], goal: \"p16\", goal_camp: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])",
    );
    assert!(error.message.contains("its goal over its own camp"), "{error}");
    assert_eq!(error.line, line_of("(corner: \"p1\""), "{error}");

    let error = broken("mode: Individual,", "mode: Individual");
    assert_eq!(error.file, "broken.ron");
    assert_eq!(error.line, line_of("seats: ["), "{error}");
}

#[test]
fn the_text_interface_plays_halma() {
    let mut console = session("ron_configs/halma/two_players.ron", 3);
    let state = console.handle("state");
    assert_eq!(state["to_move"], "a1");
    assert_eq!(state["outcome"], Value::Null);
    assert_eq!(state["board"]["a1"].as_array().unwrap().len(), 19);
    assert_eq!(state["board"]["a1"][0], "a1");
    assert_eq!(state["in_goal"], json!({"a1": 0, "p16": 0}));
    assert_eq!(state["draw_proposal"], Value::Null);
    let legal = console.handle("legal");
    let legal: Vec<&str> = legal["legal"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert!(legal.contains(&"c1e3") && legal.contains(&"e2f3") && legal.contains(&"offer_draw"));
    assert_eq!(console.handle("play e2f3")["ok"], true);
    let before = console.handle("state");
    assert_eq!(console.handle("play p16p14p12")["ok"], false, "not a chain of jumps");
    assert_eq!(console.handle("play hello")["ok"], false);
    assert_eq!(console.handle("state"), before, "a refused action changes nothing");
    assert_eq!(console.handle("play o14m12")["action"], "o14m12");
    assert_eq!(console.handle("play offer_draw")["to_move"], "p16");
    assert_eq!(console.handle("state")["draw_proposal"], json!({"by": "a1", "voter": "p16"}));
    let refused = console.handle("play refuse_draw");
    assert_eq!(refused["to_move"], "a1");
    assert_eq!(console.handle("undo")["ok"], true);
    assert_eq!(console.handle("robot 3")["ok"], true, "the Robot votes");
    assert_eq!(console.handle("robot 1")["ok"], true);
}

/// Seeded random games of one seating: each keeps every piece on the board and its count per seat,
/// never shows two pieces on a square, and ends or reaches its cap; every 250th replays
/// identically from its seed.
fn random_games(name: &str, games: u64) {
    let start = level(name);
    let counts: Vec<usize> = start.seats().map(|s| start.pieces(s).count()).collect();
    let play_out = |seed: u64| {
        let mut game = start.clone();
        let mut rng = chance::rng(seed);
        let mut actions = Vec::new();
        while game.outcome().is_none() && actions.len() < RANDOM_GAME_CAP {
            // Draw offers are left out so the games run long; the moves listed are legal ones.
            let moves = game.moves();
            let action = if moves.is_empty() {
                robot::random_action(&game, &mut rng).unwrap()
            } else {
                let m = moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
                HalmaAction::Move { from: m.0, to: m.1 }
            };
            game.play(&action);
            actions.push(action);
            let mut seen = tabla::rules::grid16::Grid16::EMPTY;
            for (seat, &count) in game.seats().zip(&counts) {
                let army = game.army(seat);
                assert_eq!(army.count() as usize, count, "{name} seed {seed}: a piece left the board");
                assert!((army & seen).is_empty(), "{name} seed {seed}: two pieces on a square");
                seen |= army;
            }
        }
        (actions, game)
    };
    for seed in 0..games {
        let (first, end) = play_out(seed);
        if seed % 250 == 0 {
            let (again, end_again) = play_out(seed);
            assert_eq!(first, again, "{name} seed {seed} replays");
            assert_eq!(end, end_again);
        }
    }
}

/// Plies a random game may take before it counts as capped.
const RANDOM_GAME_CAP: usize = 120;
const RANDOM_GAMES: u64 = 10_000;

#[test]
fn random_two_player_games_keep_every_piece_and_replay() {
    random_games("two_players", RANDOM_GAMES);
}

#[test]
fn random_three_player_games_keep_every_piece_and_replay() {
    random_games("three_players", RANDOM_GAMES);
}

#[test]
fn random_one_army_games_keep_every_piece_and_replay() {
    random_games("four_one_army", RANDOM_GAMES);
}

#[test]
fn random_both_armies_games_keep_every_piece_and_replay() {
    random_games("four_both_armies", RANDOM_GAMES);
}

#[test]
fn the_robot_takes_an_obvious_long_jump() {
    // a1's piece on c3 can ladder to i9 over d4, f6, h8; its other moves crawl.
    let game = two(&["c3"], &["d4", "f6", "h8", "p16"]);
    for level in [RobotLevel::Two, RobotLevel::Three] {
        assert_eq!(robot::choose(&game, level, 5), Some(mv("c3i9")), "level {level}");
    }
}

#[test]
fn the_robot_refuses_a_draw_when_ahead() {
    let mut game = level("two_players");
    play(&mut game, "offer_draw");
    assert_eq!(robot::choose(&game, RobotLevel::Three, 1), Some(HalmaAction::Vote(false)));
}

#[test]
fn level_three_beats_a_random_player() {
    for seed in 0..2u64 {
        let robot_seat = Seat(seed as u8 % 2);
        let mut game = level("two_players");
        let mut rng = chance::rng(seed);
        let mut plies = 0;
        while game.outcome().is_none() && plies < 500 {
            let action = if game.to_move() == Some(robot_seat) {
                robot::choose(&game, RobotLevel::Three, seed * 1000 + plies).unwrap()
            } else {
                tabla::robot::halma::greedy(&game, &mut rng).filter(|_| false).unwrap_or_else(|| {
                    let moves = game.moves();
                    let m = moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
                    HalmaAction::Move { from: m.0, to: m.1 }
                })
            };
            game.play(&action);
            plies += 1;
        }
        // The random pieces may keep sitting in the Robot's goal: then the goal count decides.
        let winner = game.outcome().map_or_else(|| game.leader_by_goal(), |o| o.winner);
        assert_eq!(winner, Winner::Seat(robot_seat), "seed {seed}: {}", game.in_goal(robot_seat));
    }
}
