//! The Halma Robot for two to four seats.
//!
//! One search serves every seating: alpha-beta where the seats of the Robot's team maximise and
//! every other seat minimises its score. With two seats that is plain alpha-beta; with partners
//! it is exact (two teams, one score); with three seats it is the "paranoid" assumption that the
//! others play against it, chosen over max-n because it keeps alpha-beta's pruning and so sees
//! its own jump ladders deeper in the same number of positions, which is what a race needs.
//!
//! The search works on a bare copy of the board (four bitboards), moving pieces in and out
//! instead of copying the game; repetition is judged at the root only, on the real game.

use super::search::WIN;
use super::{Evaluate, RobotLevel, RobotPlayer, SeededRng, Thinker, pick_best_by, rng};
use crate::rules::grid16::{self, Grid16, NEXT, NONE};
use crate::rules::halma::{Halma, HalmaAction, Mode, moves};
use crate::rules::{Game, Seat, SeatSet, Winner};
use rand::Rng;

/// How hard one Robot level thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Deepest full search, in plies (one ply is one seat's move).
    pub max_depth: u32,
    /// Positions the whole decision may visit; the iteration under way is cut short after it.
    pub node_limit: u64,
    /// Moves looked at below the root for the Robot's team, the most forward first.
    pub width: usize,
    /// Moves looked at for the other seats, the most forward first.
    pub other_width: usize,
    /// Random amount (±) added to each root score: makes weaker levels err.
    pub noise: i32,
    /// Chance of playing a random move instead of thinking.
    pub blunder: f64,
}

pub fn strength(level: RobotLevel, seats: usize) -> Strength {
    let many = seats > 2;
    match level {
        RobotLevel::One => {
            Strength { max_depth: 1, node_limit: 2_000, width: 8, other_width: 4, noise: 14, blunder: 0.3 }
        }
        RobotLevel::Two => {
            Strength { max_depth: 2, node_limit: 6_000, width: 10, other_width: 4, noise: 3, blunder: 0.03 }
        }
        RobotLevel::Three if many => {
            Strength { max_depth: 8, node_limit: 12_000, width: 5, other_width: 2, noise: 0, blunder: 0.0 }
        }
        RobotLevel::Three => {
            Strength { max_depth: 5, node_limit: 12_000, width: 10, other_width: 1, noise: 0, blunder: 0.0 }
        }
    }
}

/// What one piece of another army in the team's goal costs: about ten squares of progress.
const BLOCKER: i32 = 20;

/// A bare position for the search.
#[derive(Clone, Copy)]
struct Board {
    armies: [Grid16; 4],
    occupied: Grid16,
    finished: u8,
}

/// What the search needs of the game's table, copied once per decision.
struct Facts {
    seats: usize,
    mode: Mode,
    partner: [Option<Seat>; 4],
    goals: [Grid16; 4],
    camps: [Grid16; 4],
    dist: [[u8; 256]; 4],
    /// Penalty per piece still in its own camp (grows as the game goes on).
    camp_weight: i32,
}

impl Facts {
    fn of(game: &Halma) -> Facts {
        let mut facts = Facts {
            seats: game.seat_count(),
            mode: game.mode(),
            partner: [None; 4],
            goals: [Grid16::EMPTY; 4],
            camps: [Grid16::EMPTY; 4],
            dist: [[0; 256]; 4],
            camp_weight: 0,
        };
        for seat in game.seats() {
            let i = seat.index();
            facts.partner[i] = game.partner(seat);
            facts.goals[i] = game.goal_grid(seat);
            facts.camps[i] = game.camp_grid(seat);
            facts.dist[i] = *game.distances(seat);
        }
        let rounds = (game.plies() as usize / facts.seats) as i32;
        facts.camp_weight = (rounds - 12).clamp(0, 40);
        facts
    }

    fn board(game: &Halma) -> Board {
        let mut board = Board { armies: [Grid16::EMPTY; 4], occupied: game.occupied(), finished: 0 };
        for seat in game.seats() {
            board.armies[seat.index()] = game.army(seat);
            if game.has_finished(seat) {
                board.finished |= 1 << seat.0;
            }
        }
        board
    }

