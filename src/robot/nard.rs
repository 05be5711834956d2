//! How the Robot plays Crazy Nard. It plans a whole dice set at a time: every distinct end position
//! of the set is judged by an estimate of each side's rolls still needed (race, the shape of the
//! home for exact bearing off, numbers blocked by the opponent's points, checkers left on the
//! head); level 3 then looks one roll ahead: the rest of its own doubles chain, then the
//! opponent's 21 rolls (with its whole doubles chain and the numbers it passes back), each
//! answered by its best reply. After numbers passed to it, the Robot rolls next (or the passer
//! goes on with its chain first), so there is no opponent roll to average over. The few plays
//! that come out closest to the best are then looked at two rolls deep: each of the opponent's
//! rolls followed by each of the Robot's own.
//!
//! A dice set's plan depends only on the position and the level, never on the seed, so asking
//! again after the plan's first move gives the plan's next move; the last plan is kept per thread
//! so that asking again costs nothing.

use super::review::{self, CoachData, Coached, MoveToRate, Rater, Rating};
use super::{Evaluate, RobotPlayer, Thinker, pick_best_by};
use super::{RobotLevel, SeededRng, stable_hash};
use crate::history::Step;
use crate::rules::nard::{
    Board, CHECKERS, CheckerMove, HEAD, Nard, NardAction, Numbers, Phase, Play, SetKind, plays_walked,
};
use crate::rules::{Game, Seat};
use std::cell::RefCell;
use std::sync::OnceLock;

/// Pips a roll moves on average, counting the whole chain of a double (about 15.9).
const PIPS_PER_ROLL: f64 = 15.94;

/// How hard one Robot level plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Look one roll ahead (the opponent's 21 rolls) for the best few plays.
    pub lookahead: bool,
    /// Plays kept for the lookahead, best by the static estimate first.
    pub candidates: usize,
    /// Plays, best after the lookahead and within `close` of the best, looked at once more two
    /// rolls deep (the opponent's, then the player's own).
    pub deep: usize,
    pub close: f64,
    /// Opponent replies the lookahead may generate for one decision.
    pub node_limit: u64,
    /// Random amount (±) added to each play's estimated winning chance.
    pub noise: f64,
    /// Chance of playing any legal play of the set instead of thinking.
    pub blunder: f64,
    /// Chance of playing the play it judged worst (every play moves its checkers forward, so
    /// it still looks like trying): level 1's way of losing to the greedy player, which plays
    /// the static estimate's best play every time.
    pub contrary: f64,
    /// Doubles when its winning chance is at least this.
    pub double_at: f64,
    /// Takes a double when its winning chance is at least this.
    pub take_at: f64,
}

