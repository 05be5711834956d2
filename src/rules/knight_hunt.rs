//! Knight Hunt: the knights collect the opponent's pawns (spec/knight_hunt.md).

use super::board::{BoardShape, KNIGHT_ATTACKS, Move, Square, ascii_rows, square_names, squares_of};
use super::{EndReason, Game, Outcome, Seat, Winner, per_seat};
use serde_json::{Map, Value, json};

/// The starting position and the knight-on-knight rule of one variant, read from its level file.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// May a knight land on an enemy knight (and take it, for no points)?
    pub knights_capture: bool,
    /// Knights and pawns per seat: index 0 White, 1 Black.
    pub knights: [Vec<Square>; 2],
    pub pawns: [Vec<Square>; 2],
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnightHunt {
    knights_capture: bool,
    knights: [u64; 2],
    pawns: [u64; 2],
    /// Pawns each seat has captured: its score.
    score: [u8; 2],
    to_move: Seat,
    /// White has taken every black pawn; Black is making its one last move.
    black_last_move: bool,
    passed: Option<Seat>,
    outcome: Option<Outcome>,
    last_move: Option<Move>,
}

impl KnightHunt {
    pub fn new(setup: &Setup) -> KnightHunt {
        let bits = |squares: &Vec<Square>| squares.iter().fold(0u64, |acc, s| acc | s.bit());
        let mut game = KnightHunt {
            knights_capture: setup.knights_capture,
            knights: [bits(&setup.knights[0]), bits(&setup.knights[1])],
            pawns: [bits(&setup.pawns[0]), bits(&setup.pawns[1])],
            score: [0, 0],
            to_move: Seat::WHITE,
            black_last_move: false,
            passed: None,
            outcome: None,
            last_move: None,
        };
        game.hand_turn_to(Seat::WHITE);
        game
    }

    pub fn knights(&self, seat: Seat) -> impl Iterator<Item = Square> {
        squares_of(self.knights[seat.index()])
    }

    pub fn pawns(&self, seat: Seat) -> impl Iterator<Item = Square> {
        squares_of(self.pawns[seat.index()])
    }

    /// Pawns captured by the seat.
    pub fn score(&self, seat: Seat) -> u8 {
        self.score[seat.index()]
    }

    pub fn knights_left(&self, seat: Seat) -> u32 {
        self.knights[seat.index()].count_ones()
    }

    pub fn pawns_left(&self, seat: Seat) -> u32 {
        self.pawns[seat.index()].count_ones()
    }

    pub fn knights_capture(&self) -> bool {
        self.knights_capture
    }

    pub fn is_black_last_move(&self) -> bool {
        self.black_last_move
    }

    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// What stands on a square: the seat and whether it is a knight.
    pub fn piece_at(&self, square: Square) -> Option<(Seat, bool)> {
        let bit = square.bit();
        [Seat::WHITE, Seat::BLACK].into_iter().find_map(|seat| {
            if self.knights[seat.index()] & bit != 0 {
                Some((seat, true))
            } else if self.pawns[seat.index()] & bit != 0 {
                Some((seat, false))
            } else {
                None
            }
        })
    }

    /// The squares a knight of `seat` may not land on.
    fn forbidden(&self, seat: Seat) -> u64 {
        let own = self.pawns[seat.index()] | self.knights[seat.index()];
        if self.knights_capture { own } else { own | self.knights[seat.opponent().index()] }
    }

    /// Legal landing squares of the knight on `from`, as a bitboard.
    pub fn targets_from(&self, from: Square) -> u64 {
        match self.piece_at(from) {
            Some((seat, true)) if seat == self.to_move && self.outcome.is_none() => {
                KNIGHT_ATTACKS[from.index64()] & !self.forbidden(seat)
            }
            _ => 0,
        }
    }

    fn has_move(&self, seat: Seat) -> bool {
        let forbidden = self.forbidden(seat);
        squares_of(self.knights[seat.index()]).any(|k| KNIGHT_ATTACKS[k.index64()] & !forbidden != 0)
    }

    fn moves_of(&self, seat: Seat, out: &mut Vec<Move>) {
        let forbidden = self.forbidden(seat);
        for from in squares_of(self.knights[seat.index()]) {
            for to in squares_of(KNIGHT_ATTACKS[from.index64()] & !forbidden) {
                out.push(Move::new(from, to));
            }
        }
    }

    /// Gives the turn to `seat`, or passes it on when `seat` cannot move, or ends the game.
    fn hand_turn_to(&mut self, seat: Seat) {
        if self.has_move(seat) {
            self.to_move = seat;
        } else if self.black_last_move {
            self.finish(EndReason::Goal);
        } else if self.has_move(seat.opponent()) {
            self.passed = Some(seat);
            self.to_move = seat.opponent();
        } else {
            self.finish(EndReason::NoMoves);
        }
    }

    fn finish(&mut self, reason: EndReason) {
        let winner = match self.score[0].cmp(&self.score[1]) {
            std::cmp::Ordering::Greater => Winner::Seat(Seat::WHITE),
            std::cmp::Ordering::Less => Winner::Seat(Seat::BLACK),
            std::cmp::Ordering::Equal => Winner::Draw,
        };
        self.outcome = Some(Outcome { winner, reason });
    }
}

impl Game for KnightHunt {
    type Action = Move;
    const KIND: crate::rules::GameKind = crate::rules::GameKind::KnightHunt;

    two_seat_move_game!(white_and_black);

    fn legal_actions(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(16);
        if self.outcome.is_none() {
            self.moves_of(self.to_move, &mut moves);
        }
        moves
    }

    fn play(&mut self, action: &Move) {
        let mover = self.to_move;
        let enemy = mover.opponent();
        let (from, to) = (action.from.bit(), action.to.bit());
        self.passed = None;
        self.last_move = Some(*action);
        self.knights[mover.index()] ^= from | to;
        if self.pawns[enemy.index()] & to != 0 {
            self.pawns[enemy.index()] ^= to;
            self.score[mover.index()] += 1;
        }
        self.knights[enemy.index()] &= !to;

        if self.black_last_move {
            self.finish(EndReason::Goal);
        } else if self.pawns[enemy.index()] == 0 {
            if mover == Seat::WHITE {
                self.black_last_move = true;
                self.hand_turn_to(Seat::BLACK);
            } else {
                self.finish(EndReason::Goal);
            }
        } else {
            self.hand_turn_to(enemy);
        }
    }

    fn state_fields(&self) -> Map<String, Value> {
        let board = ascii_rows(BoardShape::CHESS, |square| match self.piece_at(square) {
            Some((Seat::WHITE, true)) => 'N',
            Some((_, true)) => 'n',
            Some((Seat::WHITE, false)) => 'P',
            Some(_) => 'p',
            None => '.',
        });
        let mut fields = Map::new();
        fields.insert("game".into(), json!("knight_hunt"));
        fields.insert("board".into(), json!(board));
        fields.insert("knights".into(), per_seat(|s| json!(square_names(self.knights[s.index()]))));
        fields.insert("pawns".into(), per_seat(|s| json!(square_names(self.pawns[s.index()]))));
        fields.insert("scores".into(), per_seat(|s| json!(self.score(s))));
        fields.insert("knights_left".into(), per_seat(|s| json!(self.knights_left(s))));
        fields.insert("knights_capture".into(), json!(self.knights_capture));
        fields.insert("black_last_move".into(), json!(self.black_last_move));
        fields.insert("passed".into(), json!(self.passed.map(|s| self.seat_name(s))));
        fields.insert("last_move".into(), json!(self.last_move.map(|m| m.to_string())));
        fields
    }
}