    fn team(&self, seat: Seat) -> SeatSet {
        match self.partner[seat.index()] {
            Some(p) => SeatSet::of(&[seat, p]),
            None => SeatSet::of(&[seat]),
        }
    }

    fn army_of(&self, board: &Board, seat: Seat) -> usize {
        match (self.mode, self.partner[seat.index()]) {
            (Mode::BothArmies, Some(p)) if board.finished & (1 << seat.0) != 0 => p.index(),
            _ => seat.index(),
        }
    }

    /// The winners once `army` has moved, if the game is over.
    fn winner_after(&self, board: &mut Board, army: usize) -> Option<SeatSet> {
        if !board.armies[army].covers(self.goals[army]) {
            return None;
        }
        board.finished |= 1 << army;
        let team = self.team(Seat(army as u8));
        match self.mode {
            Mode::Individual | Mode::OneArmy => Some(team),
            Mode::BothArmies => team.seats().all(|s| board.finished & (1 << s.0) != 0).then_some(team),
        }
    }

    /// How well an army is doing, higher is better: how near its pieces are to the goal, the last
    /// piece most, pieces left at home late, and the forward jumps open to it.
    fn army_value(&self, board: &Board, army: usize) -> i32 {
        let dist = &self.dist[army];
        let pieces = board.armies[army];
        let (mut sum, mut worst, mut ladders) = (0i32, 0i32, 0i32);
        for p in pieces.indices() {
            let here = dist[p as usize] as i32;
            sum += here;
            worst = worst.max(here);
            for (d, &over) in NEXT[p as usize].iter().enumerate() {
                if over == NONE || !board.occupied.contains(over) {
                    continue;
                }
                let land = NEXT[over as usize][d];
                if land != NONE && !board.occupied.contains(land) && (dist[land as usize] as i32) < here - 2 {
                    ladders += 1;
                }
            }
        }
        let at_home = (pieces & self.camps[army]).count() as i32;
        -2 * sum - worst - at_home * self.camp_weight + ladders.min(12) / 2
    }

    /// How far `me`'s team leads the best other team in the race, counting every team alike.
    fn race(&self, board: &Board, me: Seat) -> i32 {
        let mine = self.team(me);
        let own = self.team_value(board, me);
        let best_other =
            Seat::all(self.seats).filter(|s| !mine.contains(*s)).map(|s| self.team_value(board, s)).max();
        own - best_other.unwrap_or(own)
    }

    fn team_value(&self, board: &Board, seat: Seat) -> i32 {
        match self.partner[seat.index()] {
            None => self.army_value(board, seat.index()),
            Some(p) => {
                let (a, b) = (self.army_value(board, seat.index()), self.army_value(board, p.index()));
                match self.mode {
                    Mode::OneArmy => (3 * a.max(b) + a.min(b)) / 2,
                    _ => a + b,
                }
            }
        }
    }

    /// The position's worth for `me`'s team against the best other team.
    fn evaluate(&self, board: &Board, me: Seat) -> i32 {
        let team_value = |seat: Seat| self.team_value(board, seat);
        let mine = self.team(me);
        // Pieces of others still in the team's goals keep it from finishing: it wants them out.
        let blockers: i32 = mine
            .seats()
            .map(|s| (board.occupied & !board.armies[s.index()] & self.goals[s.index()]).count() as i32)
            .sum();
        let own = team_value(me) - blockers * BLOCKER;
        let best_other =
            Seat::all(self.seats).filter(|s| !mine.contains(*s)).map(team_value).max().unwrap_or(0);
        // Half the others' worth: in a race its own progress matters more than hindering theirs.
        own - best_other / 2
    }
}

impl Evaluate for Halma {
    fn evaluate(&self, seat: Seat) -> i32 {
        Facts::of(self).evaluate(&Facts::board(self), seat)
    }
}

pub struct HalmaThinker {
    root: Halma,
    me: Seat,
    facts: Facts,
    strength: Strength,
    rng: SeededRng,
    ranked: Vec<(HalmaAction, i32)>,
    current: Vec<i32>,
    depth: u32,
    alpha: i32,
    nodes: u64,
    decided: Option<HalmaAction>,
    buffers: Vec<Vec<(i32, u8, u8)>>,
}

