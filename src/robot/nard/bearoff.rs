//! Bearing off: the expected rolls to bear off any home position alone (up to 15 checkers on
//! points 1–6), with the exact rule and the doubles chain (passed numbers left out), worked out
//! once into a table.

use crate::rules::Seat;
use crate::rules::nard::{Board, CHECKERS};
use std::sync::OnceLock;

pub(super) const BEAROFF_STATES: usize = 54_264;

/// Ways to put at most `m` checkers on `k` points: C(m + k, k).
pub(super) fn ways(k: usize, m: usize) -> u32 {
    let mut r = 1u64;
    for i in 1..=k as u64 {
        r = r * (m as u64 + i) / i;
    }
    r as u32
}

/// The bear-off table: every home position of up to 15 checkers on points 1–6.
pub(super) struct Bearoff {
    /// `offsets[i][budget][c]`: how many positions come before those with `c` checkers on point
    /// i + 1, among those with `budget` checkers left for points i + 1 to 6.
    pub(super) offsets: Vec<[[u32; 16]; 16]>,
    pub(super) entries: Vec<BearoffEntry>,
}

#[derive(Clone, Copy, Default)]
pub(super) struct BearoffEntry {
    /// Expected rolls to bear the position off alone.
    pub(super) rolls: f32,
    /// Expected pips of the numbers it cannot use meanwhile (they pass to the opponent).
    pub(super) waste: f32,
    /// The position with one more checker where it helps bearing off most (itself when full).
    pub(super) best_next: u32,
}

impl Bearoff {
    pub(super) fn index(&self, home: &[u8; 6]) -> usize {
        let mut index = 0;
        let mut budget = CHECKERS as usize;
        for (i, &c) in home.iter().enumerate() {
            index += self.offsets[i][budget][c as usize] as usize;
            budget -= c as usize;
        }
        index
    }

    pub(super) fn entry(&self, home: &[u8; 6]) -> BearoffEntry {
        self.entries[self.index(home)]
    }

    pub(super) fn build() -> Bearoff {
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

pub(super) fn fill_positions(i: usize, left: u8, home: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
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

pub(super) fn bearoff_table() -> &'static Bearoff {
    static TABLE: OnceLock<Bearoff> = OnceLock::new();
    TABLE.get_or_init(Bearoff::build)
}

/// A roll played on a home position alone: the position after it and the pips it could not use.
pub(super) fn bear_off_roll(home: &[u8; 6], a: u8, b: u8) -> ([u8; 6], u32) {
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
pub(super) fn rolls() -> impl Iterator<Item = (u8, u8, f64)> {
    (1..=6u8)
        .rev()
        .flat_map(|a| (1..=a).rev().map(move |b| (a, b, if a == b { 1.0 / 36.0 } else { 2.0 / 36.0 })))
}

pub(super) fn home_of(board: &Board, seat: Seat) -> [u8; 6] {
    let mut home = [0u8; 6];
    for (i, cell) in home.iter_mut().enumerate() {
        *cell = board.count(seat, i as u8 + 1);
    }
    home
}

/// Expected rolls to bear off a home position, and the pips it would pass meanwhile.
pub(super) fn bearoff_of(home: &[u8; 6]) -> [f64; 2] {
    let e = bearoff_table().entry(home);
    [e.rolls as f64, e.waste as f64]
}

/// The same for the home the seat can still hope for: each of its `outside` checkers put where it
/// helps bearing off most.
pub(super) fn projected_bearoff(home: &[u8; 6], outside: u32) -> [f64; 2] {
    let table = bearoff_table();
    let mut e = table.entry(home);
    for _ in 0..outside {
        e = table.entries[e.best_next as usize];
    }
    [e.rolls as f64, e.waste as f64]
}
