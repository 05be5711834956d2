//! Alpha-beta search with iterative deepening for two-seat games without dice. Its call stack is
//! kept as data, so it can stop after any position, at any depth, and go on in the next frame.

use super::SeededRng;
use super::{Evaluate, Thinker, rng};
use crate::rules::{Seat, Winner};
use rand::Rng;

pub const WIN: i32 = 1_000_000;

/// How hard one Robot level thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Deepest full search, in plies.
    pub max_depth: u32,
    /// Positions the whole decision may visit; the iteration under way when it runs out is cut short.
    pub node_limit: u64,
    /// Random amount (±) added to each root score, in evaluation units: makes weaker levels err.
    pub noise: i32,
    /// Chance of playing a random legal action instead of thinking.
    pub blunder: f64,
}

pub struct AlphaBeta<G: Evaluate> {
    root: G,
    me: Seat,
    strength: Strength,
    rng: SeededRng,
    /// Root actions with their score from the last finished iteration (best first).
    ranked: Vec<(G::Action, i32)>,
    /// Scores of the iteration under way, in `ranked` order.
    current: Vec<i32>,
    depth: u32,
    alpha: i32,
    nodes: u64,
    /// The search below the root action under way: one frame per position whose children are
    /// being searched, deepest last. Empty between root actions.
    stack: Vec<Frame<G>>,
    decided: Option<G::Action>,
}

/// A position in the middle of its search: what the recursive search would keep on its call stack.
struct Frame<G: Evaluate> {
    game: G,
    actions: Vec<G::Action>,
    /// The next action to search.
    next: usize,
    depth: u32,
    ply: i32,
    alpha: i32,
    beta: i32,
    best: i32,
    maximizing: bool,
}

impl<G: Evaluate> Frame<G> {
    /// Takes a child's score; true when the rest of the children can be skipped.
    fn take(&mut self, score: i32) -> bool {
        if self.maximizing {
            self.best = self.best.max(score);
            self.alpha = self.alpha.max(score);
        } else {
            self.best = self.best.min(score);
            self.beta = self.beta.min(score);
        }
        self.alpha >= self.beta
    }
}

/// What visiting a position gave: its score at once, or a frame whose children are to be searched.
enum Visit<G: Evaluate> {
    Score(i32),
    Frame(Frame<G>),
}

impl<G: Evaluate> AlphaBeta<G> {
    pub fn new(root: &G, strength: Strength, seed: u64) -> AlphaBeta<G> {
        let mut rng = rng(seed);
        let actions = root.legal_actions();
        let me = root.to_move().expect("the Robot only thinks when it is to move");
        let decided = if actions.len() == 1 {
            Some(actions[0].clone())
        } else if rng.random_bool(strength.blunder) {
            Some(actions[rng.random_range(0..actions.len())].clone())
        } else {
            None
        };
        AlphaBeta {
            root: root.clone(),
            me,
            strength,
            rng,
            ranked: actions.into_iter().map(|a| (a, 0)).collect(),
            current: Vec::new(),
            depth: 1,
            alpha: -WIN * 2,
            nodes: 0,
            stack: Vec::new(),
            decided,
        }
    }

    fn finish_iteration(&mut self) {
        let mut scored: Vec<(G::Action, i32)> =
            self.ranked.drain(..).zip(self.current.drain(..)).map(|((a, _), s)| (a, s)).collect();
        scored.sort_by_key(|(_, s)| -s);
        self.ranked = scored;
        self.depth += 1;
        self.alpha = -WIN * 2;
    }

    /// Picks among the best root actions, after each level's noise.
    fn decide(&mut self) -> G::Action {
        let noise = self.strength.noise;
        let noisy: Vec<i32> = self
            .ranked
            .iter()
            .map(|(_, s)| if noise > 0 { s + self.rng.random_range(-noise..=noise) } else { *s })
            .collect();
        let best = *noisy.iter().max().expect("at least one action");
        let candidates: Vec<usize> = (0..noisy.len()).filter(|&i| noisy[i] == best).collect();
        let pick = candidates[self.rng.random_range(0..candidates.len())];
        self.ranked[pick].0.clone()
    }

