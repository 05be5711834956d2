//! The seeded randomness every part draws from: the dice, the Robot's ties and slips, the test
//! and benchmark games. The same seed gives the same numbers on every platform.

use rand::{Rng, SeedableRng};

/// The generator behind every seeded choice (dice, the Robot's ties and errors). ChaCha gives the
/// same numbers on every platform, so a seeded game replays the same on the desktop, in the
/// browser and in the text interface.
pub type SeededRng = rand_chacha::ChaCha8Rng;

/// The generator seeded with `seed`.
pub fn rng(seed: u64) -> SeededRng {
    SeededRng::seed_from_u64(seed)
}

/// One outcome of a chance event (a roll), drawn by its probability.
pub fn pick_chance<A: Clone>(outcomes: Vec<(A, f64)>, rng: &mut SeededRng) -> Option<A> {
    let mut left: f64 = rng.random();
    for (outcome, p) in &outcomes {
        if left < *p {
            return Some(outcome.clone());
        }
        left -= p;
    }
    outcomes.last().map(|(outcome, _)| outcome.clone())
}
