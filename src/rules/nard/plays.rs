//! What may be played: single moves under the head, prime and home rules, playing as much of a
//! dice set as possible (both numbers when possible, else the larger), and every whole play of a set.

use super::{Board, CheckerMove, HEAD, Numbers, POINTS, other_side};
use crate::rules::Seat;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Up to 18 single moves for one number (one per point outside home, or one bearing off).
#[derive(Clone, Copy)]
pub struct MoveList {
    items: [CheckerMove; 18],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList { items: [CheckerMove::new(0, 0); 18], len: 0 }
    }

    fn push(&mut self, mv: CheckerMove) {
        self.items[self.len] = mv;
        self.len += 1;
    }

    pub fn as_slice(&self) -> &[CheckerMove] {
        &self.items[..self.len]
    }
}

impl Board {
    /// Whether the seat holds six points in a row, counted along the opponent's path, with no
    /// opposing checker on the board past them.
    pub fn has_forbidden_prime(&self, seat: Seat) -> bool {
        let mine = &self.counts[seat.index()];
        // Bit q - 1 set: the seat holds the opponent's point q.
        let mut held = 0u32;
        for p in 1..=POINTS {
            if mine[p as usize] > 0 {
                held |= 1 << (other_side(p) - 1);
            }
        }
        let mut runs = held;
        for shift in 1..6 {
            runs &= held >> shift;
        }
        if runs == 0 {
            return false;
        }
        // The lowest run starts on the opponent's point `first`; it needs an opposing checker below it.
        let first = runs.trailing_zeros() as usize + 1;
        let theirs = &self.counts[seat.opponent().index()];
        !theirs[1..first].iter().any(|&n| n > 0)
    }

    /// Whether a checker of the seat may move from `from` by `die`, as the board stands.
    pub fn single_move(&self, seat: Seat, from: u8, die: u8, head_free: bool) -> Option<CheckerMove> {
        let side = &self.counts[seat.index()];
        if !(1..=POINTS).contains(&from) || side[from as usize] == 0 {
            return None;
        }
        if self.is_bearing_off(seat) {
            return (from == die).then_some(CheckerMove::bear_off(from));
        }
        // Home checkers stay frozen until bearing off; nothing leaves the board before it.
        if from <= 6 || from <= die || (from == HEAD && !head_free) {
            return None;
        }
        let to = from - die;
        if self.opponent_on(seat, to) {
            return None;
        }
        let mv = CheckerMove::new(from, to);
        if side[to as usize] == 0 && self.after(seat, mv).has_forbidden_prime(seat) {
            return None;
        }
        Some(mv)
    }

    /// Every single move of the seat with one number.
    pub fn moves_for(&self, seat: Seat, die: u8, head_free: bool) -> MoveList {
        let mut list = MoveList::new();
        if self.is_bearing_off(seat) {
            if self.count(seat, die) > 0 {
                list.push(CheckerMove::bear_off(die));
            }
            return list;
        }
        for from in (die + 1).max(7)..=POINTS {
            if let Some(mv) = self.single_move(seat, from, die, head_free) {
                list.push(mv);
            }
        }
        list
    }

    /// Whether the seat could move any checker with any number, starting a fresh dice set.
    pub fn can_move_any(&self, seat: Seat) -> bool {
        (1..=6).any(|die| self.moves_for(seat, die, true).len > 0)
    }
}

/// How much of a dice set a line of play uses: how many numbers, then how many points.
/// More is better: both numbers when possible, else the larger.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Default)]
pub struct Usage {
    pub numbers: u8,
    pub points: u8,
}

impl Usage {
    fn full(numbers: Numbers) -> Usage {
        Usage { numbers: numbers.len() as u8, points: numbers.sum() as u8 }
    }

    fn plus(self, die: u8) -> Usage {
        Usage { numbers: self.numbers + 1, points: self.points + die }
    }
}

