//! Making Circles: each side races its rook and bishop once clockwise around a wall of pawns and
//! home again (spec/circles.md). Angles are in degrees, measured clockwise from "12 o'clock"
//! (towards rank 8) around the board's centre.

use super::board::{BISHOP_DIRECTIONS, BoardShape, Move, ROOK_DIRECTIONS, Square, ascii_rows, squares_of};
use super::{EndReason, Game, Outcome, RuleError, Seat, per_seat};
use geometry::{Geometry, look_up};
use serde_json::{Map, Value, json};
use std::sync::Arc;

mod geometry;

/// The winding of one full loop.
pub const FULL_LOOP: f64 = 360.0;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Piece {
    Rook,
    Bishop,
}

impl Piece {
    pub const ALL: [Piece; 2] = [Piece::Rook, Piece::Bishop];

    pub fn index(self) -> usize {
        match self {
            Piece::Rook => 0,
            Piece::Bishop => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
        }
    }

    /// The side's other piece.
    pub fn partner(self) -> Piece {
        match self {
            Piece::Rook => Piece::Bishop,
            Piece::Bishop => Piece::Rook,
        }
    }

    fn directions(self) -> &'static [(i8, i8); 4] {
        match self {
            Piece::Rook => &ROOK_DIRECTIONS,
            Piece::Bishop => &BISHOP_DIRECTIONS,
        }
    }
}

/// How a move turns around the centre.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// Clockwise: allowed.
    Forward,
    /// Straight towards or away from the centre: allowed, no progress.
    Neutral,
    /// A little anticlockwise but closer to the centre: allowed.
    SmallStepBack,
    /// Anticlockwise: not allowed.
    Backward,
}

impl Step {
    pub fn is_allowed(self) -> bool {
        self != Step::Backward
    }
}

/// One variant, as read from its level file.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The point every angle is measured from, in half squares: a1's lower left corner is (0, 0)
    /// and a square is 2 wide, so the middle of square (file f, rank r) is (2f + 1, 2r + 1) and
    /// (8, 8) is the board's centre. Whole numbers, so that every direction is exact.
    pub centre_halves: (i32, i32),
    /// The largest anticlockwise turn still allowed for a step towards the centre.
    pub max_back_step_deg: f64,
    /// Home squares, `[seat][piece]` (`Piece::index`); the pieces start there.
    pub homes: [[Square; 2]; 2],
    /// Squares of the wall: nobody's, never moving, never passed.
    pub barrier: Vec<Square>,
    /// A draw after this many moves in a row (both sides counted) with no piece reaching a new
    /// best winding.
    pub no_progress_plies: u32,
    /// A draw after this many rounds (a turn of each side) without a winner.
    pub max_rounds: u32,
}

impl Setup {
    pub fn home(&self, seat: Seat, piece: Piece) -> Square {
        self.homes[seat.index()][piece.index()]
    }

    /// The centre in board units (a square is 1 wide).
    pub fn centre(&self) -> (f64, f64) {
        (self.centre_halves.0 as f64 / 2.0, self.centre_halves.1 as f64 / 2.0)
    }
}

/// A winding kept exactly: the piece stands on (or, for a best winding, stood on) `square` after
/// `loops` whole loops beyond its home's direction. In degrees it is the clockwise turn from the
/// home's direction to the square's, in [0, 360), plus 360° a loop; no sum of angles is kept, so
/// no rounding can gather.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Winding {
    pub square: Square,
    pub loops: i32,
}

/// Everything the rules keep about a game in progress, to set up a position directly.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    /// `[seat][piece]`.
    pub squares: [[Square; 2]; 2],
    /// Each piece's whole loops beyond its home's direction (`Circles::loops`): its winding is the
    /// turn from its home to its square plus 360° a loop.
    pub loops: [[i32; 2]; 2],
    /// Each piece's best winding so far (the 20-move rule looks for a new best).
    pub best: [[Winding; 2]; 2],
    pub to_move: Seat,
    /// Turns taken so far, skipped turns included (two per round).
    pub turns_played: u32,
    /// Moves in a row in which no piece reached a new best winding.
    pub plies_without_progress: u32,
}

