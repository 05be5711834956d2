//! The Robot: opponents that read the rules and nothing else. The search (`search`) and the
//! review (`review`) know a game only through `Game`; each game's file adds what it knows of its
//! own game (an estimate of a position; Crazy Nard's planner, over its board). A Robot thinks in
//! slices (`Thinker::step`), so the screen keeps drawing frames while it thinks, even on the
//! single browser thread. Its strength is counted in searched positions, not seconds, so a seeded
//! game plays the same on any machine. The Robot's turn in a game's history is here too
//! (`History::robot_action`, `History::thinker`).

pub mod bunnies;
pub mod circles;
pub mod halma;
pub mod knight_hunt;
pub mod nard;
pub mod review;
pub mod search;
pub mod slips;

use crate::chance::{SeededRng, pick_chance, rng};
use crate::history::History;
use crate::rules::{Game, Seat};
use rand::Rng;
use search::{AlphaBeta, Strength};

/// A hash that is the same on every platform and every Rust release (FNV-1a, with `usize`
/// written as eight bytes): the Robot's noise and plan keys come from it, so a seeded game plays
/// the same Robot moves on the desktop (64-bit) and in the browser (32-bit). The standard
/// library's `DefaultHasher` promises neither.
#[derive(Clone, Copy, Debug)]
pub struct StableHasher(u64);

impl Default for StableHasher {
    fn default() -> Self {
        StableHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl std::hash::Hasher for StableHasher {
    fn finish(&self) -> u64 {
        // A last mix, so nearby inputs give far-apart numbers in every bit.
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.write(&(n as u64).to_le_bytes());
    }

    fn write_isize(&mut self, n: isize) {
        self.write(&(n as i64).to_le_bytes());
    }
}

/// `value`'s stable hash (`StableHasher`).
pub fn stable_hash(value: &impl std::hash::Hash) -> u64 {
    let mut hasher = StableHasher::default();
    value.hash(&mut hasher);
    std::hash::Hasher::finish(&hasher)
}

/// How strong the Robot plays: `One` is beatable by a young child, `Three` plays as well as it can.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum RobotLevel {
    One,
    Two,
    Three,
}

impl RobotLevel {
    pub const ALL: [RobotLevel; 3] = [RobotLevel::One, RobotLevel::Two, RobotLevel::Three];

    pub fn number(self) -> u8 {
        match self {
            RobotLevel::One => 1,
            RobotLevel::Two => 2,
            RobotLevel::Three => 3,
        }
    }

    /// The level called `n` (1 to 3); any other number is no level.
    pub fn from_number(n: u8) -> Option<RobotLevel> {
        RobotLevel::ALL.into_iter().find(|l| l.number() == n)
    }

    pub fn parse(text: &str) -> Option<RobotLevel> {
        text.trim().parse().ok().and_then(RobotLevel::from_number)
    }
}

impl TryFrom<u8> for RobotLevel {
    type Error = String;
    fn try_from(n: u8) -> Result<RobotLevel, String> {
        RobotLevel::from_number(n).ok_or_else(|| format!("the Robot's level is 1, 2 or 3, not {n}"))
    }
}

impl From<RobotLevel> for u8 {
    fn from(level: RobotLevel) -> u8 {
        level.number()
    }
}

impl std::fmt::Display for RobotLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// One slice of the Robot's thinking, in nodes (`Thinker::step`): small enough that one slice
/// stays well under 8 ms in a native release build for every game (`tabla bench` prints the
/// longest as `<game>.robot3.max_slice_ms`). The app runs as many in a frame as fit its budget.
pub const SLICE_NODES: u64 = 1_000;

/// A Robot deciding one action, a slice at a time.
pub trait Thinker<G: Game>: Send + Sync {
    /// Thinks for about `nodes` more nodes; returns the chosen action once it has decided. A
    /// node is one small unit of work: a position visited by the search, or a play listed or
    /// judged by the estimate. One call goes over `nodes` by at most a node or two.
    fn step(&mut self, nodes: u64) -> Option<G::Action>;

    /// Nodes spent on this decision so far.
    fn nodes(&self) -> u64;
}

/// A game the Robot can play.
pub trait RobotPlayer: Game + Sized {
    /// Starts thinking about the position for the seat to move. `seed` makes the choice repeatable.
    fn thinker(&self, level: RobotLevel, seed: u64) -> Box<dyn Thinker<Self>>;

    /// While dice are due: what the Robot does instead of rolling (such as doubling), or `None`
    /// to roll. Games without such a choice keep this default.
    fn before_roll(&self, _level: RobotLevel, _seed: u64) -> Option<Self::Action> {
        None
    }
}

/// Thinks to the end in one go: for tests, the text interface and the benchmark.
/// While dice are due it only answers `before_roll` (`None`: roll the dice).
pub fn choose<G: RobotPlayer>(game: &G, level: RobotLevel, seed: u64) -> Option<G::Action> {
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

/// A game without dice that the Robot plays by alpha-beta search on its `Evaluate`: such a game
/// only says how hard each level searches, and is a `RobotPlayer` by that.
pub trait Searched: Evaluate {
    /// How hard levels 1, 2 and 3 search.
    const STRENGTHS: [Strength; 3];

    fn strength(level: RobotLevel) -> Strength {
        Self::STRENGTHS[level.number() as usize - 1]
    }
}

impl<G: Searched> RobotPlayer for G {
    fn thinker(&self, level: RobotLevel, seed: u64) -> Box<dyn Thinker<Self>> {
        Box::new(AlphaBeta::for_game(self, G::strength(level), seed))
    }
}

/// The action with the smallest key, ties broken at random: the shape of every greedy player.
pub fn pick_best_by<A, K: Ord + Copy>(
    actions: Vec<A>,
    key: impl Fn(&A) -> K,
    rng: &mut SeededRng,
) -> Option<A> {
    let best = actions.iter().map(&key).min()?;
    let mut ties: Vec<A> = actions.into_iter().filter(|a| key(a) == best).collect();
    let pick = rng.random_range(0..ties.len());
    Some(ties.swap_remove(pick))
}

/// A player that picks any legal action.
pub fn random_action<G: Game>(game: &G, rng: &mut SeededRng) -> Option<G::Action> {
    let mut actions = game.legal_actions();
    if actions.is_empty() {
        return None;
    }
    let pick = rng.random_range(0..actions.len());
    Some(actions.swap_remove(pick))
}

/// The Robot's turn in a game's history (the app's and the text interface's).
impl<G: RobotPlayer, N: Default + Clone> History<G, N> {
    /// What the Robot does now when it holds the seat to act: while dice are due, its own choice
    /// before the roll (such as doubling) or else the roll itself; otherwise it thinks to the end.
    /// The app thinks in slices instead, through `thinker`, and rolls through `roll`.
    pub fn robot_action(&self, level: RobotLevel) -> Option<G::Action> {
        let game = self.game();
        let seed = self.position_seed();
        match game.chance() {
            Some(rolls) => game.before_roll(level, seed).or_else(|| pick_chance(rolls, &mut rng(seed))),
            None => choose(game, level, seed),
        }
    }

    /// A Robot thinking about the current position, seeded by it.
    pub fn thinker(&self, level: RobotLevel) -> Box<dyn Thinker<G>> {
        self.game().thinker(level, self.position_seed())
    }
}
