//! Crazy Nard: long-nard backgammon where a rolled double sets off a chain of every higher double and
//! the numbers a player cannot play pass to the opponent (spec/nard.md).
//!
//! Each player counts its own points 24 → 1: its head is its 24, its home its 1–6. Black's point q is
//! White's point `other_side(q)`. A `Nard` value is a whole match: games follow one another by
//! themselves, and `outcome` is the match's.
//!
//! The flow of a turn, as `Phase` values: dice are due (`Opening`, then `AwaitingRoll` where the roller
//! may also double), a `DoubleOffered` waits for take or drop, and `Playing` holds the dice set in play
//! (a rolled pair or double, one step of a doubles chain, or numbers passed by the opponent). Whatever
//! needs no decision (passing unplayable numbers, losing them, the next chain step, the next game)
//! happens inside `play`, and `events` tells what it was.
//!
//! In the text interface `legal` lists checker moves (`24/21`, `3/off`) and cube actions
//! (`double`, `take`, `drop`), never rolls: while `awaiting_roll` is true the dice are played as
//! `roll D` (the opening, White's die first, then Black's) or `roll D D`, with values from outside.

use super::{EndReason, Game, Outcome, RuleError, Seat};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

pub const POINTS: u8 = 24;
pub const CHECKERS: u8 = 15;
/// Every player's head is its own point 24.
pub const HEAD: u8 = 24;
/// The highest value the cube may reach.
pub const CUBE_LIMIT: u32 = 64;

/// The same board point in the other player's numbering (the map is its own inverse).
pub const fn other_side(point: u8) -> u8 {
    if point <= 12 { point + 12 } else { point - 12 }
}

/// A point of `seat`'s own numbering, as White numbers it.
pub const fn white_point(seat: Seat, point: u8) -> u8 {
    if seat.0 == 0 { point } else { other_side(point) }
}

/// A point of White's numbering, as `seat` numbers it.
pub const fn own_point(seat: Seat, white_point: u8) -> u8 {
    if seat.0 == 0 { white_point } else { other_side(white_point) }
}

/// One checker moved by one number, in the mover's own point numbers; `to` 0 is borne off.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct CheckerMove {
    pub from: u8,
    pub to: u8,
}

impl CheckerMove {
    pub const fn new(from: u8, to: u8) -> CheckerMove {
        CheckerMove { from, to }
    }

    pub const fn bear_off(from: u8) -> CheckerMove {
        CheckerMove { from, to: 0 }
    }

    /// The number this move uses.
    pub const fn die(self) -> u8 {
        self.from - self.to
    }

    pub const fn is_bear_off(self) -> bool {
        self.to == 0
    }

    pub const fn leaves_head(self) -> bool {
        self.from == HEAD
    }

    /// The text form: `24/21`, `3/off`.
    pub fn parse(text: &str) -> Option<CheckerMove> {
        let (from, to) = text.trim().split_once('/')?;
        let from: u8 = from.trim().parse().ok()?;
        let to = match to.trim() {
            "off" => 0,
            number => number.parse().ok()?,
        };
        let valid = (1..=POINTS).contains(&from) && to < from && (to > 0 || from <= 6) && from - to <= 6;
        valid.then_some(CheckerMove { from, to })
    }
}

impl fmt::Display for CheckerMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.to == 0 { write!(f, "{}/off", self.from) } else { write!(f, "{}/{}", self.from, self.to) }
    }
}

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

/// Why a position cannot be built.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BoardError {
    PointOffBoard(u8),
    PointTwice(u8),
    TooManyCheckers(u32),
    /// Both players on one point (given in White's numbering).
    SharedPoint(u8),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::PointOffBoard(p) => write!(f, "point {p} is off the board (points are 1 to 24)"),
            BoardError::PointTwice(p) => write!(f, "point {p} is given twice"),
            BoardError::TooManyCheckers(n) => write!(f, "{n} checkers on one side (a side has 15)"),
            BoardError::SharedPoint(p) => write!(f, "both players on White's point {p}"),
        }
    }
}

