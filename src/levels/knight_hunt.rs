//! Knight Hunt's level format, and its checks: each side's knights and pawns, every pawn one the
//! other side's knights can reach.

use super::checker::Checker;
use super::{KnightHuntLevel, LevelError};
use crate::rules::board::{BoardShape, Square};
use crate::rules::knight_hunt;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawKnightHunt {
    variant: String,
    knights_capture: bool,
    white: RawArmy,
    black: RawArmy,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawArmy {
    knights: Vec<String>,
    pawns: Vec<String>,
}

impl Checker<'_> {
    pub(super) fn knight_hunt(&self, raw: RawKnightHunt) -> Result<KnightHuntLevel, LevelError> {
        let shape = BoardShape::CHESS;
        let knights = [self.squares(&raw.white.knights, shape)?, self.squares(&raw.black.knights, shape)?];
        let pawns = [self.squares(&raw.white.pawns, shape)?, self.squares(&raw.black.pawns, shape)?];
        self.one_piece_per_square(&[&knights[0], &knights[1], &pawns[0], &pawns[1]])?;
        if knights.iter().any(|k| k.is_empty()) {
            return Err(
                self.error(self.line_of_field("knights"), "each side needs at least one knight".into())
            );
        }
        // Pawns never move, and a knight never lands on its own side's: a pawn that no enemy
        // knight can ever reach past them can never be taken, and if neither side can take all
        // the game never ends.
        let bits = |squares: &[Square]| squares.iter().fold(0u64, |acc, s| acc | s.bit());
        for (side, name, other) in [(0, "white", "black"), (1, "black", "white")] {
            let walls = bits(&pawns[side]);
            let mut reached = bits(&knights[side]);
            loop {
                let next = crate::rules::board::squares_of(reached)
                    .fold(reached, |acc, s| acc | crate::rules::board::KNIGHT_ATTACKS[s.index64()])
                    & !walls;
                if next == reached {
                    break;
                }
                reached = next;
            }
            if let Some(pawn) = pawns[1 - side].iter().find(|p| reached & p.bit() == 0) {
                let square = pawn.to_string();
                return Err(self.error(
                    self.line_of(&square, 0),
                    format!(
                        "the {other} pawn on \"{square}\" can never be taken: no {name} knight can reach it \
                         past the {name} pawns"
                    ),
                ));
            }
        }
        Ok(KnightHuntLevel {
            variant: raw.variant,
            setup: knight_hunt::Setup { knights_capture: raw.knights_capture, knights, pawns },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }
}
