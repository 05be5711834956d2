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

mod bearoff;
mod coach;
mod cube;
mod estimate;
mod lookahead;
mod planner;
mod playout;
mod work;

pub use cube::{takes_double, wants_to_double};
pub use estimate::win_chance;
pub use planner::{Planner, plan, plan_with};

use super::{RobotLevel, RobotPlayer, Thinker, pick_best_by};
use crate::chance::SeededRng;
use crate::rules::Game;
use crate::rules::nard::{Nard, NardAction, Phase, Play};

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
            let (ours, library) = (super::estimate::exp(x), x.exp());
            assert!(
                (ours - library).abs() <= library * 4.0 * f64::EPSILON,
                "e^{x}: {ours} against {library}"
            );
        }
        assert_eq!(super::estimate::exp(0.0), 1.0);
        assert_eq!(super::estimate::exp(-800.0), 0.0);
    }
}