impl HalmaThinker {
    pub fn new(root: &Halma, strength: Strength, seed: u64) -> HalmaThinker {
        let mut rng = rng(seed);
        let me = root.to_move().expect("the Robot only thinks when it is to move");
        let facts = Facts::of(root);
        let mut decided = None;
        let mut ranked = Vec::new();
        if root.vote().is_some() {
            // Accept a draw when clearly behind in the race, refuse it otherwise.
            let behind = facts.race(&Facts::board(root), me) < -40;
            decided = Some(HalmaAction::Vote(behind));
        } else {
            let dist = root.distances(root.army_of(me));
            let mut moves: Vec<(i32, HalmaAction)> = root
                .moves()
                .into_iter()
                .map(|(from, to)| {
                    let gain =
                        dist[grid16::index(from) as usize] as i32 - dist[grid16::index(to) as usize] as i32;
                    (gain, HalmaAction::Move { from, to })
                })
                .collect();
            moves.sort_by_key(|(gain, _)| -gain);
            ranked = moves.into_iter().map(|(_, a)| (a, 0)).collect::<Vec<_>>();
            if ranked.len() == 1 {
                decided = Some(ranked[0].0);
            } else if !ranked.is_empty() && rng.random_bool(strength.blunder) {
                decided = Some(ranked[rng.random_range(0..ranked.len())].0);
            } else if ranked.is_empty() {
                decided = root.legal_actions().first().copied();
            }
        }
        HalmaThinker {
            root: root.clone(),
            me,
            facts,
            strength,
            rng,
            ranked,
            current: Vec::new(),
            depth: 1,
            alpha: -WIN * 2,
            nodes: 0,
            decided,
            buffers: Vec::new(),
        }
    }

    fn finish_iteration(&mut self) {
        // When every move loses within the horizon, the deeper look tells nothing to choose by:
        // the last iteration's order (by the evaluation) stands, and the search stops.
        if self.depth > 1 && self.current.iter().all(|&s| s <= -WIN / 2) {
            self.current.clear();
            self.depth = u32::MAX - 1;
            return;
        }
        let mut scored: Vec<(HalmaAction, i32)> =
            self.ranked.drain(..).zip(self.current.drain(..)).map(|((a, _), s)| (a, s)).collect();
        scored.sort_by_key(|(_, s)| -s);
        self.ranked = scored;
        self.depth += 1;
        self.alpha = -WIN * 2;
    }

    fn decide(&mut self) -> HalmaAction {
        let noise = self.strength.noise;
        let noisy: Vec<i32> = self
            .ranked
            .iter()
            .map(|(_, s)| if noise > 0 { s + self.rng.random_range(-noise..=noise) } else { *s })
            .collect();
        let best = *noisy.iter().max().expect("at least one action");
        let candidates: Vec<usize> = (0..noisy.len()).filter(|&i| noisy[i] == best).collect();
        let pick = candidates[self.rng.random_range(0..candidates.len())];
        self.ranked[pick].0
    }

    fn score_of(&self, winners: SeatSet, ply: i32) -> i32 {
        if winners.contains(self.me) { WIN - ply } else { -WIN + ply }
    }

    /// The moves of `army`, most forward first, at most `width` of them (all with `width` 0).
    fn moves_into(&self, board: &Board, army: usize, width: usize, out: &mut Vec<(i32, u8, u8)>) {
        out.clear();
        let dist = &self.facts.dist[army];
        for from in board.armies[army].indices() {
            let start = dist[from as usize] as i32;
            for to in moves::destinations(board.occupied, from).indices() {
                out.push((start - dist[to as usize] as i32, from, to));
            }
        }
        if width > 0 && out.len() > width {
            out.select_nth_unstable_by_key(width - 1, |m| -m.0);
            out.truncate(width);
        }
        out.sort_unstable_by_key(|m| -m.0);
    }

