//! Bunnies and Horses on screen: bunnies and horses, the carrot garden on rank 8, bunnies hopping
//! into it, the round banner, and the board turning for the person in round 2.

use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::session::game::{Decoration, Exit, Extra, GameInfo, GameView, RoundReport};
use crate::rules::board::Square;
use crate::rules::bunnies::{BunniesAndHorses, Role, STUCK_LIMIT};
use crate::rules::{Game, Seat};
use bevy::prelude::*;

fn role_art(role: Role) -> Art {
    match role {
        Role::Bunnies => Art::Bunny,
        Role::Horses => Art::Horse,
    }
}

impl GameInfo for BunniesAndHorses {
    const MENU_ART: Art = Art::MenuBunnies;
    const STAGE_ART: Art = Art::Bunny;
    /// Against the Robot the person plays the bunnies first (Player 1).
    const PERSON_SEAT: Option<Seat> = Some(Seat::WHITE);

    fn seat_label_key(&self, seat: Seat) -> &'static str {
        match self.role_of(seat) {
            Role::Bunnies => "role_bunnies",
            Role::Horses => "role_horses",
        }
    }

    fn score(&self, seat: Seat) -> u32 {
        BunniesAndHorses::score(self, seat) as u32
    }

    fn extras(&self, seat: Seat, _words: &Words) -> Vec<Extra> {
        vec![Extra::Count(role_art(self.role_of(seat)), 1)]
    }

    fn banner(&self, words: &Words) -> Option<String> {
        let round = words.fill("round_of", &[("n", &self.round().to_string())]);
        if self.stuck() > 0 && self.outcome().is_none() {
            let stuck = words
                .fill("bunnies_stuck", &[("n", &self.stuck().to_string()), ("of", &STUCK_LIMIT.to_string())]);
            Some(format!("{round} · {stuck}"))
        } else {
            Some(round)
        }
    }

    /// Round 1 over: why it stopped, what the bunnies did, the score, and who plays what next.
    fn round_over(&self, before: &Self, person: Option<Seat>, words: &Words) -> Option<RoundReport> {
        if self.round() == before.round() || self.outcome().is_some() {
            return None;
        }
        let summary = self.round_summary(before.round())?;
        let name = |seat: Seat| match person {
            Some(p) if p == seat => words.get("you").to_string(),
            Some(_) => words.get("robot").to_string(),
            None => words.get(&format!("player_{}", seat.index() + 1)).to_string(),
        };
        let count = |n: u8| n.to_string();
        let bunnies = words.fill(
            "bunnies_round_bunnies",
            &[
                ("name", &name(summary.bunnies_seat)),
                ("garden", &count(summary.garden)),
                ("caught", &count(summary.caught)),
            ],
        );
        let score = |seat: Seat| BunniesAndHorses::score(self, seat).to_string();
        let (first, second) = (Seat::WHITE, Seat::BLACK);
        let scores = words.fill(
            "bunnies_round_score",
            &[
                ("first", &name(first)),
                ("a", &score(first)),
                ("second", &name(second)),
                ("b", &score(second)),
            ],
        );
        let next = match person.map(|p| self.role_of(p)) {
            Some(Role::Horses) => "round_2_you_horses",
            Some(Role::Bunnies) => "round_2_you_bunnies",
            None => "round_2_friends",
        };
        let title = words.fill("bunnies_round_over", &[("n", &summary.round.to_string())]);
        let why = words.get(&format!("bunnies_end_{}", summary.end.key())).to_string();
        Some(RoundReport {
            title,
            lines: vec![why, bunnies, scores, words.get(next).to_string()],
            // The round's star: the bunnies' if any reached the garden, else the horses'.
            winner: Some(if summary.garden > 0 {
                summary.bunnies_seat
            } else {
                summary.bunnies_seat.opponent()
            }),
        })
    }

    fn new_phase(&self, before: &Self) -> bool {
        self.round() != before.round()
    }
}

impl GameView for BunniesAndHorses {
    /// Against the Robot the person's pieces are at the bottom: the horses' side in round 2.
    fn flipped(&self, person: Option<Seat>) -> bool {
        person.is_some_and(|p| self.role_of(p) == Role::Horses)
    }

    fn pieces(&self) -> Vec<(Square, Art)> {
        let bunnies = self.bunnies().map(|s| (s, Art::Bunny));
        bunnies.chain(self.horses().map(|s| (s, Art::Horse))).collect()
    }

    fn tray(&self, seat: Seat) -> Vec<Art> {
        vec![Art::Bunny; BunniesAndHorses::score(self, seat) as usize]
    }

    /// Both gardens lie beyond rank 8, where the carrots grow.
    fn tray_on_far_side(&self, _seat: Seat) -> bool {
        true
    }

    fn exit(&self, square: Square, art: Art, mover: Seat) -> Exit {
        let entered = self.entered_garden();
        let moved_in =
            self.last_move().is_some_and(|m| m.from == square && entered.iter().any(|(s, _)| *s == m.to));
        if art == Art::Bunny && (moved_in || entered.iter().any(|(s, _)| *s == square)) {
            Exit::Tray(mover)
        } else {
            Exit::Vanish
        }
    }

    fn targets(&self, from: Square) -> Vec<Square> {
        self.legal_targets(from)
    }

    fn movable(&self, square: Square) -> bool {
        self.piece_at(square).is_some_and(|role| Some(role) == self.role_to_move())
    }

    fn square_colour(&self, square: Square) -> Color {
        match (square.rank == 7, square.is_dark()) {
            (true, true) => Color::srgb(0.45, 0.66, 0.33),
            (true, false) => Color::srgb(0.62, 0.80, 0.46),
            (false, true) => Color::srgb(0.71, 0.53, 0.39),
            (false, false) => Color::srgb(0.94, 0.85, 0.71),
        }
    }

    fn decorations(&self) -> Vec<Decoration> {
        (0..8).map(|file| Decoration::new(Art::Carrot, Vec2::new(file as f32 + 0.25, 7.25), 0.42)).collect()
    }
}
