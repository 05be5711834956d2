//! Halma on screen: four armies told apart by colour and shape, camps tinted in their army's
//! colour, each goal marked with its army's faint shape, chains previewed hop by hop before they
//! are played, draws offered with a button and voted in a dialog.

use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::session::game::{BoardAction, Decoration, Extra, GameInfo, GameView};
use crate::rules::board::{BoardShape, Move, Square};
use crate::rules::halma::{Corner, Halma, HalmaAction, HeldAtHome};
use crate::rules::{Game, Seat};
use bevy::prelude::*;

/// Each corner's army: its colour's words key, its piece, its goal mark and its camp's tint.
struct Army {
    key: &'static str,
    piece: Art,
    goal: Art,
    tint: Color,
}

fn army(corner: Corner) -> Army {
    match corner {
        Corner::A1 => Army {
            key: "halma_red",
            piece: Art::HalmaRed,
            goal: Art::HalmaGoalRed,
            tint: Color::srgb(0.85, 0.27, 0.17),
        },
        Corner::P1 => Army {
            key: "halma_yellow",
            piece: Art::HalmaYellow,
            goal: Art::HalmaGoalYellow,
            tint: Color::srgb(0.95, 0.76, 0.19),
        },
        Corner::P16 => Army {
            key: "halma_blue",
            piece: Art::HalmaBlue,
            goal: Art::HalmaGoalBlue,
            tint: Color::srgb(0.18, 0.44, 0.82),
        },
        Corner::A16 => Army {
            key: "halma_purple",
            piece: Art::HalmaPurple,
            goal: Art::HalmaGoalPurple,
            tint: Color::srgb(0.6, 0.31, 0.75),
        },
    }
}

impl BoardAction for HalmaAction {
    fn motion(&self) -> Option<Move> {
        match *self {
            HalmaAction::Move { from, to } => Some(Move::new(from, to)),
            HalmaAction::ProposeDraw | HalmaAction::Vote(_) => None,
        }
    }
}

impl GameInfo for Halma {
    const MENU_ART: Art = Art::MenuHalma;
    const STAGE_ART: Art = Art::HalmaRed;
    const SHOW_SCORE: bool = false;
    const SEAT_BY_SEAT: bool = true;

    fn seat_label_key(&self, seat: Seat) -> &'static str {
        army(self.corner(seat)).key
    }

    fn seat_art(&self, seat: Seat) -> Option<Art> {
        Some(army(self.corner(seat)).piece)
    }

    fn score(&self, seat: Seat) -> u32 {
        self.in_goal(seat)
    }

    fn extras(&self, seat: Seat, _words: &Words) -> Vec<Extra> {
        let total = self.pieces(seat).count() as u32;
        let home = self.in_goal(seat);
        let mut extras = vec![Extra::Progress {
            art: army(self.corner(seat)).piece,
            percent: (home * 100 / total.max(1)) as u8,
            finished: self.has_finished(seat),
        }];
        extras.push(Extra::Text(format!("{home} / {total}")));
        // Partners show each other's piece: a team plays together.
        if let Some(partner) = self.partner(seat) {
            extras.push(Extra::Count(army(self.corner(partner)).piece, 1));
        }
        extras
    }

    fn partner_of(&self, seat: Seat) -> Option<Seat> {
        self.partner(seat)
    }

    fn banner(&self, words: &Words) -> Option<String> {
        self.vote().map(|_| words.get("draw_asked").to_string())
    }

    fn phase_notice(&self, before: &Self, _person: Option<Seat>, words: &Words) -> Option<String> {
        // The rule holds for the army the seat moves (its partner's, once its own is home).
        if let Some(mover) =
            before.to_move().filter(|&seat| self.clears_camp(seat) && !before.clears_camp(seat))
            && let camp = self.camp(self.army_of(mover))
            && self.pieces(self.army_of(mover)).any(|square| camp.contains(&square))
        {
            let name = words.get(self.seat_label_key(mover));
            return Some(words.fill("halma_leave_home_now", &[("name", name)]));
        }
        // A draw offer that ended without ending the game was refused by the seat that voted last.
        let refused = before.vote().filter(|_| self.vote().is_none() && self.outcome().is_none())?;
        let name = words.get(self.seat_label_key(refused.voter));
        Some(words.fill("draw_refused", &[("name", name)]))
    }

    fn why_stuck(&self, square: Square) -> Option<&'static str> {
        self.held_at_home(square).map(|held| match held {
            HeldAtHome::WouldEndAtHome => "halma_would_end_at_home",
            HeldAtHome::OthersMustLeave => "halma_others_must_leave",
        })
    }

    fn choice_art(&self, choice: &HalmaAction) -> Option<Art> {
        (*choice == HalmaAction::ProposeDraw).then_some(Art::Handshake)
    }

    fn choices(&self) -> Vec<(HalmaAction, &'static str)> {
        if self.vote().is_some() {
            return vec![(HalmaAction::Vote(true), "draw_yes"), (HalmaAction::Vote(false), "draw_no")];
        }
        if self.outcome().is_none() && self.may_propose() {
            return vec![(HalmaAction::ProposeDraw, "offer_draw")];
        }
        Vec::new()
    }

    fn question(&self, words: &Words) -> Option<String> {
        let vote = self.vote()?;
        Some(words.fill("draw_question", &[("name", words.get(self.seat_label_key(vote.proposer)))]))
    }

    fn next_first(&self) -> Option<Self> {
        Some(Halma::new(&self.setup().with_next_first()))
    }
}