    fn search(
        &mut self,
        board: &mut Board,
        seat: Seat,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return self.facts.evaluate(board, self.me);
        }
        let n = self.facts.seats;
        let mut buffer = self.buffers.pop().unwrap_or_default();
        let team = self.facts.team(self.me);
        let width = |s: Seat| if team.contains(s) { self.strength.width } else { self.strength.other_width };
        // The seat to move, after any seats that must pass.
        let mut mover = seat;
        let mut army = self.facts.army_of(board, mover);
        self.moves_into(board, army, width(mover), &mut buffer);
        let mut tries = 1;
        while buffer.is_empty() && tries < n {
            mover = mover.next(n);
            army = self.facts.army_of(board, mover);
            self.moves_into(board, army, width(mover), &mut buffer);
            tries += 1;
        }
        if buffer.is_empty() {
            self.buffers.push(buffer);
            return 0;
        }
        let maximizing = team.contains(mover);
        let mut best = if maximizing { -WIN * 2 } else { WIN * 2 };
        for &(_, from, to) in buffer.iter() {
            let saved = *board;
            let change = Grid16::bit(from) | Grid16::bit(to);
            board.armies[army] ^= change;
            board.occupied ^= change;
            let score = match self.facts.winner_after(board, army) {
                Some(winners) => {
                    self.nodes += 1;
                    self.score_of(winners, ply + 1)
                }
                None => self.search(board, mover.next(n), depth - 1, ply + 1, alpha, beta),
            };
            *board = saved;
            if maximizing {
                best = best.max(score);
                alpha = alpha.max(score);
            } else {
                best = best.min(score);
                beta = beta.min(score);
            }
            if alpha >= beta {
                break;
            }
        }
        self.buffers.push(buffer);
        best
    }

    /// The score of one root move at the current depth.
    fn search_root(&mut self, action: HalmaAction, alpha: i32) -> i32 {
        let mut child = self.root.clone();
        child.play(&action);
        self.nodes += 1;
        if let Some(outcome) = child.outcome() {
            return match outcome.winner {
                Winner::Draw => 0,
                winner if winner.includes(self.me) => WIN,
                _ => -WIN,
            };
        }
        let next = child.to_move().expect("the game goes on");
        let mut board = Facts::board(&child);
        self.search(&mut board, next, self.depth - 1, 1, alpha, WIN * 2)
    }
}

impl Thinker<Halma> for HalmaThinker {
    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn step(&mut self, budget: u64) -> Option<HalmaAction> {
        if let Some(action) = self.decided {
            return Some(action);
        }
        let stop_at = self.nodes.saturating_add(budget);
        loop {
            let out_of_nodes = self.nodes >= self.strength.node_limit;
            if self.current.len() == self.ranked.len() || (out_of_nodes && self.depth > 1) {
                if self.current.len() == self.ranked.len() {
                    self.finish_iteration();
                } else {
                    // Cut short: the searched moves keep their new scores, the rest rank below them.
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
                    self.decided = Some(action);
                    return Some(action);
                }
            }
            if self.nodes >= stop_at {
                return None;
            }
            let index = self.current.len();
            let alpha = if self.strength.noise > 0 { -WIN * 2 } else { self.alpha - 1 };
            let score = self.search_root(self.ranked[index].0, alpha);
            self.alpha = self.alpha.max(score);
            self.current.push(score);
        }
    }
}

impl RobotPlayer for Halma {
    fn thinker(&self, level: RobotLevel, seed: u64) -> Box<dyn Thinker<Self>> {
        Box::new(HalmaThinker::new(self, strength(level, self.seat_count()), seed))
    }
}

/// The benchmark's greedy player: the move that brings its pieces nearest their goal in total
/// (the most forward one), ties at random. It never offers a draw and refuses every offer.
pub fn greedy(game: &Halma, rng: &mut SeededRng) -> Option<HalmaAction> {
    let seat = game.to_move()?;
    if game.vote().is_some() {
        return Some(HalmaAction::Vote(false));
    }
    let dist = game.distances(game.army_of(seat));
    let gain = |(from, to): &(crate::rules::board::Square, crate::rules::board::Square)| {
        dist[grid16::index(*to) as usize] as i32 - dist[grid16::index(*from) as usize] as i32
    };
    pick_best_by(game.moves(), gain, rng).map(|(from, to)| HalmaAction::Move { from, to })
}
