//! Crazy Nard: every rule of spec/nard.md against the public API. Positions are given in each
//! side's own point numbers (its head is 24, its home 1–6); Black's point q is White's q ± 12.

use tabla::rules::nard::{
    Board, CheckerMove, Draft, Event, HEAD, HeadRule, Nard, NardAction, Numbers, Phase, ResultKind, SetKind,
    Setup, Stuck, other_side, plays, white_point,
};
use tabla::rules::{EndReason, Game, RuleError, Seat, Winner};

const W: Seat = Seat::WHITE;
const B: Seat = Seat::BLACK;

fn board(white: &[(u8, u8)], black: &[(u8, u8)]) -> Board {
    Board::from_points(white, black).expect("a valid test position")
}

fn play(game: &mut Nard, text: &str) {
    let action = game.parse_action(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    game.apply(&action).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn legal(game: &Nard) -> Vec<String> {
    game.legal_actions().iter().map(|a| game.action_text(a)).collect()
}

fn refused(game: &Nard, text: &str) -> bool {
    let mut copy = game.clone();
    match copy.parse_action(text) {
        Ok(action) => {
            let refused = copy.apply(&action).is_err();
            assert!(!refused || copy == *game, "a refused action changed the state");
            refused
        }
        Err(_) => true,
    }
}

/// Plays the first legal action.
fn play_first(game: &mut Nard) {
    let first = game.legal_actions()[0];
    game.apply(&first).unwrap();
}

/// The dice set in play as (player, kind, numbers still to play).
fn in_play(game: &Nard) -> (Seat, SetKind, Vec<u8>) {
    let set = game.dice_set().expect("a dice set in play");
    (set.player, set.kind, set.left.as_slice().to_vec())
}

/// A match starting from `board` with `seat` about to roll an ordinary turn.
fn position(board: Board, seat: Seat, setup: &Setup) -> Nard {
    Nard::from_position(setup, board, seat)
}

fn five_points() -> Setup {
    Setup::standard(5)
}

/// Black's checkers all on its head.
const BLACK_HEAD: &[(u8, u8)] = &[(24, 15)];

// ---------------------------------------------------------------------------------------------
// Board geometry

#[test]
fn black_points_in_white_numbering() {
    // Black's head (its 24) is White's 12, Black's home (its 1–6) White's 13–18, Black's 12 White's head.
    assert_eq!(white_point(B, 24), 12);
    assert_eq!((1..=6).map(|q| white_point(B, q)).collect::<Vec<_>>(), vec![13, 14, 15, 16, 17, 18]);
    assert_eq!(white_point(B, 12), 24);
    assert_eq!(white_point(W, 7), 7);
    for p in 1..=24 {
        assert_eq!(other_side(other_side(p)), p);
    }
}

#[test]
fn a_game_starts_with_fifteen_on_each_head() {
    let game = Nard::new(&five_points());
    let view = game.board().white_view();
    assert_eq!(view[23], 15, "White's head is its point 24");
    assert_eq!(view[11], -15, "Black's head is White's point 12");
    assert_eq!(view.iter().filter(|&&n| n != 0).count(), 2);
    assert_eq!(game.pip_count(W), 15 * 24);
    assert_eq!(game.pip_count(B), 15 * 24);
}

// ---------------------------------------------------------------------------------------------
// Who starts

#[test]
fn the_opening_dice_are_one_each_and_the_higher_plays_both() {
    let mut game = Nard::new(&five_points());
    assert!(game.awaiting_roll());
    assert_eq!(game.to_move(), None, "nobody in particular acts while the opening dice are due");
    assert!(game.legal_actions().is_empty());
    assert_eq!(game.chance().map(|c| c.len()), Some(6));
    assert!(refused(&game, "roll 5 3"), "the opening is one die each");
    play(&mut game, "roll 5"); // White's die
    assert_eq!(game.opening_white_die(), Some(5));
    play(&mut game, "roll 3"); // Black's die
    assert!(!game.awaiting_roll());
    assert_eq!(in_play(&game), (W, SetKind::Roll, vec![5, 3]));
    assert_eq!(legal(&game), vec!["24/21", "24/19"]);
}

#[test]
fn black_starts_when_its_opening_die_is_higher() {
    let mut game = Nard::new(&five_points());
    play(&mut game, "roll 2");
    play(&mut game, "roll 6");
    assert_eq!(in_play(&game), (B, SetKind::Roll, vec![6, 2]));
    assert_eq!(game.to_move(), Some(B));
}

#[test]
fn equal_opening_dice_are_rolled_again() {
    let mut game = Nard::new(&five_points());
    play(&mut game, "roll 4");
    play(&mut game, "roll 4");
    assert!(game.events().contains(&Event::OpeningTie(4)));
    assert_eq!(game.phase(), &Phase::Opening { white_die: None });
    assert_eq!(game.to_move(), None);
    play(&mut game, "roll 1");
    play(&mut game, "roll 2");
    assert_eq!(in_play(&game), (B, SetKind::Roll, vec![2, 1]));
}

#[test]
fn after_the_opening_the_other_side_rolls_ordinary_dice() {
    let mut game = Nard::new(&five_points());
    play(&mut game, "roll 5");
    play(&mut game, "roll 3");
    play(&mut game, "24/21");
    assert_eq!(legal(&game), vec!["21/16"], "one checker off the head: the same checker plays the 5");
    play(&mut game, "21/16");
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B));
    assert!(game.awaiting_roll());
    assert!(refused(&game, "roll 4"), "an ordinary roll is two dice");
    assert!(refused(&game, "24/20"), "the dice come first");
    assert_eq!(game.chance().map(|c| c.len()), Some(21));
    let total: f64 = game.chance().unwrap().iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-9);
    play(&mut game, "roll 3 5");
    assert_eq!(in_play(&game), (B, SetKind::Roll, vec![5, 3]));
}

