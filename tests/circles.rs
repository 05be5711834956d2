//! Making Circles against spec/circles.md: every rule, every worked example, the ends and draws,
//! the level file and the text interface. Angles are worked out here independently of the code.

mod shared;
use shared::sq;
use tabla::chance;

use std::collections::BTreeSet;
use tabla::levels::{self, LevelGame};
use tabla::robot;
use tabla::robot::RobotLevel;
use tabla::rules::board::{BISHOP_DIRECTIONS, BoardShape, Move, ROOK_DIRECTIONS, Square};
use tabla::rules::circles::{Circles, Piece, Position, Setup, Step, Winding};
use tabla::rules::{EndReason, Game, Outcome, RuleError, Seat, Winner};
use tabla::text;

const WHITE: Seat = Seat::WHITE;
const BLACK: Seat = Seat::BLACK;
const ROOK: Piece = Piece::Rook;
const BISHOP: Piece = Piece::Bishop;

fn mv(text: &str) -> Move {
    Move::parse(text, BoardShape::CHESS).unwrap()
}

fn classic() -> Setup {
    match levels::find("ron_configs/circles/classic.ron").unwrap().game {
        LevelGame::Circles(level) => level.setup,
        other => panic!("not a Making Circles level: {other:?}"),
    }
}

/// The spec's angle: clockwise from 12 o'clock around (4, 4), in [0, 360).
fn theta(square: Square) -> f64 {
    let x = square.file as f64 + 0.5 - 4.0;
    let y = square.rank as f64 + 0.5 - 4.0;
    let angle = x.atan2(y).to_degrees();
    if angle < 0.0 { angle + 360.0 } else { angle }
}

fn spec_delta(from: Square, to: Square) -> f64 {
    let mut delta = theta(to) - theta(from);
    if delta > 180.0 {
        delta -= 360.0;
    }
    if delta <= -180.0 {
        delta += 360.0;
    }
    // Exactly across the centre (e1 to d8, c6 to f3) is +180°, however atan2 rounded the two
    // angles: this is the edge the game decides exactly.
    if (delta + 180.0).abs() < 1e-9 { 180.0 } else { delta }
}

fn distance(square: Square) -> f64 {
    (square.file as f64 + 0.5 - 4.0).hypot(square.rank as f64 + 0.5 - 4.0)
}

/// The spec's clockwise rule with the 5° small step towards the centre.
fn spec_allows(from: Square, to: Square) -> bool {
    let delta = spec_delta(from, to);
    delta.abs() < 1e-9 || delta > 0.0 || (delta >= -5.0 && distance(to) < distance(from))
}

fn directions(piece: Piece) -> [(i8, i8); 4] {
    match piece {
        Piece::Rook => ROOK_DIRECTIONS,
        Piece::Bishop => BISHOP_DIRECTIONS,
    }
}

/// Every legal move of the side to move, found by walking the lines and applying the spec's rule.
fn spec_moves(game: &Circles) -> BTreeSet<String> {
    let mut moves = BTreeSet::new();
    let Some(seat) = game.to_move() else { return moves };
    let taken = |s: Square| game.is_barrier(s) || game.piece_at(s).is_some();
    for piece in Piece::ALL {
        let from = game.square_of(seat, piece);
        for (df, dr) in directions(piece) {
            let mut at = from;
            while let Some(next) = at.offset(df, dr, BoardShape::CHESS) {
                if taken(next) {
                    break;
                }
                if spec_allows(from, next) {
                    moves.insert(format!("{from}{next}"));
                }
                at = next;
            }
        }
    }
    moves
}

fn legal_set(game: &Circles) -> BTreeSet<String> {
    game.legal_actions().iter().map(|m| m.to_string()).collect()
}

fn is_legal(game: &Circles, text: &str) -> bool {
    game.legal_actions().contains(&mv(text))
}

/// Plays moves that must all be legal.
fn play(game: &mut Circles, moves: &[&str]) {
    for text in moves {
        if let Err(e) = game.apply(&mv(text)) {
            panic!("{text}: {e}; legal: {:?}", legal_set(game));
        }
    }
}

/// The winding of a piece on `square` after `loops` whole loops, by the spec's angles.
fn winding_on(setup: &Setup, seat: Seat, piece: Piece, square: Square, loops: i32) -> f64 {
    let home = setup.home(seat, piece);
    let mut angle = (theta(square) - theta(home)).rem_euclid(360.0);
    if angle > 360.0 - 1e-9 {
        angle = 0.0;
    }
    angle + 360.0 * loops as f64
}

/// A piece placed for a test: square and whole loops made.
type Place<'a> = (&'a str, i32);

/// A position with the four pieces (white rook, white bishop, black rook, black bishop) placed.
fn arrange_full(
    setup: &Setup,
    places: [Place; 4],
    to_move: Seat,
    turns_played: u32,
    plies_without_progress: u32,
) -> Result<Circles, RuleError> {
    let mut squares = [[Square::new(0, 0); 2]; 2];
    let mut loops = [[0; 2]; 2];
    for (i, (name, whole)) in places.iter().enumerate() {
        squares[i / 2][i % 2] = sq(name);
        loops[i / 2][i % 2] = *whole;
    }
    let best = [0, 1].map(|s| [0, 1].map(|p| Winding { square: squares[s][p], loops: loops[s][p] }));
    let position = Position { squares, loops, best, to_move, turns_played, plies_without_progress };
    Circles::from_position(setup, &position)
}

