//! Alpha-beta search with iterative deepening for games without dice. Its call stack is kept as
//! data, so it can stop after any position, at any depth, and go on in the next frame.
//!
//! `Searcher` does the work every such Robot shares (the root's actions ranked by the last
//! iteration, deepening, an iteration cut short when the nodes run out, the choice among the
//! best with each level's noise); a `Tree` says what a position is and how to move in it:
//! `GameTree` plays on the game itself, a game may bring a faster one of its own (Halma does).

use super::{Evaluate, Thinker};
use crate::chance::SeededRng;
use crate::chance::rng;
use crate::rules::{Game, Seat, Winner};
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

impl Strength {
    pub const fn new(max_depth: u32, node_limit: u64, noise: i32, blunder: f64) -> Strength {
        Strength { max_depth, node_limit, noise, blunder }
    }
}

/// What visiting a position gave: its score at once, or its moves to search (left in the list
/// `Tree::visit` was given, or still to be listed by `Tree::list_more`), the Robot's side
/// choosing among them (`maximizing`) or not.
pub enum Node {
    Score(i32),
    Moves { maximizing: bool, listed: bool },
}

/// The positions a `Searcher` walks through, seen from the seat it thinks for.
pub trait Tree {
    /// An action at the root: what the Robot finally plays.
    type Action: Clone;
    /// A position below the root.
    type Position;
    /// A move from a position below the root.
    type Move;
    /// Nodes counted for making a root action's position, besides visiting it.
    const ROOT_CHILD_NODES: u64 = 0;
    /// When every root action loses within the horizon, a deeper look tells nothing to choose
    /// by: with this set, the last iteration's order stands and the search stops.
    const STOP_WHEN_ALL_LOST: bool = false;

    /// The position after a root action, or its score at once.
    fn root_child(&mut self, action: &Self::Action) -> Result<Self::Position, i32>;
    /// Visits a position (one node) `depth` plies above the horizon and `ply` below the root:
    /// its score, or its moves, pushed onto `moves` (empty when called) in the order to search.
    fn visit(
        &mut self,
        position: &mut Self::Position,
        depth: u32,
        ply: i32,
        moves: &mut Vec<Self::Move>,
    ) -> Node;
    /// Lists more of the moves of a position whose visit left them unlisted: one node's work.
    /// True once the list is whole.
    fn list_more(&mut self, _position: &mut Self::Position, _moves: &mut Vec<Self::Move>) -> bool {
        true
    }
    /// The position after a move.
    fn child(&self, position: &Self::Position, mv: &Self::Move) -> Self::Position;
}

/// A Robot deciding by alpha-beta with iterative deepening on a `Tree`, a node at a time.
pub struct Searcher<T: Tree> {
    tree: T,
    strength: Strength,
    rng: SeededRng,
    /// Root actions with their score from the last finished iteration (best first).
    ranked: Vec<(T::Action, i32)>,
    /// Scores of the iteration under way, in `ranked` order.
    current: Vec<i32>,
    depth: u32,
    alpha: i32,
    nodes: u64,
    /// The search below the root action under way: one frame per position whose children are
    /// being searched, deepest last. Empty between root actions.
    stack: Vec<Frame<T>>,
    /// Move lists of finished frames, kept for the next ones.
    spare: Vec<Vec<T::Move>>,
    decided: Option<T::Action>,
    /// Every root action's score is exact (the coach compares them), not only the best one's.
    exact: bool,
}

/// A position in the middle of its search: what the recursive search would keep on its call stack.
struct Frame<T: Tree> {
    position: T::Position,
    moves: Vec<T::Move>,
    /// The next move to search.
    next: usize,
    /// The moves are still being listed.
    listing: bool,
    depth: u32,
    ply: i32,
    alpha: i32,
    beta: i32,
    best: i32,
    maximizing: bool,
}

impl<T: Tree> Frame<T> {
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

impl<T: Tree> Searcher<T> {
    /// Starts a decision among `actions` (in the order to search them first). A single action,
    /// or a blunder drawn by the level's chance, is decided at once.
    pub fn new(tree: T, actions: Vec<T::Action>, strength: Strength, seed: u64) -> Searcher<T> {
        let mut rng = rng(seed);
        let decided = if actions.len() == 1 {
            Some(actions[0].clone())
        } else if !actions.is_empty() && rng.random_bool(strength.blunder) {
            Some(actions[rng.random_range(0..actions.len())].clone())
        } else {
            None
        };
        Searcher {
            tree,
            strength,
            rng,
            ranked: actions.into_iter().map(|a| (a, 0)).collect(),
            current: Vec::new(),
            depth: 1,
            alpha: -WIN * 2,
            nodes: 0,
            stack: Vec::new(),
            spare: Vec::new(),
            decided,
            exact: false,
        }
    }

    /// Scores every root action exactly (the root's window stays open) and keeps only whole
    /// iterations' scores, so `ranked` can compare any action with the best: the coach's search.
    pub fn exact(mut self) -> Searcher<T> {
        self.exact = true;
        self
    }

    /// Root actions with their scores from the last whole iteration, best first (for an
    /// `exact` search; empty when the action was settled without searching).
    pub fn ranked(&self) -> &[(T::Action, i32)] {
        if self.decided.is_some() && self.depth == 1 { &[] } else { &self.ranked }
    }

    /// Decides without searching (an action the tree's game settles otherwise, such as a vote).
    pub fn decided(mut self, action: T::Action) -> Searcher<T> {
        self.decided = Some(action);
        self
    }