// ---------------------------------------------------------------------------------------------
// Moving: no hitting, closed points, both numbers else the larger

#[test]
fn a_single_opposing_checker_closes_a_point_and_own_checkers_stack() {
    // White: 14 on the head, one on 20. Black: one checker on its 6 (White's 18), the rest on its head.
    let b = board(&[(24, 14), (20, 1)], &[(24, 14), (6, 1)]);
    assert_eq!(white_point(B, 6), 18);
    let mut game = position(b, W, &five_points());
    play(&mut game, "roll 6 4");
    let moves = legal(&game);
    assert!(!moves.contains(&"24/18".to_string()), "White's 18 holds a black checker: closed, no hitting");
    assert!(moves.contains(&"24/20".to_string()), "own checkers share a point");
    play(&mut game, "24/20");
    assert_eq!(game.board().count(W, 20), 2);
    play(&mut game, "20/14");
    assert_eq!(game.board().count(B, 6), 1, "the black checker is never hit");
}

/// White: 14 frozen at home (points 2, 4, 5, 6) and one checker on 10. Black: 14 on its head, and
/// optionally one on its 13, which is White's point 1.
fn larger_number_position(black_on_white_one: bool) -> Nard {
    let white = [(2, 4), (4, 4), (5, 3), (6, 3), (10, 1)];
    let black: &[(u8, u8)] = if black_on_white_one { &[(24, 14), (13, 1)] } else { BLACK_HEAD };
    position(board(&white, black), W, &five_points())
}

#[test]
fn both_numbers_must_be_played_when_possible() {
    // 6-3: 10/4 leaves no use for the 3 (home is frozen, point 3 is empty), but 10/7/1 plays both.
    let mut game = larger_number_position(false);
    play(&mut game, "roll 6 3");
    assert_eq!(legal(&game), vec!["10/7"]);
    assert!(refused(&game, "10/4"), "10/4 is a possible move but leaves the 3 unplayed");
    play(&mut game, "10/7");
    assert_eq!(legal(&game), vec!["7/1"]);
}

#[test]
fn when_only_one_number_can_be_played_it_is_the_larger() {
    // As above with White's 1 closed: 10/7 then cannot play the 6; 10/4 cannot play the 3.
    let mut game = larger_number_position(true);
    play(&mut game, "roll 6 3");
    assert_eq!(legal(&game), vec!["10/4"]);
    play(&mut game, "10/4");
    // The 3 passes to Black, who plays it with its own checkers, without rolling.
    assert_eq!(in_play(&game), (B, SetKind::Passed, vec![3]));
    assert_eq!(legal(&game), vec!["24/21", "13/10"]);
    assert!(game.passed().contains(&W));
}

// ---------------------------------------------------------------------------------------------
// The head rule

#[test]
fn only_one_checker_leaves_the_head_in_a_dice_set() {
    let mut game = position(Board::opening(), W, &five_points());
    play(&mut game, "roll 4 2");
    play(&mut game, "24/20");
    assert_eq!(legal(&game), vec!["20/18"], "the 2 cannot take a second checker off the head");
}

#[test]
fn a_later_six_six_takes_one_checker_off_the_head_and_passes_the_rest() {
    // Not the first roll: one head checker; 18/12 is closed by Black's head.
    let mut game = position(Board::opening(), W, &five_points());
    play(&mut game, "roll 6 6");
    assert_eq!(legal(&game), vec!["24/18"]);
    play(&mut game, "24/18");
    assert_eq!(in_play(&game), (B, SetKind::Passed, vec![6, 6, 6]));
}

/// Black wins the opening with 2-1 and plays 24/22/21; White is on its first roll.
fn white_on_its_first_roll() -> Nard {
    let mut game = Nard::new(&five_points());
    play(&mut game, "roll 1");
    play(&mut game, "roll 2");
    play(&mut game, "24/22");
    play(&mut game, "22/21");
    assert_eq!(game.phase(), &Phase::AwaitingRoll(W));
    assert_eq!(game.rolls_made(W), 0);
    game
}

#[test]
fn a_first_roll_six_six_takes_two_checkers_off_the_head_and_passes_two_sixes() {
    let mut game = white_on_its_first_roll();
    play(&mut game, "roll 6 6");
    assert_eq!(legal(&game), vec!["24/18"]);
    play(&mut game, "24/18");
    assert_eq!(legal(&game), vec!["24/18"], "a second checker may leave the head, 18/12 is closed");
    play(&mut game, "24/18");
    assert_eq!(game.board().count(W, 18), 2);
    assert_eq!(game.board().count(W, HEAD), 13);
    assert_eq!(in_play(&game), (B, SetKind::Passed, vec![6, 6]));
}

#[test]
fn a_first_roll_four_four_and_three_three_take_two_off_the_head_but_five_five_one() {
    let mut game = white_on_its_first_roll();
    play(&mut game, "roll 4 4");
    assert_eq!(game.dice_set().unwrap().head_limit, 2);
    // 24/20/16/12 is closed, so the only full play is two checkers to 16.
    let ends: Vec<Board> = game.plays().iter().map(|p| p.board).collect();
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].count(W, 16), 2);

    let mut game = white_on_its_first_roll();
    play(&mut game, "roll 3 3");
    assert_eq!(game.dice_set().unwrap().head_limit, 2);

    let mut game = white_on_its_first_roll();
    play(&mut game, "roll 5 5");
    play(&mut game, "24/19");
    assert_eq!(legal(&game), vec!["19/14"], "5-5 is not one of the first-roll doubles");
}

