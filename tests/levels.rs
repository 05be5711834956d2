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
        assert!(file.contains(level.game_name()), "{file} sits in its game's folder");
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