    fn finish_iteration(&mut self) {
        if T::STOP_WHEN_ALL_LOST && self.depth > 1 && self.current.iter().all(|&s| s <= -WIN / 2) {
            self.current.clear();
            self.depth = u32::MAX - 1;
            return;
        }
        let mut scored: Vec<(T::Action, i32)> =
            self.ranked.drain(..).zip(self.current.drain(..)).map(|((a, _), s)| (a, s)).collect();
        scored.sort_by_key(|(_, s)| -s);
        self.ranked = scored;
        self.depth += 1;
        self.alpha = -WIN * 2;
    }

    /// Picks among the best root actions, after each level's noise.
    fn decide(&mut self) -> T::Action {
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

    /// Visits one position: its score at once (`Some`), or a frame pushed whose children are to
    /// be searched.
    fn visit(
        &mut self,
        mut position: T::Position,
        depth: u32,
        ply: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        self.nodes += 1;
        let mut moves = self.spare.pop().unwrap_or_default();
        moves.clear();
        match self.tree.visit(&mut position, depth, ply, &mut moves) {
            Node::Score(score) => {
                self.spare.push(moves);
                Some(score)
            }
            Node::Moves { maximizing, listed } => {
                let best = if maximizing { -WIN * 2 } else { WIN * 2 };
                let listing = !listed;
                let frame =
                    Frame { position, moves, next: 0, listing, depth, ply, alpha, beta, best, maximizing };
                self.stack.push(frame);
                None
            }
        }
    }

    /// Searches on below the root action under way, a position at a time, until it is scored
    /// (`Some`) or `stop_at` nodes are reached (`None`: go on from here next time). The same
    /// alpha-beta as a recursive search, with its call stack kept in `stack`.
    fn search_on(&mut self, stop_at: u64) -> Option<i32> {
        loop {
            let frame = self.stack.last_mut().expect("a search under way");
            if frame.listing {
                if self.nodes >= stop_at {
                    return None;
                }
                self.nodes += 1;
                frame.listing = !self.tree.list_more(&mut frame.position, &mut frame.moves);
                continue;
            }
            let score = if frame.next < frame.moves.len() {
                if self.nodes >= stop_at {
                    return None;
                }
                let child = self.tree.child(&frame.position, &frame.moves[frame.next]);
                frame.next += 1;
                let (depth, ply, alpha, beta) = (frame.depth - 1, frame.ply + 1, frame.alpha, frame.beta);
                match self.visit(child, depth, ply, alpha, beta) {
                    Some(score) => score,
                    None => continue,
                }
            } else {
                let done = self.stack.pop().expect("a frame");
                self.spare.push(done.moves);
                if self.stack.is_empty() {
                    return Some(done.best);
                }
                done.best
            };
            let frame = self.stack.last_mut().expect("a parent frame");
            if frame.take(score) {
                frame.next = frame.moves.len();
            }
        }
    }

    /// Starts the search of the next root action: its score if known at once.
    fn start_root_action(&mut self) -> Option<i32> {
        let index = self.current.len();
        self.nodes += T::ROOT_CHILD_NODES;
        let position = match self.tree.root_child(&self.ranked[index].0) {
            Ok(position) => position,
            Err(score) => return Some(score),
        };
        // Ties with the best so far stay visible for the random choice among equals; with
        // noise every root score must be exact, so the window stays fully open.
        let alpha = if self.strength.noise > 0 || self.exact { -WIN * 2 } else { self.alpha - 1 };
        self.visit(position, self.depth - 1, 1, alpha, WIN * 2)
    }

    /// Thinks for about `budget` more nodes; the chosen action once decided.
    pub fn step(&mut self, budget: u64) -> Option<T::Action> {
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
                } else if self.exact {
                    self.current.clear();
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
            if let Some(score) = self.start_root_action() {
                self.alpha = self.alpha.max(score);
                self.current.push(score);
            }
        }
    }

    /// Nodes spent on this decision so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }
}

impl<G: Game, T: Tree<Action = G::Action> + Send + Sync> Thinker<G> for Searcher<T>
where
    T::Action: Send + Sync,
    T::Position: Send + Sync,
    T::Move: Send + Sync,
{
    fn step(&mut self, budget: u64) -> Option<G::Action> {
        Searcher::step(self, budget)
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }
}

/// The tree of a game played on copies of itself, scored by its `Evaluate`.
pub struct GameTree<G: Evaluate> {
    root: G,
    me: Seat,
}

impl<G: Evaluate> Tree for GameTree<G> {
    type Action = G::Action;
    type Position = G;
    type Move = G::Action;

    fn root_child(&mut self, action: &G::Action) -> Result<G, i32> {
        let mut child = self.root.clone();
        child.play(action);
        Ok(child)
    }

    /// A finished game or the search's horizon scores at once; otherwise its actions are listed.
    fn visit(&mut self, game: &mut G, depth: u32, ply: i32, moves: &mut Vec<G::Action>) -> Node {
        if let Some(outcome) = game.outcome() {
            return Node::Score(match outcome.winner {
                Winner::Draw => 0,
                winner if winner.includes(self.me) => WIN - ply,
                _ => -WIN + ply,
            });
        }
        if depth == 0 {
            return Node::Score(game.evaluate(self.me));
        }
        moves.extend(game.legal_actions());
        Node::Moves { maximizing: game.to_move() == Some(self.me), listed: true }
    }

    fn child(&self, game: &G, action: &G::Action) -> G {
        let mut child = game.clone();
        child.play(action);
        child
    }
}

/// Plain alpha-beta on a game's own positions.
pub type AlphaBeta<G> = Searcher<GameTree<G>>;

impl<G: Evaluate> Searcher<GameTree<G>> {
    pub fn for_game(root: &G, strength: Strength, seed: u64) -> AlphaBeta<G> {
        let me = root.to_move().expect("the Robot only thinks when it is to move");
        Searcher::new(GameTree { root: root.clone(), me }, root.legal_actions(), strength, seed)
    }
}
