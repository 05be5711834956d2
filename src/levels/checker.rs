//! What every level's check shares: errors pointing at a line of the file, squares by name, the
//! clock's choices, one piece a square.

use super::LevelError;
use crate::rules::board::{BoardShape, Square, SquareError};

/// The longest clock a level may offer, in minutes per player.
const MAX_CLOCK_MINUTES: u32 = 999;

/// Checks the meaning of a file that parsed, pointing at the line of each mistake.
pub(super) struct Checker<'a> {
    pub file: &'a str,
    pub source: &'a str,
}

impl Checker<'_> {
    pub(super) fn error(&self, line: usize, message: String) -> LevelError {
        LevelError { file: self.file.to_string(), line, message }
    }

    /// The line of the `nth` (0-based) appearance of `"text"` in the file.
    pub(super) fn line_of(&self, text: &str, nth: usize) -> usize {
        let quoted = format!("\"{text}\"");
        self.source
            .match_indices(&quoted)
            .nth(nth)
            .map(|(at, _)| self.source[..at].matches('\n').count() + 1)
            .unwrap_or(0)
    }

    /// The line where a field is first written, or 1.
    pub(super) fn line_of_field(&self, field: &str) -> usize {
        let written = format!("{field}:");
        self.source.find(&written).map(|at| self.source[..at].matches('\n').count() + 1).unwrap_or(1)
    }

    pub(super) fn squares(&self, names: &[String], shape: BoardShape) -> Result<Vec<Square>, LevelError> {
        names
            .iter()
            .map(|name| {
                shape.parse(name).map_err(|e| {
                    let hint = match e {
                        SquareError::Unknown(_) => " (squares are written like \"g1\")".to_string(),
                        SquareError::OffBoard(_) => {
                            format!(
                                " (this board has files a-{} and ranks 1-{})",
                                (b'a' + shape.files - 1) as char,
                                shape.ranks
                            )
                        }
                    };
                    self.error(self.line_of(name, 0), format!("{e}{hint}"))
                })
            })
            .collect()
    }

    /// The clock choices: minutes per player, each offered once, 1 to 999 (off is always
    /// offered, so 0 would be a second "off").
    pub(super) fn clock_minutes(&self, minutes: Vec<u32>) -> Result<Vec<u32>, LevelError> {
        for (nth, &m) in minutes.iter().enumerate() {
            if !(1..=MAX_CLOCK_MINUTES).contains(&m) || minutes[..nth].contains(&m) {
                return Err(self.error(
                    self.line_of_field("clock_minutes"),
                    format!(
                        "clock_minutes are different choices of 1 to {MAX_CLOCK_MINUTES} minutes, not {m} \
                         (off is always offered)"
                    ),
                ));
            }
        }
        Ok(minutes)
    }

    /// Every piece must have a square of its own.
    pub(super) fn one_piece_per_square(&self, lists: &[&[Square]]) -> Result<(), LevelError> {
        let mut seen = Vec::new();
        for square in lists.iter().flat_map(|list| list.iter()) {
            if seen.contains(square) {
                let name = square.to_string();
                return Err(self.error(self.line_of(&name, 1), format!("two pieces on square \"{name}\"")));
            }
            seen.push(*square);
        }
        Ok(())
    }

    /// The line of the `nth` (0-based) `(` after the field `field:`, or the field's line.
    pub(super) fn line_of_entry(&self, field: &str, nth: usize) -> usize {
        let written = format!("{field}:");
        let Some(start) = self.source.find(&written) else { return 1 };
        self.source[start..]
            .match_indices('(')
            .nth(nth)
            .map(|(at, _)| self.source[..start + at].matches('\n').count() + 1)
            .unwrap_or_else(|| self.line_of_field(field))
    }

    /// The line of the `nth` (0-based) occurrence of `text` after the field `field:`.
    pub(super) fn line_after_field(&self, field: &str, text: &str, nth: usize) -> usize {
        let written = format!("{field}:");
        let Some(start) = self.source.find(&written) else { return 1 };
        self.source[start..]
            .match_indices(text)
            .nth(nth)
            .map(|(at, _)| self.source[..start + at].matches('\n').count() + 1)
            .unwrap_or_else(|| self.line_of_field(field))
    }
}