pub fn strength(level: RobotLevel) -> Strength {
    match level {
        RobotLevel::One => Strength {
            lookahead: false,
            candidates: 1,
            deep: 0,
            close: 0.0,
            node_limit: 0,
            noise: 0.1,
            blunder: 0.0,
            contrary: 0.1,
            double_at: 0.85,
            take_at: 0.1,
        },
        RobotLevel::Two => Strength {
            lookahead: false,
            candidates: 1,
            deep: 0,
            close: 0.0,
            node_limit: 0,
            noise: 0.02,
            blunder: 0.03,
            contrary: 0.0,
            double_at: 0.75,
            take_at: 0.2,
        },
        RobotLevel::Three => Strength {
            lookahead: true,
            candidates: 6,
            deep: 3,
            close: 0.03,
            node_limit: 200_000,
            noise: 0.0,
            blunder: 0.0,
            contrary: 0.0,
            double_at: 0.7,
            take_at: 0.25,
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Bearing off: expected rolls to bear off a home position alone, with the exact rule and the
// doubles chain (passed numbers left out). Home positions of up to 15 checkers on points 1–6.

const BEAROFF_STATES: usize = 54_264;

/// Ways to put at most `m` checkers on `k` points: C(m + k, k).
fn ways(k: usize, m: usize) -> u32 {
    let mut r = 1u64;
    for i in 1..=k as u64 {
        r = r * (m as u64 + i) / i;
    }
    r as u32
}

/// The bear-off table: every home position of up to 15 checkers on points 1–6.
struct Bearoff {
    /// `offsets[i][budget][c]`: how many positions come before those with `c` checkers on point
    /// i + 1, among those with `budget` checkers left for points i + 1 to 6.
    offsets: Vec<[[u32; 16]; 16]>,
    entries: Vec<BearoffEntry>,
}

#[derive(Clone, Copy, Default)]
struct BearoffEntry {
    /// Expected rolls to bear the position off alone.
    rolls: f32,
    /// Expected pips of the numbers it cannot use meanwhile (they pass to the opponent).
    waste: f32,
    /// The position with one more checker where it helps bearing off most (itself when full).
    best_next: u32,
}

impl Bearoff {
    fn index(&self, home: &[u8; 6]) -> usize {
        let mut index = 0;
        let mut budget = CHECKERS as usize;
        for (i, &c) in home.iter().enumerate() {
            index += self.offsets[i][budget][c as usize] as usize;
            budget -= c as usize;
        }
        index
    }

    fn entry(&self, home: &[u8; 6]) -> BearoffEntry {
        self.entries[self.index(home)]
    }

    fn build() -> Bearoff {
        let mut offsets = vec![[[0u32; 16]; 16]; 6];
        for (i, table) in offsets.iter_mut().enumerate() {
            for (budget, row) in table.iter_mut().enumerate() {
                for c in 1..=budget {
                    row[c] = row[c - 1] + ways(5 - i, budget - (c - 1));
                }
            }
        }
        let mut table = Bearoff { offsets, entries: vec![BearoffEntry::default(); BEAROFF_STATES] };
        // Positions in order of checker count, so every smaller position is known first.
        let mut positions: Vec<[u8; 6]> = Vec::with_capacity(BEAROFF_STATES);
        fill_positions(0, CHECKERS, &mut [0u8; 6], &mut positions);
        positions.sort_by_key(|h| h.iter().map(|&c| c as u32).sum::<u32>());
        for home in &positions {
            if home.iter().all(|&c| c == 0) {
                continue;
            }
            let mut stay = 0.0;
            let mut rolls_rest = 1.0;
            let mut waste_rest = 0.0;
            for (a, b, p) in rolls() {
                let (next, wasted) = bear_off_roll(home, a, b);
                waste_rest += p * wasted as f64;
                if next == *home {
                    stay += p;
                } else {
                    let e = table.entry(&next);
                    rolls_rest += p * e.rolls as f64;
                    waste_rest += p * e.waste as f64;
                }
            }
            let i = table.index(home);
            table.entries[i].rolls = (rolls_rest / (1.0 - stay)) as f32;
            table.entries[i].waste = (waste_rest / (1.0 - stay)) as f32;
        }
        for home in &positions {
            let i = table.index(home);
            let mut best = (f32::MAX, i as u32);
            if home.iter().map(|&c| c as u32).sum::<u32>() < CHECKERS as u32 {
                for point in (0..6).rev() {
                    let mut more = *home;
                    more[point] += 1;
                    let j = table.index(&more);
                    if table.entries[j].rolls < best.0 {
                        best = (table.entries[j].rolls, j as u32);
                    }
                }
            }
            table.entries[i].best_next = best.1;
        }
        table
    }
}

fn fill_positions(i: usize, left: u8, home: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
    if i == 6 {
        out.push(*home);
        return;
    }
    for c in 0..=left {
        home[i] = c;
        fill_positions(i + 1, left - c, home, out);
    }
    home[i] = 0;
}

fn bearoff_table() -> &'static Bearoff {
    static TABLE: OnceLock<Bearoff> = OnceLock::new();
    TABLE.get_or_init(Bearoff::build)
}

/// A roll played on a home position alone: the position after it and the pips it could not use.
fn bear_off_roll(home: &[u8; 6], a: u8, b: u8) -> ([u8; 6], u32) {
    let mut next = *home;
    let mut wasted = 0;
    let numbers: Vec<(u8, u8)> =
        if a == b { (a..=6).map(|v| (v, 4)).collect() } else { vec![(a, 1), (b, 1)] };
    for (value, times) in numbers {
        for _ in 0..times {
            if next.iter().all(|&c| c == 0) {
                // The game is won: the rest of the dice are void.
                return (next, wasted);
            }
            let cell = &mut next[value as usize - 1];
            if *cell > 0 {
                *cell -= 1;
            } else {
                wasted += value as u32;
            }
        }
    }
    (next, wasted)
}

/// The 21 different rolls with their probabilities, higher die first.
pub fn rolls() -> impl Iterator<Item = (u8, u8, f64)> {
    (1..=6u8)
        .rev()
        .flat_map(|a| (1..=a).rev().map(move |b| (a, b, if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 })))
}

fn home_of(board: &Board, seat: Seat) -> [u8; 6] {
    let mut home = [0u8; 6];
    for (i, cell) in home.iter_mut().enumerate() {
        *cell = board.count(seat, i as u8 + 1);
    }
    home
}

/// Expected rolls to bear off a home position, and the pips it would pass meanwhile.
fn bearoff_of(home: &[u8; 6]) -> [f64; 2] {
    let e = bearoff_table().entry(home);
    [e.rolls as f64, e.waste as f64]
}

/// The same for the home the seat can still hope for: each of its `outside` checkers put where it
/// helps bearing off most.
fn projected_bearoff(home: &[u8; 6], outside: u32) -> [f64; 2] {
    let table = bearoff_table();
    let mut e = table.entry(home);
    for _ in 0..outside {
        e = table.entries[e.best_next as usize];
    }
    [e.rolls as f64, e.waste as f64]
}

// ---------------------------------------------------------------------------------------------
// The static estimate.

/// How many features describe one side.
const FEATURES: usize = 21;

/// What the estimate looks at on one side, each counted so that more is worse for that side.
fn features(board: &Board, seat: Seat) -> [f64; FEATURES] {
    let mut travel = 0u32;
    let mut outside = 0u32;
    let mut blocked = 0.0;
    let mut trapped = 0u32;
    let mut points_outside = 0u32;
    let mut stacked = 0u32;
    let mut quarter = [0u32; 4];
    for p in 7..=24u8 {
        let n = board.count(seat, p) as u32;
        if n == 0 {
            continue;
        }
        travel += n * (p as u32 - 6);
        outside += n;
        points_outside += 1;
        stacked += n.saturating_sub(3);
        if p < 24 {
            quarter[(p as usize - 1) / 6] += n;
        }
        let closed = (1..=6u8).filter(|&d| board.opponent_on(seat, p - d)).count();
        let share = closed as f64 / 6.0;
        blocked += n as f64 * (share * share);
        if closed == 6 {
            trapped += n;
        }
    }
    let head = board.count(seat, HEAD) as f64;
    let head_exits_closed = (1..=6u8).filter(|&d| board.opponent_on(seat, HEAD - d)).count() as f64;
    let home_points = (1..=6u8).filter(|&p| board.count(seat, p) > 0).count() as f64;
    let stragglers = if outside > 0 { 4u32.saturating_sub(outside) } else { 0 };
    let home = home_of(board, seat);
    let [home_rolls, home_waste] = bearoff_of(&home);
    let [final_rolls, final_waste] = projected_bearoff(&home, outside);
    // Every checker still in the first quarter must land at least once in the opponent's home
    // (points 13–18) to get past it, and only on the points the opponent does not hold.
    let behind: u32 = (19..=24u8).map(|p| board.count(seat, p) as u32).sum();
    let walled = (13..=18u8).filter(|&p| board.opponent_on(seat, p)).count() as f64 / 6.0;
    [
        travel as f64 / PIPS_PER_ROLL,
        home_rolls,
        outside as f64,
        blocked,
        trapped as f64,
        head,
        head * head / 15.0,
        quarter[3] as f64,
        quarter[2] as f64,
        quarter[1] as f64,
        -(points_outside as f64),
        -home_points,
        stacked as f64,
        if head > 0.0 { head_exits_closed / 6.0 } else { 0.0 },
        stragglers as f64,
        home_waste / PIPS_PER_ROLL,
        final_rolls,
        final_waste / PIPS_PER_ROLL,
        behind as f64 * walled,
        behind as f64 * (walled * walled * walled),
        if walled >= 1.0 { behind as f64 } else { 0.0 },
    ]
}

/// Weights of the estimate: one per feature, and the worth of being on roll.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Weights {
    features: [f64; FEATURES],
    tempo: f64,
}

