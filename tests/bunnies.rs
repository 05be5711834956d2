//! Bunnies and Horses against spec/bunnies.md: every rule, the two-round match, the level files,
//! the text interface, random-playout invariants and the Robot in both roles.

mod shared;
use shared::{session, sq, squares};
use tabla::chance;

use std::collections::HashSet;
use tabla::levels::{self, LevelGame};
use tabla::robot;
use tabla::robot::RobotLevel;
use tabla::rules::board::{Move, Square};
use tabla::rules::bunnies::{
    BunniesAndHorses, GardenEntry, Role, RoundEnd, RoundSummary, STUCK_LIMIT, Setup,
};
use tabla::rules::{EndReason, Game, RuleError, Seat, Winner};
use tabla::text;

const P1: Seat = Seat(0);
const P2: Seat = Seat(1);

fn names(squares: impl Iterator<Item = Square>) -> Vec<String> {
    let mut list: Vec<String> = squares.map(|s| s.to_string()).collect();
    list.sort();
    list
}

fn game(bunnies: &[&str], horses: &[&str]) -> BunniesAndHorses {
    BunniesAndHorses::new(&Setup { bunnies: squares(bunnies), horses: squares(horses) })
}

fn play(game: &mut BunniesAndHorses, text: &str) {
    let action = game.parse_action(text).unwrap();
    game.apply(&action).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn targets(game: &BunniesAndHorses, from: &str) -> Vec<String> {
    let mut list: Vec<String> = game.legal_targets(sq(from)).iter().map(|s| s.to_string()).collect();
    list.sort();
    list
}

fn level_game(file: &str) -> BunniesAndHorses {
    match levels::find(file).unwrap().game {
        LevelGame::Bunnies(level) => BunniesAndHorses::new(&level.setup),
        other => panic!("not a Bunnies and Horses level: {other:?}"),
    }
}

// ---- Setup -------------------------------------------------------------------------------------

#[test]
fn both_variants_start_with_eight_bunnies_on_rank_2_and_their_horses() {
    let all_rank_2: Vec<String> = "abcdefgh".chars().map(|f| format!("{f}2")).collect();
    let one = level_game("ron_configs/bunnies/one_horse.ron");
    assert_eq!(names(one.bunnies()), all_rank_2);
    assert_eq!(names(one.horses()), ["b8"]);
    let two = level_game("ron_configs/bunnies/two_horses.ron");
    assert_eq!(names(two.bunnies()), all_rank_2);
    assert_eq!(names(two.horses()), ["b8", "g8"]);
    for start in [one, two] {
        assert_eq!(start.round(), 1);
        assert_eq!(start.role_to_move(), Some(Role::Bunnies), "bunnies move first");
        assert_eq!(start.to_move(), Some(P1), "Player 1 plays the bunnies of round 1");
        assert_eq!((start.score(P1), start.score(P2), start.stuck()), (0, 0, 0));
    }
}

#[test]
fn the_variants_have_their_own_names() {
    let variants: Vec<String> = levels::builtin()
        .into_iter()
        .filter(|l| l.kind().code() == "bunnies")
        .map(|l| l.variant().to_string())
        .collect();
    assert_eq!(variants, ["one_horse", "two_horses"], "the easier variant is offered first");
}

// ---- Bunny moves -------------------------------------------------------------------------------

#[test]
fn a_bunny_steps_one_square_forward_and_from_rank_2_also_two() {
    let start = game(&["e2", "c4"], &["h8"]);
    assert_eq!(targets(&start, "e2"), ["e3", "e4"]);
    assert_eq!(targets(&start, "c4"), ["c5"], "two squares only from rank 2");
}

#[test]
fn a_bunny_never_moves_backwards_or_sideways() {
    let mut start = game(&["d4"], &["h8"]);
    for bad in ["d4d3", "d4c4", "d4e4", "d4c3", "d4d6", "d4c5"] {
        let action = start.parse_action(bad).unwrap();
        assert!(matches!(start.apply(&action), Err(RuleError::Illegal(_))), "{bad}");
    }
    assert_eq!(start, game(&["d4"], &["h8"]), "a refused action changes nothing");
}

#[test]
fn a_piece_in_front_blocks_a_bunny_and_its_double_step() {
    let blocked_by_horse = game(&["e2", "h2"], &["e3", "a8"]);
    assert!(targets(&blocked_by_horse, "e2").is_empty());
    let second_square_taken = game(&["e2", "h2"], &["e4", "a8"]);
    assert_eq!(targets(&second_square_taken, "e2"), ["e3"]);
    let blocked_by_bunny = game(&["e4", "e5"], &["a8"]);
    assert!(targets(&blocked_by_bunny, "e4").is_empty());
    assert_eq!(targets(&blocked_by_bunny, "e5"), ["e6"]);
}

#[test]
fn a_bunny_takes_a_horse_one_square_diagonally_forward() {
    let start = game(&["d4"], &["c5", "e5", "h8"]);
    assert_eq!(targets(&start, "d4"), ["c5", "d5", "e5"]);
    let mut taken = start;
    play(&mut taken, "d4e5");
    assert_eq!(names(taken.horses()), ["c5", "h8"]);
    assert_eq!(names(taken.bunnies()), ["e5"]);
    assert!(taken.last_move_captured());
    // Not straight ahead, not backwards, and never a bunny.
    let no_capture = game(&["d4", "c5"], &["d5", "c3", "e3", "h8"]);
    assert!(targets(&no_capture, "d4").is_empty());
}

#[test]
fn a_bunny_stepping_onto_rank_8_enters_the_garden() {
    let mut start = game(&["c7", "h2"], &["a1"]);
    play(&mut start, "c7c8");
    assert_eq!(names(start.bunnies()), ["h2"], "it leaves the board");
    assert_eq!(start.score(P1), 1);
    assert_eq!(start.garden(), 1);
    assert_eq!(start.entered_garden(), [(sq("c8"), GardenEntry::Step)]);
    assert_eq!(start.role_to_move(), Some(Role::Horses));
}

#[test]
fn a_bunny_taking_a_horse_on_rank_8_enters_the_garden() {
    let mut start = game(&["b7", "h2"], &["a8", "h8"]);
    play(&mut start, "b7a8");
    assert_eq!(names(start.horses()), ["h8"]);
    assert_eq!(names(start.bunnies()), ["h2"]);
    assert_eq!(start.score(P1), 1);
    assert_eq!(start.entered_garden(), [(sq("a8"), GardenEntry::Capture)]);
    assert_eq!(start.round(), 1, "a horse is left, so the round goes on");
}

// ---- Horse moves -------------------------------------------------------------------------------

#[test]
fn a_horse_jumps_in_an_l_over_anything() {
    let mut start = level_game("ron_configs/bunnies/one_horse.ron");
    play(&mut start, "a2a3");
    assert_eq!(targets(&start, "b8"), ["a6", "c6", "d7"], "the seed page's example");
    // Surrounded by bunnies, it still jumps out.
    let mut walled = game(&["c2", "d2", "e2", "c3", "e3", "c4", "d4", "e4", "a2"], &["d3"]);
    play(&mut walled, "a2a3");
    assert_eq!(targets(&walled, "d3"), ["b2", "b4", "c1", "c5", "e1", "e5", "f2", "f4"]);
}

#[test]
fn a_horse_landing_on_a_bunny_catches_it() {
    let mut start = game(&["a2", "e4"], &["f6"]);
    play(&mut start, "a2a3");
    play(&mut start, "f6e4");
    assert_eq!(names(start.bunnies()), ["a3"]);
    assert_eq!(names(start.horses()), ["e4"]);
    assert!(start.last_move_captured());
    assert_eq!(start.caught(), 1);
    assert_eq!(start.score(P2), 0, "catching scores nothing");
}

#[test]
fn a_horse_never_lands_on_the_other_horse() {
    let mut start = game(&["a2"], &["b8", "d7"]);
    play(&mut start, "a2a3");
    assert_eq!(targets(&start, "b8"), ["a6", "c6"]);
}

#[test]
fn the_sides_take_turns_one_piece_each() {
    let mut start = level_game("ron_configs/bunnies/two_horses.ron");
    play(&mut start, "e2e4");
    assert_eq!(start.role_to_move(), Some(Role::Horses));
    assert_eq!(start.to_move(), Some(P2));
    assert!(targets(&start, "e4").is_empty(), "not the bunnies' turn");
    let action = start.parse_action("d2d4").unwrap();
    assert!(start.apply(&action).is_err());
    play(&mut start, "g8f6");
    assert_eq!(start.role_to_move(), Some(Role::Bunnies));
}

// ---- Passing and the stuck rule ----------------------------------------------------------------

#[test]
fn stuck_bunnies_pass_and_the_horses_move_again() {
    let mut start = game(&["h4"], &["h6", "a8"]);
    play(&mut start, "h4h5");
    assert_eq!(start.stuck(), 0);
    play(&mut start, "a8b6");
    assert_eq!(start.passed(), [P1], "the bunnies had no move");
    assert_eq!(start.role_to_move(), Some(Role::Horses));
    assert_eq!(start.stuck(), 1);
}

#[test]
fn a_bunny_that_can_take_is_not_stuck() {
    let start = game(&["e4"], &["e5", "d5", "h8"]);
    assert_eq!(start.legal_actions(), [Move::new(sq("e4"), sq("d5"))]);
    assert_eq!(start.stuck(), 0);
}

#[test]
fn three_stuck_bunny_turns_in_a_row_end_the_round_and_the_stuck_bunnies_score_nothing() {
    let mut start = game(&["h4"], &["h6", "a8"]);
    play(&mut start, "h4h5");
    play(&mut start, "a8b6");
    assert_eq!(start.stuck(), 1);
    play(&mut start, "b6a8");
    assert_eq!((start.stuck(), start.round()), (2, 1));
    assert_eq!(names(start.bunnies()), ["h5"]);
    play(&mut start, "a8b6");
    assert_eq!(start.round_just_ended(), Some((1, RoundEnd::Stuck)));
    assert_eq!(start.round_end(1), Some(RoundEnd::Stuck));
    assert_eq!(start.ended_round_position(), Some((squares(&["h5"]), squares(&["b6", "h6"]))));
    assert_eq!(start.score(P1), 0, "the bunny left on h5 brings nothing");
    assert_eq!(start.round(), 2);
    assert_eq!(start.stuck(), 0, "a new round counts afresh");
}

#[test]
fn a_bunny_turn_with_a_move_starts_the_stuck_count_again() {
    // c5 faces the horse on c6 from the very first turn.
    let mut start = game(&["c5"], &["c6", "e8", "h1"]);
    assert_eq!(start.stuck(), 1);
    assert_eq!(start.role_to_move(), Some(Role::Horses));
    play(&mut start, "h1g3");
    assert_eq!(start.stuck(), 2);
    play(&mut start, "c6a5");
    assert_eq!(start.stuck(), 0, "the bunny can step again");
    assert_eq!(start.legal_actions(), [Move::new(sq("c5"), sq("c6"))]);
    play(&mut start, "c5c6");
    play(&mut start, "e8c7");
    assert_eq!((start.stuck(), start.round()), (1, 1), "stuck again, counted from one");
    play(&mut start, "g3h1");
    assert_eq!((start.stuck(), start.round()), (2, 1));
    play(&mut start, "h1g3");
    assert_eq!(start.round_just_ended(), Some((1, RoundEnd::Stuck)));
    assert_eq!(STUCK_LIMIT, 3);
}

// ---- The other two ends of a round -------------------------------------------------------------

#[test]
fn a_round_ends_when_the_last_bunny_is_caught() {
    let mut start = game(&["e4"], &["d7", "h8"]);
    play(&mut start, "e4e5");
    play(&mut start, "d7e5");
    assert_eq!(start.round_just_ended(), Some((1, RoundEnd::NoBunnies)));
    assert_eq!(start.score(P1), 0);
    assert_eq!(start.round(), 2);
}

#[test]
fn a_round_ends_when_the_last_bunny_enters_the_garden() {
    let mut start = game(&["c7"], &["a1"]);
    play(&mut start, "c7c8");
    assert_eq!(start.round_just_ended(), Some((1, RoundEnd::NoBunnies)));
    assert_eq!(start.score(P1), 1);
    assert_eq!(start.entered_garden(), [(sq("c8"), GardenEntry::Step)]);
}

#[test]
fn when_the_last_horse_is_caught_every_bunny_left_enters_the_garden() {
    let mut start = game(&["a2", "c4", "e6"], &["d5"]);
    play(&mut start, "c4d5");
    assert_eq!(start.round_just_ended(), Some((1, RoundEnd::NoHorses)));
    assert_eq!(start.score(P1), 3, "the taker and the two others");
    assert_eq!(start.ended_round_position(), Some((vec![], vec![])));
    let expected: Vec<(Square, GardenEntry)> =
        ["a2", "d5", "e6"].iter().map(|s| (sq(s), GardenEntry::HorsesGone)).collect();
    assert_eq!(start.entered_garden(), expected);
}

#[test]
fn catching_the_last_horse_on_rank_8_scores_the_taker_and_the_rest() {
    let mut start = game(&["b7", "h2"], &["a8"]);
    play(&mut start, "b7a8");
    assert_eq!(start.score(P1), 2);
    assert_eq!(
        start.entered_garden(),
        [(sq("h2"), GardenEntry::HorsesGone), (sq("a8"), GardenEntry::Capture)]
    );
    assert_eq!(start.round_just_ended(), Some((1, RoundEnd::NoHorses)));
}

#[test]
fn with_a_horse_left_the_round_goes_on() {
    let mut start = game(&["c4", "h2"], &["d5", "h8"]);
    play(&mut start, "c4d5");
    assert_eq!(start.round_just_ended(), None);
    assert_eq!(start.score(P1), 0);
    assert_eq!(names(start.bunnies()), ["d5", "h2"]);
}

// ---- Why a round ended, for the screen -----------------------------------------------------------

/// Plays round 1 from a setup, then checks that its summary is told and stays told in round 2.
fn round_1_summary(bunnies: &[&str], horses: &[&str], moves: &[&str]) -> RoundSummary {
    let mut match_ = game(bunnies, horses);
    assert_eq!(match_.round_summary(1), None, "not over yet");
    for text in moves {
        play(&mut match_, text);
    }
    assert_eq!(match_.round(), 2, "round 1 is over");
    let summary = match_.round_summary(1).expect("round 1 is over");
    assert_eq!(match_.round_end(1), Some(summary.end));
    assert_eq!((summary.round, summary.bunnies_seat), (1, P1));
    assert_eq!(summary.garden, match_.score(P1), "the bunnies' score is the garden");
    assert_eq!(summary.garden + summary.caught + summary.left, bunnies.len() as u8);
    // Still told once round 2 is under way, and round 2 is not over.
    // A step (listed after the captures) that does not end round 2 at once.
    let step = *match_.legal_actions().last().expect("the bunnies move");
    match_.play(&step);
    assert_eq!(match_.round_summary(1), Some(summary));
    assert_eq!(match_.round_summary(2), None);
    assert_eq!(match_.round_end(2), None);
    summary
}

#[test]
fn a_round_ended_by_catching_every_bunny_says_so() {
    let summary = round_1_summary(&["e4"], &["d7", "h8"], &["e4e5", "d7e5"]);
    assert_eq!(summary.end, RoundEnd::NoBunnies);
    assert_eq!((summary.garden, summary.caught, summary.left), (0, 1, 0));
}

#[test]
fn a_round_ended_by_the_last_bunny_entering_the_garden_says_so() {
    // One bunny caught on the way, the other reaches the garden.
    let summary = round_1_summary(&["c7", "h4"], &["g7", "a1"], &["h4h5", "g7h5", "c7c8"]);
    assert_eq!(summary.end, RoundEnd::NoBunnies);
    assert_eq!((summary.garden, summary.caught, summary.left), (1, 1, 0));
}

#[test]
fn a_round_ended_by_catching_the_last_horse_says_so() {
    let summary = round_1_summary(&["a2", "c4", "e6"], &["d5"], &["c4d5"]);
    assert_eq!(summary.end, RoundEnd::NoHorses);
    assert_eq!((summary.garden, summary.caught, summary.left), (3, 0, 0), "every bunny left walks in");
}

#[test]
fn a_round_ended_by_stuck_bunnies_says_so() {
    let summary = round_1_summary(&["h4"], &["h6", "a8"], &["h4h5", "a8b6", "b6a8", "a8b6"]);
    assert_eq!(summary.end, RoundEnd::Stuck);
    assert_eq!((summary.garden, summary.caught, summary.left), (0, 0, 1), "the stuck bunny scores nothing");
    assert_eq!(RoundEnd::Stuck.key(), "stuck");
}

#[test]
fn both_rounds_are_told_after_the_match_and_there_is_no_round_0_or_3() {
    let over = race(&BUNNY_GETS_IN, &BUNNY_CAUGHT);
    assert!(over.outcome().is_some());
    let first = over.round_summary(1).unwrap();
    let second = over.round_summary(2).unwrap();
    assert_eq!((first.bunnies_seat, first.garden, first.end), (P1, 1, RoundEnd::NoBunnies));
    assert_eq!(
        (second.bunnies_seat, second.garden, second.caught, second.end),
        (P2, 0, 1, RoundEnd::NoBunnies)
    );
    assert_eq!((over.score(P1), over.score(P2)), (first.garden, second.garden));
    for round in [0, 3, 255] {
        assert_eq!(over.round_summary(round), None, "round {round}");
        assert_eq!(over.round_end(round), None, "round {round}");
    }
}

// ---- The match ---------------------------------------------------------------------------------

/// One bunny on a5, one horse on d6: the bunny gets in unless the horse goes to c8 at once.
const RACE: (&[&str], &[&str]) = (&["a5"], &["d6"]);
const BUNNY_GETS_IN: [&str; 5] = ["a5a6", "d6f5", "a6a7", "f5g3", "a7a8"];
const BUNNY_CAUGHT: [&str; 4] = ["a5a6", "d6c8", "a6a7", "c8a7"];

fn race(round_1: &[&str], round_2: &[&str]) -> BunniesAndHorses {
    let mut match_ = game(RACE.0, RACE.1);
    for action in round_1 {
        assert_eq!(match_.round(), 1);
        play(&mut match_, action);
    }
    assert_eq!(match_.round(), 2);
    for action in round_2 {
        play(&mut match_, action);
    }
    match_
}

#[test]
fn round_2_starts_by_itself_from_the_same_setup_with_the_roles_swapped() {
    let mut match_ = game(RACE.0, RACE.1);
    assert_eq!((match_.seat_name(P1), match_.seat_name(P2)), ("bunnies", "horses"));
    for action in BUNNY_GETS_IN {
        play(&mut match_, action);
    }
    assert_eq!(match_.round(), 2);
    assert_eq!(match_.round_just_ended(), Some((1, RoundEnd::NoBunnies)));
    assert_eq!(names(match_.bunnies()), ["a5"]);
    assert_eq!(names(match_.horses()), ["d6"]);
    assert_eq!(match_.to_move(), Some(P2), "Player 2 plays the bunnies now");
    assert_eq!(match_.role_to_move(), Some(Role::Bunnies));
    assert_eq!((match_.seat_name(P1), match_.seat_name(P2)), ("horses", "bunnies"));
    assert_eq!((match_.role_of(P1), match_.seat_of(Role::Bunnies)), (Role::Horses, P2));
    assert_eq!(match_.garden(), 0, "the garden of round 2 starts empty");
    assert_eq!(match_.score(P1), 1, "Player 1 keeps what it brought in");
    assert!(match_.outcome().is_none());
    play(&mut match_, "a5a6");
    assert_eq!(match_.round_just_ended(), None);
    assert_eq!(match_.to_move(), Some(P1), "Player 1 moves the horses");
}

#[test]
fn the_player_who_brought_more_bunnies_in_wins() {
    let p1_wins = race(&BUNNY_GETS_IN, &BUNNY_CAUGHT);
    assert_eq!((p1_wins.score(P1), p1_wins.score(P2)), (1, 0));
    let outcome = p1_wins.outcome().unwrap();
    assert_eq!(outcome.winner, Winner::Seat(P1));
    assert_eq!(outcome.reason, EndReason::Goal);
    assert_eq!(p1_wins.round_just_ended(), Some((2, RoundEnd::NoBunnies)));
    assert_eq!(p1_wins.to_move(), None);

    let p2_wins = race(&BUNNY_CAUGHT, &BUNNY_GETS_IN);
    assert_eq!((p2_wins.score(P1), p2_wins.score(P2)), (0, 1));
    assert_eq!(p2_wins.outcome().unwrap().winner, Winner::Seat(P2));
    assert_eq!((p2_wins.winner_name(P1), p2_wins.winner_name(P2)), ("p1", "p2"));
}

#[test]
fn equal_gardens_are_a_draw() {
    for round in [&BUNNY_GETS_IN[..], &BUNNY_CAUGHT[..]] {
        let drawn = race(round, round);
        assert_eq!(drawn.score(P1), drawn.score(P2));
        assert_eq!(drawn.outcome().unwrap().winner, Winner::Draw);
    }
}

#[test]
fn a_match_ending_with_stuck_bunnies_is_told_apart() {
    let stuck_round = ["h4h5", "a8b6", "b6a8", "a8b6"];
    let mut match_ = game(&["h4"], &["h6", "a8"]);
    for action in stuck_round.iter().chain(stuck_round.iter()) {
        play(&mut match_, action);
    }
    let outcome = match_.outcome().unwrap();
    assert_eq!(outcome.winner, Winner::Draw, "nobody brought a bunny in");
    assert_eq!(outcome.reason, EndReason::NoMoves);
}

#[test]
fn nothing_is_played_after_the_match() {
    let mut over = race(&BUNNY_GETS_IN, &BUNNY_GETS_IN);
    assert!(over.legal_actions().is_empty());
    assert!(over.legal_targets(sq("a5")).is_empty());
    let action = over.parse_action("a5a6").unwrap();
    assert_eq!(over.apply(&action), Err(RuleError::GameOver));
}

#[test]
fn running_out_of_time_loses_the_match() {
    let mut start = level_game("ron_configs/bunnies/one_horse.ron");
    play(&mut start, "e2e4");
    start.time_out(P2);
    let outcome = start.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.reason), (Winner::Seat(P1), EndReason::OutOfTime));
}

