//! How the Robot judges a Making Circles position: as a race counted in moves still needed.

use super::pick_best_by;
use super::review::{self, CoachData, Coached, Rater};
use super::search::Strength;
use super::slips::{self, SlipKind, TeacherSlips};
use super::{Evaluate, Searched};
use crate::chance::SeededRng;
use crate::rules::board::Move;
use crate::rules::circles::{Circles, FULL_LOOP, Piece};
use crate::rules::{Game, Seat};

/// One move of the race, in evaluation units.
const MOVE: i32 = 100;
/// Moves counted for a piece that can never get home as things stand.
const FAR: i32 = 40;
/// Moves a piece loses when it cannot move at all now.
const STUCK: i32 = 1;

impl Evaluate for Circles {
    fn evaluate(&self, seat: Seat) -> i32 {
        let white = white_lead(self);
        if seat == Seat::WHITE { white } else { -white }
    }
}

/// White's lead in the race. White finishing first lets Black make one more move, so with White
/// to move, whoever needs fewer moves wins and equal needs are a draw; with Black to move, Black
/// is half a round further on.
fn white_lead(game: &Circles) -> i32 {
    let black_moves_first = i32::from(game.to_move() == Some(Seat::BLACK));
    let race = moves_needed(game, Seat::BLACK) - black_moves_first - moves_needed(game, Seat::WHITE);
    let lead = race * MOVE + progress(game, Seat::WHITE) - progress(game, Seat::BLACK);
    // Moves without progress lead to a draw: a lead kept by marking time is worth less and less,
    // so the side ahead prefers moves that get on with the race.
    let limit = game.setup().no_progress_plies.max(1) as i32;
    let left = (limit - game.plies_without_progress() as i32).max(0);
    lead * left / limit
}

/// Moves the side still needs to finish both pieces.
pub fn moves_needed(game: &Circles, seat: Seat) -> i32 {
    Piece::ALL.iter().map(|&piece| piece_needs(game, seat, piece)).sum()
}

/// Moves one piece still needs: the fewest on a board with only the barrier, made more by what
/// stands in its way for its next move, and by a finished partner sitting on the way home.
fn piece_needs(game: &Circles, seat: Seat, piece: Piece) -> i32 {
    if game.is_piece_finished(seat, piece) {
        return 0;
    }
    let alone = game.moves_to_finish(seat, piece).map_or(FAR, i32::from);
    let mut targets = game.targets_of(seat, piece).peekable();
    let next_move = if targets.peek().is_none() {
        alone + STUCK
    } else {
        targets
            .filter_map(|to| game.moves_to_finish_after(seat, piece, to))
            .min()
            .map_or(FAR, |n| 1 + n as i32)
    };
    // The partner finished first and stands in the way: it must step out and back again.
    let mut detour = 0;
    if game.is_piece_finished(seat, piece.partner()) {
        let around = game.moves_to_finish_around_partner(seat, piece).map_or(FAR, i32::from);
        detour = (around - alone).clamp(0, 2);
    }
    next_move.max(alone + detour).min(FAR)
}

/// A small tie-break: windings made so far, up to a full loop each (10 points per loop).
fn progress(game: &Circles, seat: Seat) -> i32 {
    Piece::ALL.iter().map(|&piece| (game.winding(seat, piece).clamp(0.0, FULL_LOOP) / 36.0) as i32).sum()
}

impl Searched for Circles {
    const STRENGTHS: [Strength; 3] = [
        Strength::new(1, 1_000, 300, 0.65),
        Strength::new(3, 20_000, 30, 0.05),
        Strength::new(12, 30_000, 0, 0.0),
    ];
}

/// The benchmark's greedy player, playing as a beginner races: a move that brings a piece home
/// to finish if it has one; else the move that turns furthest clockwise, with a piece that has
/// not finished yet (a finished one stays home while it can).
pub fn greedy(game: &Circles, rng: &mut SeededRng) -> Option<Move> {
    let seat = game.to_move()?;
    let piece_of = |m: &Move| game.piece_at(m.from).map(|(_, piece)| piece);
    let finishes = |m: &Move| {
        let mut after = game.clone();
        after.play(m);
        piece_of(m).is_some_and(|piece| after.is_piece_finished(seat, piece))
    };
    let leaves_home = |m: &Move| piece_of(m).is_some_and(|piece| game.is_piece_finished(seat, piece));
    let key = |m: &Move| (!finishes(m), leaves_home(m), -(game.delta(m.from, m.to) * 1000.0).round() as i64);
    pick_best_by(game.legal_actions(), key, rng)
}

impl Coached for Circles {
    const REASONS: &'static [&'static str] = &["further_round"];
    const REASON_PIECES: &'static [&'static str] = &["rook", "bishop"];

    fn rater(&self, played: &[Move], data: CoachData) -> Box<dyn Rater<Self>> {
        review::searched_rater(self, played, data)
    }

    /// The best move brought the side nearer home.
    fn why(&self, played: &[Move], best: &[Move]) -> Option<&'static str> {
        let seat = self.to_move()?;
        let needs = |actions: &[Move]| moves_needed(&review::after(self, actions), seat);
        (needs(best) < needs(played)).then_some("further_round")
    }

    /// The piece the better move took, and where.
    fn why_args(&self, _why: &'static str, _played: &[Move], best: &[Move]) -> Vec<(&'static str, String)> {
        let Some(mv) = best.first() else { return Vec::new() };
        let Some((_, piece)) = self.piece_at(mv.from) else { return Vec::new() };
        vec![("piece", piece.name().to_string()), ("to", mv.to.to_string())]
    }
}

/// In a close race (neither side more than a move ahead), a rook or bishop move after which that
/// piece, alone with the barrier, needs a move more to finish than after its best move, and its
/// side, counted with what stands in the way, two moves more than after the side's best move:
/// of those, the one that goes furthest round (the slip that looks most like a good move). (A
/// move that loses one move by these counts is often made up later, as the Robot's deeper
/// search sees: the counts look one move ahead only.)
impl TeacherSlips for Circles {
    const SLIPS: &'static [SlipKind<Self>] =
        &[SlipKind { name: "lost_ground", reason: "further_round", find: lost_ground }];
}

fn lost_ground(game: &Circles) -> Option<Vec<Move>> {
    let seat = game.to_move()?;
    let close = (moves_needed(game, seat) - moves_needed(game, seat.opponent())).abs() <= 1;
    if !close || game.plies_without_progress() > 2 || !slips::still_open(game) {
        return None;
    }
    let piece_of = |mv: &Move| game.piece_at(mv.from).map(|(_, piece)| piece);
    let needs = |mv: &Move| piece_of(mv).and_then(|piece| game.moves_to_finish_after(seat, piece, mv.to));
    let moves = game.legal_actions();
    let least = |piece: Piece| moves.iter().filter(|mv| piece_of(mv) == Some(piece)).filter_map(needs).min();
    let side_needs = |mv: &Move| moves_needed(&review::after(game, &[*mv]), seat);
    let side_least = moves.iter().map(side_needs).min()?;
    let slip = moves
        .iter()
        .filter(|mv| {
            let (Some(piece), Some(n)) = (piece_of(mv), needs(mv)) else { return false };
            least(piece).is_some_and(|best| n > best)
                && side_needs(mv) > side_least + 1
                && game.delta(mv.from, mv.to) >= 0.0
        })
        .max_by_key(|mv| (game.delta(mv.from, mv.to) * 1000.0) as i64)?;
    Some(vec![*slip])
}
