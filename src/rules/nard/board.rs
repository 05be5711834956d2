//! The position: the 24 points in each player's own numbering, single checker moves, and where
//! every checker stands.

use crate::rules::Seat;
use std::fmt;

pub const POINTS: u8 = 24;
pub const CHECKERS: u8 = 15;
/// Every player's head is its own point 24.
pub const HEAD: u8 = 24;

/// The same board point in the other player's numbering (the map is its own inverse).
pub const fn other_side(point: u8) -> u8 {
    if point <= 12 { point + 12 } else { point - 12 }
}

/// A point of `seat`'s own numbering, as White numbers it.
pub const fn white_point(seat: Seat, point: u8) -> u8 {
    if seat.0 == 0 { point } else { other_side(point) }
}

/// A point of White's numbering, as `seat` numbers it.
pub const fn own_point(seat: Seat, white_point: u8) -> u8 {
    if seat.0 == 0 { white_point } else { other_side(white_point) }
}

/// One checker moved by one number, in the mover's own point numbers; `to` 0 is borne off.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct CheckerMove {
    pub from: u8,
    pub to: u8,
}

impl CheckerMove {
    pub const fn new(from: u8, to: u8) -> CheckerMove {
        CheckerMove { from, to }
    }

    pub const fn bear_off(from: u8) -> CheckerMove {
        CheckerMove { from, to: 0 }
    }

    /// The number this move uses.
    pub const fn die(self) -> u8 {
        self.from - self.to
    }

    pub const fn is_bear_off(self) -> bool {
        self.to == 0
    }

    pub const fn leaves_head(self) -> bool {
        self.from == HEAD
    }

    /// The text form: `24/21`, `3/off`.
    pub fn parse(text: &str) -> Option<CheckerMove> {
        let (from, to) = text.trim().split_once('/')?;
        let from: u8 = from.trim().parse().ok()?;
        let to = match to.trim() {
            "off" => 0,
            number => number.parse().ok()?,
        };
        let valid = (1..=POINTS).contains(&from) && to < from && (to > 0 || from <= 6) && from - to <= 6;
        valid.then_some(CheckerMove { from, to })
    }
}

impl fmt::Display for CheckerMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.to == 0 { write!(f, "{}/off", self.from) } else { write!(f, "{}/{}", self.from, self.to) }
    }
}

/// Why a position cannot be built.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BoardError {
    PointOffBoard(u8),
    PointTwice(u8),
    TooManyCheckers(u32),
    /// Both players on one point (given in White's numbering).
    SharedPoint(u8),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::PointOffBoard(p) => write!(f, "point {p} is off the board (points are 1 to 24)"),
            BoardError::PointTwice(p) => write!(f, "point {p} is given twice"),
            BoardError::TooManyCheckers(n) => write!(f, "{n} checkers on one side (a side has 15)"),
            BoardError::SharedPoint(p) => write!(f, "both players on White's point {p}"),
        }
    }
}

/// Where every checker stands. Each side is kept in its own numbering: `counts[seat][p]` is the
/// number of its checkers on its point p (1..=24), `counts[seat][0]` those borne off.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Board {
    pub(super) counts: [[u8; 25]; 2],
}

impl Board {
    /// The spec's start: all 15 of each side on its head.
    pub fn opening() -> Board {
        let mut counts = [[0u8; 25]; 2];
        counts[0][HEAD as usize] = CHECKERS;
        counts[1][HEAD as usize] = CHECKERS;
        Board { counts }
    }

    /// Both sides with the same checkers on the same own points, the rest borne off.
    pub fn symmetric(start: &[(u8, u8)]) -> Result<Board, BoardError> {
        Board::from_points(start, start)
    }

