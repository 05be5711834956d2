//! Dice sets: the numbers of a set, where a set comes from (a roll, a step of a doubles chain, or
//! numbers passed by the opponent), how many checkers may leave the head, and the flow from one
//! set to the next.

use super::{Board, CheckerMove, Event, Nard, Phase, ResultKind};
use crate::rules::Seat;
use serde::Deserialize;
use std::fmt;

/// The numbers of a dice set, highest first: a pair, four of a double, or what was passed.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Numbers {
    values: [u8; 4],
    len: u8,
}

impl Numbers {
    pub const NONE: Numbers = Numbers { values: [0; 4], len: 0 };

    /// An ordinary roll: two different numbers, or four of a double.
    pub fn roll(a: u8, b: u8) -> Numbers {
        if a == b { Numbers::repeat(a, 4) } else { Numbers::from_slice(&[a, b]) }
    }

    pub fn repeat(value: u8, count: usize) -> Numbers {
        Numbers::from_slice(&vec![value; count.min(4)])
    }

    /// Up to four numbers in any order.
    pub fn from_slice(values: &[u8]) -> Numbers {
        let mut numbers = Numbers::NONE;
        for &v in values.iter().take(4) {
            numbers.values[numbers.len as usize] = v;
            numbers.len += 1;
        }
        numbers.values[..numbers.len as usize].sort_unstable_by(|a, b| b.cmp(a));
        numbers
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.values[..self.len as usize]
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn sum(&self) -> u32 {
        self.as_slice().iter().map(|&v| v as u32).sum()
    }

    pub fn contains(&self, value: u8) -> bool {
        self.as_slice().contains(&value)
    }

    /// The numbers with one `value` taken out.
    pub fn without(&self, value: u8) -> Numbers {
        let mut rest = Numbers::NONE;
        let mut removed = false;
        for &v in self.as_slice() {
            if v == value && !removed {
                removed = true;
            } else {
                rest.values[rest.len as usize] = v;
                rest.len += 1;
            }
        }
        rest
    }

    /// Each different number once, highest first.
    pub fn distinct(&self) -> impl Iterator<Item = u8> + '_ {
        let values = self.as_slice();
        values.iter().enumerate().filter(move |(i, v)| *i == 0 || values[i - 1] != **v).map(|(_, v)| *v)
    }
}

impl fmt::Display for Numbers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.as_slice().iter().map(|v| v.to_string()).collect();
        write!(f, "{}", words.join(" "))
    }
}

/// How many checkers may leave the head in one dice set, or in one turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Deserialize)]
pub enum HeadRule {
    PerDiceSet,
    PerTurn,
}

impl HeadRule {
    pub fn key(self) -> &'static str {
        match self {
            HeadRule::PerDiceSet => "per_dice_set",
            HeadRule::PerTurn => "per_turn",
        }
    }
}

/// Where a dice set comes from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum SetKind {
    /// The player's own roll (or the opening roll).
    Roll,
    /// A later double of a doubles chain, played without rolling.
    Chain,
    /// Numbers the opponent could not play.
    Passed,
}

impl SetKind {
    pub fn key(self) -> &'static str {
        match self {
            SetKind::Roll => "roll",
            SetKind::Chain => "chain",
            SetKind::Passed => "passed",
        }
    }
}

/// The dice set in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiceSet {
    pub player: Seat,
    pub kind: SetKind,
    /// The numbers as the set began.
    pub dealt: Numbers,
    /// The numbers still to play.
    pub left: Numbers,
    /// Checkers that may leave the head during this set.
    pub head_limit: u8,
    /// The board as the set began, for taking moves back.
    pub start: Board,
    /// The moves made in this set so far.
    pub moves: Vec<CheckerMove>,
    /// Counts every dice set of the match, so a screen can tell one set from the next.
    pub serial: u32,
}

impl DiceSet {
    pub fn head_left(&self) -> u8 {
        let used = self.moves.iter().filter(|m| m.leaves_head()).count() as u8;
        self.head_limit.saturating_sub(used)
    }
}

