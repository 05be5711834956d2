//! How the Robot judges a Knight Hunt position.

use super::pick_best_by;
use super::review::{self, CoachData, Coached, Rater};
use super::search::Strength;
use super::slips::{self, Pieces, SlipKind, TeacherSlips};
use super::{Evaluate, Searched};
use crate::chance::SeededRng;
use crate::rules::Game;
use crate::rules::Seat;
use crate::rules::board::{KNIGHT_DISTANCE, Move};
use crate::rules::knight_hunt::KnightHunt;

impl Evaluate for KnightHunt {
    fn evaluate(&self, seat: Seat) -> i32 {
        side_worth(self, seat) - side_worth(self, seat.opponent())
    }
}

/// Captured pawns count most; then knights (in the capturing variant a lost knight means slower
/// hunting); then how close the nearest knight is to the nearest pawn it may take.
fn side_worth(game: &KnightHunt, seat: Seat) -> i32 {
    let prey: Vec<usize> = game.pawns(seat.opponent()).map(|s| s.index64()).collect();
    let mut nearest = u8::MAX;
    let mut reach = 0i32;
    for knight in game.knights(seat) {
        let row = &KNIGHT_DISTANCE[knight.index64()];
        let own_nearest = prey.iter().map(|&p| row[p]).min().unwrap_or(u8::MAX);
        nearest = nearest.min(own_nearest);
        // Pawns within two jumps are future captures.
        reach += prey.iter().filter(|&&p| row[p] <= 2).count() as i32;
    }
    let closeness = if prey.is_empty() || nearest == u8::MAX { 0 } else { 6 - nearest as i32 };
    game.score(seat) as i32 * 100 + game.knights_left(seat) as i32 * 40 + closeness * 6 + reach * 2
}

impl Searched for KnightHunt {
    const STRENGTHS: [Strength; 3] = [
        Strength::new(1, 1_000, 90, 0.35),
        Strength::new(3, 20_000, 15, 0.05),
        Strength::new(12, 60_000, 0, 0.0),
    ];
}

/// The benchmark's greedy player: take a pawn when it can, else jump as close to one as possible.
pub fn greedy(game: &KnightHunt, rng: &mut SeededRng) -> Option<Move> {
    let seat = game.to_move()?;
    let prey: Vec<usize> = game.pawns(seat.opponent()).map(|s| s.index64()).collect();
    let distance = |m: &Move| {
        if prey.contains(&m.to.index64()) {
            0
        } else {
            prey.iter().map(|&p| KNIGHT_DISTANCE[m.to.index64()][p]).min().unwrap_or(u8::MAX)
        }
    };
    pick_best_by(game.legal_actions(), distance, rng)
}

impl Coached for KnightHunt {
    const REASONS: &'static [&'static str] = &["missed_catch", "pawn_left", "knight_left"];

    fn rater(&self, played: &[Move], data: CoachData) -> Box<dyn Rater<Self>> {
        review::searched_rater(self, played, data)
    }

    /// What the move played left where the other side takes it at once (and the best move did
    /// not): a pawn, or a knight; else a pawn the best move caught.
    fn why(&self, played: &[Move], best: &[Move]) -> Option<&'static str> {
        let me = self.to_move()?;
        let (after_played, after_best) = (review::after(self, played), review::after(self, best));
        let theirs = |game: &KnightHunt| game.score(me.opponent()) as i32;
        let knights = |game: &KnightHunt| -(game.knights_left(me) as i32);
        if review::reply_gain(&after_played, theirs) > review::reply_gain(&after_best, theirs) {
            Some("pawn_left")
        } else if review::reply_gain(&after_played, knights) > review::reply_gain(&after_best, knights) {
            Some("knight_left")
        } else {
            (after_best.score(me) > after_played.score(me)).then_some("missed_catch")
        }
    }

    /// The knight that can catch, and where (`by`, `at`); or where the catch was (`to`).
    fn why_args(&self, why: &'static str, played: &[Move], best: &[Move]) -> Vec<(&'static str, String)> {
        let Some(me) = self.to_move() else { return Vec::new() };
        let after_played = review::after(self, played);
        match why {
            "pawn_left" => review::threat_places(&after_played, |game| game.score(me.opponent()) as i32),
            "knight_left" => review::threat_places(&after_played, |game| -(game.knights_left(me) as i32)),
            _ => review::better_place(best),
        }
    }
}

/// A knight put where the other knight takes it and no knight of its side takes back, while a
/// safe move was there; a pawn that could be caught safely, left.
impl TeacherSlips for KnightHunt {
    const SLIPS: &'static [SlipKind<Self>] = &[
        SlipKind {
            name: "knight_left",
            reason: "knight_left",
            find: |game| slips::piece_left(game, &PIECES),
        },
        SlipKind {
            name: "missed_catch",
            reason: "missed_catch",
            find: |game| slips::catch_missed(game, &PIECES),
        },
    ];
}

const PIECES: Pieces<KnightHunt> = Pieces {
    owner: |game, square| game.piece_at(square).map(|(seat, _)| seat),
    prey: |game, square| game.piece_at(square).is_some_and(|(_, knight)| !knight),
    score: |game, seat| game.score(seat) as i32,
    guarded: |_, _| 0,
};