    /// A position from each side's (own point, checkers) pairs; checkers not placed are borne off.
    pub fn from_points(white: &[(u8, u8)], black: &[(u8, u8)]) -> Result<Board, BoardError> {
        let mut counts = [[0u8; 25]; 2];
        for (side, points) in [white, black].into_iter().enumerate() {
            let mut total = 0u32;
            for &(point, n) in points {
                if !(1..=POINTS).contains(&point) {
                    return Err(BoardError::PointOffBoard(point));
                }
                if counts[side][point as usize] > 0 {
                    return Err(BoardError::PointTwice(point));
                }
                total += n as u32;
                if total > CHECKERS as u32 {
                    return Err(BoardError::TooManyCheckers(total));
                }
                counts[side][point as usize] = n;
            }
            counts[side][0] = CHECKERS - total as u8;
        }
        for point in 1..=POINTS {
            if counts[0][point as usize] > 0 && counts[1][other_side(point) as usize] > 0 {
                return Err(BoardError::SharedPoint(point));
            }
        }
        Ok(Board { counts })
    }

    /// Checkers of `seat` on its own point (1..=24).
    pub fn count(&self, seat: Seat, point: u8) -> u8 {
        self.counts[seat.index()][point as usize]
    }

    pub fn borne_off(&self, seat: Seat) -> u8 {
        self.counts[seat.index()][0]
    }

    /// Checkers of `seat` still on the board.
    pub fn on_board(&self, seat: Seat) -> u8 {
        CHECKERS - self.borne_off(seat)
    }

    /// Who stands on White's point `point`, and how many.
    pub fn at_white_point(&self, point: u8) -> Option<(Seat, u8)> {
        let white = self.counts[0][point as usize];
        let black = self.counts[1][other_side(point) as usize];
        if white > 0 {
            Some((Seat::WHITE, white))
        } else if black > 0 {
            Some((Seat::BLACK, black))
        } else {
            None
        }
    }

    /// The board in White's numbering: entry i is White's point i + 1, White's checkers counted
    /// positive and Black's negative.
    pub fn white_view(&self) -> [i8; 24] {
        let mut view = [0i8; 24];
        for (i, cell) in view.iter_mut().enumerate() {
            *cell = match self.at_white_point(i as u8 + 1) {
                Some((Seat::WHITE, n)) => n as i8,
                Some((_, n)) => -(n as i8),
                None => 0,
            };
        }
        view
    }

    /// Points still to travel: each checker counts its own point number.
    pub fn pip_count(&self, seat: Seat) -> u32 {
        let side = &self.counts[seat.index()];
        (1..=24).map(|p| p as u32 * side[p] as u32).sum()
    }

    /// Whether `seat` has an opponent's checker on its own point `point`.
    pub fn opponent_on(&self, seat: Seat, point: u8) -> bool {
        self.counts[seat.opponent().index()][other_side(point) as usize] > 0
    }

    /// All of the seat's checkers are home or borne off: it may only bear off.
    pub fn is_bearing_off(&self, seat: Seat) -> bool {
        self.counts[seat.index()][7..].iter().all(|&n| n == 0)
    }

    /// The seat holds all six of its home points.
    pub fn holds_whole_home(&self, seat: Seat) -> bool {
        self.counts[seat.index()][1..=6].iter().all(|&n| n > 0)
    }

    /// Checkers of the seat in its first quarter (its points 19–24).
    pub fn in_first_quarter(&self, seat: Seat) -> u8 {
        self.counts[seat.index()][19..=24].iter().sum()
    }

    /// Both players hold their whole home and each still has checkers in its first quarter: nobody
    /// can ever get past the other's home.
    pub fn is_deadlock(&self) -> bool {
        [Seat::WHITE, Seat::BLACK].iter().all(|&s| self.holds_whole_home(s) && self.in_first_quarter(s) > 0)
    }

    /// The board after a move; the move must be possible.
    pub fn after(&self, seat: Seat, mv: CheckerMove) -> Board {
        let mut next = *self;
        let side = &mut next.counts[seat.index()];
        side[mv.from as usize] -= 1;
        side[mv.to as usize] += 1;
        next
    }
}
