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

use super::review::{CoachData, Coached, Rater, RobotChecked, SearchRater};
use super::search::{self, Node, Searcher, Tree, WIN};
use super::slips::{SlipKind, TeacherSlips};
use super::{Evaluate, RobotLevel, RobotPlayer, Thinker, pick_best_by};
use crate::chance::SeededRng;
use crate::rules::grid16::{self, Grid16, JUMPS};
use crate::rules::halma::{Halma, HalmaAction, Mode, moves};
use crate::rules::{Game, Seat, SeatSet, Winner};

/// How hard one Robot level thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// Depth (one ply is one seat's move), nodes, noise and blunders, as for every search.
    pub search: search::Strength,
    /// Moves looked at below the root for the Robot's team, the most forward first.
    pub width: usize,
    /// Moves looked at for the other seats, the most forward first.
    pub other_width: usize,
}

pub fn strength(level: RobotLevel, seats: usize) -> Strength {
    let many = seats > 2;
    let (max_depth, node_limit, width, other_width, noise, blunder) = match level {
        RobotLevel::One => (1, 2_000, 8, 4, 14, 0.3),
        RobotLevel::Two => (2, 18_000, 10, 4, 3, 0.03),
        RobotLevel::Three if many => (8, 70_000, 5, 2, 0, 0.0),
        RobotLevel::Three => (5, 100_000, 10, 1, 0, 0.0),
    };
    Strength { search: search::Strength { max_depth, node_limit, noise, blunder }, width, other_width }
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
            for (over, land) in JUMPS[p as usize].iter() {
                if board.occupied.contains(over)
                    && !board.occupied.contains(land)
                    && (dist[land as usize] as i32) < here - 2
                {
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

/// The Halma search's positions: the bare board, with whose turn it is.
pub struct HalmaTree {
    root: Halma,
    me: Seat,
    facts: Facts,
    strength: Strength,
}

/// A position below the root: the board and the seat whose turn it is. Visiting it finds who
/// moves (after any seats that must pass) and which army.
pub struct Position {
    board: Board,
    seat: Seat,
    /// The army that has just moved, if it may have filled its goal.
    moved: Option<usize>,
    mover: Seat,
    army: usize,
    /// The pieces whose moves are still to be listed.
    pending: Grid16,
}

impl HalmaTree {
    fn score_of(&self, winners: SeatSet, ply: i32) -> i32 {
        if winners.contains(self.me) { WIN - ply } else { -WIN + ply }
    }

    /// Lists the moves of the next piece of `position.pending`; once none is left, keeps the
    /// `width` most forward (all with `width` 0), most forward first. True once done.
    fn list_piece(&self, position: &mut Position, out: &mut Vec<(i32, u8, u8)>) -> bool {
        let (board, army) = (&position.board, position.army);
        let dist = &self.facts.dist[army];
        if let Some(from) = position.pending.indices().next() {
            position.pending.remove(from);
            let start = dist[from as usize] as i32;
            for to in moves::destinations(board.occupied, from).indices() {
                out.push((start - dist[to as usize] as i32, from, to));
            }
            if !position.pending.is_empty() {
                return false;
            }
        }
        let team = self.facts.team(self.me);
        let width =
            if team.contains(position.mover) { self.strength.width } else { self.strength.other_width };
        if width > 0 && out.len() > width {
            out.select_nth_unstable_by_key(width - 1, forward_first);
            out.truncate(width);
        }
        out.sort_unstable_by_key(forward_first);
        true
    }
}

/// The order moves are looked at in: the most forward first, then by start and destination, so
/// that equal moves keep one order whatever the sort's algorithm (the desktop's and the browser's
/// standard libraries may differ).
fn forward_first(m: &(i32, u8, u8)) -> (i32, u8, u8) {
    (-m.0, m.1, m.2)
}

impl Tree for HalmaTree {
    type Action = HalmaAction;
    type Position = Position;
    type Move = (i32, u8, u8);
    /// A root move is played on the real game (repetition is judged there, the next seats'
    /// moves are listed to see who passes): that costs as much as some fifty nodes of the
    /// search, and is counted so, or one slice could play hundreds of them.
    const ROOT_CHILD_NODES: u64 = 50;
    const STOP_WHEN_ALL_LOST: bool = true;

    fn root_child(&mut self, action: &HalmaAction) -> Result<Position, i32> {
        let mut child = self.root.clone();
        child.play(action);
        if let Some(outcome) = child.outcome() {
            return Err(match outcome.winner {
                Winner::Draw => 0,
                winner if winner.includes(self.me) => WIN,
                _ => -WIN,
            });
        }
        let seat = child.to_move().expect("the game goes on");
        Ok(Position {
            board: Facts::board(&child),
            seat,
            moved: None,
            mover: seat,
            army: 0,
            pending: Grid16::EMPTY,
        })
    }

    fn visit(
        &mut self,
        position: &mut Position,
        depth: u32,
        ply: i32,
        _moves: &mut Vec<(i32, u8, u8)>,
    ) -> Node {
        if let Some(army) = position.moved
            && let Some(winners) = self.facts.winner_after(&mut position.board, army)
        {
            return Node::Score(self.score_of(winners, ply));
        }
        if depth == 0 {
            return Node::Score(self.facts.evaluate(&position.board, self.me));
        }
        // The seat to move, after any seats that must pass; its moves are listed a piece at a
        // time (`list_more`), so no node does more than one piece's work.
        let n = self.facts.seats;
        let board = &position.board;
        let can_move = |army: usize| board.armies[army].indices().any(|p| moves::can_move(board.occupied, p));
        let mut mover = position.seat;
        let mut army = self.facts.army_of(board, mover);
        let mut tries = 1;
        while !can_move(army) && tries < n {
            mover = mover.next(n);
            army = self.facts.army_of(board, mover);
            tries += 1;
        }
        if !can_move(army) {
            return Node::Score(0);
        }
        position.mover = mover;
        position.army = army;
        position.pending = position.board.armies[army];
        Node::Moves { maximizing: self.facts.team(self.me).contains(mover), listed: false }
    }

    fn list_more(&mut self, position: &mut Position, moves: &mut Vec<(i32, u8, u8)>) -> bool {
        self.list_piece(position, moves)
    }

    fn child(&self, position: &Position, &(_, from, to): &(i32, u8, u8)) -> Position {
        let mut board = position.board;
        let change = Grid16::bit(from) | Grid16::bit(to);
        board.armies[position.army] ^= change;
        board.occupied ^= change;
        let seat = position.mover.next(self.facts.seats);
        Position { board, seat, moved: Some(position.army), mover: seat, army: 0, pending: Grid16::EMPTY }
    }
}

/// The Halma Robot: alpha-beta on `HalmaTree`, a node at a time.
pub type HalmaThinker = Searcher<HalmaTree>;

/// Starts the Robot's decision for the seat to move.
pub fn thinker(root: &Halma, strength: Strength, seed: u64) -> HalmaThinker {
    let me = root.to_move().expect("the Robot only thinks when it is to move");
    let facts = Facts::of(root);
    let mut settled = None;
    let mut actions = Vec::new();
    if root.vote().is_some() {
        // Accept a draw when clearly behind in the race, refuse it otherwise.
        let behind = facts.race(&Facts::board(root), me) < -40;
        settled = Some(HalmaAction::Vote(behind));
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
        actions = moves.into_iter().map(|(_, a)| a).collect::<Vec<_>>();
        if actions.is_empty() {
            settled = root.legal_actions().first().copied();
        }
    }
    let tree = HalmaTree { root: root.clone(), me, facts, strength };
    let searcher = Searcher::new(tree, actions, strength.search, seed);
    match settled {
        Some(action) => searcher.decided(action),
        None => searcher,
    }
}

impl RobotPlayer for Halma {
    fn thinker(&self, level: RobotLevel, seed: u64) -> Box<dyn Thinker<Self>> {
        Box::new(thinker(self, strength(level, self.seat_count()), seed))
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

impl Coached for Halma {
    const REASONS: &'static [&'static str] = &["longer_chain", "further_forward", "went_back"];

    fn rated(&self, action: &HalmaAction) -> bool {
        matches!(action, HalmaAction::Move { .. })
    }

    fn rater(&self, played: &[HalmaAction], data: CoachData) -> Box<dyn Rater<Self>> {
        let searcher = thinker(self, strength(RobotLevel::Three, self.seat_count()), 0);
        RobotChecked::wrap(self, played, data, Box::new(SearchRater::new(searcher, played, data)))
    }

    /// The best move went further towards the goal: by a longer chain of hops, or a step.
    fn why(&self, played: &[HalmaAction], best: &[HalmaAction]) -> Option<&'static str> {
        let dist = self.distances(self.army_of(self.to_move()?));
        let gain = |actions: &[HalmaAction]| match actions.first() {
            Some(&HalmaAction::Move { from, to }) => {
                dist[grid16::index(from) as usize] as i32 - dist[grid16::index(to) as usize] as i32
            }
            _ => 0,
        };
        if gain(best) <= gain(played) {
            return None;
        }
        if gain(played) < 0 {
            return Some("went_back");
        }
        let hops = matches!(best.first(), Some(HalmaAction::Move { from, to })
            if from.file.abs_diff(to.file) > 1 || from.rank.abs_diff(to.rank) > 1);
        Some(if hops { "longer_chain" } else { "further_forward" })
    }

    /// Where the better move went from and to.
    fn why_args(
        &self,
        _why: &'static str,
        _played: &[HalmaAction],
        best: &[HalmaAction],
    ) -> Vec<(&'static str, String)> {
        match best.first() {
            Some(HalmaAction::Move { from, to }) => vec![("from", from.to_string()), ("to", to.to_string())],
            _ => Vec::new(),
        }
    }
}

/// How far a chain forward must take a piece for a teacher to point it out: four rows and four
/// files, in the goal distance's units (two per row or file).
const LONG_CHAIN: i32 = 16;

/// A step back, or a one-square step, while a chain of hops four rows and four files forward
/// was there.
impl TeacherSlips for Halma {
    const SLIPS: &'static [SlipKind<Self>] = &[
        SlipKind {
            name: "went_back",
            reason: "went_back",
            find: |game| beside_long_chain(game, |gain| gain < 0),
        },
        SlipKind {
            name: "short_step",
            reason: "longer_chain",
            find: |game| beside_long_chain(game, |gain| (1..=4).contains(&gain)),
        },
    ];
}

/// The move nearest to the goal among those whose gain `fits`, while a move forward by
/// `LONG_CHAIN` or more was there.
fn beside_long_chain(game: &Halma, fits: fn(i32) -> bool) -> Option<Vec<HalmaAction>> {
    let seat = game.to_move()?;
    if game.vote().is_some() {
        return None;
    }
    let dist = game.distances(game.army_of(seat));
    let gain = |(from, to): &(crate::rules::board::Square, crate::rules::board::Square)| {
        dist[grid16::index(*from) as usize] as i32 - dist[grid16::index(*to) as usize] as i32
    };
    let moves = game.moves();
    if moves.iter().map(gain).max()? < LONG_CHAIN {
        return None;
    }
    let (from, to) = moves.into_iter().filter(|m| fits(gain(m))).max_by_key(gain)?;
    Some(vec![HalmaAction::Move { from, to }])
}
