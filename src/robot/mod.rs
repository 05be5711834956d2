//! The Robot: opponents that only read the rules through `Game`. A Robot thinks in slices
//! (`Thinker::step`), so the screen keeps drawing frames while it thinks, even on the single
//! browser thread. Its strength is counted in searched positions, not seconds, so a seeded game
//! plays the same on any machine.

pub mod bunnies;
pub mod circles;
pub mod knight_hunt;
pub mod nard;
pub mod search;

use crate::rules::{Game, Seat};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// The Robot's levels: 1 is beatable by a young child, 3 plays as well as it can.
pub const LEVELS: [u8; 3] = [1, 2, 3];

/// A Robot deciding one action, a slice at a time.
pub trait Thinker<G: Game>: Send + Sync {
    /// Thinks for about `nodes` more positions; returns the chosen action once it has decided.
    fn step(&mut self, nodes: u64) -> Option<G::Action>;
}

/// A game the Robot can play.
pub trait RobotPlayer: Game + Sized {
    /// Starts thinking about the position for the seat to move. `seed` makes the choice repeatable.
    fn thinker(&self, level: u8, seed: u64) -> Box<dyn Thinker<Self>>;

    /// While dice are due: what the Robot does instead of rolling (such as doubling), or `None`
    /// to roll. Games without such a choice keep this default.
    fn before_roll(&self, _level: u8, _seed: u64) -> Option<Self::Action> {
        None
    }
}

/// Thinks to the end in one go: for tests, the text interface and the benchmark.
/// While dice are due it only answers `before_roll` (`None`: roll the dice).
pub fn choose<G: RobotPlayer>(game: &G, level: u8, seed: u64) -> Option<G::Action> {
    game.to_move()?;
    if game.chance().is_some() {
        return game.before_roll(level, seed);
    }
    let mut thinker = game.thinker(level, seed);
    loop {
        if let Some(action) = thinker.step(u64::MAX) {
            return Some(action);
        }
    }
}

/// A position's worth for one seat: positive is good for it.
pub trait Evaluate: Game {
    fn evaluate(&self, seat: Seat) -> i32;
}

pub fn rng(seed: u64) -> SmallRng {
    SmallRng::seed_from_u64(seed)
}

/// The action with the smallest key, ties broken at random: the shape of every greedy player.
pub fn pick_best_by<A, K: Ord + Copy>(
    actions: Vec<A>,
    key: impl Fn(&A) -> K,
    rng: &mut SmallRng,
) -> Option<A> {
    let best = actions.iter().map(&key).min()?;
    let mut ties: Vec<A> = actions.into_iter().filter(|a| key(a) == best).collect();
    let pick = rng.random_range(0..ties.len());
    Some(ties.swap_remove(pick))
}

/// One outcome of a chance event (a roll), drawn by its probability.
pub fn pick_chance<A: Clone>(outcomes: Vec<(A, f64)>, rng: &mut SmallRng) -> Option<A> {
    let mut left: f64 = rng.random();
    for (outcome, p) in &outcomes {
        if left < *p {
            return Some(outcome.clone());
        }
        left -= p;
    }
    outcomes.last().map(|(outcome, _)| outcome.clone())
}

/// A player that picks any legal action.
pub fn random_action<G: Game>(game: &G, rng: &mut SmallRng) -> Option<G::Action> {
    let mut actions = game.legal_actions();
    if actions.is_empty() {
        return None;
    }
    let pick = rng.random_range(0..actions.len());
    Some(actions.swap_remove(pick))
}