const WEIGHTS: Weights = Weights {
    features: [
        0.017, 0.0, 0.143, 0.5, -0.005, -0.056, 0.612, -0.072, -0.038, 0.159, 0.156, 0.116, 0.132, 0.88,
        0.051, 1.576, 1.369, -2.0, 0.596, -0.114, 0.08,
    ],
    tempo: 0.267,
};

/// How far ahead the seat is, before the game's stage is taken into account.
fn lead(board: &Board, seat: Seat, on_roll: Seat) -> f64 {
    let w = &WEIGHTS;
    let mine = features(board, seat);
    let theirs = features(board, seat.opponent());
    let tempo = if on_roll == seat { w.tempo } else { -w.tempo };
    tempo + (0..FEATURES).map(|i| w.features[i] * (theirs[i] - mine[i])).sum::<f64>()
}

/// The spread of the result: the number of rolls to finish spreads like √rolls.
fn stage(board: &Board) -> f64 {
    ((board.pip_count(Seat::WHITE) + board.pip_count(Seat::BLACK)) as f64 / PIPS_PER_ROLL + 1.0).sqrt()
}

/// The seat's chance to win the game from `board` with `on_roll` about to roll, by the estimate.
pub fn win_chance(board: &Board, seat: Seat, on_roll: Seat) -> f64 {
    if board.borne_off(seat) == CHECKERS {
        return 1.0;
    }
    if board.borne_off(seat.opponent()) == CHECKERS {
        return 0.0;
    }
    if board.is_deadlock() {
        return 0.5;
    }
    1.0 / (1.0 + exp(-lead(board, seat, on_roll) / stage(board)))
}

/// e^x from + − × ÷ alone, so it is the same number on every platform: the standard library's
/// `exp` is each platform's own maths library, and one ulp apart could tip the Robot between two
/// plays judged alike, on the desktop one way and in the browser the other.
fn exp(x: f64) -> f64 {
    if x > 700.0 {
        return f64::INFINITY;
    }
    if x < -700.0 {
        return 0.0;
    }
    // x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its series (the 19th term is under 1e-20).
    // ln 2 is split in two (its high part has trailing zero bits, so k times it is exact).
    const LN2_HIGH: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LOW: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    let k = (x / std::f64::consts::LN_2).round();
    let r = (x - k * LN2_HIGH) - k * LN2_LOW;
    let (mut term, mut sum) = (1.0, 1.0);
    for n in 1..=18 {
        term *= r / n as f64;
        sum += term;
    }
    sum * f64::from_bits(((1023 + k as i64) as u64) << 52)
}

impl Evaluate for Nard {
    /// The estimated winning chance of the game under way, scaled to ±1000.
    fn evaluate(&self, seat: Seat) -> i32 {
        let on_roll = self.to_move().unwrap_or(seat);
        ((win_chance(self.board(), seat, on_roll) - 0.5) * 2000.0).round() as i32
    }
}

// ---------------------------------------------------------------------------------------------
// Planning a dice set.

/// What the planner needs to know of the game around the dice set in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Situation {
    player: Seat,
    kind: SetKind,
    board: Board,
    left: Numbers,
    head_left: u8,
    /// The next double of the player's own chain, if one follows this set.
    chain_next: Option<u8>,
    /// The next double of the opponent's chain, when the opponent passed this set during it: the
    /// opponent goes on with its chain before anyone rolls.
    opponent_chain_next: Option<u8>,
    /// Whether the opponent's next ordinary roll is its first (first-roll doubles rule).
    opponent_first_roll: bool,
    serial: u32,
}