/// Where every checker stands. Each side is kept in its own numbering: `counts[seat][p]` is the
/// number of its checkers on its point p (1..=24), `counts[seat][0]` those borne off.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Board {
    counts: [[u8; 25]; 2],
}

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
    /// The spec's start: all 15 of each side on its head.
    pub fn opening() -> Board {
        let mut counts = [[0u8; 25]; 2];
        counts[0][HEAD as usize] = CHECKERS;
        counts[1][HEAD as usize] = CHECKERS;
        Board { counts }
    }

    /// Both sides with the same checkers on the same own points, the rest borne off.
    pub fn symmetric(start: &[(u8, u8)]) -> Result<Board, BoardError> {
        Board::from_points(start, start)
    }

    /// A position from each side's (own point, checkers) pairs; checkers not placed are borne off.
    pub fn from_points(white: &[(u8, u8)], black: &[(u8, u8)]) -> Result<Board, BoardError> {
        let mut counts = [[0u8; 25]; 2];
        for (side, points) in [white, black].into_iter().enumerate() {
            let mut total = 0u32;
            for &(point, n) in points {
                if !(1..=POINTS).contains(&point) {
                    return Err(BoardError::PointOffBoard(point));
                }
                if counts[side][point as usize] > 0 {
                    return Err(BoardError::PointTwice(point));
                }
                total += n as u32;
                if total > CHECKERS as u32 {
                    return Err(BoardError::TooManyCheckers(total));
                }
                counts[side][point as usize] = n;
            }
            counts[side][0] = CHECKERS - total as u8;
        }
        for point in 1..=POINTS {
            if counts[0][point as usize] > 0 && counts[1][other_side(point) as usize] > 0 {
                return Err(BoardError::SharedPoint(point));
            }
        }
        Ok(Board { counts })
    }

    /// Checkers of `seat` on its own point (1..=24).
    pub fn count(&self, seat: Seat, point: u8) -> u8 {
        self.counts[seat.index()][point as usize]
    }

    pub fn borne_off(&self, seat: Seat) -> u8 {
        self.counts[seat.index()][0]
    }

    /// Checkers of `seat` still on the board.
    pub fn on_board(&self, seat: Seat) -> u8 {
        CHECKERS - self.borne_off(seat)
    }

    /// Who stands on White's point `point`, and how many.
    pub fn at_white_point(&self, point: u8) -> Option<(Seat, u8)> {
        let white = self.counts[0][point as usize];
        let black = self.counts[1][other_side(point) as usize];
        if white > 0 {
            Some((Seat::WHITE, white))
        } else if black > 0 {
            Some((Seat::BLACK, black))
        } else {
            None
        }
    }

    /// The board in White's numbering: entry i is White's point i + 1, White's checkers counted
    /// positive and Black's negative.
    pub fn white_view(&self) -> [i8; 24] {
        let mut view = [0i8; 24];
        for (i, cell) in view.iter_mut().enumerate() {
            *cell = match self.at_white_point(i as u8 + 1) {
                Some((Seat::WHITE, n)) => n as i8,
                Some((_, n)) => -(n as i8),
                None => 0,
            };
        }
        view
    }

    /// Points still to travel: each checker counts its own point number.
    pub fn pip_count(&self, seat: Seat) -> u32 {
        let side = &self.counts[seat.index()];
        (1..=24).map(|p| p as u32 * side[p] as u32).sum()
    }

    /// Whether `seat` has an opponent's checker on its own point `point`.
    pub fn opponent_on(&self, seat: Seat, point: u8) -> bool {
        self.counts[seat.opponent().index()][other_side(point) as usize] > 0
    }

    /// All of the seat's checkers are home or borne off: it may only bear off.
    pub fn is_bearing_off(&self, seat: Seat) -> bool {
        self.counts[seat.index()][7..].iter().all(|&n| n == 0)
    }

    /// The seat holds all six of its home points.
    pub fn holds_whole_home(&self, seat: Seat) -> bool {
        self.counts[seat.index()][1..=6].iter().all(|&n| n > 0)
    }

    /// Checkers of the seat in its first quarter (its points 19–24).
    pub fn in_first_quarter(&self, seat: Seat) -> u8 {
        self.counts[seat.index()][19..=24].iter().sum()
    }

    /// Both players hold their whole home and each still has checkers in its first quarter: nobody
    /// can ever get past the other's home.
    pub fn is_deadlock(&self) -> bool {
        [Seat::WHITE, Seat::BLACK].iter().all(|&s| self.holds_whole_home(s) && self.in_first_quarter(s) > 0)
    }

    /// The board after a move; the move must be possible.
    pub fn after(&self, seat: Seat, mv: CheckerMove) -> Board {
        let mut next = *self;
        let side = &mut next.counts[seat.index()];
        side[mv.from as usize] -= 1;
        side[mv.to as usize] += 1;
        next
    }

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
    let mut boards = FastSet::default();
    w.ends.into_iter().filter(|(p, u)| *u == best && boards.insert(p.board)).map(|(p, _)| p).collect()
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