#[test]
fn unreadable_actions_are_errors() {
    let start = level_game("ron_configs/bunnies/one_horse.ron");
    for bad in ["", "e2", "e2e9", "bunny", "i2i3"] {
        assert!(matches!(start.parse_action(bad), Err(RuleError::Unreadable(_))), "{bad:?}");
    }
}

// ---- Level files -------------------------------------------------------------------------------

const GOOD_LEVEL: &str = r#"// a test level
#![enable(unwrap_variant_newtypes)]
Bunnies(
    variant: "test",
    bunnies: ["a2", "b2"],
    horses: ["b8"],
)
"#;

fn level_error(source: &str) -> (usize, String) {
    let error = levels::parse("ron_configs/bunnies/test.ron", source).unwrap_err();
    assert_eq!(error.file, "ron_configs/bunnies/test.ron");
    assert!(error.to_string().starts_with(&format!("ron_configs/bunnies/test.ron:{}:", error.line)));
    (error.line, error.message)
}

#[test]
fn a_good_level_file_reads() {
    let level = levels::parse("test.ron", GOOD_LEVEL).unwrap();
    assert_eq!(level.kind().code(), "bunnies");
    assert_eq!(level.variant(), "test");
    let LevelGame::Bunnies(bunnies) = level.game else { panic!("not bunnies") };
    assert_eq!(bunnies.setup, Setup { bunnies: squares(&["a2", "b2"]), horses: squares(&["b8"]) });
}

