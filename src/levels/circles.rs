//! Making Circles' level format, and its checks: the racers' homes, the barrier, the centre the
//! laps are measured around.

use super::checker::Checker;
use super::{CirclesLevel, LevelError};
use crate::rules::board::{BoardShape, Square};
use crate::rules::circles;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCircles {
    variant: String,
    centre: (f64, f64),
    max_back_step_deg: f64,
    white: RawRacers,
    black: RawRacers,
    barrier: Vec<String>,
    no_progress_plies: u32,
    max_rounds: u32,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRacers {
    rook: String,
    bishop: String,
}

impl Checker<'_> {
    pub(super) fn circles(&self, raw: RawCircles) -> Result<CirclesLevel, LevelError> {
        let shape = BoardShape::CHESS;
        let pair = |racers: &RawRacers| -> Result<[Square; 2], LevelError> {
            let squares = self.squares(&[racers.rook.clone(), racers.bishop.clone()], shape)?;
            Ok([squares[0], squares[1]])
        };
        let homes = [pair(&raw.white)?, pair(&raw.black)?];
        let barrier = self.squares(&raw.barrier, shape)?;
        self.one_piece_per_square(&[&homes[0], &homes[1], &barrier])?;
        // The centre in half squares: every direction from it is then exact (circles::Setup).
        let halves = |v: f64| -> Option<i32> {
            let twice = v * 2.0;
            (v.is_finite() && (0.0..=shape.files as f64).contains(&v) && twice == twice.round())
                .then_some(twice as i32)
        };
        let centre_halves = match (halves(raw.centre.0), halves(raw.centre.1)) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                return Err(self.error(
                    self.line_of_field("centre"),
                    "the centre must lie on the board, in half squares (such as 4.0 or 3.5)".into(),
                ));
            }
        };
        // A square whose middle is the centre has no direction to measure.
        let on_middle = shape.squares().find(|s| {
            2 * i32::from(s.file) + 1 == centre_halves.0 && 2 * i32::from(s.rank) + 1 == centre_halves.1
        });
        if let Some(square) = on_middle.filter(|s| !barrier.contains(s)) {
            return Err(self.error(
                self.line_of_field("centre"),
                format!("the centre is the middle of square \"{square}\"; put it on a corner or the barrier"),
            ));
        }
        if !(0.0..90.0).contains(&raw.max_back_step_deg) {
            return Err(self.error(
                self.line_of_field("max_back_step_deg"),
                "max_back_step_deg must be at least 0 and below 90".into(),
            ));
        }
        for (field, value) in [("no_progress_plies", raw.no_progress_plies), ("max_rounds", raw.max_rounds)] {
            if value == 0 {
                return Err(self.error(self.line_of_field(field), format!("{field} must be at least 1")));
            }
        }
        // The game counts turns, two a round, in 32 bits.
        if raw.max_rounds > u32::MAX / 2 {
            return Err(self.error(
                self.line_of_field("max_rounds"),
                format!("max_rounds is at most {} (the game counts two turns a round)", u32::MAX / 2),
            ));
        }
        Ok(CirclesLevel {
            variant: raw.variant,
            setup: circles::Setup {
                centre_halves,
                max_back_step_deg: raw.max_back_step_deg,
                homes,
                barrier,
                no_progress_plies: raw.no_progress_plies,
                max_rounds: raw.max_rounds,
            },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }
}
