//! A dice set's plan: the set's plays ranked by the static estimate, the best few looked at ahead,
//! a node at a time; the last plan kept per thread so asking again costs nothing.

use super::lookahead::{Lookahead, sort_best_first};
use super::playout::{Situation, noise_of, unit_of};
use super::work::Search;
use super::{Strength, strength, win_chance};
use crate::robot::{RobotLevel, stable_hash};
use crate::rules::nard::{CheckerMove, Nard, Play};
use std::cell::RefCell;

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
    pub(super) situation: Option<Situation>,
    pub(super) done: Vec<CheckerMove>,
    /// The set as it stands now, for planning afresh.
    pub(super) current: Option<Situation>,
    pub(super) salt: u8,
    pub(super) tag: u64,
    pub(super) search: Search,
    pub(super) ranking: Ranking,
    pub(super) ranked: Vec<(Play, f64)>,
    /// Candidates whose lookahead is done.
    pub(super) looked: usize,
    /// The best candidates to look at two rolls deep (once the lookahead is done), and how many
    /// of them are done.
    pub(super) deep: Option<usize>,
    pub(super) deep_looked: usize,
    /// The look ahead under way, for candidate `looked` (or `deep_looked` once `deep` is known).
    pub(super) ahead: Option<Lookahead>,
    pub(super) decided: Option<Vec<CheckerMove>>,
}

/// How far the static ranking of the set's plays has come.
pub(super) enum Ranking {
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
            search: Search::new(*strength),
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
    pub(super) fn begin(&mut self, s: Situation, done: Vec<CheckerMove>) {
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
    pub(super) fn finish(&mut self, moves: Vec<CheckerMove>) {
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
pub(super) fn strength_tag(salt: u8, strength: &Strength) -> u64 {
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

pub(super) fn plan_key(s: &Situation, tag: u64) -> u64 {
    stable_hash(&(s, tag))
}

thread_local! {
    /// The last plan: for each position along it, the move to make there.
    static LAST_PLAN: RefCell<Vec<(u64, CheckerMove)>> = const { RefCell::new(Vec::new()) };
}

pub(super) fn cached_move(key: u64) -> Option<CheckerMove> {
    LAST_PLAN.with(|plan| plan.borrow().iter().find(|(k, _)| *k == key).map(|(_, m)| *m))
}

pub(super) fn remember_plan(s: &Situation, tag: u64, moves: &[CheckerMove]) {
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