#[test]
fn the_first_roll_exception_does_not_reach_the_chain_steps() {
    let mut game = white_on_its_first_roll();
    play(&mut game, "roll 3 3");
    let most_off_head = |game: &Nard| {
        game.plays().iter().map(|p| p.moves.iter().filter(|m| m.leaves_head()).count()).max().unwrap()
    };
    assert_eq!(most_off_head(&game), 2);
    while game.dice_set().is_some_and(|s| s.kind == SetKind::Roll) {
        play_first(&mut game);
    }
    while game.dice_set().is_some_and(|s| s.kind == SetKind::Passed) {
        play_first(&mut game);
    }
    assert_eq!(in_play(&game), (W, SetKind::Chain, vec![4, 4, 4, 4]));
    assert_eq!(game.dice_set().unwrap().head_limit, 1);
    assert_eq!(most_off_head(&game), 1);
}

#[test]
fn each_chain_step_and_each_passed_set_may_take_one_checker_off_the_head() {
    let mut game = position(Board::opening(), W, &five_points());
    play(&mut game, "roll 1 1");
    for _ in 0..4 {
        play_first(&mut game);
    }
    assert_eq!(game.board().count(W, 20), 1);
    assert_eq!(in_play(&game), (W, SetKind::Chain, vec![2, 2, 2, 2]));
    assert!(legal(&game).contains(&"24/22".to_string()), "a chain step is its own dice set");
}

#[test]
fn with_the_head_rule_per_turn_a_chain_step_takes_nobody_off_the_head() {
    let setup = Setup { head_rule: HeadRule::PerTurn, ..five_points() };
    let mut game = position(Board::opening(), W, &setup);
    play(&mut game, "roll 1 1");
    for _ in 0..4 {
        play_first(&mut game);
    }
    assert_eq!(in_play(&game), (W, SetKind::Chain, vec![2, 2, 2, 2]));
    assert_eq!(legal(&game), vec!["20/18"], "the head checker of this turn has already left");
}

// ---------------------------------------------------------------------------------------------
// The prime rule

/// White: ten on the head and one each on 23, 22, 21, 20 (five points in a row), one on 8.
/// Black: fifteen on its head, or fourteen and one on its 3 (White's 15), past White's points.
fn prime_position(black_ahead: bool) -> Nard {
    let white = [(24, 10), (23, 1), (22, 1), (21, 1), (20, 1), (8, 1)];
    let black: &[(u8, u8)] = if black_ahead { &[(24, 14), (3, 1)] } else { BLACK_HEAD };
    position(board(&white, black), W, &five_points())
}

#[test]
fn six_points_in_a_row_need_an_opposing_checker_ahead() {
    let mut game = prime_position(false);
    play(&mut game, "roll 5 3");
    let moves = legal(&game);
    assert!(!moves.contains(&"24/19".to_string()), "24/19 would hold 19–24 with no black checker past them");
    assert!(moves.contains(&"24/21".to_string()));

    let mut game = prime_position(true);
    play(&mut game, "roll 5 3");
    assert!(legal(&game).contains(&"24/19".to_string()), "a black checker is on its 3, past the block");
}

#[test]
fn the_prime_rule_holds_after_every_single_move_inside_a_set() {
    // 24/21/16 and 24/19/16 end alike, but 24/19 holds six in a row on the way: only 24/21 leads there.
    let mut game = prime_position(false);
    play(&mut game, "roll 5 3");
    play(&mut game, "24/21");
    assert!(legal(&game).contains(&"21/16".to_string()));
    play(&mut game, "21/16");
    assert_eq!(game.board().count(W, 16), 1);
    assert!(!game.board().has_forbidden_prime(W));
}

// ---------------------------------------------------------------------------------------------
// Home freeze and bearing off

#[test]
fn home_checkers_do_not_move_before_bearing_off() {
    let mut game = position(board(&[(5, 14), (10, 1)], BLACK_HEAD), W, &five_points());
    play(&mut game, "roll 2 1");
    assert_eq!(legal(&game), vec!["10/9", "10/8"]);
    play(&mut game, "10/8");
    assert_eq!(legal(&game), vec!["8/7"]);
}

#[test]
fn bearing_off_is_exact_and_a_two_with_everything_on_point_one_passes() {
    // White: all fifteen on its point 1. Black: all fifteen on its 6.
    let mut game = position(board(&[(1, 15)], &[(6, 15)]), W, &five_points());
    play(&mut game, "roll 2 1");
    assert_eq!(legal(&game), vec!["1/off"], "the 2 cannot bear off from point 1");
    play(&mut game, "1/off");
    // The 2 passes to Black, whose checkers are all on its 6: it cannot use it either, so it is lost.
    assert_eq!(game.passed(), vec![W]);
    assert!(game.events().contains(&Event::NumbersLost { player: B, numbers: Numbers::from_slice(&[2]) }));
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B));
}

#[test]
fn a_higher_number_does_not_bear_off_from_a_lower_point() {
    let mut game = position(board(&[(1, 10), (3, 5)], &[(6, 15)]), W, &five_points());
    play(&mut game, "roll 6 5");
    // Neither number is usable by White; Black bears off with the 6, the 5 is lost.
    assert_eq!(in_play(&game), (B, SetKind::Passed, vec![6, 5]));
    assert_eq!(legal(&game), vec!["6/off"]);
    play(&mut game, "6/off");
    assert!(game.events().contains(&Event::NumbersLost { player: B, numbers: Numbers::from_slice(&[5]) }));
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B), "after an ordinary roll the opponent rolls");
}

#[test]
fn a_checker_entering_home_may_bear_off_with_the_next_number() {
    let mut game = position(board(&[(3, 14), (8, 1)], BLACK_HEAD), W, &five_points());
    play(&mut game, "roll 5 3");
    // 8/3 brings the last checker home and the 3 bears off; 8/5 does the same with the 5.
    assert_eq!(legal(&game), vec!["8/5", "8/3"]);
    play(&mut game, "8/3");
    assert_eq!(legal(&game), vec!["3/off"]);
}

// ---------------------------------------------------------------------------------------------
// Doubles chain and passed numbers

