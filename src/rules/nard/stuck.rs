//! Why a checker cannot move now: the rule that holds it, for a screen to tell a child.

use super::{HEAD, Nard};

/// What holds a checker of the player in play where it stands.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Stuck {
    /// It has entered its home: it waits there until all fifteen are home to bear off.
    HomeFrozen,
    /// The head has let out as many checkers as this dice set allows.
    HeadUsed,
    /// Bearing off takes the exact number of a checker's point, and none of the numbers left is.
    ExactBearOff,
    /// Every point its numbers reach holds the opponent's checkers.
    Closed,
    /// Its move would hold six points in a row with no opposing checker ahead of them.
    Prime,
    /// It could move, but the numbers must be played so as to use as many of them as possible
    /// (both, or the larger one), and no such play starts with this checker.
    PlayOthersFirst,
}

impl Stuck {
    pub fn key(self) -> &'static str {
        match self {
            Stuck::HomeFrozen => "home_frozen",
            Stuck::HeadUsed => "head_used",
            Stuck::ExactBearOff => "exact_bear_off",
            Stuck::Closed => "closed",
            Stuck::Prime => "prime",
            Stuck::PlayOthersFirst => "play_others_first",
        }
    }
}

impl Nard {
    /// Why the checker on the player's own point `from` cannot move with the numbers still to
    /// play; `None` when it can, when no dice set is in play or when the player has no checker
    /// there.
    pub fn why_stuck(&self, from: u8) -> Option<Stuck> {
        let set = self.dice_set()?;
        let seat = set.player;
        let board = self.board();
        if board.count(seat, from) == 0 || !self.targets_from(from).is_empty() {
            return None;
        }
        let head_free = set.head_left() > 0;
        let alone = set.left.distinct().any(|die| board.single_move(seat, from, die, head_free).is_some());
        if alone {
            return Some(Stuck::PlayOthersFirst);
        }
        if board.is_bearing_off(seat) {
            return Some(Stuck::ExactBearOff);
        }
        if from <= 6 {
            return Some(Stuck::HomeFrozen);
        }
        if from == HEAD && !head_free {
            return Some(Stuck::HeadUsed);
        }
        // A point the numbers reach that is free of the opponent would be taken but for the prime.
        let some_open = set.left.distinct().any(|die| !board.opponent_on(seat, from - die));
        Some(if some_open { Stuck::Prime } else { Stuck::Closed })
    }
}
