//! Halma on George Monks' 16×16 board with Parker's square-Halma rules (spec/halma.md), for two,
//! three or four seats. Seats are numbered in turn order from the a1 corner (a1, p1, p16, a16,
//! leaving out empty corners); a seat is named by its starting corner.
//!
//! "Army" below means the pieces that started in one seat's camp: army `i` belongs to seat `i`.
//! A seat moves its own army, except in the both-armies team game, where a seat whose army has
//! filled its goal moves its partner's army instead.

pub mod moves;
mod setup;
mod text;

pub use setup::{Corner, Mode, SeatSetup, Setup, camp_squares};

use super::board::{BoardShape, Square};
use super::grid16::{self, Grid16};
use super::{EndReason, Game, Outcome, RuleError, Seat, SeatSet, Winner};
use std::sync::Arc;

/// One action: a move (known by its start and its destination, whatever the chain), a draw
/// proposal, or a vote on the draw proposal that is open.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HalmaAction {
    Move {
        from: Square,
        to: Square,
    },
    ProposeDraw,
    /// `true` accepts the proposed draw.
    Vote(bool),
}

/// Why clearing the starting camp holds a piece back (`Halma::held_at_home`), for the screen to
/// tell a child.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum HeldAtHome {
    /// Every move it has would end inside its army's starting camp, where no move may end any
    /// more.
    WouldEndAtHome,
    /// Pieces of its army still in their starting camp can get out this move, and one of them
    /// must.
    OthersMustLeave,
}

impl HeldAtHome {
    pub fn key(self) -> &'static str {
        match self {
            HeldAtHome::WouldEndAtHome => "would_end_at_home",
            HeldAtHome::OthersMustLeave => "others_must_leave",
        }
    }
}

/// Clearing the starting camp as it stands for the seat to move, once it is in force.
#[derive(Clone, Copy, Debug)]
struct CampRule {
    /// The starting camp of the army the seat moves.
    camp: Grid16,
    /// A piece in that camp can get out this move, so one must.
    must_leave: bool,
}

/// A draw proposal being voted on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawVote {
    pub proposer: Seat,
    /// The seat whose vote is due; the seats between the proposer and it have accepted.
    pub voter: Seat,
}

/// What never changes during a game.
#[derive(Debug, PartialEq)]
struct Table {
    corners: Vec<Corner>,
    camps: Vec<Grid16>,
    goals: Vec<Grid16>,
    goal_corners: Vec<Corner>,
    /// Per army, per square: twice the steps (files plus ranks) to the goal's corner, plus one
    /// outside the goal. Lower is nearer.
    distance: Vec<[u8; 256]>,
    mode: Mode,
    partner: [Option<Seat>; 4],
    clear_camp_after: u32,
    setup: Setup,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Halma {
    table: Arc<Table>,
    armies: [Grid16; 4],
    occupied: Grid16,
    /// Whose turn it is (the proposer while a vote is open).
    turn: Seat,
    vote: Option<DrawVote>,
    /// The seat to move has proposed a draw this turn already.
    proposed: bool,
    /// Armies that have filled their goal.
    finished: u8,
    passed: Vec<Seat>,
    /// The position after each move (and at the start), with the seat to act next. The seats'
    /// move counts are not part of it.
    history: Vec<u64>,
    plies: u32,
    /// Moves each seat has made (votes and proposals are not moves), for clearing the camp.
    moves_made: [u32; 4],
    last_move: Option<(Square, Square)>,
    outcome: Option<Outcome>,
}

impl Halma {
    /// The game at its start: every seat's pieces on its camp.
    pub fn new(setup: &Setup) -> Halma {
        let mut seats = setup.seats.clone();
        seats.sort_by_key(|s| s.corner);
        let pieces: Vec<Vec<Square>> = seats.iter().map(|s| camp_squares(s.corner, &s.camp)).collect();
        let first = seats.iter().position(|s| s.corner == setup.first).unwrap_or(0);
        Halma::from_position(setup, &pieces, Seat(first as u8))
    }