impl GameView for Halma {
    const CONFIRM_MOVES: bool = true;
    const HAS_TRAYS: bool = false;
    const HOPS: bool = true;

    /// The person's camp at the bottom: a camp in the upper corners turns the board round.
    fn flipped(&self, person: Option<Seat>) -> bool {
        person.is_some_and(|seat| self.corner(seat).corner_square().rank == 15)
    }

    fn shape(&self) -> BoardShape {
        BoardShape::HALMA
    }

    fn pieces(&self) -> Vec<(Square, Art)> {
        self.seats()
            .flat_map(|seat| self.pieces(seat).map(move |s| (s, army(self.corner(seat)).piece)))
            .collect()
    }

    fn tray(&self, _seat: Seat) -> Vec<Art> {
        Vec::new()
    }

    fn movable(&self, square: Square) -> bool {
        Halma::movable(self, square)
    }

    fn target_paths(&self, from: Square) -> Vec<Vec<Square>> {
        self.reach(from).into_iter().map(|(_, path)| path).collect()
    }

    fn path_of(&self, action: &HalmaAction) -> Vec<Square> {
        match *action {
            HalmaAction::Move { from, to } => self.path(from, to).unwrap_or_else(|| vec![to]),
            HalmaAction::ProposeDraw | HalmaAction::Vote(_) => Vec::new(),
        }
    }

    fn further(&self, from: Square, path: &[Square]) -> Vec<Square> {
        let chain: Vec<Square> = std::iter::once(from).chain(path.iter().copied()).collect();
        self.further_landings(&chain)
    }

    fn square_colour(&self, square: Square) -> Color {
        let base =
            if square.is_dark() { Color::srgb(0.80, 0.66, 0.50) } else { Color::srgb(0.96, 0.89, 0.76) };
        match self.seats().find(|&seat| self.camp(seat).contains(&square)) {
            Some(seat) => base.mix(&army(self.corner(seat)).tint, 0.38),
            None => base,
        }
    }

    fn decorations(&self) -> Vec<Decoration> {
        self.seats()
            .flat_map(|seat| {
                let goal = army(self.corner(seat)).goal;
                self.goal(seat)
                    .into_iter()
                    .map(move |s| Decoration::new(goal, Vec2::new(s.file as f32, s.rank as f32), 0.8))
            })
            .collect()
    }
}