#[test]
fn a_syntax_error_names_its_line() {
    let broken = GOOD_LEVEL.replace("horses: [\"b8\"],", "horses: [\"b8\"");
    let (line, _) = level_error(&broken);
    assert_eq!(line, 7, "the closing parenthesis where the bracket should end");
}

#[test]
fn an_unknown_square_names_its_line() {
    let (line, message) = level_error(&GOOD_LEVEL.replace("\"b2\"", "\"bb\""));
    assert_eq!(line, 5);
    assert!(message.contains("unknown square \"bb\""), "{message}");
}

#[test]
fn a_square_off_the_board_names_its_line() {
    let (line, message) = level_error(&GOOD_LEVEL.replace("\"b8\"", "\"b9\""));
    assert_eq!(line, 6);
    assert!(message.contains("\"b9\" is off the board"), "{message}");
}

#[test]
fn two_pieces_on_one_square_name_the_line_of_the_second() {
    let (line, message) = level_error(&GOOD_LEVEL.replace("\"b8\"", "\"a2\""));
    assert_eq!(line, 6);
    assert!(message.contains("two pieces on square \"a2\""), "{message}");
}

#[test]
fn a_bunny_already_in_the_garden_is_refused() {
    let (line, message) = level_error(&GOOD_LEVEL.replace("\"b2\"", "\"c8\""));
    assert_eq!(line, 5);
    assert!(message.contains("garden"), "{message}");
}