    /// Any position of a seating: `pieces[i]` are the squares of seat `i`'s army (seats in turn
    /// order), `first` the seat to move (it passes if it cannot). No seat has moved yet. For tests
    /// and custom boards.
    pub fn from_position(setup: &Setup, pieces: &[Vec<Square>], first: Seat) -> Halma {
        Halma::from_position_with_moves(setup, pieces, first, &[])
    }

    /// The same, with the moves each seat has made so far (`moves_made[i]` for seat `i`, in turn
    /// order; seats left out have made none), which bring clearing the starting camp into force.
    pub fn from_position_with_moves(
        setup: &Setup,
        pieces: &[Vec<Square>],
        first: Seat,
        moves_made: &[u32],
    ) -> Halma {
        let mut seats = setup.seats.clone();
        seats.sort_by_key(|s| s.corner);
        assert!((2..=4).contains(&seats.len()), "Halma is played by 2 to 4 seats");
        let seat_of = |corner: Corner| seats.iter().position(|s| s.corner == corner).map(|i| Seat(i as u8));
        let mut partner = [None; 4];
        if setup.mode != Mode::Individual {
            for &(a, b) in &setup.partners {
                if let (Some(a), Some(b)) = (seat_of(a), seat_of(b)) {
                    partner[a.index()] = Some(b);
                    partner[b.index()] = Some(a);
                }
            }
        }
        let goals: Vec<Grid16> =
            seats.iter().map(|s| Grid16::of(camp_squares(s.goal_corner, &s.goal))).collect();
        let distance = seats
            .iter()
            .zip(&goals)
            .map(|(s, goal)| {
                let corner = s.goal_corner.corner_square();
                let mut table = [0u8; 256];
                for (i, d) in table.iter_mut().enumerate() {
                    let sq = grid16::square(i as u8);
                    let steps = sq.file.abs_diff(corner.file) + sq.rank.abs_diff(corner.rank);
                    *d = 2 * steps + u8::from(!goal.contains(i as u8));
                }
                table
            })
            .collect();
        let table = Table {
            corners: seats.iter().map(|s| s.corner).collect(),
            camps: seats.iter().map(|s| Grid16::of(camp_squares(s.corner, &s.camp))).collect(),
            goals,
            goal_corners: seats.iter().map(|s| s.goal_corner).collect(),
            distance,
            mode: setup.mode,
            partner,
            clear_camp_after: setup.clear_camp_after,
            setup: setup.clone(),
        };
        let mut armies = [Grid16::EMPTY; 4];
        for (army, squares) in armies.iter_mut().zip(pieces) {
            *army = Grid16::of(squares.iter().copied());
        }
        let occupied = armies.iter().fold(Grid16::EMPTY, |all, a| all | *a);
        let mut made = [0; 4];
        for (count, &given) in made.iter_mut().zip(moves_made) {
            *count = given;
        }
        let mut game = Halma {
            table: Arc::new(table),
            armies,
            occupied,
            turn: first,
            vote: None,
            proposed: false,
            finished: 0,
            passed: Vec::new(),
            history: Vec::new(),
            plies: 0,
            moves_made: made,
            last_move: None,
            outcome: None,
        };
        for army in 0..game.seat_count() {
            if game.armies[army].covers(game.table.goals[army]) {
                game.finished |= 1 << army;
            }
        }
        game.give_turn(first);
        if game.outcome.is_none() {
            game.history.push(game.key());
        }
        game
    }

    /// The seating this game was made from (for a restart or a new game).
    pub fn setup(&self) -> &Setup {
        &self.table.setup
    }

    pub fn mode(&self) -> Mode {
        self.table.mode
    }

    /// Every seat, in turn order.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        Seat::all(self.seat_count())
    }

    pub fn corner(&self, seat: Seat) -> Corner {
        self.table.corners[seat.index()]
    }

    /// The seat that started in `corner`, if any.
    pub fn seat_at(&self, corner: Corner) -> Option<Seat> {
        self.table.corners.iter().position(|&c| c == corner).map(|i| Seat(i as u8))
    }

