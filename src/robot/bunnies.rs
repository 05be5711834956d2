//! How the Robot judges a Bunnies and Horses match, for either role.
//!
//! A player's worth is what it brings (or will bring) into the garden while playing the bunnies: a
//! finished round counts its score, the round under way an estimate of it, and a round not yet
//! begun the estimate of the starting position. So a position just before the end of round 1 and
//! the start of round 2 are judged on the same scale.

use super::pick_best_by;
use super::review::{self, CoachData, Coached, Rater};
use super::search::{Strength, WIN};
use super::slips::{self, Pieces, SlipKind, TeacherSlips};
use super::{Evaluate, Searched};
use crate::chance::SeededRng;
use crate::rules::board::{KNIGHT_ATTACKS, KNIGHT_DISTANCE, Move, Square, squares_of};
use crate::rules::bunnies::{BunniesAndHorses, Role, STUCK_LIMIT, bunny_attacks};
use crate::rules::{Game, Seat, Winner};

/// A bunny in the garden.
const GARDEN: i32 = 100;
/// Plies of captures and garden steps looked at beyond the search's horizon.
const QUIET_DEPTH: u32 = 6;

impl Evaluate for BunniesAndHorses {
    fn evaluate(&self, seat: Seat) -> i32 {
        settled(self, seat, -WIN, WIN, QUIET_DEPTH)
    }
}