#[test]
fn a_level_without_horses_or_bunnies_is_refused() {
    let (line, message) = level_error(&GOOD_LEVEL.replace("[\"b8\"]", "[]"));
    assert_eq!((line, message.as_str()), (6, "the level needs horses"));
    let (line, message) = level_error(&GOOD_LEVEL.replace("[\"a2\", \"b2\"]", "[]"));
    assert_eq!((line, message.as_str()), (5, "the level needs bunnies"));
}

#[test]
fn an_unknown_field_is_refused_with_its_line() {
    let (line, _) = level_error(&GOOD_LEVEL.replace("    horses:", "    carrots: 3,\n    horses:"));
    assert_eq!(line, 6);
}

// ---- Text interface ----------------------------------------------------------------------------

#[test]
fn the_text_state_tells_round_roles_scores_and_the_stuck_count() {
    let mut console = session("ron_configs/bunnies/two_horses.ron", 7);
    let state = console.handle("state");
    assert_eq!(state["game"], "bunnies");
    assert_eq!(state["to_move"], "bunnies");
    assert_eq!(state["round"], 1);
    assert_eq!(state["stuck"], 0);
    assert_eq!(state["scores"], serde_json::json!({ "p1": 0, "p2": 0 }));
    assert_eq!(state["horses"], serde_json::json!(["b8", "g8"]));
    assert_eq!(state["outcome"], serde_json::Value::Null);
    let legal = console.handle("legal");
    assert_eq!(legal["legal"].as_array().unwrap().len(), 16, "8 single and 8 double steps");
    let played = console.handle("play d2d4");
    assert_eq!((played["ok"].clone(), played["to_move"].clone()), (true.into(), "horses".into()));
    let refused = console.handle("play d4d6");
    assert_eq!(refused["ok"], false);
    assert_eq!(console.handle("undo")["ok"], true);
    assert_eq!(console.handle("state")["to_move"], "bunnies");
}