    /// The squares of the seat's starting camp.
    pub fn camp(&self, seat: Seat) -> Vec<Square> {
        self.table.camps[seat.index()].squares().collect()
    }

    /// The squares of the seat's goal.
    pub fn goal(&self, seat: Seat) -> Vec<Square> {
        self.table.goals[seat.index()].squares().collect()
    }

    pub fn goal_corner(&self, seat: Seat) -> Corner {
        self.table.goal_corners[seat.index()]
    }

    pub fn camp_grid(&self, seat: Seat) -> Grid16 {
        self.table.camps[seat.index()]
    }

    pub fn goal_grid(&self, seat: Seat) -> Grid16 {
        self.table.goals[seat.index()]
    }

    /// The seat's partner (team modes only).
    pub fn partner(&self, seat: Seat) -> Option<Seat> {
        self.table.partner[seat.index()]
    }

    /// The seat and its partner: the seats that win together.
    pub fn team(&self, seat: Seat) -> SeatSet {
        match self.partner(seat) {
            Some(partner) => SeatSet::of(&[seat, partner]),
            None => SeatSet::of(&[seat]),
        }
    }

    /// Whose pieces `seat` moves now: its own, or in the both-armies game, once its own army has
    /// filled its goal, its partner's.
    pub fn army_of(&self, seat: Seat) -> Seat {
        match (self.table.mode, self.partner(seat)) {
            (Mode::BothArmies, Some(partner)) if self.has_finished(seat) => partner,
            _ => seat,
        }
    }

    /// Whether the seat's army has filled its goal.
    pub fn has_finished(&self, seat: Seat) -> bool {
        self.finished & (1 << seat.0) != 0
    }

    /// The squares of the seat's army (the pieces that started in its camp).
    pub fn pieces(&self, seat: Seat) -> impl Iterator<Item = Square> {
        self.armies[seat.index()].squares()
    }

    pub fn army(&self, seat: Seat) -> Grid16 {
        self.armies[seat.index()]
    }

    pub fn occupied(&self) -> Grid16 {
        self.occupied
    }

    /// Whose army stands on a square.
    pub fn piece_at(&self, square: Square) -> Option<Seat> {
        let i = grid16::index(square);
        self.seats().find(|s| self.armies[s.index()].contains(i))
    }

    /// How many of the seat's pieces stand in its goal.
    pub fn in_goal(&self, seat: Seat) -> u32 {
        (self.armies[seat.index()] & self.table.goals[seat.index()]).count()
    }

    /// The side with the most pieces in its goal (a team counts its partners together), or a
    /// draw when the best are level: how an unfinished game is judged, such as at a move limit.
    pub fn leader_by_goal(&self) -> Winner {
        let mut best: Vec<(SeatSet, u32)> = Vec::new();
        for seat in self.seats() {
            let team = self.team(seat);
            if best.iter().any(|(t, _)| *t == team) {
                continue;
            }
            let count = team.seats().map(|s| self.in_goal(s)).sum();
            best.push((team, count));
        }
        let top = best.iter().map(|(_, c)| *c).max().unwrap_or(0);
        let leaders: Vec<SeatSet> = best.iter().filter(|(_, c)| *c == top).map(|(t, _)| *t).collect();
        match leaders.as_slice() {
            [team] if team.seats().count() == 1 => Winner::Seat(team.seats().next().expect("one seat")),
            [team] => Winner::Team(*team),
            _ => Winner::Draw,
        }
    }

    /// How far a square is from the seat's goal, in the units of the Robot and the greedy player:
    /// twice the files plus ranks to the goal's corner, plus one outside the goal.
    pub fn goal_distance(&self, seat: Seat, square: Square) -> u8 {
        self.table.distance[seat.index()][grid16::index(square) as usize]
    }

    /// The distance table of a seat's army, by square index.
    pub fn distances(&self, seat: Seat) -> &[u8; 256] {
        &self.table.distance[seat.index()]
    }

    /// The seat whose turn it is, also while a draw vote is open (then it is the proposer).
    pub fn turn(&self) -> Option<Seat> {
        self.outcome.is_none().then_some(self.turn)
    }

