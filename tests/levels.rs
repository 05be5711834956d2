//! Level files: every built-in file loads, and a broken file names its file and line.

use tabla::levels::{self, LevelError};

const GOOD: &str = include_str!("../ron_configs/knight_hunt/two_knights.ron");

fn broken(from: &str, to: &str) -> LevelError {
    assert!(GOOD.contains(from), "the test edit must apply: {from}");
    levels::parse("broken.ron", &GOOD.replacen(from, to, 1)).unwrap_err()
}

fn line_of(text: &str, needle: &str) -> usize {
    text.lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn every_built_in_level_loads() {
    for (file, source) in levels::BUILTIN {
        let level = levels::parse(file, source).unwrap_or_else(|e| panic!("{e}"));
        assert!(file.contains(level.kind().code()), "{file} sits in its game's folder");
        assert!(file.ends_with(&format!("{}.ron", level.variant())), "{file} is named after its variant");
    }
}

#[test]
fn a_syntax_error_names_file_and_line() {
    let error = broken("knights_capture: false,", "knights_capture: false");
    assert_eq!(error.file, "broken.ron");
    let expected = line_of(GOOD, "white: (");
    assert_eq!(error.line, expected, "{error}");
    assert!(error.to_string().starts_with(&format!("broken.ron:{expected}: ")));
}

#[test]
fn an_unknown_square_names_its_line() {
    let error = broken("\"d5\"", "\"dd\"");
    assert_eq!(error.line, line_of(GOOD, "\"b5\", \"d5\""));
    assert!(error.message.contains("unknown square \"dd\""), "{error}");
}

#[test]
fn a_piece_off_the_board_names_its_line() {
    let error = broken("knights: [\"g8\"", "knights: [\"g9\"");
    assert_eq!(error.line, line_of(GOOD, "knights: [\"g8\""));
    assert!(error.message.contains("\"g9\" is off the board"), "{error}");
}

#[test]
fn two_pieces_on_one_square_name_the_second_line() {
    // Black's knight is moved onto a white pawn's square.
    let error = broken("knights: [\"g8\"", "knights: [\"b5\"");
    let knights_line = line_of(GOOD, "knights: [\"g8\"");
    assert!(knights_line > line_of(GOOD, "\"b5\""), "the knight comes after the pawn in the file");
    assert_eq!(error.line, knights_line);
    assert!(error.message.contains("two pieces on square \"b5\""), "{error}");
}

#[test]
fn an_unknown_field_is_refused() {
    let error = broken("knights_capture:", "knights_eat:");
    assert_eq!(error.line, line_of(GOOD, "knights_capture"));
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let error = levels::load(std::path::Path::new("ron_configs/none/such.ron")).unwrap_err();
    assert_eq!(error.line, 0);
    assert!(error.to_string().contains("such.ron"));
}

// ---- Values that would make a game panic or never end are refused -----------------------------

/// The error for `good` with one edit, which must apply.
fn edited(good: &str, from: &str, to: &str) -> LevelError {
    assert!(good.contains(from), "the test edit must apply: {from}");
    levels::parse("broken.ron", &good.replacen(from, to, 1)).unwrap_err()
}

const CIRCLES: &str = include_str!("../ron_configs/circles/classic.ron");
const NARD: &str = include_str!("../ron_configs/nard/crazy.ron");
const HALMA: &str = include_str!("../ron_configs/halma/two_players.ron");

#[test]
fn a_circles_round_limit_whose_turns_overflow_is_refused() {
    // The game counts two turns a round in 32 bits: 2 * 2147483648 would overflow.
    for rounds in ["2147483648", "4294967295"] {
        let error = edited(CIRCLES, "max_rounds: 150", &format!("max_rounds: {rounds}"));
        assert_eq!(error.line, line_of(CIRCLES, "max_rounds:"), "{error}");
        assert!(error.to_string().starts_with(&format!("broken.ron:{}: max_rounds is at most", error.line)));
    }
    // The largest that fits still loads, and a game from it plays.
    let level = levels::parse("big.ron", &CIRCLES.replacen("max_rounds: 150", "max_rounds: 2147483647", 1));
    let level = level.unwrap();
    let mut game = <tabla::rules::circles::Circles as levels::FromLevel>::from_level(&level).unwrap();
    let first = tabla::rules::Game::legal_actions(&game)[0];
    tabla::rules::Game::play(&mut game, &first);
    assert!(tabla::rules::Game::outcome(&game).is_none());
    // 20 000 000 000 is no u32 at all.
    let error = edited(CIRCLES, "max_rounds: 150", "max_rounds: 20000000000");
    assert_eq!(error.line, line_of(CIRCLES, "max_rounds:"), "{error}");
}

#[test]
fn a_circles_centre_off_the_half_squares_is_refused() {
    let error = edited(CIRCLES, "centre: (4.0, 4.0)", "centre: (4.1, 4.0)");
    assert_eq!(error.line, line_of(CIRCLES, "centre:"), "{error}");
    assert!(error.message.contains("half squares"), "{error}");
    assert!(
        levels::parse("ok.ron", &CIRCLES.replacen("centre: (4.0, 4.0)", "centre: (4.0, 3.5)", 1)).is_ok()
    );
}

#[test]
fn a_nard_start_with_no_checkers_is_refused() {
    let error = edited(NARD, "start: [(24, 15)]", "start: []");
    assert_eq!(error.line, line_of(NARD, "start:"), "{error}");
    assert!(error.message.contains("places 0"), "{error}");
}

#[test]
fn a_nard_start_where_no_checker_can_ever_move_is_refused() {
    // Each side: nine on its 19, one on each home point. The 19 can reach only 18 to 13, the
    // other side's home, all held; home checkers wait until all fifteen are home.
    let start = "start: [(19, 9), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]";
    let error = edited(NARD, "start: [(24, 15)]", start);
    assert_eq!(error.line, line_of(NARD, "start:"), "{error}");
    assert!(error.message.contains("no checker of either side can ever move"), "{error}");
}

#[test]
fn a_nard_start_that_is_already_a_deadlock_is_refused() {
    // The head can still move, but both sides hold their whole home with checkers in their
    // first quarter: the first move would end every game in a draw.
    let start = "start: [(24, 9), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]";
    let error = edited(NARD, "start: [(24, 15)]", start);
    assert_eq!(error.line, line_of(NARD, "start:"), "{error}");
    assert!(error.message.contains("already a deadlock"), "{error}");
}

#[test]
fn a_nard_start_holding_a_forbidden_prime_is_refused() {
    // Each side holds its 19 to 24 with nothing of the other side ahead of them.
    let start = "start: [(24, 10), (23, 1), (22, 1), (21, 1), (20, 1), (19, 1)]";
    let error = edited(NARD, "start: [(24, 15)]", start);
    assert_eq!(error.line, line_of(NARD, "start:"), "{error}");
    assert!(error.message.contains("prime rule"), "{error}");
    // Five in a row are allowed.
    let five = "start: [(24, 11), (23, 1), (22, 1), (21, 1), (20, 1)]";
    assert!(levels::parse("ok.ron", &NARD.replacen("start: [(24, 15)]", five, 1)).is_ok());
}

#[test]
fn a_knight_hunt_pawn_no_enemy_knight_can_reach_is_refused() {
    // White pawns on b3 and c2, the only squares a knight takes a1 from, and a black pawn on a1:
    // White could never collect every pawn. The pawns never move, so this is known at once.
    let white_pawns = "pawns: [\"b5\", \"d5\", \"f5\", \"h5\", \"a4\", \"c4\", \"e4\", \"g4\"]";
    let walled = GOOD.replacen(
        white_pawns,
        "pawns: [\"b5\", \"d5\", \"f5\", \"h5\", \"a4\", \"c4\", \"b3\", \"c2\"]",
        1,
    );
    assert!(levels::parse("ok.ron", &walled).is_ok(), "with nothing on a1 the level is fine");
    let error = edited(&walled, "\"h4\"]", "\"a1\"]");
    assert_eq!(error.line, line_of(GOOD, "\"h4\"]"), "{error}");
    assert!(error.message.contains("the black pawn on \"a1\" can never be taken"), "{error}");
    assert!(error.message.contains("no white knight"), "{error}");
    // A white pawn in the same trap for Black: h8 behind black pawns on g6 and f7.
    let black_pawns = "pawns: [\"a5\", \"c5\", \"e5\", \"g5\", \"b4\", \"d4\", \"f4\", \"h4\"]";
    let walled = GOOD.replacen(
        black_pawns,
        "pawns: [\"a5\", \"c5\", \"e5\", \"g5\", \"b4\", \"d4\", \"g6\", \"f7\"]",
        1,
    );
    let error = edited(&walled, "\"g4\"]", "\"h8\"]");
    assert!(error.message.contains("the white pawn on \"h8\" can never be taken"), "{error}");
    assert!(error.message.contains("no black knight"), "{error}");
}

#[test]
fn clock_choices_are_whole_different_minutes() {
    for (bad, shown) in [("[0, 3]", "not 0"), ("[3, 3]", "not 3"), ("[1000]", "not 1000")] {
        let error = edited(CIRCLES, "clock_minutes: [1, 3, 5, 10]", &format!("clock_minutes: {bad}"));
        assert_eq!(error.line, line_of(CIRCLES, "clock_minutes:"), "{bad}: {error}");
        assert!(error.message.contains(shown), "{error}");
    }
    let error = edited(NARD, "clock_minutes: [3, 5, 10]", "clock_minutes: [5, 0]");
    assert_eq!(error.line, line_of(NARD, "clock_minutes:"), "{error}");
}

#[test]
fn a_halma_level_must_say_when_every_piece_must_leave_home() {
    let line = line_of(HALMA, "clear_camp_after:");
    for bad in ["0", "1001", "-1", "40.5", "\"soon\""] {
        let error = edited(HALMA, "clear_camp_after: 40", &format!("clear_camp_after: {bad}"));
        assert_eq!((error.file.as_str(), error.line), ("broken.ron", line), "{bad}: {error}");
    }
    let missing = HALMA.lines().filter(|l| !l.contains("clear_camp_after")).collect::<Vec<_>>().join("\n");
    let error = levels::parse("broken.ron", &missing).unwrap_err();
    assert!(error.line > 0 && error.message.contains("clear_camp_after"), "{error}");
}