/// The most of `numbers` the seat can still play from `board`, with `head_left` checkers still
/// allowed off the head.
pub fn best_usage(board: &Board, seat: Seat, numbers: Numbers, head_left: u8) -> Usage {
    let full = Usage::full(numbers);
    let mut best = Usage::default();
    for die in numbers.distinct() {
        for &mv in board.moves_for(seat, die, head_left > 0).as_slice() {
            let usage = usage_starting_with(board, seat, numbers, head_left, mv);
            if usage > best {
                best = usage;
                if best == full {
                    return best;
                }
            }
        }
    }
    best
}

/// The most of `numbers` a line starting with `mv` plays.
fn usage_starting_with(board: &Board, seat: Seat, numbers: Numbers, head_left: u8, mv: CheckerMove) -> Usage {
    let head_left = head_left - mv.leaves_head() as u8;
    best_usage(&board.after(seat, mv), seat, numbers.without(mv.die()), head_left).plus(mv.die())
}

/// The legal single moves: those that start a line playing as much of the set as possible.
pub fn legal_moves(board: &Board, seat: Seat, numbers: Numbers, head_left: u8) -> Vec<CheckerMove> {
    let mut scored = Vec::new();
    let mut best = Usage::default();
    for die in numbers.distinct() {
        for &mv in board.moves_for(seat, die, head_left > 0).as_slice() {
            let usage = usage_starting_with(board, seat, numbers, head_left, mv);
            best = best.max(usage);
            scored.push((mv, usage));
        }
    }
    let mut moves: Vec<CheckerMove> =
        scored.into_iter().filter(|(_, u)| *u == best).map(|(m, _)| m).collect();
    moves.sort_unstable_by(|a, b| b.cmp(a));
    moves
}

/// One way to play a whole dice set and where it leaves the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    pub moves: Vec<CheckerMove>,
    pub board: Board,
    /// The numbers this play leaves unplayed.
    pub left: Numbers,
}

/// A fast hasher for boards in the sets below (FxHash's mixing step).
#[derive(Default)]
pub struct BoardHasher(u64);

impl Hasher for BoardHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 =
                (self.0.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
}

pub type FastSet<T> = HashSet<T, BuildHasherDefault<BoardHasher>>;

/// Every distinct position a dice set can end in, each with one line of play that reaches it.
/// Only lines that play as much of the set as the rules demand are counted.
pub fn plays(board: &Board, seat: Seat, numbers: Numbers, head_left: u8) -> Vec<Play> {
    plays_walked(board, seat, numbers, head_left).0
}

/// `plays`, with how many positions the search for them went through: the measure of its work
/// (a few for a simple roll, thousands for a double with many checkers free).
pub fn plays_walked(board: &Board, seat: Seat, numbers: Numbers, head_left: u8) -> (Vec<Play>, usize) {
    struct Walk {
        seat: Seat,
        seen: FastSet<(Board, Numbers)>,
        ends: Vec<(Play, Usage)>,
        line: Vec<CheckerMove>,
    }
    fn walk(w: &mut Walk, board: &Board, numbers: Numbers, head_left: u8, used: Usage) {
        let mut moved = false;
        for die in numbers.distinct() {
            for &mv in board.moves_for(w.seat, die, head_left > 0).as_slice() {
                moved = true;
                let next = board.after(w.seat, mv);
                let rest = numbers.without(die);
                if !w.seen.insert((next, rest)) {
                    continue;
                }
                w.line.push(mv);
                walk(w, &next, rest, head_left - mv.leaves_head() as u8, used.plus(die));
                w.line.pop();
            }
        }
        if !moved {
            w.ends.push((Play { moves: w.line.clone(), board: *board, left: numbers }, used));
        }
    }
    let mut w = Walk { seat, seen: FastSet::default(), ends: Vec::new(), line: Vec::with_capacity(4) };
    walk(&mut w, board, numbers, head_left, Usage::default());
    let best = w.ends.iter().map(|(_, u)| *u).max().unwrap_or_default();
    let walked = w.seen.len() + 1;
    let mut boards = FastSet::default();
    let plays =
        w.ends.into_iter().filter(|(p, u)| *u == best && boards.insert(p.board)).map(|(p, _)| p).collect();
    (plays, walked)
}