    pub fn vote(&self) -> Option<DrawVote> {
        self.vote
    }

    /// Whether the seat to move may propose a draw now.
    pub fn may_propose(&self) -> bool {
        self.outcome.is_none() && self.vote.is_none() && !self.proposed
    }

    /// Moves played so far (votes and proposals are not moves).
    pub fn plies(&self) -> u32 {
        self.plies
    }

    pub fn last_move(&self) -> Option<(Square, Square)> {
        self.last_move
    }

    /// Moves the seat has made so far (votes and proposals are not moves, nor passes).
    pub fn moves_made(&self, seat: Seat) -> u32 {
        self.moves_made[seat.index()]
    }

    /// After how many of a seat's own moves clearing the starting camp comes into force.
    pub fn clear_camp_after(&self) -> u32 {
        self.table.clear_camp_after
    }

    /// Whether clearing the starting camp is in force for the seat: it has made
    /// `clear_camp_after` moves. It then holds for the pieces the seat moves (`army_of`).
    pub fn clears_camp(&self, seat: Seat) -> bool {
        self.moves_made(seat) >= self.table.clear_camp_after
    }

    /// Clearing the starting camp for `seat`, if it is in force.
    fn camp_rule(&self, seat: Seat) -> Option<CampRule> {
        if !self.clears_camp(seat) {
            return None;
        }
        let army = self.army_of(seat).index();
        let camp = self.table.camps[army];
        let must_leave = (self.armies[army] & camp)
            .indices()
            .any(|from| !(moves::destinations(self.occupied, from) & !camp).is_empty());
        Some(CampRule { camp, must_leave })
    }

    /// Where the piece on `from` may go under `rule`: nowhere in its starting camp, and nowhere
    /// at all if it stands outside the camp while a piece in it must get out.
    fn allowed(&self, from: u8, rule: Option<CampRule>) -> Grid16 {
        let all = moves::destinations(self.occupied, from);
        match rule {
            None => all,
            Some(rule) if rule.must_leave && !rule.camp.contains(from) => Grid16::EMPTY,
            Some(rule) => all & !rule.camp,
        }
    }

    /// Every move of the seat to move as (from, destination), each destination once per piece.
    pub fn moves(&self) -> Vec<(Square, Square)> {
        let mut out = Vec::new();
        if self.outcome.is_some() || self.vote.is_some() {
            return out;
        }
        let army = self.armies[self.army_of(self.turn).index()];
        let rule = self.camp_rule(self.turn);
        for from in army.indices() {
            for to in self.allowed(from, rule).indices() {
                out.push((grid16::square(from), grid16::square(to)));
            }
        }
        out
    }

    /// Why clearing the starting camp keeps the piece on `square` from moving now: `Some` only
    /// for a piece the seat to move moves, which could move but for that rule.
    pub fn held_at_home(&self, square: Square) -> Option<HeldAtHome> {
        if !self.movable(square) {
            return None;
        }
        let rule = self.camp_rule(self.turn)?;
        let from = grid16::index(square);
        let all = moves::destinations(self.occupied, from);
        if all.is_empty() || !self.allowed(from, Some(rule)).is_empty() {
            return None;
        }
        Some(if (all & !rule.camp).is_empty() {
            HeldAtHome::WouldEndAtHome
        } else {
            HeldAtHome::OthersMustLeave
        })
    }

    /// Whether `square` holds a piece of the army the seat to move moves (it may be picked up;
    /// `reach` tells where it may go, `held_at_home` why it may not).
    pub fn movable(&self, square: Square) -> bool {
        self.outcome.is_none()
            && self.vote.is_none()
            && BoardShape::HALMA.contains(square)
            && self.armies[self.army_of(self.turn).index()].contains(grid16::index(square))
    }