/// The worth after the captures and garden steps in reach are played out: the side to move may
/// take one or stop taking (`stand`), whichever suits it.
fn settled(game: &BunniesAndHorses, me: Seat, mut alpha: i32, mut beta: i32, depth: u32) -> i32 {
    if let Some(outcome) = game.outcome() {
        return match outcome.winner {
            Winner::Draw => 0,
            winner if winner.includes(me) => WIN / 2,
            _ => -WIN / 2,
        };
    }
    let stand = match_worth(game, me);
    if depth == 0 {
        return stand;
    }
    let maximizing = game.to_move() == Some(me);
    let mut best = stand;
    if maximizing {
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
    } else {
        if stand <= alpha {
            return stand;
        }
        beta = beta.min(stand);
    }
    for action in sharp_actions(game) {
        let mut child = *game;
        child.play(&action);
        let score = settled(&child, me, alpha, beta, depth - 1);
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
    best
}

/// Captures, and bunny steps into the garden.
fn sharp_actions(game: &BunniesAndHorses) -> Vec<Move> {
    let (bunnies, horses) = (game.bunny_bits(), game.horse_bits());
    let mut actions = Vec::new();
    match game.role_to_move() {
        Some(Role::Bunnies) => {
            for from in squares_of(bunnies) {
                for to in squares_of(bunny_attacks(from.bit()) & horses) {
                    actions.push(Move::new(from, to));
                }
            }
            let empty = !(bunnies | horses);
            for from in squares_of(bunnies & (0xFF << 48)) {
                let to = Square::new(from.file, 7);
                if empty & to.bit() != 0 {
                    actions.push(Move::new(from, to));
                }
            }
        }
        Some(Role::Horses) => {
            for from in squares_of(horses) {
                for to in squares_of(KNIGHT_ATTACKS[from.index64()] & bunnies) {
                    actions.push(Move::new(from, to));
                }
            }
        }
        None => {}
    }
    actions
}

/// `me`'s garden worth minus the other player's, without looking ahead.
fn match_worth(game: &BunniesAndHorses, me: Seat) -> i32 {
    let current = round_worth(game);
    let p1_minus_p2 = if game.round() == 1 {
        current - start_worth(game)
    } else {
        game.score(Seat(0)) as i32 * GARDEN - current
    };
    if me == Seat(0) { p1_minus_p2 } else { -p1_minus_p2 }
}

fn start_worth(game: &BunniesAndHorses) -> i32 {
    let position =
        Position { bunnies: game.start_bunny_bits(), horses: game.start_horse_bits(), bunnies_to_move: true };
    position.worth()
}

/// What the bunnies of the round under way can expect to bring in.
fn round_worth(game: &BunniesAndHorses) -> i32 {
    let position = Position {
        bunnies: game.bunny_bits(),
        horses: game.horse_bits(),
        bunnies_to_move: game.role_to_move() == Some(Role::Bunnies),
    };
    let mut on_board = position.worth();
    // Bunnies stuck for a while score nothing if the horses keep them so.
    if game.stuck() > 0 {
        on_board = on_board * (STUCK_LIMIT - game.stuck()) as i32 / (STUCK_LIMIT + 1) as i32;
    }
    game.garden() as i32 * GARDEN + on_board
}

struct Position {
    bunnies: u64,
    horses: u64,
    bunnies_to_move: bool,
}

/// A bunny's expected worth by rank (index 0 = rank 1), with two horses and with one.
const WORTH_TWO_HORSES: [i32; 8] = [26, 28, 32, 38, 46, 56, 70, 100];
const WORTH_ONE_HORSE: [i32; 8] = [50, 52, 56, 62, 68, 76, 86, 100];
const DEFENDED: i32 = 6;
const BLOCKED: i32 = 6;
/// A bunny no horse can reach in time.
const RUNAWAY: i32 = 95;

impl Position {
    fn worth(&self) -> i32 {
        let horses = self.horses.count_ones();
        if horses == 0 {
            return self.bunnies.count_ones() as i32 * GARDEN;
        }
        let table = if horses == 1 { &WORTH_ONE_HORSE } else { &WORTH_TWO_HORSES };
        let defended = bunny_attacks(self.bunnies);
        let occupied = self.bunnies | self.horses;
        squares_of(self.bunnies)
            .map(|bunny| {
                if self.is_runaway(bunny) {
                    return RUNAWAY;
                }
                let mut worth = table[bunny.rank as usize];
                if defended & bunny.bit() != 0 {
                    worth += DEFENDED;
                }
                if (bunny.bit() << 8) & occupied != 0 {
                    worth -= BLOCKED;
                }
                worth
            })
            .sum()
    }

    /// Whether the bunny walks into the garden before any horse can catch or block it.
    fn is_runaway(&self, bunny: Square) -> bool {
        if bunny.rank < 2 {
            return false;
        }
        let steps = 7 - bunny.rank;
        let path: Vec<Square> = (1..=steps).map(|k| Square::new(bunny.file, bunny.rank + k)).collect();
        if path.iter().any(|s| (self.bunnies | self.horses) & s.bit() != 0) {
            return false;
        }
        // Horse moves made before the bunny's k-th step.
        let head_start = if self.bunnies_to_move { 0 } else { 1 };
        squares_of(self.horses).all(|horse| {
            let row = &KNIGHT_DISTANCE[horse.index64()];
            if !self.bunnies_to_move && row[bunny.index64()] <= 1 {
                return false;
            }
            path.iter().enumerate().all(|(i, square)| {
                let k = i as u8 + 1;
                let distance = row[square.index64()];
                // Block the square before the bunny gets there, or catch it standing there.
                let blocks = distance < k + head_start;
                let catches = k < steps && distance <= k + head_start;
                !(blocks || catches)
            })
        })
    }
}

impl Searched for BunniesAndHorses {
    const STRENGTHS: [Strength; 3] = [
        Strength::new(1, 1_000, 90, 0.35),
        Strength::new(3, 20_000, 15, 0.05),
        Strength::new(12, 60_000, 0, 0.0),
    ];
}

/// The benchmark's greedy player: a capture when it can, else a move of its most advanced piece
/// (bunnies: nearest the garden; horses: nearest rank 1), as far forward as it goes.
pub fn greedy(game: &BunniesAndHorses, rng: &mut SeededRng) -> Option<Move> {
    let role = game.role_to_move()?;
    let taken = match role {
        Role::Bunnies => game.horse_bits(),
        Role::Horses => game.bunny_bits(),
    };
    let key = |m: &Move| {
        let capture = taken & m.to.bit() != 0;
        let ahead = |s: Square| if role == Role::Bunnies { s.rank as i8 } else { -(s.rank as i8) };
        (!capture, -ahead(m.from), -ahead(m.to))
    };
    pick_best_by(game.legal_actions(), key, rng)
}

impl Coached for BunniesAndHorses {
    const REASONS: &'static [&'static str] =
        &["bunny_home", "missed_horse", "bunny_caught", "missed_catch", "let_home", "horse_left"];

    fn rater(&self, played: &[Move], data: CoachData) -> Box<dyn Rater<Self>> {
        review::searched_rater(self, played, data)
    }

    /// What the best move did that the move played did not, for the role that moved: a bunny
    /// home or a piece caught; or what the move played let the other side do at once.
    fn why(&self, played: &[Move], best: &[Move]) -> Option<&'static str> {
        let role = self.role_to_move()?;
        let (after_played, after_best) = (review::after(self, played), review::after(self, best));
        let garden = |game: &BunniesAndHorses| game.garden() as i32;
        let caught = |game: &BunniesAndHorses| game.caught() as i32;
        let horses = |game: &BunniesAndHorses| game.horse_bits().count_ones() as i32;
        let horses_lost = |game: &BunniesAndHorses| -horses(game);
        let left_open = |count: &dyn Fn(&BunniesAndHorses) -> i32| {
            review::reply_gain(&after_played, count) > review::reply_gain(&after_best, count)
        };
        match role {
            Role::Bunnies if garden(&after_best) > garden(&after_played) => Some("bunny_home"),
            Role::Bunnies if horses(&after_best) < horses(&after_played) => Some("missed_horse"),
            Role::Bunnies => left_open(&caught).then_some("bunny_caught"),
            Role::Horses if caught(&after_best) > caught(&after_played) => Some("missed_catch"),
            Role::Horses if left_open(&garden) => Some("let_home"),
            Role::Horses => left_open(&horses_lost).then_some("horse_left"),
        }
    }

    /// The piece that can catch or get into the garden, and where (`by`, `at`); or where the
    /// better move went (`to`).
    fn why_args(&self, why: &'static str, played: &[Move], best: &[Move]) -> Vec<(&'static str, String)> {
        let after_played = review::after(self, played);
        match why {
            "bunny_caught" => review::threat_places(&after_played, |game| game.caught() as i32),
            "horse_left" => {
                review::threat_places(&after_played, |game| -(game.horse_bits().count_ones() as i32))
            }
            "let_home" => review::threat_places(&after_played, |game| game.garden() as i32),
            _ => review::better_place(best),
        }
    }
}