/// What the last move did, for the move list and the animation.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct MoveReport {
    pub seat: Seat,
    pub piece: Piece,
    pub mv: Move,
    /// The move's turn around the centre, in degrees (negative for a small step back).
    pub delta: f64,
    pub step: Step,
    /// The piece reached a new best winding (the 20-move count started again).
    pub progressed: bool,
    /// The piece stands finished after this move.
    pub finished_piece: bool,
}

const SEATS: [Seat; 2] = [Seat::WHITE, Seat::BLACK];

#[derive(Clone, Debug, PartialEq)]
pub struct Circles {
    geometry: Arc<Geometry>,
    squares: [[Square; 2]; 2],
    loops: [[i32; 2]; 2],
    best: [[Winding; 2]; 2],
    to_move: Seat,
    turns_played: u32,
    plies_without_progress: u32,
    /// White has finished; Black is making its one last move.
    black_last_move: bool,
    passed: Option<Seat>,
    outcome: Option<Outcome>,
    last_move: Option<MoveReport>,
}

impl Circles {
    /// A new game; the setup is trusted (level files are checked when they are read).
    pub fn new(setup: &Setup) -> Circles {
        let mut game = Circles {
            geometry: Arc::new(Geometry::new(setup)),
            squares: setup.homes,
            loops: [[0; 2]; 2],
            best: setup.homes.map(|homes| homes.map(|square| Winding { square, loops: 0 })),
            to_move: Seat::WHITE,
            turns_played: 0,
            plies_without_progress: 0,
            black_last_move: false,
            passed: None,
            outcome: None,
            last_move: None,
        };
        game.hand_turn_to(Seat::WHITE);
        game
    }

    /// A game from a given position (for puzzles and tests). If White has finished and Black is to
    /// move, this is Black's one last move; a side to move that cannot move skips at once, as in
    /// play. A position that cannot happen is refused.
    pub fn from_position(setup: &Setup, position: &Position) -> Result<Circles, RuleError> {
        let geometry = Arc::new(Geometry::new(setup));
        let refuse = |why: String| Err(RuleError::Illegal(why));
        let mut taken = geometry.barrier;
        for seat in SEATS {
            for piece in Piece::ALL {
                let (s, p) = (seat.index(), piece.index());
                let square = position.squares[s][p];
                if !BoardShape::CHESS.contains(square) {
                    return refuse(format!("a {} is off the board", piece.name()));
                }
                if taken & square.bit() != 0 {
                    return refuse(format!("square {square} is not free for the {}", piece.name()));
                }
                taken |= square.bit();
                let best = position.best[s][p];
                let now = Winding { square, loops: position.loops[s][p] };
                if !BoardShape::CHESS.contains(best.square)
                    || geometry.rank(seat, piece, best) < geometry.rank(seat, piece, now)
                {
                    return refuse(format!(
                        "the {} on {square} has a best winding below its winding",
                        piece.name()
                    ));
                }
            }
        }
        let limit = 2 * u64::from(setup.max_rounds);
        if position.plies_without_progress >= setup.no_progress_plies
            || u64::from(position.turns_played) >= limit
        {
            return refuse("the position is already past a draw limit".into());
        }
        let mut game = Circles {
            geometry,
            squares: position.squares,
            loops: position.loops,
            best: position.best,
            to_move: position.to_move,
            turns_played: position.turns_played,
            plies_without_progress: position.plies_without_progress,
            black_last_move: false,
            passed: None,
            outcome: None,
            last_move: None,
        };
        if game.has_finished(Seat::BLACK) {
            return refuse("Black has finished: that game is over".into());
        }
        if game.has_finished(Seat::WHITE) {
            if position.to_move == Seat::WHITE {
                return refuse("White has finished: Black is to move".into());
            }
            game.black_last_move = true;
        }
        game.hand_turn_to(position.to_move);
        Ok(game)
    }

