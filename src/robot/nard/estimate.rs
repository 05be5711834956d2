//! The static estimate: what a position looks like to each side (race, the home's shape for
//! exact bearing off, numbers blocked, checkers left on the head), weighed into a chance to win.

use super::bearoff::{bearoff_of, home_of, projected_bearoff};
use crate::robot::Evaluate;
use crate::rules::nard::{Board, CHECKERS, HEAD, Nard};
use crate::rules::{Game, Seat};

/// Pips a roll moves on average, counting the whole chain of a double (about 15.9).
pub(super) const PIPS_PER_ROLL: f64 = 15.94;

/// How many features describe one side.
pub(super) const FEATURES: usize = 21;

/// What the estimate looks at on one side, each counted so that more is worse for that side.
pub(super) fn features(board: &Board, seat: Seat) -> [f64; FEATURES] {
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
pub(super) struct Weights {
    pub(super) features: [f64; FEATURES],
    pub(super) tempo: f64,
}

pub(super) const WEIGHTS: Weights = Weights {
    features: [
        0.017, 0.0, 0.143, 0.5, -0.005, -0.056, 0.612, -0.072, -0.038, 0.159, 0.156, 0.116, 0.132, 0.88,
        0.051, 1.576, 1.369, -2.0, 0.596, -0.114, 0.08,
    ],
    tempo: 0.267,
};

/// How far ahead the seat is, before the game's stage is taken into account.
pub(super) fn lead(board: &Board, seat: Seat, on_roll: Seat) -> f64 {
    let w = &WEIGHTS;
    let mine = features(board, seat);
    let theirs = features(board, seat.opponent());
    let tempo = if on_roll == seat { w.tempo } else { -w.tempo };
    tempo + (0..FEATURES).map(|i| w.features[i] * (theirs[i] - mine[i])).sum::<f64>()
}

/// The spread of the result: the number of rolls to finish spreads like √rolls.
pub(super) fn stage(board: &Board) -> f64 {
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
pub(super) fn exp(x: f64) -> f64 {
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
