//! Trying out the moves of a dice set before confirming them.

use super::{CheckerMove, Nard, NardAction};
use crate::rules::{Game, RuleError};

/// Moves of the current dice set tried out before they are confirmed: the screen plays them here,
/// takes them back one by one, and commits the result.
#[derive(Clone, Debug)]
pub struct Draft {
    start: Nard,
    current: Nard,
    moves: Vec<CheckerMove>,
    serial: u32,
}

impl Draft {
    /// A draft of the dice set in play; `None` when no set is in play.
    pub fn new(game: &Nard) -> Option<Draft> {
        let serial = game.dice_set()?.serial;
        Some(Draft { start: game.clone(), current: game.clone(), moves: Vec::new(), serial })
    }

    /// The game as it would be with the draft's moves.
    pub fn game(&self) -> &Nard {
        &self.current
    }

    pub fn moves(&self) -> &[CheckerMove] {
        &self.moves
    }

    /// The set still wants moves: the draft's game is still in the same dice set.
    pub fn is_open(&self) -> bool {
        self.current.outcome.is_none() && self.current.dice_set().is_some_and(|set| set.serial == self.serial)
    }

    pub fn play(&mut self, mv: CheckerMove) -> Result<(), RuleError> {
        if !self.is_open() {
            return Err(RuleError::Illegal("this dice set is finished: confirm or take back".into()));
        }
        self.current.apply(&NardAction::Move(mv))?;
        self.moves.push(mv);
        Ok(())
    }

    /// Takes the last move back; `None` when there is none.
    pub fn take_back(&mut self) -> Option<CheckerMove> {
        let last = self.moves.pop()?;
        let mut game = self.start.clone();
        for &mv in &self.moves {
            game.play(&NardAction::Move(mv));
        }
        self.current = game;
        Some(last)
    }

    /// The actions the draft stands for, to play on the real game (or to record).
    pub fn actions(&self) -> Vec<NardAction> {
        self.moves.iter().map(|&m| NardAction::Move(m)).collect()
    }

    pub fn commit(self) -> Nard {
        self.current
    }
}