    /// The position now, to be changed and given back to `from_position`.
    pub fn position(&self) -> Position {
        Position {
            squares: self.squares,
            loops: self.loops,
            best: self.best,
            to_move: self.to_move,
            turns_played: self.turns_played,
            plies_without_progress: self.plies_without_progress,
        }
    }

    pub fn setup(&self) -> &Setup {
        &self.geometry.setup
    }

    pub fn square_of(&self, seat: Seat, piece: Piece) -> Square {
        self.squares[seat.index()][piece.index()]
    }

    pub fn home(&self, seat: Seat, piece: Piece) -> Square {
        self.geometry.setup.home(seat, piece)
    }

    pub fn barrier(&self) -> impl Iterator<Item = Square> {
        squares_of(self.geometry.barrier)
    }

    pub fn is_barrier(&self, square: Square) -> bool {
        self.geometry.barrier & square.bit() != 0
    }

    /// The piece on a square, with its side.
    pub fn piece_at(&self, square: Square) -> Option<(Seat, Piece)> {
        SEATS
            .into_iter()
            .flat_map(|seat| Piece::ALL.map(|piece| (seat, piece)))
            .find(|&(seat, piece)| self.square_of(seat, piece) == square)
    }

    /// The piece's winding, exactly.
    pub fn exact_winding(&self, seat: Seat, piece: Piece) -> Winding {
        Winding { square: self.square_of(seat, piece), loops: self.loops(seat, piece) }
    }

    /// The piece's winding: the sum of the turns of its moves, in degrees (the turn from its home
    /// to its square plus 360° a loop).
    pub fn winding(&self, seat: Seat, piece: Piece) -> f64 {
        self.geometry.degrees(seat, piece, self.exact_winding(seat, piece))
    }

    /// The piece's best winding so far, in degrees.
    pub fn best_winding(&self, seat: Seat, piece: Piece) -> f64 {
        self.geometry.degrees(seat, piece, self.best[seat.index()][piece.index()])
    }

    /// Progress to show: the winding as a percent of a loop, rounded to the nearest whole one;
    /// 100 only for a finished piece, at most 99 before (and after it leaves home again), at
    /// least 0. The bishop's small step back (4.57°, 1.27%) so lowers it by one.
    pub fn progress_percent(&self, seat: Seat, piece: Piece) -> u8 {
        if self.is_piece_finished(seat, piece) {
            return 100;
        }
        let percent = (self.winding(seat, piece) / FULL_LOOP * 100.0).round();
        percent.clamp(0.0, 99.0) as u8
    }

    /// Whole loops the piece has made beyond its home direction (−1 after a small step back from home).
    pub fn loops(&self, seat: Seat, piece: Piece) -> i32 {
        self.loops[seat.index()][piece.index()]
    }

    /// A full loop made and standing on its home square.
    pub fn is_piece_finished(&self, seat: Seat, piece: Piece) -> bool {
        self.square_of(seat, piece) == self.home(seat, piece) && self.loops(seat, piece) >= 1
    }

    /// Both pieces finished.
    pub fn has_finished(&self, seat: Seat) -> bool {
        Piece::ALL.iter().all(|&piece| self.is_piece_finished(seat, piece))
    }

    /// The clockwise angle of a square's middle seen from the centre, in [0, 360).
    pub fn angle(&self, square: Square) -> f64 {
        self.geometry.theta[square.index64()]
    }

    /// The turn of a move around the centre, in (−180, 180].
    pub fn delta(&self, from: Square, to: Square) -> f64 {
        self.geometry.delta(from, to)
    }

    /// What the clockwise rule says of a move, blocking aside.
    pub fn step(&self, from: Square, to: Square) -> Step {
        self.geometry.step(from, to)
    }

    fn occupied(&self) -> u64 {
        self.squares.iter().flatten().fold(self.geometry.barrier, |acc, s| acc | s.bit())
    }

    fn targets_bits(&self, seat: Seat, piece: Piece) -> u64 {
        self.geometry.targets(piece, self.square_of(seat, piece), self.occupied())
    }

    /// Where the piece could go now if it were its side's turn.
    pub fn targets_of(&self, seat: Seat, piece: Piece) -> impl Iterator<Item = Square> + use<> {
        squares_of(self.targets_bits(seat, piece))
    }

