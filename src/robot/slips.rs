//! The slips a teacher names, game by game, written as rules a teacher would state: "a piece
//! left where it is taken for nothing, while a safe move was there", "a catch missed", "a step
//! back while a long chain forward was there". Each kind finds a move of its kind in a position,
//! only where a better move is plainly there too. The coach is measured against them
//! (`tabla bench`: `<game>.coach_recall`), and the tests put one of each kind into a game.

use super::review::{self, Coached};
use super::search::AlphaBeta;
use super::{RobotLevel, Searched};
use crate::rules::board::{Move, Square};
use crate::rules::{Game, Seat};

/// One kind of slip a teacher points out.
pub struct SlipKind<G: Game> {
    /// The kind's name, as the benchmark and the tests say it.
    pub name: &'static str,
    /// The reason the coach gives for such a slip (one of `Coached::REASONS`).
    pub reason: &'static str,
    /// A move of this kind from the position (a whole dice set in Crazy Nard), where there is one
    /// and a move a teacher would prefer is there too.
    pub find: fn(&G) -> Option<Vec<G::Action>>,
}

/// A game whose slips a teacher names.
pub trait TeacherSlips: Coached {
    const SLIPS: &'static [SlipKind<Self>];
}

/// What the slips of a game with pieces that take each other need to know of it.
pub struct Pieces<G> {
    /// Who owns the piece on a square, if one stands there.
    pub owner: fn(&G, Square) -> Option<Seat>,
    /// The pieces a teacher counts as a catch.
    pub prey: fn(&G, Square) -> bool,
    /// A seat's points.
    pub score: fn(&G, Seat) -> i32,
    /// What a safe move must not let the other side do at once, counted for that side: a count
    /// that must not grow in its next move (the bunnies' garden; nothing in Knight Hunt, where
    /// each side hunts its own pawns whatever the other does).
    pub guarded: fn(&G, Seat) -> i32,
}

impl<G: Game<Action = Move>> Pieces<G> {
    /// Whether `mv` takes a piece of the other side.
    fn takes(&self, game: &G, mv: &Move) -> bool {
        (self.owner)(game, mv.to).is_some_and(|seat| Some(seat) != game.to_move())
    }

    /// Whether `mv` takes nothing and scores nothing.
    fn quiet(&self, game: &G, mv: &Move) -> bool {
        let Some(me) = game.to_move() else { return false };
        !self.takes(game, mv) && (self.score)(&review::after(game, &[*mv]), me) == (self.score)(game, me)
    }

    /// Whether, after `mv`, the other side can neither land on the piece that moved nor do what
    /// `guarded` counts.
    fn safe(&self, game: &G, mv: &Move) -> bool {
        let Some(me) = game.to_move() else { return false };
        let after = review::after(game, &[*mv]);
        lands_safe(game, mv) && review::reply_gain(&after, |g| (self.guarded)(g, me.opponent())) == 0
    }
}

/// Whether the game is still open for the side to move: the Robot at its strongest sees no
/// outcome as good or as bad as a won or lost game (`CoachData::decisive`) whatever it plays. In
/// a decided game no move loses anything, so no move is a slip by what it loses.
pub fn still_open<G: Searched>(game: &G) -> bool {
    let Ok(data) = review::coach_data(G::KIND) else { return false };
    let mut search = AlphaBeta::for_game(game, G::strength(RobotLevel::Three), 0).exact();
    while search.step(u64::MAX).is_none() {}
    let best = search.ranked().first().map_or(0, |(_, score)| *score);
    (best as f64).abs() < data.decisive
}

/// Whether, after `mv`, the other side can take the piece that moved and the mover cannot take
/// back on that square.
pub fn left_for_nothing<G: Game<Action = Move>>(game: &G, mv: &Move) -> bool {
    let after = review::after(game, &[*mv]);
    let landing = |g: &G| g.legal_actions().into_iter().filter(|m| m.to == mv.to).collect::<Vec<_>>();
    let captures = landing(&after);
    !captures.is_empty()
        && captures.iter().all(|capture| landing(&review::after(&after, &[*capture])).is_empty())
}

/// Whether, after `mv`, the other side cannot land on the piece that moved.
pub fn lands_safe<G: Game<Action = Move>>(game: &G, mv: &Move) -> bool {
    review::after(game, &[*mv]).legal_actions().iter().all(|reply| reply.to != mv.to)
}

/// A quiet move that puts its piece where it is taken for nothing, while another quiet move was
/// safe.
pub fn piece_left<G: Searched<Action = Move>>(game: &G, pieces: &Pieces<G>) -> Option<Vec<Move>> {
    let moves = game.legal_actions();
    if !moves.iter().any(|mv| pieces.quiet(game, mv) && pieces.safe(game, mv)) || !still_open(game) {
        return None;
    }
    let slip = moves.into_iter().find(|mv| pieces.quiet(game, mv) && left_for_nothing(game, mv))?;
    Some(vec![slip])
}

/// A safe catch of a piece a teacher counts was there, and the other side's answer (the Robot's
/// at its strongest) takes every such chance away; the move played is quiet and safe.
pub fn catch_missed<G: Searched<Action = Move>>(game: &G, pieces: &Pieces<G>) -> Option<Vec<Move>> {
    // The squares where a piece can be caught for free.
    let free_catches = |g: &G| -> Vec<Square> {
        let mine = g.legal_actions().into_iter();
        let free = |mv: &Move| (pieces.prey)(g, mv.to) && pieces.takes(g, mv) && pieces.safe(g, mv);
        mine.filter(free).map(|mv| mv.to).collect()
    };
    let chances = free_catches(game);
    if chances.is_empty() || !still_open(game) {
        return None;
    }
    let taken_away = |after: &G| {
        let Some(reply) = super::choose(after, RobotLevel::Three, 0) else { return false };
        let left = free_catches(&review::after(after, &[reply]));
        !chances.iter().any(|c| left.contains(c))
    };
    let slip = game.legal_actions().into_iter().find(|mv| {
        pieces.quiet(game, mv) && pieces.safe(game, mv) && taken_away(&review::after(game, &[*mv]))
    })?;
    Some(vec![slip])
}