impl Situation {
    fn of(game: &Nard) -> Option<Situation> {
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
    fn next_on_roll(&self) -> Seat {
        match self.kind {
            _ if self.chain_next.is_some() => self.player,
            SetKind::Passed if self.opponent_chain_next.is_none() => self.player,
            _ => self.player.opponent(),
        }
    }
}

/// A number in [-1, 1] that depends only on the inputs: the noise of the weaker levels.
fn noise_of(board: &Board, serial: u32, salt: u8) -> f64 {
    (stable_hash(&(board, serial, salt)) % 2_000_001) as f64 / 1_000_000.0 - 1.0
}

fn unit_of(serial: u32, salt: u8, which: u64) -> f64 {
    (stable_hash(&(serial, salt, which)) % 1_000_000) as f64 / 1_000_000.0
}

/// One dice set of `seat` played by the static estimate, a node at a time: its plays are listed
/// (one node), then judged one per node; the best (the first of equals) is played, the opponent
/// rolling after it. With `may_pass`, what it cannot play passes to the other side, which plays
/// it the same way.
struct StaticSet {
    seat: Seat,
    numbers: Numbers,
    head: u8,
    may_pass: bool,
    plays: Option<Vec<Play>>,
    next: usize,
    best: Option<(f64, usize)>,
}

impl StaticSet {
    fn new(seat: Seat, numbers: Numbers, head: u8, may_pass: bool) -> StaticSet {
        StaticSet { seat, numbers, head, may_pass, plays: None, next: 0, best: None }
    }
}

/// A run of dice sets played out by the static estimate: one set (with the numbers it passes),
/// then the rest of a doubles chain, if any.
struct Playout {
    board: Board,
    set: Option<StaticSet>,
    /// The seat whose doubles chain goes on after the set, and its next double.
    chain: Option<(Seat, u8)>,
}

/// Whether an `advance` did a node of work or found the work done.
enum Progress {
    Worked,
    Done,
}

impl Playout {
    /// `seat` plays `numbers`; what it cannot play passes on when `may_pass`.
    fn set(board: &Board, seat: Seat, numbers: Numbers, head: u8, may_pass: bool) -> Playout {
        Playout { board: *board, set: Some(StaticSet::new(seat, numbers, head, may_pass)), chain: None }
    }

    /// The steps of the seat's doubles chain from `first` up to 6-6, with the numbers they pass.
    fn chain(board: &Board, seat: Seat, first: u8) -> Playout {
        Playout { board: *board, set: None, chain: Some((seat, first)) }
    }

    /// An ordinary roll `a`-`b` of `seat`, with its whole chain and the numbers it passes.
    fn ordinary_turn(board: &Board, seat: Seat, a: u8, b: u8, first_roll: bool) -> Playout {
        let head = if first_roll && a == b && matches!(a, 3 | 4 | 6) { 2 } else { 1 };
        let mut turn = Playout::set(board, seat, Numbers::roll(a, b), head, true);
        if a == b && a < 6 {
            turn.chain = Some((seat, a + 1));
        }
        turn
    }