/// A match's rules and starting position, read from its level file.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Points needed to win the match.
    pub match_length: u32,
    /// Whether the doubling cube is used (never in a 1-point match).
    pub cube: bool,
    /// Whether the Crawford rule applies.
    pub crawford: bool,
    pub head_rule: HeadRule,
    /// Where the checkers stand when a game starts.
    pub start: Board,
}

impl Setup {
    /// The spec's match: all 15 on the head, 5 points, cube and Crawford, head rule per dice set.
    pub fn standard(match_length: u32) -> Setup {
        Setup {
            match_length,
            cube: match_length > 1,
            crawford: match_length > 1,
            head_rule: HeadRule::PerDiceSet,
            start: Board::opening(),
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Each player rolls one die, White's first; `white_die` once White has rolled.
    Opening {
        white_die: Option<u8>,
    },
    /// The seat starts an ordinary turn: it rolls, or first doubles when the cube allows.
    AwaitingRoll(Seat),
    /// The seat has doubled; its opponent takes or drops.
    DoubleOffered(Seat),
    Playing(DiceSet),
    MatchOver,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cube {
    pub value: u32,
    /// `None` while the cube is in the middle.
    pub owner: Option<Seat>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ResultKind {
    /// An ordinary win: 1 point times the cube.
    Oin,
    /// The loser bore off nothing: 2 points times the cube.
    Mars,
    /// A double was dropped: the cube's value before the double.
    Dropped,
    /// Deadlock, or a position nobody can ever move from: no points.
    Draw,
}

impl ResultKind {
    pub fn key(self) -> &'static str {
        match self {
            ResultKind::Oin => "oin",
            ResultKind::Mars => "mars",
            ResultKind::Dropped => "dropped",
            ResultKind::Draw => "draw",
        }
    }
}

/// How a game of the match ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameResult {
    pub game_number: u32,
    pub winner: Option<Seat>,
    pub kind: ResultKind,
    pub points: u32,
    /// The position the game ended in.
    pub board: Board,
}

/// What happened on its own after the last action, for the screen to show in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Both opening dice showed this number: roll again.
    OpeningTie(u8),
    SetStarted {
        player: Seat,
        kind: SetKind,
        numbers: Numbers,
    },
    /// Numbers the player could not play went to its opponent.
    NumbersPassed {
        from: Seat,
        numbers: Numbers,
    },
    /// Passed numbers the player could not play either: they are gone.
    NumbersLost {
        player: Seat,
        numbers: Numbers,
    },
    GameEnded(GameResult),
    GameStarted {
        number: u32,
        crawford: bool,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NardAction {
    /// One opening die: White's first, then Black's (`roll D`).
    OpeningDie(u8),
    /// An ordinary roll, higher die first (`roll D D`).
    Roll(u8, u8),
    Move(CheckerMove),
    Double,
    Take,
    Drop,
}

impl NardAction {
    pub fn roll(a: u8, b: u8) -> NardAction {
        NardAction::Roll(a.max(b), a.min(b))
    }
}

/// A Crazy Nard match in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nard {
    match_length: u32,
    cube_enabled: bool,
    crawford_enabled: bool,
    head_rule: HeadRule,
    start_board: Board,
    board: Board,
    phase: Phase,
    /// The next double of a chain still to come, and whose chain it is.
    chain: Option<(Seat, u8)>,
    /// Who made the last ordinary roll (or won the opening); its opponent rolls next.
    turn_owner: Seat,
    rolls_made: [u32; 2],
    /// Head checkers each side may still move this turn (`HeadRule::PerTurn`).
    head_this_turn: [u8; 2],
    cube: Cube,
    score: [u32; 2],
    game_number: u32,
    crawford_game: bool,
    crawford_done: bool,
    last_game: Option<GameResult>,
    outcome: Option<Outcome>,
    events: Vec<Event>,
    serial: u32,
}

impl Nard {
    /// A new match: the first game waits for the opening dice.
    pub fn new(setup: &Setup) -> Nard {
        let start_board = setup.start;
        let mut game = Nard {
            match_length: setup.match_length.max(1),
            cube_enabled: setup.cube && setup.match_length > 1,
            crawford_enabled: setup.crawford,
            head_rule: setup.head_rule,
            start_board,
            board: start_board,
            phase: Phase::Opening { white_die: None },
            chain: None,
            turn_owner: Seat::WHITE,
            rolls_made: [0, 0],
            head_this_turn: [1, 1],
            cube: Cube { value: 1, owner: None },
            score: [0, 0],
            game_number: 0,
            crawford_game: false,
            crawford_done: false,
            last_game: None,
            outcome: None,
            events: Vec::new(),
            serial: 0,
        };
        game.start_game();
        game.events.clear();
        game
    }

    /// A match whose first game starts from `board`, with `to_roll` about to roll an ordinary turn
    /// (neither side on its first roll any more). For practice positions and tests.
    pub fn from_position(setup: &Setup, board: Board, to_roll: Seat) -> Nard {
        let mut game = Nard::new(setup);
        game.board = board;
        game.rolls_made = [1, 1];
        game.turn_owner = to_roll.opponent();
        game.phase = Phase::AwaitingRoll(to_roll);
        game
    }

    /// The same match resumed at a score (White's, Black's): for practice positions and tests.
    pub fn with_score(mut self, score: [u32; 2]) -> Nard {
        self.score = score;
        self
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Dice are due: the opening dice, or an ordinary roll.
    pub fn awaiting_roll(&self) -> bool {
        matches!(self.phase, Phase::Opening { .. } | Phase::AwaitingRoll(_))
    }

    /// White's opening die, once rolled and while Black's is due.
    pub fn opening_white_die(&self) -> Option<u8> {
        match self.phase {
            Phase::Opening { white_die } => white_die,
            _ => None,
        }
    }

    /// The dice set in play: the numbers still to play, whose they are and where they come from.
    pub fn dice_set(&self) -> Option<&DiceSet> {
        match &self.phase {
            Phase::Playing(set) => Some(set),
            _ => None,
        }
    }

    /// The next double of a doubles chain still to come, and whose chain it is.
    pub fn chain_next(&self) -> Option<(Seat, u8)> {
        self.chain
    }

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

    pub fn score(&self, seat: Seat) -> u32 {
        self.score[seat.index()]
    }

    pub fn match_length(&self) -> u32 {
        self.match_length
    }

    /// The game of the match under way, from 1.
    pub fn game_number(&self) -> u32 {
        self.game_number
    }

    pub fn is_crawford_game(&self) -> bool {
        self.crawford_game
    }

    pub fn head_rule(&self) -> HeadRule {
        self.head_rule
    }

    pub fn last_game(&self) -> Option<&GameResult> {
        self.last_game.as_ref()
    }

    /// What happened by itself after the last action.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn pip_count(&self, seat: Seat) -> u32 {
        self.board.pip_count(seat)
    }

    pub fn borne_off(&self, seat: Seat) -> u8 {
        self.board.borne_off(seat)
    }

    /// Ordinary rolls made in this game by the seat (the opening counts for its winner).
    pub fn rolls_made(&self, seat: Seat) -> u32 {
        self.rolls_made[seat.index()]
    }

    /// The legal single-checker moves of the dice set in play.
    pub fn legal_moves(&self) -> Vec<CheckerMove> {
        match &self.phase {
            Phase::Playing(set) if self.outcome.is_none() => {
                legal_moves(&self.board, set.player, set.left, set.head_left())
            }
            _ => Vec::new(),
        }
    }

    /// Own points of the player in play holding a checker that may move now.
    pub fn movable_points(&self) -> Vec<u8> {
        let mut points: Vec<u8> = self.legal_moves().iter().map(|m| m.from).collect();
        points.dedup();
        points
    }

    /// The legal moves of the checker on the player's own point `from`.
    pub fn targets_from(&self, from: u8) -> Vec<CheckerMove> {
        self.legal_moves().into_iter().filter(|m| m.from == from).collect()
    }

    /// Where the checker on the player's own point `from` can get with the numbers still to play,
    /// moving alone: one route per destination (the fewest moves), each move legal in its turn.
    pub fn routes_from(&self, from: u8) -> Vec<Vec<CheckerMove>> {
        let Some(serial) = self.dice_set().map(|s| s.serial) else { return Vec::new() };
        let mut routes: Vec<Vec<CheckerMove>> = Vec::new();
        let mut frontier: Vec<(Nard, Vec<CheckerMove>)> = vec![(self.clone(), Vec::new())];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for (game, route) in frontier {
                let at = route.last().map_or(from, |m| m.to);
                for mv in game.targets_from(at) {
                    if routes.iter().any(|r| r.last().map(|m| m.to) == Some(mv.to)) {
                        continue;
                    }
                    let mut longer = route.clone();
                    longer.push(mv);
                    routes.push(longer.clone());
                    let mut after = game.clone();
                    after.play(&NardAction::Move(mv));
                    let same_set = after.dice_set().is_some_and(|s| s.serial == serial);
                    if same_set && !mv.is_bear_off() && after.outcome.is_none() {
                        next.push((after, longer));
                    }
                }
            }
            frontier = next;
        }
        routes
    }

    /// Every way to play the rest of the dice set in play, one line per distinct end position.
    pub fn plays(&self) -> Vec<Play> {
        match &self.phase {
            Phase::Playing(set) if self.outcome.is_none() => {
                plays(&self.board, set.player, set.left, set.head_left())
            }
            _ => Vec::new(),
        }
    }

    fn start_game(&mut self) {
        self.game_number += 1;
        self.board = self.start_board;
        self.phase = Phase::Opening { white_die: None };
        self.chain = None;
        self.rolls_made = [0, 0];
        self.head_this_turn = [1, 1];
        self.cube = Cube { value: 1, owner: None };
        self.events.push(Event::GameStarted { number: self.game_number, crawford: self.crawford_game });
    }

    fn play_opening_die(&mut self, die: u8) {
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

    fn play_roll(&mut self, a: u8, b: u8) {
        let Phase::AwaitingRoll(seat) = self.phase else { return };
        self.begin_turn(seat, a, b);
    }

    /// An ordinary roll (or the opening pair) starts the seat's turn.
    fn begin_turn(&mut self, seat: Seat, a: u8, b: u8) {
        let first_roll = self.rolls_made[seat.index()] == 0;
        self.rolls_made[seat.index()] += 1;
        self.turn_owner = seat;
        self.head_this_turn = [1, 1];
        self.chain = (a == b && a < 6).then_some((seat, a + 1));
        // On a player's first roll 6-6, 4-4 and 3-3 let a second checker off the head.
        let extra_head = first_roll && a == b && matches!(a, 3 | 4 | 6);
        self.start_set(seat, SetKind::Roll, Numbers::roll(a, b), extra_head);
        self.settle();
    }

    fn start_set(&mut self, player: Seat, kind: SetKind, numbers: Numbers, extra_head: bool) {
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
    fn settle(&mut self) {
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
    fn after_sets(&mut self) {
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

    fn play_move(&mut self, mv: CheckerMove) {
        let Phase::Playing(set) = &mut self.phase else { return };
        let player = set.player;
        self.board = self.board.after(player, mv);
        set.left = set.left.without(mv.die());
        set.moves.push(mv);
        if self.board.borne_off(player) == CHECKERS {
            let loser = player.opponent();
            let kind = if self.board.borne_off(loser) == 0 { ResultKind::Mars } else { ResultKind::Oin };
            self.end_game(Some(player), kind);
        } else if self.board.is_deadlock() {
            self.end_game(None, ResultKind::Draw);
        } else {
            self.settle();
        }
    }

    fn end_game(&mut self, winner: Option<Seat>, kind: ResultKind) {
        let points = match kind {
            ResultKind::Oin | ResultKind::Dropped => self.cube.value,
            ResultKind::Mars => 2 * self.cube.value,
            ResultKind::Draw => 0,
        };
        let result = GameResult { game_number: self.game_number, winner, kind, points, board: self.board };
        self.events.push(Event::GameEnded(result));
        self.last_game = Some(result);
        self.crawford_game = false;
        if let Some(seat) = winner {
            let before = self.score[seat.index()];
            self.score[seat.index()] += points;
            if self.score[seat.index()] >= self.match_length {
                self.phase = Phase::MatchOver;
                self.outcome = Some(Outcome::win(seat, EndReason::Goal));
                return;
            }
            let short_by_one =
                self.score[seat.index()] + 1 == self.match_length && before + 1 < self.match_length;
            if self.crawford_enabled && self.cube_enabled && !self.crawford_done && short_by_one {
                self.crawford_game = true;
                self.crawford_done = true;
            }
        }
        self.start_game();
    }

    fn double(&mut self) {
        if let Phase::AwaitingRoll(seat) = self.phase {
            self.phase = Phase::DoubleOffered(seat);
        }
    }

    fn take(&mut self) {
        if let Phase::DoubleOffered(doubler) = self.phase {
            self.cube = Cube { value: self.cube.value * 2, owner: Some(doubler.opponent()) };
            self.phase = Phase::AwaitingRoll(doubler);
        }
    }

    fn drop_double(&mut self) {
        if let Phase::DoubleOffered(doubler) = self.phase {
            self.end_game(Some(doubler), ResultKind::Dropped);
        }
    }

    /// Why an action does not fit the moment, in words for the text interface.
    fn refusal(&self, action: &NardAction) -> RuleError {
        let why = match (&self.phase, action) {
            (Phase::Opening { .. }, NardAction::Roll(..)) => {
                "the opening is one die each: roll D (White's die first, then Black's)".to_string()
            }
            (Phase::Opening { .. }, _) => "the opening dice are due: roll D".to_string(),
            (Phase::AwaitingRoll(_), NardAction::OpeningDie(_)) => {
                "an ordinary roll is two dice: roll D D".to_string()
            }
            (Phase::AwaitingRoll(_), NardAction::Double) => "the cube cannot be turned now".to_string(),
            (Phase::AwaitingRoll(_), _) => "the dice are due: roll D D".to_string(),
            (Phase::DoubleOffered(_), _) => "a double was offered: take or drop".to_string(),
            (Phase::Playing(set), NardAction::Move(mv)) => {
                format!("{mv} is not a legal move with {} now", set.left)
            }
            (Phase::Playing(set), _) => format!("the numbers {} are still to play", set.left),
            (Phase::MatchOver, _) => "the match is over".to_string(),
        };
        RuleError::Illegal(why)
    }
}

fn seat_key(seat: Seat) -> &'static str {
    if seat == Seat::WHITE { "white" } else { "black" }
}

impl Game for Nard {
    type Action = NardAction;

    fn seat_count(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Opening { .. } | Phase::MatchOver => None,
            Phase::AwaitingRoll(seat) => Some(*seat),
            Phase::DoubleOffered(doubler) => Some(doubler.opponent()),
            Phase::Playing(set) => Some(set.player),
        }
    }

    /// Checker moves, or the cube actions. Rolls are never listed: they come from `chance`.
    fn legal_actions(&self) -> Vec<NardAction> {
        match &self.phase {
            Phase::AwaitingRoll(seat) if self.can_double(*seat) => vec![NardAction::Double],
            Phase::DoubleOffered(_) => vec![NardAction::Take, NardAction::Drop],
            Phase::Playing(_) => self.legal_moves().into_iter().map(NardAction::Move).collect(),
            _ => Vec::new(),
        }
    }

    fn play(&mut self, action: &NardAction) {
        self.events.clear();
        match *action {
            NardAction::OpeningDie(die) => self.play_opening_die(die),
            NardAction::Roll(a, b) => self.play_roll(a, b),
            NardAction::Move(mv) => self.play_move(mv),
            NardAction::Double => self.double(),
            NardAction::Take => self.take(),
            NardAction::Drop => self.drop_double(),
        }
    }

    fn apply(&mut self, action: &NardAction) -> Result<(), RuleError> {
        if self.outcome.is_some() {
            return Err(RuleError::GameOver);
        }
        let fits = match (&self.phase, action) {
            (Phase::Opening { .. }, NardAction::OpeningDie(d)) => (1..=6).contains(d),
            (Phase::AwaitingRoll(_), NardAction::Roll(a, b)) => (1..=6).contains(a) && (1..=6).contains(b),
            _ => self.legal_actions().contains(action),
        };
        if !fits {
            return Err(self.refusal(action));
        }
        self.play(action);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    fn time_out(&mut self, seat: Seat) {
        if self.outcome.is_none() {
            self.outcome = Some(Outcome::win(seat.opponent(), EndReason::OutOfTime));
            self.phase = Phase::MatchOver;
        }
    }

    /// Seats whose numbers passed to the opponent after the last action.
    fn passed(&self) -> Vec<Seat> {
        self.events
            .iter()
            .filter_map(|e| match e {
                Event::NumbersPassed { from, .. } => Some(*from),
                _ => None,
            })
            .collect()
    }

    fn chance(&self) -> Option<Vec<(NardAction, f64)>> {
        match self.phase {
            Phase::Opening { .. } => Some((1..=6).map(|d| (NardAction::OpeningDie(d), 1.0 / 6.0)).collect()),
            Phase::AwaitingRoll(_) => {
                let mut rolls = Vec::with_capacity(21);
                for a in (1..=6).rev() {
                    for b in (1..=a).rev() {
                        let p = if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 };
                        rolls.push((NardAction::Roll(a, b), p));
                    }
                }
                Some(rolls)
            }
            _ => None,
        }
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        seat_key(seat)
    }

    fn action_text(&self, action: &NardAction) -> String {
        match action {
            NardAction::OpeningDie(d) => format!("roll {d}"),
            NardAction::Roll(a, b) => format!("roll {a} {b}"),
            NardAction::Move(mv) => mv.to_string(),
            NardAction::Double => "double".into(),
            NardAction::Take => "take".into(),
            NardAction::Drop => "drop".into(),
        }
    }

    fn parse_action(&self, text: &str) -> Result<NardAction, RuleError> {
        let unreadable = || RuleError::Unreadable(text.to_string());
        let words: Vec<&str> = text.split_whitespace().collect();
        let die = |word: &str| word.parse::<u8>().ok().filter(|d| (1..=6).contains(d));
        match words.as_slice() {
            ["roll", d] => die(d).map(NardAction::OpeningDie).ok_or_else(unreadable),
            ["roll", a, b] => match (die(a), die(b)) {
                (Some(a), Some(b)) => Ok(NardAction::roll(a, b)),
                _ => Err(unreadable()),
            },
            ["double"] => Ok(NardAction::Double),
            ["take"] => Ok(NardAction::Take),
            ["drop"] => Ok(NardAction::Drop),
            [word] => CheckerMove::parse(word).map(NardAction::Move).ok_or_else(unreadable),
            _ => Err(unreadable()),
        }
    }

    fn state_fields(&self) -> Map<String, Value> {
        let per_seat =
            |f: &dyn Fn(Seat) -> Value| json!({ "white": f(Seat::WHITE), "black": f(Seat::BLACK) });
        let dice = self.dice_set().map(|set| {
            json!({
                "player": seat_key(set.player),
                "kind": set.kind.key(),
                "to_play": set.left.as_slice(),
                "dealt": set.dealt.as_slice(),
                "moves": set.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            })
        });
        let last_game = self.last_game.map(|g| {
            json!({
                "game": g.game_number,
                "winner": g.winner.map(seat_key),
                "kind": g.kind.key(),
                "points": g.points,
            })
        });
        let mut fields = Map::new();
        fields.insert("game".into(), json!("nard"));
        fields.insert("awaiting_roll".into(), json!(self.awaiting_roll()));
        fields.insert("board".into(), json!(self.board.white_view().to_vec()));
        fields.insert("borne_off".into(), per_seat(&|s| json!(self.board.borne_off(s))));
        fields.insert("pips".into(), per_seat(&|s| json!(self.board.pip_count(s))));
        fields.insert("dice".into(), json!(dice));
        fields.insert("opening_white_die".into(), json!(self.opening_white_die()));
        fields.insert(
            "chain_next".into(),
            json!(self.chain.map(|(s, v)| json!({"player": seat_key(s), "double": v}))),
        );
        fields.insert(
            "cube".into(),
            json!({
                "enabled": self.cube_enabled && !self.crawford_game,
                "value": self.cube.value,
                "owner": self.cube.owner.map(seat_key),
                "offered_by": self.double_offered_by().map(seat_key),
            }),
        );
        fields.insert("match_length".into(), json!(self.match_length));
        fields.insert("score".into(), per_seat(&|s| json!(self.score(s))));
        fields.insert("game_number".into(), json!(self.game_number));
        fields.insert("last_game".into(), json!(last_game));
        fields.insert("crawford".into(), json!(self.crawford_game));
        fields.insert("head_rule".into(), json!(self.head_rule.key()));
        fields
    }
}

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