/// Each new dice set while `game` plays the first legal move until the next ordinary roll.
fn sets_until_the_next_roll(game: &mut Nard) -> Vec<(Seat, SetKind, Vec<u8>)> {
    let mut sets = Vec::new();
    let record = |game: &Nard, sets: &mut Vec<(Seat, SetKind, Vec<u8>)>| {
        for event in game.events() {
            if let Event::SetStarted { player, kind, numbers } = event {
                sets.push((*player, *kind, numbers.as_slice().to_vec()));
            }
        }
    };
    record(game, &mut sets);
    while game.dice_set().is_some() {
        play_first(game);
        record(game, &mut sets);
    }
    sets
}

#[test]
fn a_rolled_two_two_is_played_as_every_double_up_to_six_six() {
    let mut game = position(Board::opening(), W, &five_points());
    play(&mut game, "roll 2 2");
    let sets = sets_until_the_next_roll(&mut game);
    let own: Vec<(SetKind, Vec<u8>)> =
        sets.iter().filter(|(p, _, _)| *p == W).map(|(_, k, n)| (*k, n.clone())).collect();
    assert_eq!(
        own,
        vec![
            (SetKind::Roll, vec![2; 4]),
            (SetKind::Chain, vec![3; 4]),
            (SetKind::Chain, vec![4; 4]),
            (SetKind::Chain, vec![5; 4]),
            (SetKind::Chain, vec![6; 4]),
        ]
    );
    assert!(sets.iter().all(|(p, k, _)| *p == W || *k == SetKind::Passed), "Black only plays passed numbers");
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B));
}

#[test]
fn six_six_is_just_four_sixes() {
    let mut game = position(board(&[(24, 11), (20, 4)], BLACK_HEAD), W, &five_points());
    play(&mut game, "roll 6 6");
    let sets = sets_until_the_next_roll(&mut game);
    assert_eq!(sets[0], (W, SetKind::Roll, vec![6; 4]));
    assert!(sets.iter().all(|(_, k, _)| *k != SetKind::Chain));
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B));
}

#[test]
fn unplayable_numbers_pass_and_the_turn_returns_to_finish_the_chain() {
    // Black's checker on its 2 (White's 14) stops White's head checker after one 5.
    let mut game = position(board(&[(24, 15)], &[(24, 14), (2, 1)]), W, &five_points());
    play(&mut game, "roll 5 5");
    assert_eq!(legal(&game), vec!["24/19"]);
    play(&mut game, "24/19");
    assert_eq!(in_play(&game), (B, SetKind::Passed, vec![5, 5, 5]));
    assert_eq!(game.events()[0], Event::NumbersPassed { from: W, numbers: Numbers::repeat(5, 3) });
    assert!(!game.awaiting_roll(), "passed numbers are played without rolling");
    play(&mut game, "24/19");
    play(&mut game, "19/14");
    play(&mut game, "14/9");
    // Back to White for the rest of its chain: 4×6.
    assert_eq!(in_play(&game), (W, SetKind::Chain, vec![6, 6, 6, 6]));
    for _ in 0..4 {
        play_first(&mut game);
    }
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B));
}

#[test]
fn passed_numbers_never_pass_back() {
    // White (all on its 1) cannot use 6-5; Black (all on its 6) uses the 6, the 5 is lost.
    let mut game = position(board(&[(1, 15)], &[(6, 15)]), W, &five_points());
    play(&mut game, "roll 6 5");
    assert_eq!(in_play(&game), (B, SetKind::Passed, vec![6, 5]));
    play(&mut game, "6/off");
    assert_eq!(game.passed(), Vec::<Seat>::new(), "Black's leftover is lost, not passed");
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B));
}

#[test]
fn a_set_nobody_can_play_at_all_moves_straight_on() {
    // Neither side can use 6-5: the numbers pass and are lost inside the roll itself.
    let mut game = position(board(&[(1, 15)], &[(1, 15)]), W, &five_points());
    play(&mut game, "roll 6 5");
    assert_eq!(game.passed(), vec![W]);
    assert!(game.events().iter().any(|e| matches!(e, Event::NumbersLost { player, .. } if *player == B)));
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B));
}

// ---------------------------------------------------------------------------------------------
// Exact counts from the opening position

/// Distinct end positions of White's first dice set from the opening position.
fn count_from_opening(a: u8, b: u8) -> Vec<Board> {
    let first_roll_double = a == b && matches!(a, 3 | 4 | 6);
    let head = if first_roll_double { 2 } else { 1 };
    plays(&Board::opening(), W, Numbers::roll(a, b), head).into_iter().map(|p| p.board).collect()
}

fn white_after(points: &[(u8, u8)]) -> Board {
    board(points, BLACK_HEAD)
}

#[test]
fn every_non_double_from_the_opening_leaves_exactly_one_position() {
    // One checker may leave the head, so it plays both numbers: it ends on 24 − a − b, never on
    // Black's head (12) because a + b ≤ 11.
    for a in 1..=6u8 {
        for b in 1..a {
            let ends = count_from_opening(a, b);
            assert_eq!(ends, vec![white_after(&[(24, 14), (24 - a - b, 1)])], "roll {a}-{b}");
        }
    }
}

#[test]
fn an_opening_two_three_leaves_the_head_checker_on_nineteen_by_either_order() {
    let ends = plays(&Board::opening(), W, Numbers::roll(2, 3), 1);
    assert_eq!(ends.len(), 1);
    assert_eq!(ends[0].board, white_after(&[(24, 14), (19, 1)]));
    let game_order = {
        let mut game = Nard::new(&five_points());
        play(&mut game, "roll 3");
        play(&mut game, "roll 2");
        legal(&game)
    };
    assert_eq!(game_order, vec!["24/22", "24/21"], "both orders are legal");
}