    /// Does one node of the play-out, or finds it finished (`board` is then where it ends).
    fn advance(&mut self, search: &mut Search) -> Progress {
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

/// The roll `rolls()` gives at `index`.
fn roll_at(index: usize) -> (u8, u8, f64) {
    rolls().nth(index).expect("21 rolls")
}

/// A candidate play's value for its player, looking one roll of the opponent ahead, and with
/// `two_rolls` the player's own roll after it too; worked out a node at a time.
struct Lookahead {
    two_rolls: bool,
    stage: Stage,
}

enum Stage {
    Start,
    /// After numbers passed to the player, the passer goes on with its chain; then the player rolls.
    PassedChain(Playout),
    /// The numbers the play leaves pass to the opponent.
    LeftOver(Playout),
    /// The player's own chain comes before the opponent rolls.
    OwnChain(Playout),
    /// The opponent's rolls one by one (`roll` indexes `rolls()`), `sum` their weighted values so
    /// far; with two rolls, the player's own rolls after the opponent's roll under way.
    Rolls {
        board: Board,
        roll: usize,
        sum: f64,
        turn: Playout,
        own: Option<Box<OwnRolls>>,
    },
}

/// The player's 21 rolls after one roll of the opponent.
struct OwnRolls {
    after: Board,
    roll: usize,
    sum: f64,
    turn: Playout,
}

impl Lookahead {
    fn new(two_rolls: bool) -> Lookahead {
        Lookahead { two_rolls, stage: Stage::Start }
    }

    fn rolls_from(s: &Situation, board: Board) -> Stage {
        let (a, b, _) = roll_at(0);
        let turn = Playout::ordinary_turn(&board, s.player.opponent(), a, b, s.opponent_first_roll);
        Stage::Rolls { board, roll: 0, sum: 0.0, turn, own: None }
    }

    fn own_chain_or_rolls(s: &Situation, board: Board) -> Stage {
        match s.chain_next {
            Some(first) => Stage::OwnChain(Playout::chain(&board, s.player, first)),
            None => Lookahead::rolls_from(s, board),
        }
    }

    /// Does a node or two of work; the value once it is known.
    fn advance(&mut self, s: &Situation, play: &Play, search: &mut Search) -> Option<f64> {
        let me = s.player;
        let opponent = me.opponent();
        let two_rolls = self.two_rolls;
        loop {
            match &mut self.stage {
                Stage::Start => {
                    let board = play.board;
                    if board.borne_off(me) == CHECKERS {
                        return Some(1.0);
                    }
                    self.stage = if s.kind == SetKind::Passed {
                        let Some(first) = s.opponent_chain_next else {
                            search.nodes += 1;
                            return Some(win_chance(&board, me, me));
                        };
                        Stage::PassedChain(Playout::chain(&board, opponent, first))
                    } else if !play.left.is_empty() {
                        Stage::LeftOver(Playout::set(&board, opponent, play.left, 1, false))
                    } else {
                        Lookahead::own_chain_or_rolls(s, board)
                    };
                }
                Stage::PassedChain(turn) => {
                    if let Progress::Worked = turn.advance(search) {
                        return None;
                    }
                    search.nodes += 1;
                    return Some(win_chance(&turn.board, me, me));
                }
                Stage::LeftOver(turn) => {
                    if let Progress::Worked = turn.advance(search) {
                        return None;
                    }
                    let board = turn.board;
                    self.stage = Lookahead::own_chain_or_rolls(s, board);
                }
                Stage::OwnChain(turn) => {
                    if let Progress::Worked = turn.advance(search) {
                        return None;
                    }
                    let board = turn.board;
                    if board.borne_off(me) == CHECKERS || board.borne_off(opponent) == CHECKERS {
                        search.nodes += 1;
                        return Some(win_chance(&board, me, opponent));
                    }
                    self.stage = Lookahead::rolls_from(s, board);
                }
                Stage::Rolls { board, roll, sum, turn, own } => {
                    let (_, _, p) = roll_at(*roll);
                    if let Some(mine) = own {
                        if let Progress::Worked = mine.turn.advance(search) {
                            return None;
                        }
                        let (_, _, p_mine) = roll_at(mine.roll);
                        search.nodes += 1;
                        mine.sum += p_mine * win_chance(&mine.turn.board, me, opponent);
                        mine.roll += 1;
                        if mine.roll < 21 {
                            let (a, b, _) = roll_at(mine.roll);
                            mine.turn = Playout::ordinary_turn(&mine.after, me, a, b, false);
                            return None;
                        }
                        *sum += p * mine.sum;
                        *own = None;
                    } else {
                        if let Progress::Worked = turn.advance(search) {
                            return None;
                        }
                        let after = turn.board;
                        if two_rolls && after.borne_off(opponent) < CHECKERS {
                            let (a, b, _) = roll_at(0);
                            let turn = Playout::ordinary_turn(&after, me, a, b, false);
                            *own = Some(Box::new(OwnRolls { after, roll: 0, sum: 0.0, turn }));
                            continue;
                        }
                        search.nodes += 1;
                        *sum += p * win_chance(&after, me, me);
                    }
                    *roll += 1;
                    if *roll == 21 {
                        return Some(*sum);
                    }
                    let (a, b, _) = roll_at(*roll);
                    *turn = Playout::ordinary_turn(board, opponent, a, b, s.opponent_first_roll);
                    return None;
                }
            }
        }
    }
}

/// One decision's search: its strength, the opponent replies generated so far (what the
/// strength's `node_limit` counts), and the nodes of work done (what a slice's budget counts:
/// one position judged by the estimate, or the listing of a set's plays by its size).
struct Search {
    strength: Strength,
    replies: u64,
    nodes: u64,
    /// The most nodes one step of work has counted (a slice may go over its budget by that).
    largest_unit: u64,
}

/// Positions walked while listing plays that cost about as much as one node.
const WALKED_PER_NODE: u64 = 4;

impl Search {
    /// A dice set's plays, counted as nodes by the work of listing them (a double with many
    /// checkers free walks thousands of positions: one node would let a slice overrun its frame).
    fn list(&mut self, board: &Board, seat: Seat, numbers: Numbers, head: u8) -> Vec<Play> {
        let (all, walked) = plays_walked(board, seat, numbers, head);
        let unit = 1 + walked as u64 / WALKED_PER_NODE;
        self.nodes += unit;
        self.largest_unit = self.largest_unit.max(unit);
        all
    }
}

/// Best value first; equal values keep a fixed order by position, so a plan made again from
/// the middle of the set picks the same end position.
fn sort_best_first(ranked: &mut [(Play, f64)]) {
    ranked.sort_by(|(pa, va), (pb, vb)| vb.total_cmp(va).then_with(|| pa.board.cmp(&pb.board)));
}

/// The moves the Robot plays for the rest of the dice set in play.
pub fn plan(game: &Nard, level: RobotLevel) -> Vec<CheckerMove> {
    plan_with(game, level.number(), &strength(level))
}

/// The same with any strength; `salt` varies the noise between players of equal strength.
pub fn plan_with(game: &Nard, salt: u8, strength: &Strength) -> Vec<CheckerMove> {
    let mut planner = Planner::new(game, salt, strength);
    loop {
        if let Some(moves) = planner.step(u64::MAX) {
            return moves;
        }
    }
}

/// A dice set's plan in the making: the set's plays listed and ranked by the static estimate,
/// then the best few looked at one roll ahead, and the closest of them two rolls deep, all a
/// node at a time so a slice can stop anywhere. The plan is always made for the whole set, from
/// the position where it began, so asking again after some of its moves (even on a thread that
/// has forgotten it) gives the same plan; only if the moves made so far leave that plan is the
/// rest planned afresh.
pub struct Planner {
    /// The set as it began, and the moves made in it so far.
    situation: Option<Situation>,
    done: Vec<CheckerMove>,
    /// The set as it stands now, for planning afresh.
    current: Option<Situation>,
    salt: u8,
    tag: u64,
    search: Search,
    ranking: Ranking,
    ranked: Vec<(Play, f64)>,
    /// Candidates whose lookahead is done.
    looked: usize,
    /// The best candidates to look at two rolls deep (once the lookahead is done), and how many
    /// of them are done.
    deep: Option<usize>,
    deep_looked: usize,
    /// The look ahead under way, for candidate `looked` (or `deep_looked` once `deep` is known).
    ahead: Option<Lookahead>,
    decided: Option<Vec<CheckerMove>>,
}

/// How far the static ranking of the set's plays has come.
enum Ranking {
    /// The plays are still to be listed.
    List,
    /// Listed, and the first `values.len()` judged.
    Judge {
        plays: Vec<Play>,
        values: Vec<f64>,
    },
    Done,
}

impl Planner {
    pub fn new(game: &Nard, salt: u8, strength: &Strength) -> Planner {
        let current = Situation::of(game);
        let tag = strength_tag(salt, strength);
        let mut planner = Planner {
            situation: None,
            done: Vec::new(),
            current,
            salt,
            tag,
            search: Search { strength: *strength, replies: 0, nodes: 0, largest_unit: 1 },
            ranking: Ranking::Done,
            ranked: Vec::new(),
            looked: 0,
            deep: None,
            deep_looked: 0,
            ahead: None,
            decided: None,
        };
        let (Some(now), Some(set)) = (current, game.dice_set()) else {
            planner.decided = Some(Vec::new());
            return planner;
        };
        if let Some(mv) = cached_move(plan_key(&now, tag)) {
            planner.decided = Some(vec![mv]);
            return planner;
        }
        let start = Situation { board: set.start, left: set.dealt, head_left: set.head_limit, ..now };
        planner.begin(start, set.moves.clone());
        planner
    }

    /// Nodes of work done so far (the unit of `step`'s budget).
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// The most nodes one step of work has counted so far: a slice ends within that of its budget.
    pub fn largest_unit(&self) -> u64 {
        self.search.largest_unit
    }

    /// Starts planning the set from `s`, after which `done` has been played.
    fn begin(&mut self, s: Situation, done: Vec<CheckerMove>) {
        self.situation = Some(s);
        self.done = done;
        self.ranking = Ranking::List;
        self.ranked.clear();
        self.looked = 0;
        self.deep = None;
        self.deep_looked = 0;
        self.ahead = None;
    }

    /// Thinks for about `nodes` more nodes (at most one over); the rest of the plan once decided.
    pub fn step(&mut self, nodes: u64) -> Option<Vec<CheckerMove>> {
        let stop_at = self.search.nodes.saturating_add(nodes);
        while self.decided.is_none() {
            let s = self.situation.expect("a planner without a dice set is decided at once");
            let strength = self.search.strength;
            match &mut self.ranking {
                Ranking::List => {
                    if self.search.nodes >= stop_at {
                        return None;
                    }
                    let all = self.search.list(&s.board, s.player, s.left, s.head_left);
                    if all.len() > 1 && unit_of(s.serial, self.salt, 1) < strength.blunder {
                        let pick = (unit_of(s.serial, self.salt, 2) * all.len() as f64) as usize;
                        self.ranking = Ranking::Done;
                        self.finish(all[pick.min(all.len() - 1)].moves.clone());
                    } else {
                        self.ranking = Ranking::Judge { values: Vec::with_capacity(all.len()), plays: all };
                    }
                    continue;
                }
                Ranking::Judge { plays, values } => {
                    if let Some(play) = plays.get(values.len()) {
                        if self.search.nodes >= stop_at {
                            return None;
                        }
                        self.search.nodes += 1;
                        let mut value = win_chance(&play.board, s.player, s.next_on_roll());
                        if strength.noise > 0.0 {
                            value += strength.noise * noise_of(&play.board, s.serial, self.salt);
                        }
                        values.push(value);
                        continue;
                    }
                    let mut ranked: Vec<(Play, f64)> =
                        std::mem::take(plays).into_iter().zip(values.iter().copied()).collect();
                    self.ranking = Ranking::Done;
                    self.search.replies += ranked.len() as u64;
                    sort_best_first(&mut ranked);
                    self.ranked = ranked;
                    if strength.lookahead && self.ranked.len() > 1 {
                        self.ranked.truncate(strength.candidates);
                    } else {
                        let contrary = unit_of(s.serial, self.salt, 3) < strength.contrary;
                        let pick = if contrary { self.ranked.last() } else { self.ranked.first() };
                        self.finish(pick.map(|(p, _)| p.moves.clone()).unwrap_or_default());
                    }
                    continue;
                }
                Ranking::Done => {}
            }
            // Out of nodes (by the strength's limit, counted between candidates): stop looking.
            while self.looked < self.ranked.len()
                && (self.ahead.is_some() || self.search.replies < strength.node_limit)
            {
                if self.search.nodes >= stop_at {
                    return None;
                }
                let ahead = self.ahead.get_or_insert_with(|| Lookahead::new(false));
                if let Some(value) = ahead.advance(&s, &self.ranked[self.looked].0, &mut self.search) {
                    self.ranked[self.looked].1 = value;
                    self.looked += 1;
                    self.ahead = None;
                }
            }
            let deep = *self.deep.get_or_insert_with(|| {
                // Out of nodes: only candidates judged the same way compete.
                self.ranked.truncate(self.looked.max(1));
                sort_best_first(&mut self.ranked);
                let best = self.ranked[0].1;
                let close = self.ranked.iter().filter(|(_, v)| best - v <= strength.close).count();
                close.min(strength.deep)
            });
            if deep > 1 {
                while self.deep_looked < deep {
                    if self.search.nodes >= stop_at {
                        return None;
                    }
                    let ahead = self.ahead.get_or_insert_with(|| Lookahead::new(true));
                    let play = &self.ranked[self.deep_looked].0;
                    if let Some(value) = ahead.advance(&s, play, &mut self.search) {
                        self.ranked[self.deep_looked].1 = value;
                        self.deep_looked += 1;
                        self.ahead = None;
                    }
                }
                self.ranked.truncate(deep);
                sort_best_first(&mut self.ranked);
            }
            let best = self.ranked.first().map(|(p, _)| p.moves.clone()).unwrap_or_default();
            self.finish(best);
        }
        self.decided.clone()
    }

    /// The plan for the whole set is `moves`: the rest of it, unless the moves made so far left
    /// it (then the rest of the set is planned afresh).
    fn finish(&mut self, moves: Vec<CheckerMove>) {
        let Some(s) = self.situation else { return };
        if moves.starts_with(&self.done) {
            remember_plan(&s, self.tag, &moves);
            self.decided = Some(moves[self.done.len()..].to_vec());
        } else if let Some(now) = self.current.take() {
            self.begin(now, Vec::new());
        } else {
            self.decided = Some(moves);
        }
    }
}

/// What tells the levels' plans apart in the plan cache: the salt and every field of the
/// strength (by value, never by its `Debug` text, which the browser build reduces to a name).
fn strength_tag(salt: u8, strength: &Strength) -> u64 {
    let Strength {
        lookahead,
        candidates,
        deep,
        close,
        node_limit,
        noise,
        blunder,
        contrary,
        double_at,
        take_at,
    } = *strength;
    let fractions = [close, noise, blunder, contrary, double_at, take_at].map(f64::to_bits);
    stable_hash(&(salt, lookahead, candidates, deep, node_limit, fractions))
}

fn plan_key(s: &Situation, tag: u64) -> u64 {
    stable_hash(&(s, tag))
}

thread_local! {
    /// The last plan: for each position along it, the move to make there.
    static LAST_PLAN: RefCell<Vec<(u64, CheckerMove)>> = const { RefCell::new(Vec::new()) };
}

fn cached_move(key: u64) -> Option<CheckerMove> {
    LAST_PLAN.with(|plan| plan.borrow().iter().find(|(k, _)| *k == key).map(|(_, m)| *m))
}

fn remember_plan(s: &Situation, tag: u64, moves: &[CheckerMove]) {
    let mut entries = Vec::with_capacity(moves.len());
    let mut step = *s;
    for &mv in moves {
        entries.push((plan_key(&step, tag), mv));
        step.board = step.board.after(step.player, mv);
        step.left = step.left.without(mv.die());
        step.head_left -= mv.leaves_head() as u8;
    }
    LAST_PLAN.with(|plan| *plan.borrow_mut() = entries);
}

// ---------------------------------------------------------------------------------------------
// The cube.

/// Whether the Robot doubles before its roll.
pub fn wants_to_double(game: &Nard, level: RobotLevel) -> bool {
    let Phase::AwaitingRoll(seat) = *game.phase() else { return false };
    if !game.can_double(seat) {
        return false;
    }
    // With the cube as it is a win already takes the match: doubling only risks more.
    if game.score(seat) + game.cube().value >= game.match_length() {
        return false;
    }
    win_chance(game.board(), seat, seat) >= strength(level).double_at
}

/// Whether the Robot takes the double offered to it.
pub fn takes_double(game: &Nard, level: RobotLevel) -> bool {
    let Some(doubler) = game.double_offered_by() else { return false };
    let me = doubler.opponent();
    // Dropping would lose the match anyway.
    if game.score(doubler) + game.cube().value >= game.match_length() {
        return true;
    }
    win_chance(game.board(), me, doubler) >= strength(level).take_at
}

// ---------------------------------------------------------------------------------------------

struct NardThinker {
    game: Nard,
    level: RobotLevel,
    planner: Option<Planner>,
}

impl Thinker<Nard> for NardThinker {
    fn nodes(&self) -> u64 {
        self.planner.as_ref().map_or(0, Planner::nodes)
    }

    fn step(&mut self, nodes: u64) -> Option<NardAction> {
        if self.game.double_offered_by().is_some() {
            let take = takes_double(&self.game, self.level);
            return Some(if take { NardAction::Take } else { NardAction::Drop });
        }
        let planner = self
            .planner
            .get_or_insert_with(|| Planner::new(&self.game, self.level.number(), &strength(self.level)));
        let moves = planner.step(nodes)?;
        let first = moves.first().map(|&mv| NardAction::Move(mv));
        // Nothing to plan (no dice set in play): the first legal action, if any.
        Some(first.or_else(|| self.game.legal_actions().first().copied()).unwrap_or(NardAction::Take))
    }
}

impl RobotPlayer for Nard {
    fn thinker(&self, level: RobotLevel, _seed: u64) -> Box<dyn Thinker<Self>> {
        Box::new(NardThinker { game: self.clone(), level, planner: None })
    }

    fn before_roll(&self, level: RobotLevel, _seed: u64) -> Option<NardAction> {
        wants_to_double(self, level).then_some(NardAction::Double)
    }
}

// ---------------------------------------------------------------------------------------------
// The coach.

/// A whole dice set is one move for the coach: its first position, and the moves made in it.
impl Coached for Nard {
    const REASONS: &'static [&'static str] = &["bear_off", "head"];

    fn moves_to_rate<N>(steps: &[Step<Nard, N>]) -> Vec<MoveToRate<NardAction>> {
        let mut moves = Vec::new();
        let serial_at = |i: usize| steps[i].game.dice_set().map(|set| set.serial);
        let mut from = 0;
        while from + 1 < steps.len() {
            let starts_set = steps[from].game.dice_set().is_some_and(|set| set.moves.is_empty());
            let (Some(seat), Some(NardAction::Move(_))) = (steps[from + 1].mover, &steps[from + 1].action)
            else {
                from += 1;
                continue;
            };
            if !starts_set {
                from += 1;
                continue;
            }
            let serial = serial_at(from);
            let mut end = from + 1;
            let mut played = Vec::new();
            while end < steps.len() && serial_at(end - 1) == serial {
                let Some(action @ NardAction::Move(_)) = steps[end].action else { break };
                played.push(action);
                end += 1;
            }
            // A set still being played is not a move yet.
            if serial_at(end - 1) != serial {
                moves.push(MoveToRate { from, seat, played });
            }
            from = end - 1;
        }
        moves
    }

    fn rater(&self, played: &[NardAction], _data: CoachData) -> Box<dyn Rater<Self>> {
        Box::new(SetRater::new(self, played))
    }

    /// Where the best play left the board better in a way a child can see: fewer checkers left
    /// on the head, or more checkers borne off.
    fn why(&self, played: &[NardAction], best: &[NardAction]) -> Option<&'static str> {
        let seat = self.dice_set()?.player;
        let (after_played, after_best) = (review::after(self, played), review::after(self, best));
        let (played_board, best_board) = (after_played.board(), after_best.board());
        if best_board.borne_off(seat) > played_board.borne_off(seat) {
            Some("bear_off")
        } else if best_board.count(seat, HEAD) < played_board.count(seat, HEAD) {
            Some("head")
        } else {
            None
        }
    }
}

/// Rates the play of a whole dice set the way level 3 judges its candidates: every play by the
/// estimate, then the best few and the play made one roll ahead.
struct SetRater {
    situation: Option<Situation>,
    /// The board the set's moves made.
    played: Board,
    search: Search,
    plays: Vec<Play>,
    /// The plays to look at one roll ahead, with their values so far.
    candidates: Vec<(Play, f64)>,
    looked: usize,
    ahead: Option<Lookahead>,
    listed: bool,
}

impl SetRater {
    fn new(game: &Nard, played: &[NardAction]) -> SetRater {
        let situation = Situation::of(game);
        let mut board = *game.board();
        if let Some(s) = &situation {
            for action in played {
                if let NardAction::Move(mv) = action {
                    board = board.after(s.player, *mv);
                }
            }
        }
        let search = Search { strength: strength(RobotLevel::Three), replies: 0, nodes: 0, largest_unit: 1 };
        SetRater {
            situation,
            played: board,
            search,
            plays: Vec::new(),
            candidates: Vec::new(),
            looked: 0,
            ahead: None,
            listed: false,
        }
    }