    /// Every square the piece on `from` can reach this turn, each with one path: the landings in
    /// order, ending with the destination (one square for a step). Empty if the piece on `from`
    /// may not move now.
    pub fn reach(&self, from: Square) -> Vec<(Square, Vec<Square>)> {
        if !self.movable(from) {
            return Vec::new();
        }
        let from = grid16::index(from);
        self.allowed(from, self.camp_rule(self.turn))
            .indices()
            .map(|to| {
                let path = moves::path(self.occupied, from, to).expect("a destination has a path");
                (grid16::square(to), moves::squares(&path))
            })
            .collect()
    }

    /// One path from `from` to `to` (the landings, ending with `to`), if that is a move now.
    pub fn path(&self, from: Square, to: Square) -> Option<Vec<Square>> {
        if !self.movable(from) || !BoardShape::HALMA.contains(to) {
            return None;
        }
        let (from, to) = (grid16::index(from), grid16::index(to));
        if !self.allowed(from, self.camp_rule(self.turn)).contains(to) {
            return None;
        }
        moves::path(self.occupied, from, to).map(|p| moves::squares(&p))
    }

    /// Where a jump chain can go on: `chain` is the start square then the landings so far. Empty
    /// if the chain is not a legal one for the seat to move or cannot go on. A landing is offered
    /// only where the chain may stop, or may jump on to where it may stop (clearing the starting
    /// camp lets a chain pass through the camp but not end there).
    pub fn further_landings(&self, chain: &[Square]) -> Vec<Square> {
        match chain.first() {
            Some(&from) if self.movable(from) && chain.iter().all(|&s| BoardShape::HALMA.contains(s)) => {
                let mut indices: Vec<u8> = chain.iter().map(|&s| grid16::index(s)).collect();
                let allowed = self.allowed(indices[0], self.camp_rule(self.turn));
                let mut out = Vec::new();
                for land in moves::further_landings(self.occupied, &indices).indices() {
                    indices.push(land);
                    if allowed.contains(land) || moves::can_go_on_to(self.occupied, &indices, allowed) {
                        out.push(grid16::square(land));
                    }
                    indices.pop();
                }
                out
            }
            _ => Vec::new(),
        }
    }

    /// Whether `chain` (start then landings) is a legal jump chain for the seat to move, ending
    /// where it may stop.
    pub fn is_jump_chain(&self, chain: &[Square]) -> bool {
        match chain.first() {
            Some(&from) if self.movable(from) && chain.iter().all(|&s| BoardShape::HALMA.contains(s)) => {
                let indices: Vec<u8> = chain.iter().map(|&s| grid16::index(s)).collect();
                let end = *indices.last().expect("not empty");
                moves::is_jump_chain(self.occupied, &indices)
                    && self.allowed(indices[0], self.camp_rule(self.turn)).contains(end)
            }
            _ => false,
        }
    }

    fn has_move(&self, seat: Seat) -> bool {
        let army = self.armies[self.army_of(seat).index()];
        match self.camp_rule(seat) {
            None => army.indices().any(|from| moves::can_move(self.occupied, from)),
            // A piece in the camp can get out; else only pieces outside it may move, and not into it.
            Some(rule) => {
                rule.must_leave
                    || (army & !rule.camp)
                        .indices()
                        .any(|from| !(moves::destinations(self.occupied, from) & !rule.camp).is_empty())
            }
        }
    }

    /// Gives the turn to `seat`, or to the next seat round the table that can move; seats that
    /// cannot move pass. Nobody able to move is a draw.
    fn give_turn(&mut self, seat: Seat) {
        let n = self.seat_count();
        let mut next = seat;
        for _ in 0..n {
            if self.has_move(next) {
                self.turn = next;
                return;
            }
            self.passed.push(next);
            next = next.next(n);
        }
        self.outcome = Some(Outcome::draw(EndReason::NoMoves));
    }

    /// The position with the seat to act, as a number.
    fn key(&self) -> u64 {
        let mut h = 0x243F_6A88_85A3_08D3u64 ^ u64::from(self.turn.0);
        for army in &self.armies {
            for &w in &army.0 {
                h = (h.rotate_left(23) ^ w).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            }
        }
        h ^ (h >> 29)
    }

