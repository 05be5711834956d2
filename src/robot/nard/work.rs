//! One decision's work, counted in nodes, which the Robot's slices spend: the lookahead, the
//! playouts and the coach count through it.

use super::Strength;
use crate::rules::Seat;
use crate::rules::nard::{Board, Numbers, Play, plays_walked};

/// One decision's search: its strength, the opponent replies generated so far (what the
/// strength's `node_limit` counts), and the nodes of work done (what a slice's budget counts:
/// one position judged by the estimate, or the listing of a set's plays by its size).
pub(super) struct Search {
    pub(super) strength: Strength,
    pub(super) replies: u64,
    pub(super) nodes: u64,
    /// The most nodes one step of work has counted (a slice may go over its budget by that).
    pub(super) largest_unit: u64,
}

/// Positions walked while listing plays that cost about as much as one node.
const WALKED_PER_NODE: u64 = 4;

impl Search {
    /// A search not begun, at `strength`.
    pub(super) fn new(strength: Strength) -> Search {
        Search { strength, replies: 0, nodes: 0, largest_unit: 1 }
    }

    /// A dice set's plays, counted as nodes by the work of listing them (a double with many
    /// checkers free walks thousands of positions: one node would let a slice overrun its frame).
    pub(super) fn list(&mut self, board: &Board, seat: Seat, numbers: Numbers, head: u8) -> Vec<Play> {
        let (all, walked) = plays_walked(board, seat, numbers, head);
        let unit = 1 + walked as u64 / WALKED_PER_NODE;
        self.nodes += unit;
        self.largest_unit = self.largest_unit.max(unit);
        all
    }
}