#[test]
fn each_double_from_the_opening_on_a_first_roll() {
    // 1-1, 2-2, 5-5: one checker takes all four (to 20, 16, 4).
    assert_eq!(count_from_opening(1, 1), vec![white_after(&[(24, 14), (20, 1)])]);
    assert_eq!(count_from_opening(2, 2), vec![white_after(&[(24, 14), (16, 1)])]);
    assert_eq!(count_from_opening(5, 5), vec![white_after(&[(24, 14), (4, 1)])]);
    // 3-3, two may leave the head; one checker alone would reach 12 (closed): 21+15 or 18+18.
    let mut three = count_from_opening(3, 3);
    three.sort();
    let mut expected = vec![white_after(&[(24, 13), (21, 1), (15, 1)]), white_after(&[(24, 13), (18, 2)])];
    expected.sort();
    assert_eq!(three, expected);
    // 4-4: a third 4 from 16 lands on 12: only two checkers to 16.
    assert_eq!(count_from_opening(4, 4), vec![white_after(&[(24, 13), (16, 2)])]);
    // 6-6: two checkers to 18, the other sixes would land on 12: two sixes are left over.
    let six = plays(&Board::opening(), W, Numbers::roll(6, 6), 2);
    assert_eq!(six.len(), 1);
    assert_eq!(six[0].board, white_after(&[(24, 13), (18, 2)]));
    assert_eq!(six[0].left, Numbers::repeat(6, 2));
}

#[test]
fn the_twenty_one_rolls_from_the_opening_give_twenty_two_positions() {
    let total: usize = (1..=6u8).flat_map(|a| (1..=a).map(move |b| count_from_opening(a, b).len())).sum();
    assert_eq!(total, 22, "one each, and two for 3-3");
}

#[test]
fn a_later_double_from_a_developed_position_is_counted_by_hand() {
    // White: 13 on the head, one on 18 and one on 16; Black on its head (White's 12). Roll 4-4,
    // not the first roll. Head: one checker at most, and 24/20/16/12 stops at 12.
    // Fours: the head checker h may go 24→20→16 (at most 2 steps, 12 is closed);
    // the 18-checker a: 18→14→10→6 (3 steps, then frozen at home);
    // the 16-checker c: 16→12 closed, so it never moves.
    // Four fours: h + a = 4 with h ≤ 2 and a ≤ 3, so (h, a) = (1, 3) or (2, 2):
    // (1, 3) ends on 20 and 6, (2, 2) on 16 and 10. Two positions.
    let start = board(&[(24, 13), (18, 1), (16, 1)], BLACK_HEAD);
    let mut ends: Vec<Board> =
        plays(&start, W, Numbers::roll(4, 4), 1).into_iter().map(|p| p.board).collect();
    ends.sort();
    let mut expected = vec![
        board(&[(24, 12), (20, 1), (16, 1), (6, 1)], BLACK_HEAD),
        board(&[(24, 12), (16, 2), (10, 1)], BLACK_HEAD),
    ];
    expected.sort();
    assert_eq!(ends, expected);
}

// ---------------------------------------------------------------------------------------------
// End of a game, scoring, the cube, Crawford, the match

fn last_result(game: &Nard) -> (Option<Seat>, ResultKind, u32) {
    let r = game.last_game().expect("a finished game");
    (r.winner, r.kind, r.points)
}

#[test]
fn bearing_off_the_last_checker_wins_a_single_game_when_the_loser_bore_some_off() {
    // Black has borne one off: oin.
    let mut game = position(board(&[(1, 1)], &[(6, 14)]), W, &five_points());
    play(&mut game, "roll 2 1");
    play(&mut game, "1/off");
    assert_eq!(last_result(&game), (Some(W), ResultKind::Oin, 1));
    assert_eq!(game.score(W), 1);
    assert_eq!(game.game_number(), 2, "the next game starts by itself");
    assert_eq!(game.phase(), &Phase::Opening { white_die: None });
    assert_eq!(*game.board(), Board::opening());
    assert!(game.outcome().is_none());
}

#[test]
fn a_loser_with_nothing_borne_off_loses_a_mars_worth_two() {
    let mut game = position(board(&[(1, 1)], &[(6, 15)]), W, &five_points());
    play(&mut game, "roll 2 1");
    play(&mut game, "1/off");
    assert_eq!(last_result(&game), (Some(W), ResultKind::Mars, 2));
    assert_eq!(game.score(W), 2);
}

#[test]
fn the_rest_of_the_dice_and_the_chain_are_void_once_a_game_is_won() {
    // White rolls 1-1 with two checkers on its 1: both go off and the chain (2-2 … 6-6) is void.
    let mut game = position(board(&[(1, 2)], &[(6, 14)]), W, &five_points());
    play(&mut game, "roll 1 1");
    play(&mut game, "1/off");
    play(&mut game, "1/off");
    assert_eq!(last_result(&game), (Some(W), ResultKind::Oin, 1));
    assert_eq!(game.chain_next(), None);
    assert_eq!(game.phase(), &Phase::Opening { white_die: None });
}

#[test]
fn points_are_multiplied_by_the_cube() {
    let mut game = position(board(&[(1, 1)], &[(6, 15)]), W, &five_points());
    assert_eq!(legal(&game), vec!["double"]);
    play(&mut game, "double");
    play(&mut game, "take");
    assert_eq!(game.cube().value, 2);
    play(&mut game, "roll 2 1");
    play(&mut game, "1/off");
    assert_eq!(last_result(&game), (Some(W), ResultKind::Mars, 4));
    assert_eq!(game.score(W), 4);
    assert_eq!(game.last_game().map(|r| r.cube), Some(2), "the game was played for the cube's ×2");
    assert_eq!(game.cube().value, 1, "every game starts with the cube in the middle");
    assert_eq!(game.cube().owner, None);
}

#[test]
fn the_deadlock_is_a_draw_and_the_match_goes_on() {
    // White holds its whole home and has three on its head. Black holds its 1–5 and three on its
    // head; its checker on 8 fills its 6: both homes full, both with checkers in their first quarter.
    let white = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (24, 3)];
    let black = [(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (8, 2), (24, 3)];
    let mut game = position(board(&white, &black), B, &five_points());
    assert!(!game.board().is_deadlock());
    play(&mut game, "roll 2 1");
    play(&mut game, "8/6");
    assert_eq!(last_result(&game), (None, ResultKind::Draw, 0));
    assert_eq!((game.score(W), game.score(B)), (0, 0));
    assert_eq!(game.game_number(), 2);
    assert!(game.outcome().is_none());
}