#[test]
fn a_text_match_runs_into_round_2_and_names_the_winner_p1_p2_or_draw() {
    let path = std::env::temp_dir().join(format!("tabla-bunnies-race-{}.ron", std::process::id()));
    std::fs::write(&path, GOOD_LEVEL.replace("[\"a2\", \"b2\"]", "[\"a5\"]").replace("\"b8\"", "\"d6\""))
        .unwrap();
    let mut console = text::session_for(&levels::load(&path).unwrap(), 0);
    std::fs::remove_file(&path).unwrap();
    for action in BUNNY_GETS_IN {
        assert_eq!(console.handle(&format!("play {action}"))["ok"], true, "{action}");
    }
    let state = console.handle("state");
    assert_eq!(state["round"], 2);
    assert_eq!(state["to_move"], "bunnies");
    assert_eq!(state["scores"], serde_json::json!({ "p1": 1, "p2": 0 }));
    assert_eq!(state["round_just_ended"], serde_json::json!({ "round": 1, "reason": "no_bunnies" }));
    let mut last = serde_json::Value::Null;
    for action in BUNNY_CAUGHT {
        last = console.handle(&format!("play {action}"));
    }
    assert_eq!(last["outcome"], serde_json::json!({ "result": "p1", "reason": "goal" }));
    assert_eq!(console.handle("state")["to_move"], serde_json::Value::Null);
}