fn arrange(setup: &Setup, places: [Place; 4], to_move: Seat) -> Circles {
    arrange_full(setup, places, to_move, 0, 0).unwrap()
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

// ---- The level file -------------------------------------------------------------------------

#[test]
fn the_classic_level_holds_the_spec_setup() {
    let level = levels::find("ron_configs/circles/classic.ron").unwrap();
    assert_eq!(level.kind().code(), "circles");
    assert_eq!(level.variant(), "classic");
    assert_eq!(level.clock_minutes(), &[1, 3, 5, 10]);
    let setup = classic();
    assert_eq!(setup.centre_halves, (8, 8));
    assert_eq!(setup.centre(), (4.0, 4.0));
    assert_eq!(setup.max_back_step_deg, 5.0);
    assert_eq!(setup.home(WHITE, ROOK), sq("a1"));
    assert_eq!(setup.home(WHITE, BISHOP), sq("b1"));
    assert_eq!(setup.home(BLACK, ROOK), sq("h8"));
    assert_eq!(setup.home(BLACK, BISHOP), sq("g8"));
    let barrier: BTreeSet<Square> = setup.barrier.iter().copied().collect();
    let expected: BTreeSet<Square> = ["d3", "e3", "d4", "e4", "d5", "e5", "d6", "e6"].map(sq).into();
    assert_eq!(barrier, expected);
    assert_eq!(setup.no_progress_plies, 20);
    assert_eq!(setup.max_rounds, 150);
    assert!(levels::builtin().iter().any(|l| l.kind().code() == "circles"));
}

const GOOD_LEVEL: &str = r#"#![enable(unwrap_variant_newtypes)]
Circles(
    variant: "test",
    centre: (4.0, 4.0),
    max_back_step_deg: 5.0,
    white: (rook: "a1", bishop: "b1"),
    black: (rook: "h8", bishop: "g8"),
    barrier: ["d3", "e3", "d4", "e4", "d5", "e5", "d6", "e6"],
    no_progress_plies: 20,
    max_rounds: 150,
    clock_minutes: [1, 3],
)"#;

fn broken(from: &str, to: &str) -> levels::LevelError {
    assert!(GOOD_LEVEL.contains(from), "{from}");
    let source = GOOD_LEVEL.replacen(from, to, 1);
    levels::parse("broken.ron", &source).expect_err("the level should be refused")
}

#[test]
fn a_good_level_text_parses() {
    assert!(levels::parse("good.ron", GOOD_LEVEL).is_ok());
}

#[test]
fn broken_level_files_name_the_file_and_line() {
    let cases = [
        // A syntax error: a missing comma.
        ("max_rounds: 150,", "max_rounds: 150 150,", 10, ""),
        ("bishop: \"b1\"", "bishop: \"b1x\"", 6, "unknown square"),
        ("rook: \"h8\"", "rook: \"i8\"", 7, "off the board"),
        ("bishop: \"g8\"", "bishop: \"g9\"", 7, "off the board"),
        ("\"e6\"]", "\"e6\", \"b1\"]", 8, "two pieces"),
        ("rook: \"h8\"", "rook: \"a1\"", 7, "two pieces"),
        ("centre: (4.0, 4.0)", "centre: (2.5, 2.5)", 4, "centre"),
        ("centre: (4.0, 4.0)", "centre: (9.0, 4.0)", 4, "centre"),
        // Angles are exact only from a point given in half squares.
        ("centre: (4.0, 4.0)", "centre: (4.25, 4.0)", 4, "half squares"),
        ("centre: (4.0, 4.0)", "centre: (4.0, NaN)", 4, "centre"),
        // Two turns a round must fit the game's 32-bit turn count.
        ("max_rounds: 150", "max_rounds: 2147483648", 10, "max_rounds is at most 2147483647"),
        ("max_rounds: 150", "max_rounds: 4294967295", 10, "max_rounds is at most"),
        ("max_back_step_deg: 5.0", "max_back_step_deg: -1.0", 5, "max_back_step_deg"),
        ("max_rounds: 150", "max_rounds: 0", 10, "max_rounds"),
        ("no_progress_plies: 20", "no_progress_plies: 0", 9, "no_progress_plies"),
    ];
    for (from, to, line, words) in cases {
        let error = broken(from, to);
        assert_eq!(error.file, "broken.ron", "{to}");
        assert_eq!(error.line, line, "{to}: {error}");
        assert!(error.to_string().starts_with(&format!("broken.ron:{line}:")), "{error}");
        assert!(error.message.contains(words), "{to}: {error}");
    }
}

#[test]
fn a_missing_level_file_is_an_error_not_a_panic() {
    let error = levels::find("ron_configs/circles/no_such_file.ron").unwrap_err();
    assert!(error.to_string().contains("no_such_file.ron"));
}

// ---- Angles and the clockwise rule ----------------------------------------------------------

#[test]
fn angles_are_measured_clockwise_from_twelve_o_clock_around_the_centre() {
    let game = Circles::new(&classic());
    for (name, angle) in [("h8", 45.0), ("h1", 135.0), ("a1", 225.0), ("a8", 315.0)] {
        assert!(close(game.angle(sq(name)), angle, 1e-9), "{name}");
    }
    // e8 lies just right of 12 o'clock: atan(0.5 / 3.5).
    assert!(close(game.angle(sq("e8")), (0.5f64 / 3.5).atan().to_degrees(), 1e-9));
    assert!(close(game.delta(sq("a1"), sq("a8")), 90.0, 1e-9));
    assert!(close(game.delta(sq("a8"), sq("a1")), -90.0, 1e-9));
    for from in BoardShape::CHESS.squares() {
        for to in BoardShape::CHESS.squares() {
            assert!(close(game.delta(from, to), spec_delta(from, to), 1e-9), "{from}{to}");
        }
    }
}

#[test]
fn neutral_moves_lie_only_on_the_a8_h1_diagonal() {
    let game = Circles::new(&classic());
    for pair in ["a8b7", "b7c6", "a8c6", "h1g2", "g2f3", "h1f3", "b7a8", "f3h1"] {
        let m = mv(pair);
        assert_eq!(game.step(m.from, m.to), Step::Neutral, "{pair}");
        assert_eq!(game.delta(m.from, m.to), 0.0, "{pair}");
    }
    // Of the moves a rook or a light-square bishop can make, exactly those along the a8-h1
    // diagonal on one side of the centre are neutral. (The a1-h8 diagonal also runs through the
    // centre, but it is dark and the bishops stay on light squares.)
    let on_diagonal = |s: Square| s.file + s.rank == 7;
    for from in BoardShape::CHESS.squares() {
        for to in BoardShape::CHESS.squares().filter(|&t| t != from) {
            let (df, dr) = (to.file as i8 - from.file as i8, to.rank as i8 - from.rank as i8);
            let rook_line = df == 0 || dr == 0;
            let light_diagonal = df.abs() == dr.abs() && !from.is_dark();
            if !rook_line && !light_diagonal {
                continue;
            }
            let expected = on_diagonal(from) && on_diagonal(to) && (from.file < 4) == (to.file < 4);
            assert_eq!(game.step(from, to) == Step::Neutral, expected, "{from}{to}");
        }
    }
    assert_eq!(game.step(sq("a1"), sq("b2")), Step::Neutral, "the dark diagonal through the centre");
}

/// Every move a lone rook or bishop could make on a board with only the barrier; the bishops stay
/// on light squares, as in the game.
fn open_board_moves(game: &Circles) -> Vec<(Piece, Square, Square)> {
    let mut moves = Vec::new();
    for piece in Piece::ALL {
        let reachable = |s: &Square| !game.is_barrier(*s) && (piece != BISHOP || !s.is_dark());
        for from in BoardShape::CHESS.squares().filter(reachable) {
            for (df, dr) in directions(piece) {
                let mut at = from;
                while let Some(next) = at.offset(df, dr, BoardShape::CHESS) {
                    if game.is_barrier(next) {
                        break;
                    }
                    moves.push((piece, from, next));
                    at = next;
                }
            }
        }
    }
    moves
}

#[test]
fn exactly_the_spec_s_small_steps_back_are_allowed() {
    let game = Circles::new(&classic());
    let expected: BTreeSet<(Piece, Square, Square)> = [
        (BISHOP, "b1", "c2"),
        (BISHOP, "g8", "f7"),
        (ROOK, "e1", "e2"),
        (ROOK, "h5", "g5"),
        (ROOK, "a4", "b4"),
        (ROOK, "d8", "d7"),
    ]
    .into_iter()
    .map(|(p, a, b)| (p, sq(a), sq(b)))
    .collect();
    let mut small_steps = BTreeSet::new();
    for (piece, from, to) in open_board_moves(&game) {
        let step = game.step(from, to);
        if spec_delta(from, to) < -1e-9 {
            assert!(matches!(step, Step::SmallStepBack | Step::Backward), "{from}{to}");
            if step == Step::SmallStepBack {
                small_steps.insert((piece, from, to));
            }
        }
        assert_eq!(step.is_allowed(), spec_allows(from, to), "{from}{to}");
    }
    assert_eq!(small_steps, expected);
    let bishop_step = game.delta(sq("b1"), sq("c2"));
    let rook_step = game.delta(sq("e1"), sq("e2"));
    assert!(close(bishop_step, -4.57, 0.005), "{bishop_step}");
    assert!(close(rook_step, -3.18, 0.005), "{rook_step}");
}

#[test]
fn the_small_step_limit_comes_from_the_setup() {
    // With 4° the bishop's 4.57° steps are too big; the rook's 3.18° steps still fit.
    let mut setup = classic();
    setup.max_back_step_deg = 4.0;
    let game = Circles::new(&setup);
    assert_eq!(game.step(sq("b1"), sq("c2")), Step::Backward);
    assert_eq!(game.step(sq("e1"), sq("e2")), Step::SmallStepBack);
    assert!(!is_legal(&game, "b1c2"));
    assert!(is_legal(&game, "b1a2"));
}

#[test]
fn a_small_step_must_go_closer_to_the_centre() {
    // c2 to b1 turns 4.57° forward; b1 to c2 the same amount back but closer: both allowed.
    // a2 to b1 turns back 18.9° and is refused; b2 to a2 turns back 9.46° and is refused.
    let game = Circles::new(&classic());
    assert_eq!(game.step(sq("c2"), sq("b1")), Step::Forward);
    assert_eq!(game.step(sq("b1"), sq("c2")), Step::SmallStepBack);
    assert_eq!(game.step(sq("a2"), sq("b1")), Step::Backward);
    assert_eq!(game.step(sq("b2"), sq("a2")), Step::Forward);
    assert_eq!(game.step(sq("a2"), sq("b2")), Step::Backward);
}

#[test]
fn the_centre_comes_from_the_setup() {
    // Moving the centre to (4, 3) turns the a1 corner's directions: a1 to a8 stays clockwise, but
    // the a8-h1 diagonal is no longer a line through the centre.
    let mut setup = classic();
    setup.centre_halves = (8, 6);
    let game = Circles::new(&setup);
    let x: f64 = 0.5 - 4.0;
    let y = 0.5 - 3.0;
    let expected = x.atan2(y).to_degrees() + 360.0;
    assert!(close(game.angle(sq("a1")), expected, 1e-9));
    assert_ne!(game.step(sq("a8"), sq("b7")), Step::Neutral);
}

#[test]
fn angles_are_exact_where_the_spec_s_figures_are_whole() {
    // Worked out from whole-number directions, not a platform's atan2: the corners' angles, a
    // quarter turn and the neutral moves are exact, on every machine and in the browser.
    let game = Circles::new(&classic());
    for (name, angle) in [("h8", 45.0), ("h1", 135.0), ("a1", 225.0), ("a8", 315.0), ("b2", 225.0)] {
        assert_eq!(game.angle(sq(name)), angle, "{name}");
    }
    assert_eq!(game.delta(sq("a1"), sq("a8")), 90.0);
    assert_eq!(game.delta(sq("a8"), sq("a1")), -90.0);
    assert_eq!(game.delta(sq("a8"), sq("h8")), 90.0);
    // Every other angle agrees with atan2 to far better than any rule needs.
    for square in BoardShape::CHESS.squares() {
        assert!(close(game.angle(square), theta(square), 1e-12), "{square}");
    }
    // Squares exactly opposite across the centre (e1 and d8, a4 and h5, c6 and f3, ...) are half a
    // turn apart both ways: +180°, never a rounded -179.99999°.
    let doubled = |s: Square| (2 * s.file as i32 - 7, 2 * s.rank as i32 - 7);
    let mut opposite_pairs = 0;
    for from in BoardShape::CHESS.squares() {
        for to in BoardShape::CHESS.squares() {
            let ((x1, y1), (x2, y2)) = (doubled(from), doubled(to));
            if x1 * y2 == x2 * y1 && x1 * x2 + y1 * y2 < 0 {
                opposite_pairs += 1;
                assert_eq!(game.delta(from, to), 180.0, "{from}{to}");
                assert_eq!(game.step(from, to), Step::Forward, "{from}{to}");
            }
        }
    }
    assert!(opposite_pairs > 20, "{opposite_pairs}");
    assert_eq!(game.delta(sq("e1"), sq("d8")), 180.0);
    assert_eq!(game.delta(sq("d8"), sq("e1")), 180.0);
    // A move and its way back turn by exactly opposite amounts.
    for from in BoardShape::CHESS.squares() {
        for to in BoardShape::CHESS.squares() {
            let (there, back) = (game.delta(from, to), game.delta(to, from));
            assert!(there > -180.0 && there <= 180.0, "{from}{to}: {there}");
            if there != 180.0 {
                assert_eq!(there, -back, "{from}{to}");
            }
        }
    }
}

#[test]
fn an_arranged_winding_is_the_turn_from_home_plus_whole_loops() {
    let setup = classic();
    for loops in [-1, 0, 1, 2] {
        for square in BoardShape::CHESS.squares().filter(|s| !setup.barrier.contains(s)) {
            // White's rook on `square`; everyone else where they do not stand in its way.
            let rook = square.to_string();
            let others = ["c2", "h8", "g8"];
            if others.contains(&rook.as_str()) {
                continue;
            }
            let game = arrange(&setup, [(&rook, loops), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
            let expected = winding_on(&setup, WHITE, ROOK, square, loops);
            assert!(close(game.winding(WHITE, ROOK), expected, 1e-9), "{rook} after {loops} loops");
            assert_eq!(game.loops(WHITE, ROOK), loops);
            assert_eq!(game.exact_winding(WHITE, ROOK), Winding { square, loops });
        }
    }
}

/// The classic board with the wall open on d5 and e4: the a8-h1 diagonal runs across the centre
/// point itself.
fn open_diagonal() -> Setup {
    let mut setup = classic();
    setup.barrier.retain(|&s| s != sq("d5") && s != sq("e4"));
    setup
}

#[test]
fn a_move_across_the_centre_is_exactly_half_a_turn_forward() {
    // At exactly 180° a rounding of either angle could have made it -180° (backward). The spec
    // normalises to (-180°, 180°]: +180°, forward, both ways.
    let game = Circles::new(&open_diagonal());
    for pair in ["c6f3", "f3c6", "a8h1", "h1a8", "d5e4", "e4d5", "b7g2", "g2b7"] {
        let m = mv(pair);
        assert_eq!(game.delta(m.from, m.to), 180.0, "{pair}");
        assert_eq!(game.step(m.from, m.to), Step::Forward, "{pair}");
    }
    let bishop = arrange(&open_diagonal(), [("a1", 0), ("c6", 0), ("h8", 0), ("g8", 0)], WHITE);
    let targets = bishop.legal_targets(sq("c6"));
    for across in ["d5", "e4", "f3", "g2", "h1"] {
        let expected = across != "d5"; // c6-d5 points at the centre: neutral, also allowed
        assert!(targets.contains(&sq(across)), "{across}: {targets:?}");
        assert_eq!(bishop.step(sq("c6"), sq(across)) == Step::Forward, expected, "{across}");
    }
}

#[test]
fn a_move_across_the_centre_gives_the_same_winding_however_it_is_reached() {
    let setup = open_diagonal();
    // White's bishop on c6; Black's rook climbs c1-c2-c3 meanwhile, out of the way.
    let start = arrange(&setup, [("a1", 0), ("c6", 0), ("c1", 0), ("g8", 0)], WHITE);
    let before = start.winding(WHITE, BISHOP);
    let routes: [&[&str]; 3] = [
        // Straight across the centre, the last two moves made by the rook.
        &["c6f3", "c1c2", "a1a2", "c2c3", "a2a3"],
        // To the centre, across it, and on: 0° + 180° + 0°.
        &["c6d5", "c1c2", "d5e4", "c2c3", "e4f3"],
        // The long way round, clockwise: c6-e8-h5-f3.
        &["c6e8", "c1c2", "e8h5", "c2c3", "h5f3"],
    ];
    let ends: Vec<Circles> = routes
        .iter()
        .map(|route| {
            let mut game = start.clone();
            play(&mut game, route);
            game
        })
        .collect();
    for (game, route) in ends.iter().zip(&routes) {
        assert_eq!(game.square_of(WHITE, BISHOP), sq("f3"), "{route:?}");
        assert_eq!(game.exact_winding(WHITE, BISHOP), ends[0].exact_winding(WHITE, BISHOP), "{route:?}");
        // The same number to the last bit, and the same percent.
        assert_eq!(game.winding(WHITE, BISHOP).to_bits(), ends[0].winding(WHITE, BISHOP).to_bits());
        assert_eq!(game.progress_percent(WHITE, BISHOP), ends[0].progress_percent(WHITE, BISHOP));
        assert!(close(game.winding(WHITE, BISHOP) - before, 180.0, 1e-9), "{route:?}");
    }
    // Across and back again is two half turns: exactly one more loop, on the square it left.
    let mut twice = start.clone();
    play(&mut twice, &["c6f3", "c1c2", "f3c6"]);
    assert_eq!(twice.exact_winding(WHITE, BISHOP), Winding { square: sq("c6"), loops: 1 });
    assert!(close(twice.winding(WHITE, BISHOP), before + 360.0, 1e-9));
    assert_eq!(twice.loops(WHITE, BISHOP), start.loops(WHITE, BISHOP) + 1);
}

// ---- Moves on the board: the spec's checks ----------------------------------------------------

#[test]
fn the_start_offers_exactly_the_spec_s_moves() {
    let game = Circles::new(&classic());
    assert_eq!(game.to_move(), Some(WHITE));
    let expected: BTreeSet<String> =
        ["a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "b1a2", "b1c2"].map(String::from).into();
    assert_eq!(legal_set(&game), expected);
    let mut black = game.clone();
    play(&mut black, &["a1a8"]);
    let expected: BTreeSet<String> =
        ["h8h1", "h8h2", "h8h3", "h8h4", "h8h5", "h8h6", "h8h7", "g8f7", "g8h7"].map(String::from).into();
    assert_eq!(legal_set(&black), expected);
}

#[test]
fn the_white_rook_goes_up_the_left_and_never_back_down() {
    let setup = classic();
    let start = Circles::new(&setup);
    assert!(is_legal(&start, "a1a8"));
    let at_a8 = arrange(&setup, [("a8", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(!is_legal(&at_a8, "a8a1"));
    assert!(matches!(at_a8.clone().apply(&mv("a8a1")), Err(RuleError::Illegal(_))));
    assert!(is_legal(&at_a8, "a8f8"));
    let at_f8 = arrange(&setup, [("f8", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(is_legal(&at_f8, "f8f1"));
}

#[test]
fn f1_to_a1_needs_b1_to_e1_empty() {
    let setup = classic();
    // The bishop at home on b1 stops the rook on c1.
    let blocked = arrange(&setup, [("f1", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(!is_legal(&blocked, "f1a1"));
    assert!(!is_legal(&blocked, "f1b1"));
    assert!(is_legal(&blocked, "f1c1"));
    let free = arrange(&setup, [("f1", 0), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(is_legal(&free, "f1a1"));
    // Any piece between, of either side, stops it too.
    let enemy_between = arrange(&setup, [("f1", 0), ("c2", 0), ("h8", 0), ("d1", 0)], WHITE);
    assert!(!is_legal(&enemy_between, "f1a1"));
    assert!(is_legal(&enemy_between, "f1e1"));
    assert!(!is_legal(&enemy_between, "f1d1"), "no captures");
}

#[test]
fn the_black_rook_goes_down_the_right_and_round() {
    let setup = classic();
    let mut game = Circles::new(&setup);
    play(&mut game, &["a1a2"]);
    assert!(is_legal(&game, "h8h1"));
    let at_h1 = arrange(&setup, [("a1", 0), ("b1", 0), ("h1", 0), ("g8", 0)], BLACK);
    assert!(is_legal(&at_h1, "h1c1"));
    assert!(!is_legal(&at_h1, "h1h8"));
    let at_c1 = arrange(&setup, [("a1", 0), ("b1", 0), ("c1", 0), ("g8", 0)], BLACK);
    assert!(is_legal(&at_c1, "c1c8"));
    // c8 to h8 only with g8 free.
    let bishop_home = arrange(&setup, [("a1", 0), ("b1", 0), ("c8", 0), ("g8", 0)], BLACK);
    assert!(!is_legal(&bishop_home, "c8h8"));
    let bishop_away = arrange(&setup, [("a1", 0), ("b1", 0), ("c8", 0), ("f7", 0)], BLACK);
    assert!(is_legal(&bishop_away, "c8h8"));
}

#[test]
fn the_bishops_leave_and_come_home_as_the_spec_says() {
    let setup = classic();
    let start = Circles::new(&setup);
    assert!(is_legal(&start, "b1a2"));
    assert!(is_legal(&start, "b1c2"));
    let white_at_c2 = arrange(&setup, [("a1", 0), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(is_legal(&white_at_c2, "c2b1"));
    let mut black = start.clone();
    play(&mut black, &["a1a2"]);
    assert!(is_legal(&black, "g8h7"));
    assert!(is_legal(&black, "g8f7"));
    let black_at_f7 = arrange(&setup, [("a1", 0), ("b1", 0), ("h8", 0), ("f7", 0)], BLACK);
    assert!(is_legal(&black_at_f7, "f7g8"));
    // Coming home from a2 or h7 would turn backwards.
    let white_at_a2 = arrange(&setup, [("a1", 0), ("a2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(!is_legal(&white_at_a2, "a2b1"));
    let black_at_h7 = arrange(&setup, [("a1", 0), ("b1", 0), ("h8", 0), ("h7", 0)], BLACK);
    assert!(!is_legal(&black_at_h7, "h7g8"));
}

#[test]
fn a_bishop_on_a2_is_stopped_at_c4_by_the_barrier_on_d5() {
    let setup = classic();
    let game = arrange(&setup, [("a1", 0), ("a2", 0), ("h8", 0), ("g8", 0)], WHITE);
    let targets: BTreeSet<Square> = game.legal_targets(sq("a2")).into_iter().collect();
    assert!(targets.contains(&sq("b3")));
    assert!(targets.contains(&sq("c4")));
    for beyond in ["d5", "e6", "f7", "g8"] {
        assert!(!targets.contains(&sq(beyond)), "{beyond}");
    }
}

#[test]
fn no_piece_jumps_and_nothing_is_captured() {
    let setup = classic();
    // The black bishop on a5 stops the white rook on a4; it cannot be taken.
    let game = arrange(&setup, [("a1", 0), ("c2", 0), ("h8", 0), ("a5", 0)], WHITE);
    let targets: BTreeSet<Square> = game.legal_targets(sq("a1")).into_iter().collect();
    let expected: BTreeSet<Square> = ["a2", "a3", "a4", "b1", "c1", "d1", "e1", "f1", "g1", "h1"]
        .into_iter()
        .map(sq)
        .filter(|&s| spec_allows(sq("a1"), s))
        .collect();
    assert_eq!(targets, expected);
    assert!(!targets.contains(&sq("a5")));
    assert!(!targets.contains(&sq("a6")));
    // The barrier is never entered.
    let near_wall = arrange(&setup, [("c3", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(!near_wall.legal_targets(sq("c3")).contains(&sq("d3")));
}

#[test]
fn legal_targets_are_the_selected_piece_s_legal_moves_and_only_for_the_side_to_move() {
    let game = Circles::new(&classic());
    let rook: Vec<String> = game.legal_targets(sq("a1")).iter().map(|s| s.to_string()).collect();
    assert_eq!(rook, ["a2", "a3", "a4", "a5", "a6", "a7", "a8"]);
    let bishop: BTreeSet<Square> = game.legal_targets(sq("b1")).into_iter().collect();
    assert_eq!(bishop, BTreeSet::from([sq("a2"), sq("c2")]));
    assert!(game.legal_targets(sq("h8")).is_empty(), "Black is not to move");
    assert!(game.legal_targets(sq("e4")).is_empty(), "the barrier");
    assert!(game.legal_targets(sq("c5")).is_empty(), "an empty square");
}

#[test]
fn a_piece_with_no_move_is_reported_stuck() {
    let setup = classic();
    // The white rook on a1 is boxed in by its own bishop on a2 (going right is backwards).
    let game = arrange(&setup, [("a1", 0), ("a2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(game.is_stuck(WHITE, ROOK));
    assert!(!game.is_stuck(WHITE, BISHOP));
    assert!(game.legal_targets(sq("a1")).is_empty());
    assert!(legal_set(&game).iter().all(|m| m.starts_with("a2")));
}

#[test]
fn legal_moves_follow_the_spec_in_random_games() {
    let mut rng = chance::rng(7);
    for _ in 0..40 {
        let mut game = Circles::new(&classic());
        let mut windings = [[0.0f64; 2]; 2];
        while game.outcome().is_none() {
            assert_eq!(legal_set(&game), spec_moves(&game));
            let action = robot::random_action(&game, &mut rng).unwrap();
            let seat = game.to_move().unwrap();
            let (_, piece) = game.piece_at(action.from).unwrap();
            windings[seat.index()][piece.index()] += spec_delta(action.from, action.to);
            game.play(&action);
            let report = game.last_move().unwrap();
            assert_eq!((report.seat, report.piece, report.mv), (seat, piece, action));
            for seat in [WHITE, BLACK] {
                for piece in Piece::ALL {
                    let w = windings[seat.index()][piece.index()];
                    assert!(close(game.winding(seat, piece), w, 1e-6));
                    // The nearest whole percent; 100 for a finished piece only.
                    let finished = game.is_piece_finished(seat, piece);
                    let percent =
                        if finished { 100 } else { (w / 360.0 * 100.0).round().clamp(0.0, 99.0) as u8 };
                    assert_eq!(game.progress_percent(seat, piece), percent);
                }
            }
        }
        assert!(game.turns_played() <= 2 * 150 + 1);
    }
}

// ---- Winding, progress and finishing --------------------------------------------------------

#[test]
fn winding_adds_the_turns_and_a_small_step_back_lowers_it() {
    let setup = classic();
    let mut game = Circles::new(&setup);
    play(&mut game, &["b1c2"]);
    let w = game.winding(WHITE, BISHOP);
    assert!(close(w, -4.574, 0.001), "{w}");
    assert_eq!(game.progress_percent(WHITE, BISHOP), 0, "shown clamped at 0");
    play(&mut game, &["g8h7", "a1a8"]);
    assert!(close(game.winding(WHITE, ROOK), 90.0, 1e-9));
    assert_eq!(game.progress_percent(WHITE, ROOK), 25);
    // The page: a small step back takes a little off the way round, "the percent can drop by
    // 1%". A light-squared bishop makes one only from home (b1-c2, g8-f7): the black bishop home
    // after its loop (100%) steps to f7 to make room, 360° - 4.57° = 355.43° = 98.7%, shown as 99%
    // (rounding down showed 98%, a drop of 2).
    let finished = arrange(&setup, [("a1", 0), ("b1", 0), ("h7", 0), ("g8", 1)], BLACK);
    assert_eq!(finished.progress_percent(BLACK, BISHOP), 100);
    let mut stepped = finished.clone();
    play(&mut stepped, &["g8f7"]);
    let after = stepped.winding(BLACK, BISHOP);
    assert!(close(after, 360.0 - 4.574, 0.001), "{after}");
    assert_eq!(stepped.progress_percent(BLACK, BISHOP), 99);
    // The rook's small step, 3.18°: the black rook on d8 has turned 306.87° from h8 (85.2%, shown
    // 85%); d8-d7 leaves 303.69° (84.4%, shown 84%).
    let at_d8 = arrange(&setup, [("a1", 0), ("b1", 0), ("d8", 0), ("g8", 0)], BLACK);
    let before = at_d8.winding(BLACK, ROOK);
    assert!(close(before, 360.0 + theta(sq("d8")) - theta(sq("h8")) - 360.0, 1e-9), "{before}");
    assert_eq!(at_d8.progress_percent(BLACK, ROOK), 85);
    let mut stepped = at_d8.clone();
    play(&mut stepped, &["d8d7"]);
    assert_eq!(stepped.last_move().unwrap().step, Step::SmallStepBack);
    assert!(close(stepped.winding(BLACK, ROOK), before - 3.18, 0.005));
    assert_eq!(stepped.progress_percent(BLACK, ROOK), 84);
}

#[test]
fn progress_is_the_nearest_whole_percent_and_100_only_when_finished() {
    let setup = classic();
    // The white rook on a8 has turned 90°: 25% exactly.
    let game = arrange(&setup, [("a8", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert_eq!(game.progress_percent(WHITE, ROOK), 25);
    // The white rook on a6 has turned 68.2°, 18.9%: shown as 19 (rounding down showed 18).
    let at_a6 = arrange(&setup, [("a6", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(close(at_a6.winding(WHITE, ROOK), 68.199, 0.001));
    assert_eq!(at_a6.progress_percent(WHITE, ROOK), 19);
    // The black bishop on b7 (light, as it must be): 279.46°, 77.6%, shown as 78.
    let at_b7 = arrange(&setup, [("a1", 0), ("b1", 0), ("h8", 0), ("b7", 0)], WHITE);
    assert_eq!(at_b7.progress_percent(BLACK, BISHOP), 78);
    // The white rook on c1, two moves from home: 338.2°, 93.9%, shown as 94; a round later
    // (698.2°) it shows 99, the most before it is home.
    let nearly = arrange(&setup, [("c1", 0), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert_eq!(nearly.progress_percent(WHITE, ROOK), 94);
    let again = arrange(&setup, [("c1", 1), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(close(again.winding(WHITE, ROOK), 698.2, 0.01));
    assert_eq!(again.progress_percent(WHITE, ROOK), 99);
    // Home before the loop is 0%, home after it 100%.
    let home = arrange(&setup, [("a1", 1), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert_eq!(home.progress_percent(WHITE, ROOK), 100);
    assert_eq!(Circles::new(&setup).progress_percent(WHITE, ROOK), 0);
}

#[test]
fn a_piece_back_home_before_its_full_loop_has_not_finished() {
    let mut game = Circles::new(&classic());
    play(&mut game, &["b1c2", "h8h1", "c2b1"]);
    assert_eq!(game.square_of(WHITE, BISHOP), sq("b1"));
    assert!(close(game.winding(WHITE, BISHOP), 0.0, 1e-9));
    assert!(!game.is_piece_finished(WHITE, BISHOP));
    assert_eq!(game.progress_percent(WHITE, BISHOP), 0);
}

#[test]
fn a_rook_loop_makes_360_degrees_and_finishes_it() {
    let mut game = Circles::new(&classic());
    play(&mut game, &["a1a8", "h8h1", "a8f8", "g8h7", "f8f1", "h7f5", "b1a2", "f5h3"]);
    assert!(!game.is_piece_finished(WHITE, ROOK));
    assert_eq!(game.progress_percent(WHITE, ROOK), 81, "90 + 68.2 + 133.6 = 291.8 degrees");
    play(&mut game, &["f1a1"]);
    assert!(close(game.winding(WHITE, ROOK), 360.0, 1e-9));
    assert!(game.is_piece_finished(WHITE, ROOK));
    assert_eq!(game.progress_percent(WHITE, ROOK), 100);
    let report = game.last_move().unwrap();
    assert!(report.finished_piece);
    assert_eq!(report.piece, ROOK);
    assert!(!game.has_finished(WHITE), "the bishop still has its loop to make");
}

#[test]
fn a_finished_piece_may_step_off_and_must_come_home_again() {
    let setup = classic();
    let mut game = arrange(&setup, [("f1", 0), ("b1", 1), ("h8", 0), ("g8", 0)], WHITE);
    assert!(game.is_piece_finished(WHITE, BISHOP));
    // The finished bishop makes room for the rook, then comes home again.
    play(&mut game, &["b1c2"]);
    assert!(!game.is_piece_finished(WHITE, BISHOP));
    assert!(close(game.winding(WHITE, BISHOP), 355.426, 0.001));
    assert_eq!(game.progress_percent(WHITE, BISHOP), 99, "98.7% to the nearest whole percent");
    play(&mut game, &["h8h1", "f1a1"]);
    assert!(game.is_piece_finished(WHITE, ROOK));
    assert!(!game.has_finished(WHITE));
    play(&mut game, &["h1g1", "c2b1"]);
    assert!(game.is_piece_finished(WHITE, BISHOP));
    assert!(game.has_finished(WHITE));
    // A finished rook that leaves home keeps its winding above 360° but is no longer finished.
    let mut rook = arrange(&setup, [("a1", 1), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(rook.is_piece_finished(WHITE, ROOK));
    play(&mut rook, &["a1a8"]);
    assert!(close(rook.winding(WHITE, ROOK), 450.0, 1e-9));
    assert!(!rook.is_piece_finished(WHITE, ROOK));
    assert_eq!(rook.progress_percent(WHITE, ROOK), 99, "100 only while finished");
}

/// Both sides make their full loops; White's last move finishes, then Black's one last move.
const RACE: [&str; 27] = [
    "a1a8", "h8h1", "a8f8", "g8h7", "f8f1", "h7f5", "b1a2", "f5h3", "f1a1", "h3f1", "a2c4", "f1e2", "c4a6",
    "e2d1", "a6c8", "d1a4", "c8d7", "h1c1", "d7e8", "c1c8", "e8h5", "c8h8", "h5d1", "a4e8", "d1c2", "e8f7",
    "c2b1",
];

#[test]
fn white_finishing_first_gives_black_one_last_move_and_a_draw_if_black_finishes() {
    let mut game = Circles::new(&classic());
    play(&mut game, &RACE);
    for piece in Piece::ALL {
        assert!(close(game.winding(WHITE, piece), 360.0, 1e-6), "{piece:?}");
    }
    assert!(game.has_finished(WHITE));
    assert!(game.is_piece_finished(BLACK, ROOK));
    assert_eq!(game.outcome(), None);
    assert!(game.is_black_last_move());
    assert_eq!(game.to_move(), Some(BLACK));
    play(&mut game, &["f7g8"]);
    assert!(close(game.winding(BLACK, BISHOP), 360.0, 1e-6));
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Goal)));
}

#[test]
fn white_wins_if_black_does_not_finish_with_its_last_move() {
    let mut game = Circles::new(&classic());
    play(&mut game, &RACE);
    play(&mut game, &["f7g6"]);
    assert_eq!(game.outcome(), Some(Outcome::win(WHITE, EndReason::Goal)));
    assert_eq!(game.to_move(), None);
    assert!(game.legal_actions().is_empty());
    assert_eq!(game.clone().apply(&mv("g6h5")), Err(RuleError::GameOver));
}

#[test]
fn black_finishing_first_wins_at_once() {
    let mut game = Circles::new(&classic());
    // White's last move does not finish (the bishop goes on past home), so Black finishes first.
    play(&mut game, &RACE[..26]);
    play(&mut game, &["c2b3", "f7g8"]);
    assert_eq!(game.outcome(), Some(Outcome::win(BLACK, EndReason::Goal)));
}

#[test]
fn black_who_cannot_make_its_last_move_loses() {
    // Extra walls on h7 and f7 shut the black pieces in at home.
    let mut setup = classic();
    setup.barrier.extend([sq("h7"), sq("f7")]);
    let mut game = arrange(&setup, [("a1", 1), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
    play(&mut game, &["c2b1"]);
    assert!(game.has_finished(WHITE));
    assert_eq!(game.passed(), vec![BLACK]);
    assert_eq!(game.outcome(), Some(Outcome::win(WHITE, EndReason::Goal)));
}

// ---- Skipped turns and the draws --------------------------------------------------------------

/// White shut in at home by extra walls on a2 and c2; Black's bishop on g2 can shuffle along the
/// a8-h1 diagonal with moves that make no progress.
fn white_shut_in(max_rounds: u32) -> (Setup, Circles) {
    let mut setup = classic();
    setup.barrier.extend([sq("a2"), sq("c2")]);
    setup.max_rounds = max_rounds;
    let game = arrange(&setup, [("a1", 0), ("b1", 0), ("h8", 0), ("g2", 0)], WHITE);
    (setup, game)
}

#[test]
fn a_side_with_no_move_skips_its_turn() {
    let (_, game) = white_shut_in(150);
    assert_eq!(game.to_move(), Some(BLACK));
    assert_eq!(game.passed(), vec![WHITE]);
    assert_eq!(game.turns_played(), 1);
    let mut next = game.clone();
    play(&mut next, &["g2h1"]);
    assert_eq!(next.to_move(), Some(BLACK), "White skips again");
    assert_eq!(next.passed(), vec![WHITE]);
    assert_eq!(next.turns_played(), 3);
    assert_eq!(next.round(), 2);
}

#[test]
fn a_skipped_turn_is_not_a_move_for_the_20_move_rule() {
    let (_, mut game) = white_shut_in(150);
    for i in 0..19 {
        play(&mut game, &[if i % 2 == 0 { "g2h1" } else { "h1g2" }]);
    }
    // 19 moves and 20 turns skipped by White: no draw yet.
    assert_eq!(game.plies_without_progress(), 19);
    assert_eq!(game.outcome(), None);
    play(&mut game, &["h1g2"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
}

#[test]
fn a_skipped_turn_counts_for_the_round_limit() {
    // With a limit of 5 rounds: White skips, Black moves, five times over.
    let (_, mut game) = white_shut_in(5);
    for i in 0..4 {
        play(&mut game, &[if i % 2 == 0 { "g2h1" } else { "h1g2" }]);
        assert_eq!(game.outcome(), None);
    }
    assert_eq!(game.turns_played(), 9);
    play(&mut game, &["g2h1"]);
    assert_eq!(game.turns_played(), 10);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::MoveLimit)));
}

#[test]
fn the_round_limit_can_end_on_a_skipped_turn() {
    let (setup, _) = white_shut_in(5);
    // Black to move first: Black moves, White skips, and the fifth skip completes round 5.
    let mut game = arrange(&setup, [("a1", 0), ("b1", 0), ("h8", 0), ("g2", 0)], BLACK);
    for i in 0..5 {
        assert_eq!(game.outcome(), None);
        play(&mut game, &[if i % 2 == 0 { "g2h1" } else { "h1g2" }]);
    }
    assert_eq!(game.passed(), vec![WHITE]);
    assert_eq!(game.turns_played(), 10);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::MoveLimit)));
}

#[test]
fn twenty_moves_without_a_new_best_winding_draw() {
    // Small steps back and forth never beat a winding of 0.
    let mut game = Circles::new(&classic());
    let shuffle = ["b1c2", "g8f7", "c2b1", "f7g8"];
    for ply in 0..19 {
        play(&mut game, &[shuffle[ply % 4]]);
    }
    assert_eq!(game.outcome(), None);
    assert_eq!(game.plies_without_progress(), 19);
    play(&mut game, &[shuffle[19 % 4]]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
}

#[test]
fn a_new_best_winding_starts_the_20_moves_again() {
    let mut game = Circles::new(&classic());
    let shuffle = ["b1c2", "g8f7", "c2b1", "f7g8"];
    for ply in 0..12 {
        play(&mut game, &[shuffle[ply % 4]]);
    }
    assert_eq!(game.plies_without_progress(), 12);
    play(&mut game, &["a1a2"]);
    assert_eq!(game.plies_without_progress(), 0);
    assert!(game.last_move().unwrap().progressed);
    // 19 more moves without progress, then the draw.
    let shuffle = ["g8f7", "b1c2", "f7g8", "c2b1"];
    for ply in 0..19 {
        play(&mut game, &[shuffle[ply % 4]]);
    }
    assert_eq!(game.outcome(), None);
    play(&mut game, &[shuffle[19 % 4]]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
}

/// The two rooks circling two rings that never meet, every move a quarter turn: progress every
/// move and nobody ever finishes (the bishops never move).
fn circling() -> Circles {
    arrange(&classic(), [("b2", 0), ("c4", 0), ("a1", 0), ("f5", 0)], WHITE)
}

const WHITE_RING: [&str; 4] = ["b2b7", "b7g7", "g7g2", "g2b2"];
const BLACK_RING: [&str; 4] = ["a1a8", "a8h8", "h8h1", "h1a1"];

#[test]
fn the_150th_round_ends_in_a_draw() {
    let mut game = circling();
    for round in 0..150 {
        play(&mut game, &[WHITE_RING[round % 4]]);
        assert_eq!(game.outcome(), None);
        play(&mut game, &[BLACK_RING[round % 4]]);
        assert_eq!(game.plies_without_progress(), 0);
        if round < 149 {
            assert_eq!(game.outcome(), None, "round {}", round + 1);
            assert_eq!(game.round(), round as u32 + 2);
        }
    }
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::MoveLimit)));
    assert!(game.winding(BLACK, ROOK) > 360.0 * 37.0);
    assert!(!game.has_finished(BLACK));
}

#[test]
fn finishing_is_checked_before_the_20_move_rule() {
    // White's rook is finished; the finished bishop stepped off to c2 (best winding 360°).
    // Nineteen moves without progress so far; c2 to b1 only brings the bishop back to 360°.
    let setup = classic();
    let base = arrange(&setup, [("a1", 1), ("c2", 0), ("h7", 0), ("g8", 0)], WHITE);
    let mut position = base.position();
    position.best[WHITE.index()][BISHOP.index()] = Winding { square: sq("b1"), loops: 1 };
    position.plies_without_progress = 19;
    let game = Circles::from_position(&setup, &position).unwrap();
    let mut finishing = game.clone();
    play(&mut finishing, &["c2b1"]);
    assert!(!finishing.last_move().unwrap().progressed);
    assert_eq!(finishing.plies_without_progress(), 20);
    assert_eq!(finishing.outcome(), None, "White finished: Black's last move, not a draw");
    play(&mut finishing, &["h7h6"]);
    assert_eq!(finishing.outcome(), Some(Outcome::win(WHITE, EndReason::Goal)));
    // The same count with a move that does not finish is a draw.
    let mut not_finishing = Circles::from_position(&setup, &{
        let mut p = position.clone();
        p.squares[WHITE.index()][BISHOP.index()] = sq("c6");
        p.loops[WHITE.index()][BISHOP.index()] = 0;
        p
    })
    .unwrap();
    play(&mut not_finishing, &["c6b7"]);
    assert_eq!(not_finishing.outcome(), Some(Outcome::draw(EndReason::NoProgress)));
}

#[test]
fn finishing_is_checked_before_the_round_limit() {
    let setup = classic();
    // Round 150, White to move (298 turns played): White finishes with turn 299.
    let near_end = |black_bishop: &str| {
        arrange_full(&setup, [("a1", 1), ("c2", 0), ("h8", 1), (black_bishop, 0)], WHITE, 298, 0).unwrap()
    };
    let mut game = near_end("f7");
    play(&mut game, &["c2b1"]);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.turns_played(), 299);
    // Black finishes with turn 300, the last of round 150: a draw because both finished.
    let mut drawn = game.clone();
    play(&mut drawn, &["f7g8"]);
    assert_eq!(drawn.outcome(), Some(Outcome::draw(EndReason::Goal)));
    // Black does not finish with turn 300: White wins, the round limit notwithstanding.
    let mut lost = game.clone();
    play(&mut lost, &["f7g6"]);
    assert_eq!(lost.outcome(), Some(Outcome::win(WHITE, EndReason::Goal)));
    // Black finishing first with turn 300 wins.
    let mut black_first = near_end("f7");
    play(&mut black_first, &["c2b3", "f7g8"]);
    assert_eq!(black_first.turns_played(), 300);
    assert_eq!(black_first.outcome(), Some(Outcome::win(BLACK, EndReason::Goal)));
    // Nobody finishing by turn 300 is the draw.
    let mut nobody = near_end("f7");
    play(&mut nobody, &["c2b3", "f7g6"]);
    assert_eq!(nobody.outcome(), Some(Outcome::draw(EndReason::MoveLimit)));
}

#[test]
fn neither_side_able_to_move_is_a_draw() {
    let mut setup = classic();
    setup.barrier.extend(["a2", "c2", "h7", "f7"].map(sq));
    let game = Circles::new(&setup);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoMoves)));
    assert_eq!(game.to_move(), None);
    // Black is shut in; White's last free piece, the rook on a7, walks into the dead end on a8.
    let mut setup = classic();
    setup.barrier.extend(["a2", "c2", "h7", "f7", "b7", "b8"].map(sq));
    let mut game = arrange(&setup, [("a7", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE);
    // The rook on a7 can only go up to a8: going down is backwards and b7 is walled.
    assert_eq!(legal_set(&game), BTreeSet::from(["a7a8".to_string()]));
    play(&mut game, &["a7a8"]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::NoMoves)));
}

#[test]
fn running_out_of_time_loses() {
    let mut game = Circles::new(&classic());
    game.time_out(WHITE);
    assert_eq!(game.outcome(), Some(Outcome::win(BLACK, EndReason::OutOfTime)));
    game.time_out(BLACK);
    assert_eq!(game.outcome(), Some(Outcome::win(BLACK, EndReason::OutOfTime)), "the first result stays");
    let mut last_move = Circles::new(&classic());
    play(&mut last_move, &RACE);
    last_move.time_out(BLACK);
    assert_eq!(last_move.outcome(), Some(Outcome::win(WHITE, EndReason::OutOfTime)));
    assert_eq!(last_move.outcome().map(|o| o.winner), Some(Winner::Seat(WHITE)));
}

#[test]
fn impossible_positions_are_refused_not_panicked_on() {
    let setup = classic();
    let on_wall = arrange_full(&setup, [("d4", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE, 0, 0);
    assert!(matches!(on_wall, Err(RuleError::Illegal(_))));
    let shared = arrange_full(&setup, [("a1", 0), ("a1", 0), ("h8", 0), ("g8", 0)], WHITE, 0, 0);
    assert!(matches!(shared, Err(RuleError::Illegal(_))));
    let black_done = arrange_full(&setup, [("a1", 0), ("b1", 0), ("h8", 1), ("g8", 1)], WHITE, 0, 0);
    assert!(matches!(black_done, Err(RuleError::Illegal(_))));
    // A best winding below the winding now: the white rook on a8 (90°) never did better than 0°.
    let mut position = arrange(&setup, [("a8", 0), ("b1", 0), ("h8", 0), ("g8", 0)], WHITE).position();
    position.best[0][0] = Winding { square: sq("a1"), loops: 0 };
    assert!(matches!(Circles::from_position(&setup, &position), Err(RuleError::Illegal(_))));
    position.best[0][0] = Winding { square: sq("a8"), loops: 0 };
    assert!(Circles::from_position(&setup, &position).is_ok());
    position.best[0][0] = Winding { square: Square::new(9, 0), loops: 3 };
    assert!(matches!(Circles::from_position(&setup, &position), Err(RuleError::Illegal(_))));
    position.squares[0][0] = Square::new(9, 0);
    assert!(matches!(Circles::from_position(&setup, &position), Err(RuleError::Illegal(_))));
    let game = Circles::new(&setup);
    assert!(matches!(game.parse_action("a1"), Err(RuleError::Unreadable(_))));
    assert!(matches!(game.clone().apply(&mv("h8h1")), Err(RuleError::Illegal(_))));
}

#[test]
fn the_move_report_names_the_piece_and_the_turn() {
    let mut game = Circles::new(&classic());
    play(&mut game, &["b1c2"]);
    let report = game.last_move().unwrap();
    assert_eq!((report.seat, report.piece, report.step), (WHITE, BISHOP, Step::SmallStepBack));
    assert!(!report.progressed);
    play(&mut game, &["h8h1"]);
    let report = game.last_move().unwrap();
    assert_eq!((report.seat, report.piece, report.step), (BLACK, ROOK, Step::Forward));
    assert!(close(report.delta, 90.0, 1e-9));
    assert!(report.progressed);
    assert!(game.passed().is_empty());
}

// ---- Text interface ---------------------------------------------------------------------------

#[test]
fn the_text_interface_plays_making_circles() {
    let level = levels::find("ron_configs/circles/classic.ron").unwrap();
    let mut console = text::session_for(&level, 3);
    let legal = console.handle("legal");
    let listed: BTreeSet<String> =
        legal["legal"].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
    assert_eq!(listed, spec_moves(&Circles::new(&classic())));
    assert_eq!(console.handle("play a8a1")["ok"], false);
    assert_eq!(console.handle("play zz")["ok"], false);
    let played = console.handle("play a1a8");
    assert_eq!(played["ok"], true);
    assert_eq!(played["to_move"], "black");
    let state = console.handle("state");
    assert_eq!(state["game"], "circles");
    assert_eq!(state["pieces"]["white"]["rook"]["square"], "a8");
    assert_eq!(state["pieces"]["white"]["rook"]["home"], "a1");
    assert_eq!(state["pieces"]["white"]["rook"]["progress"], 25);
    assert_eq!(state["pieces"]["white"]["rook"]["winding"], 90.0);
    assert_eq!(state["pieces"]["white"]["rook"]["finished"], false);
    assert_eq!(state["pieces"]["black"]["bishop"]["progress"], 0);
    assert_eq!(state["board"][0], "R.....br");
    assert_eq!(state["board"][4], "...pp...");
    assert_eq!(state["last_piece"], "rook");
    assert_eq!(state["to_move"], "black");
    assert_eq!(state["outcome"], serde_json::Value::Null);
    let robot = console.handle("robot 1");
    assert_eq!(robot["ok"], true);
    assert_eq!(console.handle("undo")["ok"], true);
    assert_eq!(console.handle("state")["to_move"], "black");
    assert_eq!(console.handle("play g8f7")["ok"], true);
    let state = console.handle("state");
    assert_eq!(state["pieces"]["black"]["bishop"]["winding"], -4.57);
    assert_eq!(state["pieces"]["black"]["bishop"]["progress"], 0);
}

// ---- The Robot --------------------------------------------------------------------------------

use tabla::bench::{self, Player};
use tabla::robot::circles::moves_needed;

#[test]
fn the_robot_finishes_when_it_can() {
    let setup = classic();
    let game = arrange(&setup, [("a1", 1), ("c2", 0), ("h5", 0), ("c6", 0)], WHITE);
    for level in [RobotLevel::Two, RobotLevel::Three] {
        assert_eq!(robot::choose(&game, level, 11), Some(mv("c2b1")), "level {level}");
    }
}

#[test]
fn the_robot_brings_the_rook_home_before_the_bishop() {
    let setup = classic();
    // Rook on f1 and bishop on c2 each need one move; the bishop home first would shut the rook out.
    let game = arrange(&setup, [("f1", 0), ("c2", 0), ("h5", 0), ("c6", 0)], WHITE);
    assert_eq!(moves_needed(&game, WHITE), 2);
    let mut bishop_first = game.clone();
    play(&mut bishop_first, &["c2b1"]);
    // Now the bishop must step out and back again around the rook's move: three moves.
    assert_eq!(moves_needed(&bishop_first, WHITE), 3);
    assert_eq!(robot::choose(&game, RobotLevel::Three, 5), Some(mv("f1a1")));
}

#[test]
fn the_robot_counts_pieces_in_the_way_and_blocks_the_other_side() {
    let setup = classic();
    // Black's rook is home and done; its bishop on f7 finishes with f7-g8 and wins. Only the white
    // rook sliding along rank 8 onto g8 stops it.
    let game = arrange(&setup, [("c8", 0), ("b1", 0), ("h8", 1), ("f7", 0)], WHITE);
    assert_eq!(moves_needed(&game, BLACK), 1);
    let mut blocked = game.clone();
    play(&mut blocked, &["c8g8"]);
    assert!(moves_needed(&blocked, BLACK) > 1);
    for seed in 0..10 {
        assert_eq!(robot::choose(&game, RobotLevel::Three, seed), Some(mv("c8g8")), "seed {seed}");
    }
    // Level 1 is meant to be beatable: with the same chances it sometimes misses the block.
    let misses =
        (0..40).filter(|&seed| robot::choose(&game, RobotLevel::One, seed) != Some(mv("c8g8"))).count();
    assert!(misses > 0);
}

#[test]
fn the_robot_plays_legal_moves_and_repeats_itself_for_a_seed() {
    let mut rng = chance::rng(21);
    let mut game = Circles::new(&classic());
    for turn in 0..40 {
        if game.outcome().is_some() {
            break;
        }
        // Level 3 is slow in a debug build: it thinks on every fourth turn only.
        let level = if turn % 4 == 0 { RobotLevel::Three } else { RobotLevel::Two };
        let choice = robot::choose(&game, level, 99).unwrap();
        assert!(game.legal_actions().contains(&choice));
        assert_eq!(robot::choose(&game, level, 99), Some(choice));
        game.play(&choice);
        if let Some(reply) = robot::random_action(&game, &mut rng) {
            game.play(&reply);
        }
    }
}

#[test]
fn the_greedy_player_takes_the_largest_clockwise_turn() {
    let game = Circles::new(&classic());
    let mut rng = chance::rng(1);
    // a1-a8 turns 90°, more than any other first move.
    assert_eq!(robot::circles::greedy(&game, &mut rng), Some(mv("a1a8")));
}

#[test]
fn the_greedy_player_comes_home_to_finish_and_then_stays_there() {
    let setup = classic();
    let mut rng = chance::rng(1);
    // The rook has finished on a1; the bishop on c2 is a small step from finishing on b1. The
    // rook's a1-a8 turns furthest, but the greedy player finishes (and so wins).
    let finishing = arrange(&setup, [("a1", 1), ("c2", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(finishing.legal_actions().contains(&mv("a1a8")));
    assert_eq!(robot::circles::greedy(&finishing, &mut rng), Some(mv("c2b1")));
    // With no move to finish, the finished rook stays home: the bishop turns furthest instead.
    let racing = arrange(&setup, [("a1", 1), ("b3", 0), ("h8", 0), ("g8", 0)], WHITE);
    assert!(racing.legal_actions().contains(&mv("a1a8")));
    assert_eq!(robot::circles::greedy(&racing, &mut rng), Some(mv("b3a4")));
}

#[test]
fn level_one_loses_to_the_greedy_player_more_often_than_it_wins() {
    // A young child races as the greedy player does; level 1 errs often enough to lose to it
    // (the benchmark prints the share: about 0.3 over 100 seeded games), yet still beats a
    // player moving at random more often than not.
    let arena = |against| {
        tabla::bench::arena::<Circles>(tabla::bench::Player::Robot(RobotLevel::One), against, 60, 5)
    };
    let greedy = arena(tabla::bench::Player::Greedy);
    assert!(greedy < 0.45, "level 1 scored {greedy} against the greedy player");
    let random = arena(tabla::bench::Player::Random);
    assert!(random > 0.5, "level 1 scored {random} against the random player");
}

#[test]
fn the_robot_wins_seeded_games_against_the_simple_players() {
    // Two games each, the Robot taking each colour once; level 2, as level 3 is slow in a debug
    // build. The 200-game figures for level 3 come from `tabla bench --game circles`.
    assert_eq!(bench::arena::<Circles>(Player::Robot(RobotLevel::Two), Player::Random, 2, 4), 1.0);
    assert_eq!(bench::arena::<Circles>(Player::Robot(RobotLevel::Two), Player::Greedy, 2, 4), 1.0);
}
