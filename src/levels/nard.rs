//! Crazy Nard's level format, and its checks: the match, the cube, and a start that can be
//! played (fifteen checkers, no deadlock, no forbidden prime).

use super::checker::Checker;
use super::{LevelError, NardLevel};
use crate::rules::nard;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawNard {
    variant: String,
    match_length: u32,
    cube: bool,
    crawford: bool,
    head_rule: nard::HeadRule,
    /// Each side's checkers as (own point, checkers), the same for both sides.
    start: Vec<(u8, u8)>,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

impl Checker<'_> {
    pub(super) fn nard(&self, raw: RawNard) -> Result<NardLevel, LevelError> {
        if !(1..=25).contains(&raw.match_length) {
            return Err(self.error(
                self.line_of_field("match_length"),
                format!("a match is 1 to 25 points long, not {}", raw.match_length),
            ));
        }
        if raw.cube && raw.match_length == 1 {
            return Err(
                self.error(self.line_of_field("cube"), "a 1-point match plays without the cube".into())
            );
        }
        if let Some(nth) = raw.start.iter().position(|&(_, checkers)| checkers == 0) {
            let point = raw.start[nth].0;
            return Err(self.error(
                self.line_of_entry("start", nth),
                format!("point {point} is given with no checkers"),
            ));
        }
        // The board names the point it refuses: the line is that entry's (the second one given
        // for a point given twice).
        let start = nard::Board::symmetric(&raw.start).map_err(|e| {
            let entry = |point: u8| raw.start.iter().rposition(|&(p, _)| p == point);
            let nth = match e {
                nard::BoardError::PointOffBoard(point) | nard::BoardError::PointTwice(point) => entry(point),
                _ => None,
            };
            let line =
                nth.map_or_else(|| self.line_of_field("start"), |nth| self.line_of_entry("start", nth));
            self.error(line, e.to_string())
        })?;
        let total: u32 = raw.start.iter().map(|&(_, checkers)| checkers as u32).sum();
        if total != nard::CHECKERS as u32 {
            return Err(self.error(
                self.line_of_field("start"),
                format!("each side starts with 15 checkers, this start places {total}"),
            ));
        }
        // Every game starts from this board: one that can only be drawn would make the match go on
        // for ever.
        let seats = [crate::rules::Seat::WHITE, crate::rules::Seat::BLACK];
        if !seats.iter().any(|&seat| start.can_move_any(seat)) {
            return Err(self.error(
                self.line_of_field("start"),
                "no checker of either side can ever move from this start (home checkers wait, every other \
                 point they reach is closed): every game would be a draw"
                    .into(),
            ));
        }
        if start.is_deadlock() {
            return Err(self.error(
                self.line_of_field("start"),
                "this start is already a deadlock (each side holds its whole home and has checkers in its \
                 first quarter): every game would be a draw"
                    .into(),
            ));
        }
        if seats.iter().any(|&seat| start.has_forbidden_prime(seat)) {
            return Err(self.error(
                self.line_of_field("start"),
                "this start holds six points in a row with no opposing checker ahead of them, which the \
                 prime rule forbids"
                    .into(),
            ));
        }
        Ok(NardLevel {
            variant: raw.variant,
            setup: nard::Setup {
                match_length: raw.match_length,
                cube: raw.cube,
                crawford: raw.crawford,
                head_rule: raw.head_rule,
                start,
            },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }
}