impl Nard {
    pub(super) fn play_opening_die(&mut self, die: u8) {
        let Phase::Opening { white_die } = self.phase else { return };
        let Some(white) = white_die else {
            self.phase = Phase::Opening { white_die: Some(die) };
            return;
        };
        if white == die {
            self.events.push(Event::OpeningTie(die));
            self.phase = Phase::Opening { white_die: None };
            return;
        }
        let starter = if white > die { Seat::WHITE } else { Seat::BLACK };
        self.begin_turn(starter, white, die);
    }

    pub(super) fn play_roll(&mut self, a: u8, b: u8) {
        let Phase::AwaitingRoll(seat) = self.phase else { return };
        self.begin_turn(seat, a, b);
    }

    /// An ordinary roll (or the opening pair) starts the seat's turn.
    pub(super) fn begin_turn(&mut self, seat: Seat, a: u8, b: u8) {
        let first_roll = self.rolls_made[seat.index()] == 0;
        self.rolls_made[seat.index()] += 1;
        self.turn_owner = seat;
        self.head_this_turn = [1, 1];
        self.chain = (a == b && a < 6).then_some((seat, a + 1));
        self.chain_start = (a == b).then_some(a);
        // On a player's first roll 6-6, 4-4 and 3-3 let a second checker off the head.
        let extra_head = first_roll && a == b && matches!(a, 3 | 4 | 6);
        self.start_set(seat, SetKind::Roll, Numbers::roll(a, b), extra_head);
        self.settle();
    }

    pub(super) fn start_set(&mut self, player: Seat, kind: SetKind, numbers: Numbers, extra_head: bool) {
        let base = match self.head_rule {
            HeadRule::PerDiceSet => 1,
            HeadRule::PerTurn => self.head_this_turn[player.index()],
        };
        self.serial += 1;
        self.events.push(Event::SetStarted { player, kind, numbers });
        self.phase = Phase::Playing(DiceSet {
            player,
            kind,
            dealt: numbers,
            left: numbers,
            head_limit: base + extra_head as u8,
            start: self.board,
            moves: Vec::new(),
            serial: self.serial,
        });
    }

    /// Moves the flow on until someone has a decision to make: ends dice sets that cannot go on,
    /// passes or loses their numbers, starts chain steps and the next ordinary turn.
    pub(super) fn settle(&mut self) {
        loop {
            let Phase::Playing(set) = &self.phase else { return };
            let can_go_on = set
                .left
                .distinct()
                .any(|die| !self.board.moves_for(set.player, die, set.head_left() > 0).as_slice().is_empty());
            if can_go_on {
                return;
            }
            let set = set.clone();
            if self.head_rule == HeadRule::PerTurn {
                self.head_this_turn[set.player.index()] = set.head_left();
            }
            match set.kind {
                SetKind::Roll | SetKind::Chain if !set.left.is_empty() => {
                    self.events.push(Event::NumbersPassed { from: set.player, numbers: set.left });
                    self.start_set(set.player.opponent(), SetKind::Passed, set.left, false);
                }
                _ => {
                    if !set.left.is_empty() {
                        self.events.push(Event::NumbersLost { player: set.player, numbers: set.left });
                    }
                    self.after_sets();
                }
            }
        }
    }

    /// A set and whatever it passed are over: the chain goes on, or the other side rolls.
    pub(super) fn after_sets(&mut self) {
        if let Some((owner, value)) = self.chain {
            self.chain = (value < 6).then_some((owner, value + 1));
            self.start_set(owner, SetKind::Chain, Numbers::repeat(value, 4), false);
            return;
        }
        self.phase = Phase::AwaitingRoll(self.turn_owner.opponent());
        if !self.board.can_move_any(Seat::WHITE) && !self.board.can_move_any(Seat::BLACK) {
            // Nothing can ever change again: scored like the deadlock.
            self.end_game(None, ResultKind::Draw);
        }
    }
}