    fn rating(&self) -> Rating<NardAction> {
        let moves = |play: &Play| play.moves.iter().map(|&mv| NardAction::Move(mv)).collect();
        let mut ranked = self.candidates.clone();
        sort_best_first(&mut ranked);
        let Some((best, best_value)) = ranked.first() else {
            return Rating { best: Vec::new(), loss: 0.0, margin: 0.0 };
        };
        let played_value =
            ranked.iter().find(|(p, _)| p.board == self.played).map_or(*best_value, |(_, v)| *v);
        let loss = (best_value - played_value).max(0.0);
        let margin = match ranked.get(1) {
            Some((_, second)) if best.board == self.played => best_value - second,
            _ => 0.0,
        };
        Rating { best: moves(best), loss, margin }
    }
}

impl Rater<Nard> for SetRater {
    fn step(&mut self, nodes: u64) -> Option<Rating<NardAction>> {
        let Some(s) = self.situation else {
            return Some(Rating { best: Vec::new(), loss: 0.0, margin: 0.0 });
        };
        let stop_at = self.search.nodes.saturating_add(nodes);
        if !self.listed {
            self.plays = self.search.list(&s.board, s.player, s.left, s.head_left);
            self.listed = true;
        }
        // Every play by the estimate, a node each.
        while self.candidates.len() < self.plays.len() {
            if self.search.nodes >= stop_at {
                return None;
            }
            self.search.nodes += 1;
            let play = self.plays[self.candidates.len()].clone();
            let value = win_chance(&play.board, s.player, s.next_on_roll());
            self.candidates.push((play, value));
        }
        if !self.plays.is_empty() {
            // Keep the best few and the play made, to be looked at one roll ahead.
            sort_best_first(&mut self.candidates);
            let keep = self.search.strength.candidates;
            let played = self.candidates.iter().position(|(p, _)| p.board == self.played);
            if let Some(index) = played.filter(|&i| i >= keep) {
                self.candidates.swap(keep, index);
            }
            self.candidates.truncate(keep + usize::from(played.is_some_and(|i| i >= keep)));
            self.plays.clear();
        }
        if self.candidates.len() < 2 {
            return Some(self.rating());
        }
        while self.looked < self.candidates.len() {
            if self.search.nodes >= stop_at {
                return None;
            }
            let ahead = self.ahead.get_or_insert_with(|| Lookahead::new(false));
            if let Some(value) = ahead.advance(&s, &self.candidates[self.looked].0, &mut self.search) {
                self.candidates[self.looked].1 = value;
                self.looked += 1;
                self.ahead = None;
            }
        }
        Some(self.rating())
    }
}

/// The benchmark's greedy player: the play of the dice set after which the static estimate
/// (`win_chance`, the other side to roll) likes its position best, with no look ahead and no
/// noise, ties broken at random; it takes every double and never offers one. (The pip count
/// alone cannot choose: every whole play of a set moves the same number of pips.)
pub fn greedy(game: &Nard, rng: &mut SeededRng) -> Option<NardAction> {
    match game.phase() {
        Phase::DoubleOffered(_) => Some(NardAction::Take),
        Phase::Playing(set) => {
            let seat = set.player;
            let estimate = |p: &Play| -(win_chance(&p.board, seat, seat.opponent()) * 1e9).round() as i64;
            let play = pick_best_by(game.plays(), estimate, rng)?;
            play.moves.first().map(|&m| NardAction::Move(m))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn exp_from_plain_arithmetic_matches_the_maths_library() {
        for i in -4000..=4000 {
            let x = i as f64 / 100.0;
            let (ours, library) = (super::exp(x), x.exp());
            assert!(
                (ours - library).abs() <= library * 4.0 * f64::EPSILON,
                "e^{x}: {ours} against {library}"
            );
        }
        assert_eq!(super::exp(0.0), 1.0);
        assert_eq!(super::exp(-800.0), 0.0);
    }
}