#[test]
fn doubling_comes_only_before_an_ordinary_roll_and_take_hands_over_the_cube() {
    let mut game = white_on_its_first_roll();
    assert!(game.can_double(W));
    assert!(!game.can_double(B));
    play(&mut game, "double");
    assert!(!game.awaiting_roll(), "no dice are due while a double waits for its answer");
    assert_eq!(game.to_move(), Some(B));
    assert_eq!(legal(&game), vec!["take", "drop"]);
    play(&mut game, "take");
    assert_eq!(game.cube().value, 2);
    assert_eq!(game.cube().owner, Some(B));
    assert_eq!(game.phase(), &Phase::AwaitingRoll(W), "after a take the doubler rolls");
    assert!(legal(&game).is_empty(), "the cube is Black's now");
    assert!(refused(&game, "double"));
    play(&mut game, "roll 6 5");
    assert!(refused(&game, "double"), "never during a dice set");
    while !game.awaiting_roll() {
        play_first(&mut game);
    }
    assert_eq!(game.phase(), &Phase::AwaitingRoll(B));
    assert_eq!(legal(&game), vec!["double"], "the owner may redouble");
    play(&mut game, "double");
    play(&mut game, "drop");
    assert_eq!(last_result(&game), (Some(B), ResultKind::Dropped, 2), "the value before the double");
    assert_eq!(game.last_game().map(|r| r.cube), Some(2), "played for the cube before the double");
    assert_eq!(game.score(B), 2);
}

#[test]
fn no_double_during_a_chain_or_passed_numbers() {
    let mut game = position(Board::opening(), W, &five_points());
    play(&mut game, "roll 2 2");
    for _ in 0..50 {
        if game.awaiting_roll() {
            break;
        }
        assert!(!game.legal_actions().contains(&NardAction::Double));
        assert!(!game.can_double(W) && !game.can_double(B));
        play_first(&mut game);
    }
    assert!(game.can_double(B));
}

#[test]
fn a_one_point_match_has_no_cube() {
    let game = position(Board::opening(), W, &Setup::standard(1));
    assert!(!game.can_double(W));
    assert!(legal(&game).is_empty());
    assert!(refused(&game, "double"));
}

#[test]
fn the_cube_stops_at_sixty_four() {
    let mut game = position(Board::opening(), W, &Setup::standard(25));
    let mut doubler = W;
    for _ in 0..6 {
        play(&mut game, "double");
        play(&mut game, "take");
        // The taker owns the cube; let the doubler's turn pass by a roll nobody can refuse.
        let taker = doubler.opponent();
        while game.phase() != &Phase::AwaitingRoll(taker) {
            if game.awaiting_roll() {
                play(&mut game, "roll 2 1");
            } else {
                play_first(&mut game);
            }
        }
        doubler = taker;
    }
    assert_eq!(game.cube().value, 64);
    assert!(!game.can_double(doubler));
}

/// Plays the game under way with the first legal move and fixed dice until it ends.
fn finish_the_game(game: &mut Nard, dice: &[(u8, u8)]) {
    let number = game.game_number();
    let mut turn = 0;
    while game.game_number() == number && game.outcome().is_none() {
        match game.phase() {
            Phase::Opening { white_die: None } => play(game, "roll 6"),
            Phase::Opening { .. } => play(game, "roll 1"),
            Phase::AwaitingRoll(_) => {
                let (a, b) = dice[turn % dice.len()];
                turn += 1;
                game.apply(&NardAction::roll(a, b)).unwrap();
            }
            _ => {
                play_first(game);
            }
        }
    }
}

/// A 5-point match where White wins the first game by 4 points: doubled, taken, redoubled by
/// Black, taken, and White's third double dropped.
fn white_four_points_up(setup: &Setup) -> Nard {
    let mut game = position(Board::opening(), W, setup);
    let until_roll_of = |game: &mut Nard, seat: Seat| {
        while game.phase() != &Phase::AwaitingRoll(seat) {
            if game.awaiting_roll() {
                play(game, "roll 2 1");
            } else {
                play_first(game);
            }
        }
    };
    play(&mut game, "double");
    play(&mut game, "take");
    until_roll_of(&mut game, B);
    play(&mut game, "double");
    play(&mut game, "take");
    assert_eq!(game.cube(), tabla::rules::nard::Cube { value: 4, owner: Some(W) });
    until_roll_of(&mut game, W);
    play(&mut game, "double");
    play(&mut game, "drop");
    assert_eq!(last_result(&game), (Some(W), ResultKind::Dropped, 4));
    game
}

#[test]
fn the_crawford_game_has_no_cube_and_the_games_after_it_have() {
    let mut game = white_four_points_up(&five_points());
    assert_eq!(game.score(W), 4);
    assert!(game.is_crawford_game(), "the first game after reaching one point short");
    assert!(game.events().contains(&Event::GameStarted { number: 2, crawford: true }));
    // Play the Crawford game out; the dice favour Black (6-5, 4-3, 2-1 in turn against White's 2-1).
    let mut saw_roll = false;
    let mut black_rolls = 0;
    while game.game_number() == 2 {
        if let Phase::AwaitingRoll(seat) = *game.phase() {
            assert!(!game.can_double(seat), "no cube in the Crawford game");
            saw_roll = true;
        }
        finish_step(&mut game, &mut black_rolls);
    }
    assert!(saw_roll);
    assert_eq!(game.last_game().unwrap().winner, Some(B), "the dice were chosen for Black");
    assert!(game.outcome().is_none());
    assert!(!game.is_crawford_game());
    // Game 3: the cube is back.
    play(&mut game, "roll 1");
    play(&mut game, "roll 6");
    while !game.awaiting_roll() {
        play_first(&mut game);
    }
    assert!(game.can_double(W));
}