#[test]
fn the_robot_plays_whole_matches_through_text() {
    for file in ["ron_configs/bunnies/one_horse.ron", "ron_configs/bunnies/two_horses.ron"] {
        let mut console = session(file, 7);
        let mut rounds_seen = HashSet::new();
        let mut outcome = serde_json::Value::Null;
        for _ in 0..200 {
            rounds_seen.insert(console.handle("state")["round"].as_u64().unwrap());
            let answer = console.handle("robot 1");
            assert_eq!(answer["ok"], true);
            outcome = answer["outcome"].clone();
            if !outcome.is_null() {
                break;
            }
        }
        assert_eq!(rounds_seen, HashSet::from([1, 2]));
        let result = outcome["result"].as_str().expect("the match ended");
        assert!(["p1", "p2", "draw"].contains(&result), "{result}");
    }
}

// ---- Random playouts ---------------------------------------------------------------------------

fn check_invariants(game: &BunniesAndHorses) {
    let (bunnies, horses) = (game.bunny_bits(), game.horse_bits());
    assert_eq!(bunnies & horses, 0, "one piece per square");
    assert_eq!(bunnies >> 56, 0, "no bunny stands in the garden");
    assert!(horses.count_ones() <= game.horses_at_start());
    assert_eq!(bunnies.count_ones() + game.garden() as u32 + game.caught(), game.bunnies_at_start());
    assert!(game.stuck() < STUCK_LIMIT || game.round_end(2) == Some(RoundEnd::Stuck));
    let legal = game.legal_actions();
    match game.to_move() {
        None => assert!(legal.is_empty()),
        Some(seat) => {
            assert!(!legal.is_empty(), "the side to move can move");
            assert_eq!(game.seat_of(game.role_to_move().unwrap()), seat);
            let by_square: HashSet<Move> = game
                .bunnies()
                .chain(game.horses())
                .flat_map(|from| game.legal_targets(from).into_iter().map(move |to| Move::new(from, to)))
                .collect();
            assert_eq!(by_square, legal.iter().copied().collect::<HashSet<_>>());
            assert_eq!(legal.len(), by_square.len(), "no action listed twice");
        }
    }
}