    /// The legal destinations of the piece on `from`: empty unless it belongs to the side to move
    /// (and the game goes on).
    pub fn legal_targets(&self, from: Square) -> Vec<Square> {
        match self.piece_at(from) {
            Some((seat, piece)) if seat == self.to_move && self.outcome.is_none() => {
                self.targets_of(seat, piece).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The piece has no legal move now (the player should move the other one).
    pub fn is_stuck(&self, seat: Seat, piece: Piece) -> bool {
        self.targets_bits(seat, piece) == 0
    }

    fn has_move(&self, seat: Seat) -> bool {
        Piece::ALL.iter().any(|&piece| !self.is_stuck(seat, piece))
    }

    /// The round under way, from 1 (a round is a turn of each side).
    pub fn round(&self) -> u32 {
        self.turns_played / 2 + 1
    }

    pub fn turns_played(&self) -> u32 {
        self.turns_played
    }

    pub fn plies_without_progress(&self) -> u32 {
        self.plies_without_progress
    }

    pub fn is_black_last_move(&self) -> bool {
        self.black_last_move
    }

    pub fn last_move(&self) -> Option<MoveReport> {
        self.last_move
    }

    /// Fewest moves the piece needs to finish if only the barrier stood in its way; `None` if it
    /// never can.
    pub fn moves_to_finish(&self, seat: Seat, piece: Piece) -> Option<u8> {
        let table = &self.geometry.fewest[seat.index()][piece.index()];
        look_up(table, self.exact_winding(seat, piece))
    }

    /// The same, after the piece moved to `to` (counting from there; the move itself not included).
    pub fn moves_to_finish_after(&self, seat: Seat, piece: Piece, to: Square) -> Option<u8> {
        let table = &self.geometry.fewest[seat.index()][piece.index()];
        let from = self.square_of(seat, piece);
        let loops = self.loops(seat, piece) + self.geometry.loop_change(seat, piece, from, to);
        look_up(table, Winding { square: to, loops })
    }

    /// The same as `moves_to_finish` if the partner stood on its home the whole time.
    pub fn moves_to_finish_around_partner(&self, seat: Seat, piece: Piece) -> Option<u8> {
        let table = &self.geometry.fewest_around_partner[seat.index()][piece.index()];
        look_up(table, self.exact_winding(seat, piece))
    }

    fn round_limit_reached(&self) -> bool {
        u64::from(self.turns_played) >= 2 * u64::from(self.geometry.setup.max_rounds)
    }

    /// Gives the turn to `seat`, or skips it when `seat` cannot move, or ends the game.
    fn hand_turn_to(&mut self, seat: Seat) {
        if self.has_move(seat) {
            self.to_move = seat;
        } else if self.black_last_move {
            self.passed = Some(seat);
            self.outcome = Some(Outcome::win(Seat::WHITE, EndReason::Goal));
        } else if !self.has_move(seat.opponent()) {
            self.outcome = Some(Outcome::draw(EndReason::NoMoves));
        } else {
            // A skipped turn is a turn for the round limit but not a move for the 20-move rule.
            self.passed = Some(seat);
            self.turns_played += 1;
            if self.round_limit_reached() {
                self.outcome = Some(Outcome::draw(EndReason::MoveLimit));
            } else {
                self.to_move = seat.opponent();
            }
        }
    }

    /// Moves the piece and keeps its winding and the progress count.
    fn move_piece(&mut self, seat: Seat, piece: Piece, mv: Move) {
        let (s, p) = (seat.index(), piece.index());
        let geometry = &self.geometry;
        let delta = geometry.delta(mv.from, mv.to);
        let step = geometry.step(mv.from, mv.to);
        let loops = self.loops[s][p] + geometry.loop_change(seat, piece, mv.from, mv.to);
        let winding = Winding { square: mv.to, loops };
        let progressed = geometry.rank(seat, piece, winding) > geometry.rank(seat, piece, self.best[s][p]);
        self.squares[s][p] = mv.to;
        self.loops[s][p] = loops;
        if progressed {
            self.best[s][p] = winding;
            self.plies_without_progress = 0;
        } else {
            self.plies_without_progress += 1;
        }
        self.turns_played += 1;
        let finished_piece = self.is_piece_finished(seat, piece);
        self.last_move = Some(MoveReport { seat, piece, mv, delta, step, progressed, finished_piece });
    }
}

impl Game for Circles {
    type Action = Move;
    const KIND: crate::rules::GameKind = crate::rules::GameKind::Circles;

    two_seat_move_game!(white_and_black);

    fn legal_actions(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(24);
        if self.outcome.is_none() {
            for piece in Piece::ALL {
                let from = self.square_of(self.to_move, piece);
                moves
                    .extend(squares_of(self.targets_bits(self.to_move, piece)).map(|to| Move::new(from, to)));
            }
        }
        moves
    }

    fn play(&mut self, action: &Move) {
        let mover = self.to_move;
        let Some(piece) = Piece::ALL.into_iter().find(|&p| self.square_of(mover, p) == action.from) else {
            return;
        };
        self.passed = None;
        self.move_piece(mover, piece, *action);

        // Finishing is decided before any draw by count.
        if self.black_last_move {
            self.outcome = Some(if self.has_finished(Seat::BLACK) {
                Outcome::draw(EndReason::Goal)
            } else {
                Outcome::win(Seat::WHITE, EndReason::Goal)
            });
        } else if self.has_finished(mover) {
            if mover == Seat::WHITE {
                self.black_last_move = true;
                self.hand_turn_to(Seat::BLACK);
            } else {
                self.outcome = Some(Outcome::win(Seat::BLACK, EndReason::Goal));
            }
        } else if self.plies_without_progress >= self.geometry.setup.no_progress_plies {
            self.outcome = Some(Outcome::draw(EndReason::NoProgress));
        } else if self.round_limit_reached() {
            self.outcome = Some(Outcome::draw(EndReason::MoveLimit));
        } else {
            self.hand_turn_to(mover.opponent());
        }
    }

    fn state_fields(&self) -> Map<String, Value> {
        let board = ascii_rows(BoardShape::CHESS, |square| match self.piece_at(square) {
            Some((Seat::WHITE, Piece::Rook)) => 'R',
            Some((Seat::WHITE, Piece::Bishop)) => 'B',
            Some((_, Piece::Rook)) => 'r',
            Some((_, Piece::Bishop)) => 'b',
            None if self.is_barrier(square) => 'p',
            None => '.',
        });
        let piece_json = |seat: Seat, piece: Piece| {
            json!({
                "square": self.square_of(seat, piece).to_string(),
                "home": self.home(seat, piece).to_string(),
                "progress": self.progress_percent(seat, piece),
                "winding": (self.winding(seat, piece) * 100.0).round() / 100.0,
                "finished": self.is_piece_finished(seat, piece),
                "stuck": self.is_stuck(seat, piece),
            })
        };
        let side_json = |seat: Seat| {
            json!({
                "rook": piece_json(seat, Piece::Rook),
                "bishop": piece_json(seat, Piece::Bishop),
                "finished": self.has_finished(seat),
            })
        };
        let barrier: Vec<String> = self.barrier().map(|s| s.to_string()).collect();
        let mut fields = Map::new();
        fields.insert("game".into(), json!("circles"));
        fields.insert("board".into(), json!(board));
        fields.insert("pieces".into(), per_seat(side_json));
        fields.insert("barrier".into(), json!(barrier));
        fields.insert("round".into(), json!(self.round()));
        fields.insert("turns_played".into(), json!(self.turns_played));
        fields.insert("plies_without_progress".into(), json!(self.plies_without_progress));
        fields.insert("black_last_move".into(), json!(self.black_last_move));
        fields.insert("passed".into(), json!(self.passed.map(|s| self.seat_name(s))));
        fields.insert("last_move".into(), json!(self.last_move.map(|m| m.mv.to_string())));
        fields.insert("last_piece".into(), json!(self.last_move.map(|m| m.piece.name())));
        fields
    }
}
