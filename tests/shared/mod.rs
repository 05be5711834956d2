//! Helpers the test programs share: squares by their names, a text session on a level file and
//! its answers. Each `tests/*.rs` is a program of its own and takes this module with `mod shared;`
//! (the app's test program with `#[path]`), so each uses only some of it.
#![allow(dead_code)]

use serde_json::Value;
use tabla::levels;
use tabla::rules::board::{BoardShape, Square};
use tabla::text::{self, Console};

/// A square of the 8×8 board by its name ("e4").
pub fn sq(name: &str) -> Square {
    BoardShape::CHESS.parse(name).unwrap()
}

pub fn squares(names: &[&str]) -> Vec<Square> {
    names.iter().map(|n| sq(n)).collect()
}

/// A square of Halma's 16×16 board by its name ("p16").
pub fn halma_sq(name: &str) -> Square {
    BoardShape::HALMA.parse(name).unwrap()
}

pub fn halma_squares(names: &[&str]) -> Vec<Square> {
    names.iter().map(|n| halma_sq(n)).collect()
}

/// `tabla text`'s session on the level file `file`, its Robot seeded with `seed`.
pub fn session(file: &str, seed: u64) -> Box<dyn Console> {
    text::session_for(&levels::find(file).unwrap_or_else(|e| panic!("{file}: {e}")), seed)
}

/// The answer to `line`, which must be ok.
pub fn ok(console: &mut dyn Console, line: &str) -> Value {
    let answer = console.handle(line);
    assert_eq!(answer["ok"], true, "{line}: {answer}");
    answer
}

/// The legal actions the session lists, as it writes them.
pub fn legal(console: &mut dyn Console) -> Vec<String> {
    let answer = console.handle("legal");
    answer["legal"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect()
}