#[test]
fn random_matches_keep_the_rules_invariants() {
    for file in ["ron_configs/bunnies/one_horse.ron", "ron_configs/bunnies/two_horses.ron"] {
        let start = level_game(file);
        for seed in 0..150 {
            let mut rng = chance::rng(seed);
            let mut game = start;
            let mut plies = 0;
            check_invariants(&game);
            while let Some(action) = robot::random_action(&game, &mut rng) {
                let before = game;
                game.play(&action);
                plies += 1;
                assert!(plies < 500, "a match ends");
                check_invariants(&game);
                let round_ended = game.round_just_ended().is_some();
                assert_eq!(round_ended, game.round() != before.round() || game.outcome().is_some());
                if game.round() == 2 && before.round() == 1 {
                    assert_eq!(game.bunny_bits(), start.bunny_bits(), "round 2 starts from the setup");
                    assert_eq!(game.horse_bits(), start.horse_bits());
                }
                // Only the bunnies' player of the round scores.
                let scorer = before.seat_of(Role::Bunnies);
                assert_eq!(game.score(scorer.opponent()), before.score(scorer.opponent()));
                let gained = game.score(scorer) - before.score(scorer);
                assert_eq!(gained as usize, game.entered_garden().len());
            }
            let outcome = game.outcome().expect("the match is over");
            let expected = match game.score(P1).cmp(&game.score(P2)) {
                std::cmp::Ordering::Greater => Winner::Seat(P1),
                std::cmp::Ordering::Less => Winner::Seat(P2),
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            assert_eq!(outcome.winner, expected);
            assert!(game.round_end(1).is_some() && game.round_end(2).is_some());
        }
    }
}

// ---- The Robot ---------------------------------------------------------------------------------

#[test]
fn the_robot_finds_a_legal_action_for_both_roles_at_every_level() {
    let mut match_ = level_game("ron_configs/bunnies/two_horses.ron");
    let mut rng = chance::rng(3);
    let mut roles_per_level = HashSet::new();
    let mut ply_in_round = 0;
    while let Some(seat) = match_.to_move() {
        let role = match_.role_to_move().unwrap();
        // A few positions of each round: the Robot is slow in a debug build.
        if [0, 1, 10, 11].contains(&ply_in_round) {
            for level in RobotLevel::ALL {
                let action = robot::choose(&match_, level, 11).unwrap();
                assert!(match_.legal_actions().contains(&action));
                roles_per_level.insert((level, role, seat));
            }
        }
        let action = robot::random_action(&match_, &mut rng).unwrap();
        match_.play(&action);
        ply_in_round = if match_.round_just_ended().is_some() { 0 } else { ply_in_round + 1 };
    }
    assert_eq!(roles_per_level.len(), 12, "three levels, two roles, each played by both players");
}

#[test]
fn the_robot_bunnies_catch_a_lone_horse_in_reach() {
    let mut reachable = game(&["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"], &["c3"]);
    for level in [RobotLevel::Two, RobotLevel::Three] {
        let action = robot::choose(&reachable, level, 5).unwrap();
        assert_eq!(action.to, sq("c3"), "level {level}");
    }
    play(&mut reachable, "b2c3");
    assert_eq!(reachable.score(P1), 8);
}

#[test]
fn a_lone_robot_horse_does_not_take_a_defended_bunny() {
    // f5 could take d4, but c3 would take the horse back and every bunny left would walk in.
    let mut start = game(&["a2", "b2", "c2", "c3", "d4", "f2", "g2", "h2"], &["f5"]);
    play(&mut start, "h2h3");
    assert!(start.legal_actions().contains(&Move::new(sq("f5"), sq("d4"))));
    for level in [RobotLevel::Two, RobotLevel::Three] {
        for seed in 0..3 {
            let action = robot::choose(&start, level, seed).unwrap();
            assert_ne!(action, Move::new(sq("f5"), sq("d4")), "level {level}, seed {seed}");
        }
    }
}

#[test]
fn a_robot_horse_takes_a_bunny_nobody_defends() {
    let mut start = game(&["a2", "h2", "d4"], &["f5"]);
    play(&mut start, "a2a3");
    for level in [RobotLevel::Two, RobotLevel::Three] {
        assert_eq!(robot::choose(&start, level, 1), Some(Move::new(sq("f5"), sq("d4"))), "level {level}");
    }
}

#[test]
fn the_robot_chooses_the_same_for_the_same_seed() {
    let mut start = level_game("ron_configs/bunnies/two_horses.ron");
    play(&mut start, "d2d4");
    for level in RobotLevel::ALL {
        assert_eq!(robot::choose(&start, level, 42), robot::choose(&start, level, 42));
    }
}

/// Plays a seeded match; returns Player 1's points (1 a win, ½ a draw).
fn match_points(file: &str, p1: Option<RobotLevel>, p2: Option<RobotLevel>, seed: u64) -> f64 {
    let mut game = level_game(file);
    let mut rng = chance::rng(seed);
    let mut ply = 0;
    while let Some(seat) = game.to_move() {
        let level = if seat == P1 { p1 } else { p2 };
        let action = match level {
            Some(level) => robot::choose(&game, level, seed * 1000 + ply),
            None => robot::random_action(&game, &mut rng),
        };
        game.play(&action.unwrap());
        ply += 1;
    }
    match game.outcome().unwrap().winner {
        Winner::Draw => 0.5,
        winner if winner.includes(P1) => 1.0,
        _ => 0.0,
    }
}

#[test]
fn the_robot_beats_a_random_player_from_either_seat() {
    for file in ["ron_configs/bunnies/one_horse.ron", "ron_configs/bunnies/two_horses.ron"] {
        for seed in 0..4 {
            assert_eq!(
                match_points(file, Some(RobotLevel::Two), None, seed),
                1.0,
                "{file} seed {seed} as Player 1"
            );
            assert_eq!(
                match_points(file, None, Some(RobotLevel::Two), seed),
                0.0,
                "{file} seed {seed} as Player 2"
            );
        }
    }
}

#[test]
fn level_2_beats_level_1_from_either_seat() {
    for file in ["ron_configs/bunnies/one_horse.ron", "ron_configs/bunnies/two_horses.ron"] {
        for seed in 0..2 {
            assert_eq!(
                match_points(file, Some(RobotLevel::Two), Some(RobotLevel::One), seed),
                1.0,
                "{file} seed {seed}"
            );
            assert_eq!(
                match_points(file, Some(RobotLevel::One), Some(RobotLevel::Two), seed),
                0.0,
                "{file} seed {seed}"
            );
        }
    }
}

#[test]
fn the_benchmark_arena_gives_the_robot_one_player_for_the_whole_match() {
    // Were the Robot handed a role instead of a player, it would play the same role in both rounds,
    // scoring for both players alike; holding one player, it wins every match from either seat.
    let share = tabla::bench::arena::<BunniesAndHorses>(
        tabla::bench::Player::Robot(RobotLevel::Two),
        tabla::bench::Player::Random,
        4,
        9,
    );
    assert_eq!(share, 1.0);
}