#[test]
fn without_the_crawford_rule_the_cube_stays() {
    let setup = Setup { crawford: false, ..five_points() };
    let game = white_four_points_up(&setup);
    assert!(!game.is_crawford_game());
    assert!(game.events().contains(&Event::GameStarted { number: 2, crawford: false }));
}

/// One step of a game where Black rolls 6-5, 4-3 and 2-1 in turn and White always 2-1 (Black
/// wins the opening too).
fn finish_step(game: &mut Nard, black_rolls: &mut usize) {
    match game.phase() {
        Phase::Opening { white_die: None } => play(game, "roll 1"),
        Phase::Opening { .. } => play(game, "roll 6"),
        Phase::AwaitingRoll(seat) => {
            let roll = if *seat == B {
                *black_rolls += 1;
                ["roll 6 5", "roll 4 3", "roll 2 1"][*black_rolls % 3]
            } else {
                "roll 2 1"
            };
            play(game, roll);
        }
        _ => {
            play_first(game);
        }
    }
}

#[test]
fn the_match_ends_when_a_player_reaches_its_length() {
    let mut game = position(board(&[(1, 1)], &[(6, 14)]), W, &Setup::standard(1));
    play(&mut game, "roll 2 1");
    play(&mut game, "1/off");
    let outcome = game.outcome().expect("the match is over");
    assert_eq!(outcome.winner, Winner::Seat(W));
    assert_eq!(outcome.reason, EndReason::Goal);
    assert_eq!(game.to_move(), None);
    assert_eq!(game.chance(), None);
    assert_eq!(game.apply(&NardAction::roll(3, 1)), Err(RuleError::GameOver));
}

#[test]
fn a_match_plays_game_after_game_until_someone_has_enough() {
    let mut game = Nard::new(&Setup { cube: false, crawford: false, ..Setup::standard(3) });
    let mut games = 0;
    while game.outcome().is_none() {
        finish_the_game(&mut game, &[(6, 5), (4, 3), (2, 1), (5, 5)]);
        games += 1;
        assert!(games < 10);
    }
    let winner = match game.outcome().unwrap().winner {
        Winner::Seat(seat) => seat,
        other => panic!("a match has one winner, not {other:?}"),
    };
    assert!(game.score(winner) >= 3);
    assert!(game.score(winner.opponent()) < 3);
}

#[test]
fn a_time_out_loses_the_match() {
    let mut game = Nard::new(&five_points());
    game.time_out(B);
    assert_eq!(game.outcome().unwrap().winner, Winner::Seat(W));
    assert_eq!(game.outcome().unwrap().reason, EndReason::OutOfTime);
}

// ---------------------------------------------------------------------------------------------
// Actions as text, and the screen's helpers

#[test]
fn actions_read_and_write_as_in_the_text_interface() {
    let game = Nard::new(&five_points());
    let reads = |t: &str| game.parse_action(t).ok();
    assert_eq!(reads("roll 3 5"), Some(NardAction::Roll(5, 3)));
    assert_eq!(reads("roll 4"), Some(NardAction::OpeningDie(4)));
    assert_eq!(reads("24/21"), Some(NardAction::Move(CheckerMove::new(24, 21))));
    assert_eq!(reads("3/off"), Some(NardAction::Move(CheckerMove::bear_off(3))));
    assert_eq!(reads("double"), Some(NardAction::Double));
    assert_eq!(reads("take"), Some(NardAction::Take));
    assert_eq!(reads("drop"), Some(NardAction::Drop));
    for bad in ["roll 7", "roll 0 3", "24/17", "9/off", "25/20", "21/24", "hello", "roll"] {
        assert!(reads(bad).is_none(), "{bad} should not read");
    }
    assert_eq!(game.action_text(&NardAction::Move(CheckerMove::bear_off(3))), "3/off");
    assert_eq!(game.action_text(&NardAction::roll(3, 5)), "roll 5 3");
}

#[test]
fn the_screen_can_ask_for_movable_checkers_and_their_targets() {
    let mut game = position(board(&[(24, 14), (20, 1)], BLACK_HEAD), W, &five_points());
    play(&mut game, "roll 6 2");
    assert_eq!(game.movable_points(), vec![24, 20]);
    let targets: Vec<u8> = game.targets_from(20).iter().map(|m| m.to).collect();
    assert_eq!(targets, vec![18, 14]);
    assert!(game.targets_from(7).is_empty());
}

#[test]
fn the_screen_can_ask_where_one_checker_can_get_with_several_numbers() {
    // 6-2 from the head: 24/22, 24/18, and 24/22/16 or 24/18/16 to 16 (one route kept).
    let mut game = position(Board::opening(), W, &five_points());
    play(&mut game, "roll 6 2");
    let ends: Vec<(u8, usize)> =
        game.routes_from(24).iter().map(|r| (r.last().unwrap().to, r.len())).collect();
    assert_eq!(ends, vec![(22, 1), (18, 1), (16, 2)]);
    assert!(game.routes_from(20).is_empty());
}

#[test]
fn a_draft_previews_and_takes_back_moves_inside_the_dice_set() {
    let mut game = position(Board::opening(), W, &five_points());
    play(&mut game, "roll 4 2");
    let mut draft = Draft::new(&game).expect("a dice set is in play");
    draft.play(CheckerMove::new(24, 20)).unwrap();
    assert_eq!(draft.game().board().count(W, 20), 1);
    assert!(draft.is_open());
    assert_eq!(draft.take_back(), Some(CheckerMove::new(24, 20)));
    assert_eq!(draft.game(), &game);
    draft.play(CheckerMove::new(24, 22)).unwrap();
    draft.play(CheckerMove::new(22, 18)).unwrap();
    assert!(!draft.is_open(), "both numbers are played: the set waits to be confirmed");
    assert!(draft.play(CheckerMove::new(24, 20)).is_err());
    assert_eq!(draft.take_back(), Some(CheckerMove::new(22, 18)));
    assert!(draft.is_open());
    draft.play(CheckerMove::new(22, 18)).unwrap();
    let actions = draft.actions();
    let confirmed = draft.commit();
    assert_eq!(confirmed.phase(), &Phase::AwaitingRoll(B));
    for action in actions {
        game.apply(&action).unwrap();
    }
    assert_eq!(game, confirmed);
}

