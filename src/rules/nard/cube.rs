//! The doubling cube: who may double, the offer, and taking or dropping it.

use super::{Nard, Phase, ResultKind};
use crate::rules::Seat;

/// The highest value the cube may reach.
pub const CUBE_LIMIT: u32 = 64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cube {
    pub value: u32,
    /// `None` while the cube is in the middle.
    pub owner: Option<Seat>,
}

impl Nard {
    pub fn cube(&self) -> Cube {
        self.cube
    }

    /// Whether this match uses the cube at all.
    pub fn cube_enabled(&self) -> bool {
        self.cube_enabled
    }

    /// Whether the seat may double now.
    pub fn can_double(&self, seat: Seat) -> bool {
        self.phase == Phase::AwaitingRoll(seat)
            && self.cube_enabled
            && !self.crawford_game
            && self.cube.value < CUBE_LIMIT
            && self.cube.owner.is_none_or(|owner| owner == seat)
    }

    /// The seat that has doubled and waits for an answer.
    pub fn double_offered_by(&self) -> Option<Seat> {
        match self.phase {
            Phase::DoubleOffered(seat) => Some(seat),
            _ => None,
        }
    }

    pub(super) fn double(&mut self) {
        if let Phase::AwaitingRoll(seat) = self.phase {
            self.phase = Phase::DoubleOffered(seat);
        }
    }

    pub(super) fn take(&mut self) {
        if let Phase::DoubleOffered(doubler) = self.phase {
            self.cube = Cube { value: self.cube.value * 2, owner: Some(doubler.opponent()) };
            self.phase = Phase::AwaitingRoll(doubler);
        }
    }

    pub(super) fn drop_double(&mut self) {
        if let Phase::DoubleOffered(doubler) = self.phase {
            self.end_game(Some(doubler), ResultKind::Dropped);
        }
    }
}