    /// Visits one position: one node of the search. A finished game or the search's horizon
    /// scores at once; otherwise its actions are listed, to be searched one by one.
    fn visit(&mut self, game: G, depth: u32, ply: i32, alpha: i32, beta: i32) -> Visit<G> {
        self.nodes += 1;
        if let Some(outcome) = game.outcome() {
            return Visit::Score(match outcome.winner {
                Winner::Draw => 0,
                winner if winner.includes(self.me) => WIN - ply,
                _ => -WIN + ply,
            });
        }
        if depth == 0 {
            return Visit::Score(game.evaluate(self.me));
        }
        let maximizing = game.to_move() == Some(self.me);
        let actions = game.legal_actions();
        Visit::Frame(Frame {
            game,
            actions,
            next: 0,
            depth,
            ply,
            alpha,
            beta,
            best: if maximizing { -WIN * 2 } else { WIN * 2 },
            maximizing,
        })
    }

    /// Searches on below the root action under way, a position at a time, until it is scored
    /// (`Some`) or `stop_at` nodes are reached (`None`: go on from here next time). The same
    /// alpha-beta as a recursive search, with its call stack kept in `stack`.
    fn search_on(&mut self, stop_at: u64) -> Option<i32> {
        loop {
            let frame = self.stack.last_mut().expect("a search under way");
            let score = if frame.next < frame.actions.len() {
                if self.nodes >= stop_at {
                    return None;
                }
                let mut child = frame.game.clone();
                child.play(&frame.actions[frame.next]);
                frame.next += 1;
                let (depth, ply, alpha, beta) = (frame.depth - 1, frame.ply + 1, frame.alpha, frame.beta);
                match self.visit(child, depth, ply, alpha, beta) {
                    Visit::Score(score) => score,
                    Visit::Frame(child) => {
                        self.stack.push(child);
                        continue;
                    }
                }
            } else {
                let done = self.stack.pop().expect("a frame");
                if self.stack.is_empty() {
                    return Some(done.best);
                }
                done.best
            };
            let frame = self.stack.last_mut().expect("a parent frame");
            if frame.take(score) {
                frame.next = frame.actions.len();
            }
        }
    }
}

impl<G: Evaluate> Thinker<G> for AlphaBeta<G> {
    fn step(&mut self, budget: u64) -> Option<G::Action> {
        if let Some(action) = &self.decided {
            return Some(action.clone());
        }
        let stop_at = self.nodes.saturating_add(budget);
        loop {
            if !self.stack.is_empty() {
                let score = self.search_on(stop_at)?;
                self.alpha = self.alpha.max(score);
                self.current.push(score);
            }
            let out_of_nodes = self.nodes >= self.strength.node_limit;
            if self.current.len() == self.ranked.len() || (out_of_nodes && self.depth > 1) {
                if self.current.len() == self.ranked.len() {
                    self.finish_iteration();
                } else {
                    // Cut short: the searched actions (the previous best among them) keep their
                    // new scores, the rest keep the last full iteration's order below them.
                    // With nothing searched yet at this depth the last full iteration stands.
                    let searched = self.current.len();
                    if let Some(floor) = self.current.iter().copied().min() {
                        for (i, score) in self.current.drain(..).enumerate() {
                            self.ranked[i].1 = score;
                        }
                        for entry in &mut self.ranked[searched..] {
                            entry.1 = entry.1.min(floor - 1);
                        }
                    }
                }
                if self.depth > self.strength.max_depth || self.nodes >= self.strength.node_limit {
                    let action = self.decide();
                    self.decided = Some(action.clone());
                    return Some(action);
                }
            }
            if self.nodes >= stop_at {
                return None;
            }
            let index = self.current.len();
            let mut child = self.root.clone();
            child.play(&self.ranked[index].0);
            // Ties with the best so far stay visible for the random choice among equals; with
            // noise every root score must be exact, so the window stays fully open.
            let alpha = if self.strength.noise > 0 { -WIN * 2 } else { self.alpha - 1 };
            match self.visit(child, self.depth - 1, 1, alpha, WIN * 2) {
                Visit::Score(score) => {
                    self.alpha = self.alpha.max(score);
                    self.current.push(score);
                }
                Visit::Frame(frame) => self.stack.push(frame),
            }
        }
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}