// ---------------------------------------------------------------------------------------------
// Why a checker cannot move (what the screen tells a child who taps it)

#[test]
fn a_checker_at_home_is_frozen_until_bearing_off() {
    let mut game = position(board(&[(5, 14), (10, 1)], BLACK_HEAD), W, &five_points());
    play(&mut game, "roll 2 1");
    assert_eq!(game.why_stuck(5), Some(Stuck::HomeFrozen));
    assert_eq!(game.why_stuck(10), None, "the checker on 10 can move");
    assert_eq!(game.why_stuck(11), None, "no checker there");
}

#[test]
fn a_second_checker_off_the_head_is_held_by_the_head_rule() {
    let mut game = position(Board::opening(), W, &five_points());
    play(&mut game, "roll 4 2");
    assert_eq!(game.why_stuck(HEAD), None);
    play(&mut game, "24/20");
    assert_eq!(game.why_stuck(HEAD), Some(Stuck::HeadUsed));
}

#[test]
fn a_checker_whose_numbers_all_land_on_the_opponent_is_closed_in() {
    // Black on its 6 and 4, White's 18 and 16: the checker on 20 cannot play the 2 or the 4.
    let b = board(&[(24, 14), (20, 1)], &[(24, 13), (6, 1), (4, 1)]);
    let mut game = position(b, W, &five_points());
    play(&mut game, "roll 4 2");
    assert_eq!(game.why_stuck(20), Some(Stuck::Closed));
    assert_eq!(game.why_stuck(HEAD), None);
}

#[test]
fn a_checker_that_would_close_six_in_a_row_is_held_by_the_prime_rule() {
    // White holds 18–22 and its head; a 1 from the head would hold 18–24 with no black ahead.
    let white = [(24, 5), (22, 2), (21, 2), (20, 2), (19, 2), (18, 2)];
    let mut game = position(board(&white, BLACK_HEAD), W, &five_points());
    play(&mut game, "roll 1 1");
    assert!(!legal(&game).contains(&"24/23".to_string()));
    assert_eq!(game.why_stuck(HEAD), Some(Stuck::Prime));
}

#[test]
fn a_checker_that_cannot_bear_off_exactly_waits() {
    let mut game = position(board(&[(1, 14), (4, 1)], &[(6, 15)]), W, &five_points());
    play(&mut game, "roll 2 1");
    assert_eq!(legal(&game), vec!["1/off"]);
    assert_eq!(game.why_stuck(4), Some(Stuck::ExactBearOff));
}

/// Every reason given in 300 seeded random games holds: a checker is called stuck exactly when it
/// has no legal move, and each reason is what the rules say about it.
#[test]
fn the_reason_a_checker_is_stuck_agrees_with_the_rules() {
    let mut seen = std::collections::HashSet::new();
    for seed in 0..300u64 {
        let mut rng = tabla::chance::rng(seed);
        let mut game = Nard::new(&Setup { cube: false, ..five_points() });
        for _ in 0..400 {
            if game.outcome().is_some() {
                break;
            }
            if let Some(set) = game.dice_set() {
                let (seat, board) = (set.player, *game.board());
                let head_free = set.head_left() > 0;
                for from in 1..=24u8 {
                    let why = game.why_stuck(from);
                    let has_checker = board.count(seat, from) > 0;
                    assert_eq!(
                        why.is_some(),
                        has_checker && game.targets_from(from).is_empty(),
                        "{from}: {game:?}"
                    );
                    let alone =
                        set.left.distinct().any(|d| board.single_move(seat, from, d, head_free).is_some());
                    match why {
                        Some(Stuck::PlayOthersFirst) => assert!(alone),
                        Some(Stuck::ExactBearOff) => assert!(!alone && board.is_bearing_off(seat)),
                        Some(Stuck::HomeFrozen) => {
                            assert!(!alone && from <= 6 && !board.is_bearing_off(seat))
                        }
                        Some(Stuck::HeadUsed) => assert!(from == HEAD && !head_free),
                        Some(Stuck::Closed) => {
                            assert!(set.left.distinct().all(|d| board.opponent_on(seat, from - d)))
                        }
                        Some(Stuck::Prime) => assert!(!alone && from > 6),
                        None => {}
                    }
                    if let Some(why) = why {
                        seen.insert(why);
                    }
                }
            }
            let action = match game.chance() {
                Some(rolls) => tabla::chance::pick_chance(rolls, &mut rng),
                None => tabla::robot::random_action(&game, &mut rng),
            };
            game.apply(&action.expect("someone can act")).unwrap();
        }
    }
    assert!(seen.len() >= 4, "the random games met only {seen:?}");
}

#[test]
fn a_turn_that_rolled_a_double_tells_where_its_chain_began() {
    let mut game = position(Board::opening(), W, &five_points());
    assert_eq!(game.chain_start(), None);
    play(&mut game, "roll 2 2");
    assert_eq!(game.chain_start(), Some(2));
    // Every step of the chain and the numbers passed in between keep it.
    for _ in 0..40 {
        if game.awaiting_roll() {
            break;
        }
        assert_eq!(game.chain_start(), Some(2));
        play_first(&mut game);
    }
    assert!(game.awaiting_roll());
    play(&mut game, "roll 5 3");
    assert_eq!(game.chain_start(), None, "a roll that is no double starts no chain");
}
