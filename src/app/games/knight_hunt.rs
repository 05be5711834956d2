//! Knight Hunt on screen: its pieces, its trays of caught pawns, knights left under each score.

use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::session::game::{Exit, Extra, GameInfo, GameView};
use crate::rules::Seat;
use crate::rules::board::Square;
use crate::rules::knight_hunt::KnightHunt;
use bevy::prelude::*;

fn knight(seat: Seat) -> Art {
    if seat == Seat::WHITE { Art::WhiteKnight } else { Art::BlackKnight }
}

fn pawn(seat: Seat) -> Art {
    if seat == Seat::WHITE { Art::WhitePawn } else { Art::BlackPawn }
}

impl GameInfo for KnightHunt {
    const MENU_ART: Art = Art::MenuKnightHunt;
    const STAGE_ART: Art = Art::WhiteKnight;

    fn score(&self, seat: Seat) -> u32 {
        KnightHunt::score(self, seat) as u32
    }

    fn extras(&self, seat: Seat, _words: &Words) -> Vec<Extra> {
        vec![Extra::Count(knight(seat), self.knights_left(seat))]
    }

    fn banner(&self, words: &Words) -> Option<String> {
        self.is_black_last_move().then(|| words.get("black_last_move").to_string())
    }
}

impl GameView for KnightHunt {
    fn pieces(&self) -> Vec<(Square, Art)> {
        let mut pieces = Vec::with_capacity(20);
        for seat in [Seat::WHITE, Seat::BLACK] {
            pieces.extend(self.pawns(seat).map(|s| (s, pawn(seat))));
            pieces.extend(self.knights(seat).map(|s| (s, knight(seat))));
        }
        pieces
    }

    fn tray(&self, seat: Seat) -> Vec<Art> {
        vec![pawn(seat.opponent()); KnightHunt::score(self, seat) as usize]
    }

    fn exit(&self, _square: Square, art: Art, mover: Seat) -> Exit {
        // A caught pawn goes to its captor's tray; a caught knight leaves the game.
        if matches!(art, Art::WhitePawn | Art::BlackPawn) { Exit::Tray(mover) } else { Exit::Vanish }
    }

    fn movable(&self, square: Square) -> bool {
        matches!(self.piece_at(square), Some((seat, true)) if Some(seat) == crate::rules::Game::to_move(self))
    }
}
