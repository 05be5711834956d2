//! The situation around a dice set, the weaker levels' noise, and dice sets played out by the
//! static estimate a node at a time.

use super::win_chance;
use super::work::Search;
use crate::robot::stable_hash;
use crate::rules::Seat;
use crate::rules::nard::{Board, CHECKERS, Nard, Numbers, Phase, Play, SetKind};

/// What the planner needs to know of the game around the dice set in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Situation {
    pub(super) player: Seat,
    pub(super) kind: SetKind,
    pub(super) board: Board,
    pub(super) left: Numbers,
    pub(super) head_left: u8,
    /// The next double of the player's own chain, if one follows this set.
    pub(super) chain_next: Option<u8>,
    /// The next double of the opponent's chain, when the opponent passed this set during it: the
    /// opponent goes on with its chain before anyone rolls.
    pub(super) opponent_chain_next: Option<u8>,
    /// Whether the opponent's next ordinary roll is its first (first-roll doubles rule).
    pub(super) opponent_first_roll: bool,
    pub(super) serial: u32,
}

impl Situation {
    pub(super) fn of(game: &Nard) -> Option<Situation> {
        let Phase::Playing(set) = game.phase() else { return None };
        let chain_next = game.chain_next().filter(|(owner, _)| *owner == set.player).map(|(_, v)| v);
        let opponent_chain_next = game.chain_next().filter(|(owner, _)| *owner != set.player).map(|(_, v)| v);
        Some(Situation {
            player: set.player,
            kind: set.kind,
            board: *game.board(),
            left: set.left,
            head_left: set.head_left(),
            chain_next,
            opponent_chain_next,
            opponent_first_roll: game.rolls_made(set.player.opponent()) == 0,
            serial: set.serial,
        })
    }

    /// Who plays next once this set is over: the player's own chain comes first; after numbers
    /// passed to the player, the opponent's chain if it goes on, else the player rolls; after
    /// an ordinary roll or the chain's last step, the opponent rolls.
    pub(super) fn next_on_roll(&self) -> Seat {
        match self.kind {
            _ if self.chain_next.is_some() => self.player,
            SetKind::Passed if self.opponent_chain_next.is_none() => self.player,
            _ => self.player.opponent(),
        }
    }
}

/// A number in [-1, 1] that depends only on the inputs: the noise of the weaker levels.
pub(super) fn noise_of(board: &Board, serial: u32, salt: u8) -> f64 {
    (stable_hash(&(board, serial, salt)) % 2_000_001) as f64 / 1_000_000.0 - 1.0
}

pub(super) fn unit_of(serial: u32, salt: u8, which: u64) -> f64 {
    (stable_hash(&(serial, salt, which)) % 1_000_000) as f64 / 1_000_000.0
}

/// One dice set of `seat` played by the static estimate, a node at a time: its plays are listed
/// (one node), then judged one per node; the best (the first of equals) is played, the opponent
/// rolling after it. With `may_pass`, what it cannot play passes to the other side, which plays
/// it the same way.
pub(super) struct StaticSet {
    pub(super) seat: Seat,
    pub(super) numbers: Numbers,
    pub(super) head: u8,
    pub(super) may_pass: bool,
    pub(super) plays: Option<Vec<Play>>,
    pub(super) next: usize,
    pub(super) best: Option<(f64, usize)>,
}

impl StaticSet {
    pub(super) fn new(seat: Seat, numbers: Numbers, head: u8, may_pass: bool) -> StaticSet {
        StaticSet { seat, numbers, head, may_pass, plays: None, next: 0, best: None }
    }
}

/// A run of dice sets played out by the static estimate: one set (with the numbers it passes),
/// then the rest of a doubles chain, if any.
pub(super) struct Playout {
    pub(super) board: Board,
    pub(super) set: Option<StaticSet>,
    /// The seat whose doubles chain goes on after the set, and its next double.
    pub(super) chain: Option<(Seat, u8)>,
}

/// Whether an `advance` did a node of work or found the work done.
pub(super) enum Progress {
    Worked,
    Done,
}

impl Playout {
    /// `seat` plays `numbers`; what it cannot play passes on when `may_pass`.
    pub(super) fn set(board: &Board, seat: Seat, numbers: Numbers, head: u8, may_pass: bool) -> Playout {
        Playout { board: *board, set: Some(StaticSet::new(seat, numbers, head, may_pass)), chain: None }
    }

    /// The steps of the seat's doubles chain from `first` up to 6-6, with the numbers they pass.
    pub(super) fn chain(board: &Board, seat: Seat, first: u8) -> Playout {
        Playout { board: *board, set: None, chain: Some((seat, first)) }
    }

    /// An ordinary roll `a`-`b` of `seat`, with its whole chain and the numbers it passes.
    pub(super) fn ordinary_turn(board: &Board, seat: Seat, a: u8, b: u8, first_roll: bool) -> Playout {
        let head = if first_roll && a == b && matches!(a, 3 | 4 | 6) { 2 } else { 1 };
        let mut turn = Playout::set(board, seat, Numbers::roll(a, b), head, true);
        if a == b && a < 6 {
            turn.chain = Some((seat, a + 1));
        }
        turn
    }

    /// Does one node of the play-out, or finds it finished (`board` is then where it ends).
    pub(super) fn advance(&mut self, search: &mut Search) -> Progress {
        loop {
            let Some(set) = &mut self.set else {
                let Some((seat, v)) = self.chain else { return Progress::Done };
                let over = self.board.borne_off(Seat::WHITE) == CHECKERS
                    || self.board.borne_off(Seat::BLACK) == CHECKERS;
                if v > 6 || over {
                    self.chain = None;
                    return Progress::Done;
                }
                self.set = Some(StaticSet::new(seat, Numbers::repeat(v, 4), 1, true));
                self.chain = Some((seat, v + 1));
                continue;
            };
            let Some(plays_of_set) = &set.plays else {
                set.plays = Some(search.list(&self.board, set.seat, set.numbers, set.head));
                return Progress::Worked;
            };
            if let Some(play) = plays_of_set.get(set.next) {
                let value = win_chance(&play.board, set.seat, set.seat.opponent());
                if set.best.is_none_or(|(v, _)| value > v) {
                    set.best = Some((value, set.next));
                }
                set.next += 1;
                search.nodes += 1;
                return Progress::Worked;
            }
            let mut left = set.numbers;
            if let Some((_, i)) = set.best {
                search.replies += 1;
                self.board = plays_of_set[i].board;
                left = plays_of_set[i].left;
            }
            let (seat, may_pass) = (set.seat, set.may_pass);
            self.set = (may_pass && !left.is_empty() && self.board.borne_off(seat) < CHECKERS)
                .then(|| StaticSet::new(seat.opponent(), left, 1, false));
        }
    }
}