    fn play_move(&mut self, from: Square, to: Square) {
        let mover = self.turn;
        let army = self.army_of(mover);
        let (from_i, to_i) = (grid16::index(from), grid16::index(to));
        let change = Grid16::bit(from_i) | Grid16::bit(to_i);
        self.armies[army.index()] ^= change;
        self.occupied ^= change;
        self.plies += 1;
        self.moves_made[mover.index()] = self.moves_made[mover.index()].saturating_add(1);
        self.proposed = false;
        self.passed.clear();
        self.last_move = Some((from, to));
        if self.armies[army.index()].covers(self.table.goals[army.index()]) {
            self.finished |= 1 << army.0;
            let team = self.team(army);
            let winner = match self.table.mode {
                Mode::Individual => Some(Winner::Seat(army)),
                Mode::OneArmy => Some(Winner::Team(team)),
                Mode::BothArmies => team.seats().all(|s| self.has_finished(s)).then_some(Winner::Team(team)),
            };
            if let Some(winner) = winner {
                self.outcome = Some(Outcome { winner, reason: EndReason::Goal });
                return;
            }
        }
        self.give_turn(mover.next(self.seat_count()));
        if self.outcome.is_none() {
            let key = self.key();
            self.history.push(key);
            if self.history.iter().filter(|&&k| k == key).count() >= 3 {
                self.outcome = Some(Outcome::draw(EndReason::Repetition));
            }
        }
    }
}

impl Game for Halma {
    type Action = HalmaAction;
    const KIND: crate::rules::GameKind = crate::rules::GameKind::Halma;

    fn seat_count(&self) -> usize {
        self.table.corners.len()
    }

    fn to_move(&self) -> Option<Seat> {
        if self.outcome.is_some() {
            return None;
        }
        Some(self.vote.map_or(self.turn, |v| v.voter))
    }

    fn legal_actions(&self) -> Vec<HalmaAction> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        if self.vote.is_some() {
            return vec![HalmaAction::Vote(true), HalmaAction::Vote(false)];
        }
        let mut actions: Vec<HalmaAction> =
            self.moves().into_iter().map(|(from, to)| HalmaAction::Move { from, to }).collect();
        if !self.proposed {
            actions.push(HalmaAction::ProposeDraw);
        }
        actions
    }

    fn play(&mut self, action: &HalmaAction) {
        match *action {
            HalmaAction::Move { from, to } => self.play_move(from, to),
            HalmaAction::ProposeDraw => {
                self.proposed = true;
                self.passed.clear();
                self.vote = Some(DrawVote { proposer: self.turn, voter: self.turn.next(self.seat_count()) });
            }
            HalmaAction::Vote(accept) => {
                let Some(vote) = self.vote else { return };
                self.passed.clear();
                if !accept {
                    self.vote = None;
                    return;
                }
                let voter = vote.voter.next(self.seat_count());
                if voter == vote.proposer {
                    self.vote = None;
                    self.outcome = Some(Outcome::draw(EndReason::Agreement));
                } else {
                    self.vote = Some(DrawVote { voter, ..vote });
                }
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Halma is played without a clock; should a seat run out of time anyway, every other team
    /// wins together.
    fn time_out(&mut self, seat: Seat) {
        if self.outcome.is_some() {
            return;
        }
        let team = self.team(seat);
        let others: Vec<Seat> = self.seats().filter(|&s| !team.contains(s)).collect();
        self.vote = None;
        self.outcome = Some(match others.as_slice() {
            [one] => Outcome::win(*one, EndReason::OutOfTime),
            _ => Outcome::team(SeatSet::of(&others), EndReason::OutOfTime),
        });
    }

    fn passed(&self) -> Vec<Seat> {
        self.passed.clone()
    }

    fn seat_name(&self, seat: Seat) -> &'static str {
        self.table.corners.get(seat.index()).map_or("?", |c| c.name())
    }

    fn action_text(&self, action: &HalmaAction) -> String {
        text::action_text(action)
    }

    fn parse_action(&self, input: &str) -> Result<HalmaAction, RuleError> {
        text::parse_action(self, input)
    }

    fn state_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        text::state_fields(self)
    }
}
