//! Bunnies and Horses' level format, and its checks: the bunnies start outside the garden.

use super::checker::Checker;
use super::{BunniesLevel, LevelError};
use crate::rules::board::BoardShape;
use crate::rules::bunnies;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBunnies {
    variant: String,
    bunnies: Vec<String>,
    horses: Vec<String>,
    #[serde(default)]
    clock_minutes: Vec<u32>,
}

impl Checker<'_> {
    pub(super) fn bunnies(&self, raw: RawBunnies) -> Result<BunniesLevel, LevelError> {
        let shape = BoardShape::CHESS;
        let bunnies = self.squares(&raw.bunnies, shape)?;
        let horses = self.squares(&raw.horses, shape)?;
        self.one_piece_per_square(&[&bunnies, &horses])?;
        if let Some(square) = bunnies.iter().find(|s| s.rank == shape.ranks - 1) {
            let name = square.to_string();
            return Err(self.error(
                self.line_of(&name, 0),
                format!("a bunny on \"{name}\" would already be in the garden (rank 8)"),
            ));
        }
        for (field, squares) in [("bunnies", &bunnies), ("horses", &horses)] {
            if squares.is_empty() {
                return Err(self.error(self.line_of_field(field), format!("the level needs {field}")));
            }
        }
        Ok(BunniesLevel {
            variant: raw.variant,
            setup: bunnies::Setup { bunnies, horses },
            clock_minutes: self.clock_minutes(raw.clock_minutes)?,
        })
    }
}