/// A bunny stepped where a horse takes it with no bunny behind it, a horse stood where a bunny
/// takes it, each while a safe move was there; a bunny a horse could catch safely, left. (A
/// bunny that steps on instead of catching a horse is no slip a teacher names: near the garden
/// the step is often as good.)
impl TeacherSlips for BunniesAndHorses {
    const SLIPS: &'static [SlipKind<Self>] = &[
        SlipKind {
            name: "bunny_left",
            reason: "bunny_caught",
            find: |game| by(game, Role::Bunnies, slips::piece_left),
        },
        SlipKind {
            name: "horse_left",
            reason: "horse_left",
            find: |game| by(game, Role::Horses, slips::piece_left),
        },
        SlipKind {
            name: "bunny_missed",
            reason: "missed_catch",
            find: |game| by(game, Role::Horses, slips::catch_missed),
        },
    ];
}

const PIECES: Pieces<BunniesAndHorses> = Pieces {
    owner: |game, square| game.piece_at(square).map(|role| game.seat_of(role)),
    prey: |_, _| true,
    score: |game, seat| game.score(seat) as i32,
    guarded: |game, seat| game.score(seat) as i32,
};

/// `find`'s move when `role` is to move.
fn by(
    game: &BunniesAndHorses,
    role: Role,
    find: fn(&BunniesAndHorses, &Pieces<BunniesAndHorses>) -> Option<Vec<Move>>,
) -> Option<Vec<Move>> {
    (game.role_to_move() == Some(role)).then(|| find(game, &PIECES)).flatten()
}
