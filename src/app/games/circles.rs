//! Making Circles on screen: the wall of pawns, the clockwise ring, each piece's way round as a
//! filling bar, the move list with each language's piece letters.

use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::session::game::{Decoration, Extra, GameInfo, GameView};
use crate::rules::board::{Move, Square};
use crate::rules::circles::{Circles, Piece};
use crate::rules::{Game, Seat};
use bevy::prelude::*;

fn art(seat: Seat, piece: Piece) -> Art {
    match (seat == Seat::WHITE, piece) {
        (true, Piece::Rook) => Art::WhiteRook,
        (true, Piece::Bishop) => Art::WhiteBishop,
        (false, Piece::Rook) => Art::BlackRook,
        (false, Piece::Bishop) => Art::BlackBishop,
    }
}

impl GameInfo for Circles {
    const MENU_ART: Art = Art::MenuCircles;
    const STAGE_ART: Art = Art::WhiteRook;
    /// Against the Robot the person plays Black and the Robot White (spec/circles.md).
    const PERSON_SEAT: Option<Seat> = Some(Seat::BLACK);
    const SHOW_SCORE: bool = false;

    fn score(&self, seat: Seat) -> u32 {
        Piece::ALL.iter().map(|&p| self.progress_percent(seat, p) as u32).sum::<u32>() / 2
    }

    fn extras(&self, seat: Seat, _words: &Words) -> Vec<Extra> {
        Piece::ALL
            .iter()
            .map(|&piece| Extra::Progress {
                art: art(seat, piece),
                percent: self.progress_percent(seat, piece),
                finished: self.is_piece_finished(seat, piece),
            })
            .collect()
    }

    fn banner(&self, words: &Words) -> Option<String> {
        self.is_black_last_move().then(|| words.get("black_last_move_circles").to_string())
    }

    fn piece_letter(&self, action: &Move) -> Option<&'static str> {
        Some(match self.piece_at(action.from) {
            Some((_, Piece::Bishop)) => "letter_bishop",
            _ => "letter_rook",
        })
    }
}

impl GameView for Circles {
    const HAS_TRAYS: bool = false;
    /// White stays at the bottom: clockwise is the same for both players then.
    fn flipped(&self, _person: Option<Seat>) -> bool {
        false
    }

    fn pieces(&self) -> Vec<(Square, Art)> {
        let mut pieces: Vec<(Square, Art)> = self.barrier().map(|s| (s, Art::BlackPawn)).collect();
        for seat in [Seat::WHITE, Seat::BLACK] {
            for piece in Piece::ALL {
                pieces.push((self.square_of(seat, piece), art(seat, piece)));
            }
        }
        pieces
    }

    fn tray(&self, _seat: Seat) -> Vec<Art> {
        Vec::new()
    }

    fn targets(&self, from: Square) -> Vec<Square> {
        self.legal_targets(from)
    }

    fn movable(&self, square: Square) -> bool {
        matches!(self.piece_at(square), Some((seat, _)) if Some(seat) == self.to_move())
    }

    fn square_colour(&self, square: Square) -> Color {
        let home_of = [Seat::WHITE, Seat::BLACK]
            .into_iter()
            .find(|&seat| Piece::ALL.iter().any(|&p| self.home(seat, p) == square));
        let base =
            if square.is_dark() { Color::srgb(0.62, 0.72, 0.50) } else { Color::srgb(0.90, 0.93, 0.82) };
        if self.is_barrier(square) {
            Color::srgb(0.58, 0.56, 0.54)
        } else if home_of == Some(Seat::WHITE) {
            base.mix(&Color::srgb(1.0, 1.0, 1.0), 0.45)
        } else if home_of == Some(Seat::BLACK) {
            base.mix(&Color::srgb(0.25, 0.25, 0.3), 0.35)
        } else {
            base
        }
    }

    fn decorations(&self) -> Vec<Decoration> {
        vec![Decoration::new(Art::ClockwiseRing, Vec2::new(3.5, 3.5), 7.4)]
    }
}
