//! Squares, board shapes, directions and 8×8 bitboards shared by the square-board games.
//!
//! Squares, their names and `BoardShape` serve any board up to 16×16 (`p16`). The bitboards do not:
//! `Square::bit`, `Square::index64`, `Square::from_index64`, `squares_of` and the knight tables
//! number an 8×8 board in one `u64`, and a square off it is a programming error (checked in debug
//! builds). A larger board keeps its own grid.

use super::RuleError;
use std::fmt;

/// A square named by file (0 = a) and rank (0 = rank 1). It does not know the board's size;
/// `BoardShape` says whether it lies on a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square {
    pub file: u8,
    pub rank: u8,
}

impl Square {
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// The square `df` files and `dr` ranks away, if it is on `shape`.
    pub fn offset(self, df: i8, dr: i8, shape: BoardShape) -> Option<Square> {
        let file = self.file as i16 + df as i16;
        let rank = self.rank as i16 + dr as i16;
        shape.contains_coords(file, rank).then(|| Square::new(file as u8, rank as u8))
    }

    /// The square's bit in an 8×8 bitboard; only for squares of an 8×8 board.
    pub const fn bit(self) -> u64 {
        1u64 << self.index64()
    }

    /// The square at `index` (0 to 63) of an 8×8 bitboard.
    pub const fn from_index64(index: u32) -> Square {
        debug_assert!(index < 64, "an 8×8 bitboard has 64 squares");
        Square::new((index % 8) as u8, (index / 8) as u8)
    }

    /// Index of the square in an 8×8 bitboard (rank × 8 + file); only for squares of an 8×8 board.
    pub const fn index64(self) -> usize {
        debug_assert!(self.file < 8 && self.rank < 8, "bitboards are 8×8");
        (self.rank as usize) * 8 + self.file as usize
    }

    /// Whether the square is dark on a chessboard (a1 is dark).
    pub fn is_dark(self) -> bool {
        (self.file + self.rank).is_multiple_of(2)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank as u32 + 1)
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SquareError {
    /// Not a square name at all ("k", "b0x").
    Unknown(String),
    /// A square name outside this board ("i4" on 8×8).
    OffBoard(String),
}

impl fmt::Display for SquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SquareError::Unknown(name) => write!(f, "unknown square \"{name}\""),
            SquareError::OffBoard(name) => write!(f, "square \"{name}\" is off the board"),
        }
    }
}

/// The size of a rectangular board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardShape {
    pub files: u8,
    pub ranks: u8,
}

impl BoardShape {
    pub const CHESS: BoardShape = BoardShape { files: 8, ranks: 8 };
    /// Halma's board: its squares have names, but no 8×8 bitboard holds them.
    pub const HALMA: BoardShape = BoardShape { files: 16, ranks: 16 };

    pub fn contains(self, square: Square) -> bool {
        square.file < self.files && square.rank < self.ranks
    }

    fn contains_coords(self, file: i16, rank: i16) -> bool {
        (0..self.files as i16).contains(&file) && (0..self.ranks as i16).contains(&rank)
    }

    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.ranks).flat_map(move |rank| (0..self.files).map(move |file| Square::new(file, rank)))
    }

    /// Reads a square name such as "g1" or "p16".
    pub fn parse(self, name: &str) -> Result<Square, SquareError> {
        let unknown = || SquareError::Unknown(name.to_string());
        let mut chars = name.chars();
        let file = chars.next().filter(|c| c.is_ascii_lowercase()).ok_or_else(unknown)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(unknown());
        }
        let rank: u16 = digits.parse().map_err(|_| unknown())?;
        if rank == 0 || digits.starts_with('0') {
            return Err(unknown());
        }
        let file = file as u16 - 'a' as u16;
        if file >= self.files as u16 || rank > self.ranks as u16 {
            return Err(SquareError::OffBoard(name.to_string()));
        }
        Ok(Square::new(file as u8, (rank - 1) as u8))
    }
}

/// A piece going from one square to another: the action of Knight Hunt, Making Circles and
/// Bunnies and Horses. Written as the two square names, `g1f3`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    pub fn parse(text: &str, shape: BoardShape) -> Option<Move> {
        let text = text.trim();
        // The first square ends where the second one's letter starts.
        let split = text.char_indices().skip(1).find(|(_, c)| c.is_ascii_alphabetic())?.0;
        let from = shape.parse(&text[..split]).ok()?;
        let to = shape.parse(&text[split..]).ok()?;
        Some(Move::new(from, to))
    }

    /// `Game::parse_action` of a game whose action is a `Move`.
    pub fn parse_action(text: &str, shape: BoardShape) -> Result<Move, RuleError> {
        Move::parse(text, shape).ok_or_else(|| RuleError::Unreadable(text.to_string()))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

pub const KNIGHT_JUMPS: [(i8, i8); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
pub const ROOK_DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
pub const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
pub const KING_DIRECTIONS: [(i8, i8); 8] =
    [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// For every square of the 8×8 board, the squares a knight reaches from it.
pub const KNIGHT_ATTACKS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut index = 0;
    while index < 64 {
        let file = (index % 8) as i8;
        let rank = (index / 8) as i8;
        let mut j = 0;
        while j < 8 {
            let (df, dr) = KNIGHT_JUMPS[j];
            let (f, r) = (file + df, rank + dr);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[index] |= 1u64 << (r * 8 + f);
            }
            j += 1;
        }
        index += 1;
    }
    table
};

/// The fewest knight jumps between two squares of an empty 8×8 board.
pub const KNIGHT_DISTANCE: [[u8; 64]; 64] = {
    let mut table = [[u8::MAX; 64]; 64];
    let mut start = 0;
    while start < 64 {
        table[start][start] = 0;
        let mut reached = 1u64 << start;
        let mut frontier = reached;
        let mut steps = 0u8;
        while frontier != 0 {
            steps += 1;
            let mut next = 0u64;
            let mut bits = frontier;
            while bits != 0 {
                let from = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                next |= KNIGHT_ATTACKS[from];
            }
            next &= !reached;
            let mut fresh = next;
            while fresh != 0 {
                let sq = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                table[start][sq] = steps;
            }
            reached |= next;
            frontier = next;
        }
        start += 1;
    }
    table
};

/// The board as text, one string a rank from the top rank down, one character a square.
pub fn ascii_rows(shape: BoardShape, cell: impl Fn(Square) -> char) -> Vec<String> {
    (0..shape.ranks)
        .rev()
        .map(|rank| (0..shape.files).map(|file| cell(Square::new(file, rank))).collect())
        .collect()
}

/// The names of the squares of an 8×8 bitboard, lowest index first.
pub fn square_names(bits: u64) -> Vec<String> {
    squares_of(bits).map(|s| s.to_string()).collect()
}

/// The squares of an 8×8 bitboard, lowest index first.
pub fn squares_of(mut bits: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let index = bits.trailing_zeros();
        bits &= bits - 1;
        Some(Square::from_index64(index))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip_on_both_boards() {
        for shape in [BoardShape::CHESS, BoardShape::HALMA] {
            for square in shape.squares() {
                assert_eq!(shape.parse(&square.to_string()), Ok(square));
            }
        }
        assert_eq!(BoardShape::HALMA.parse("p16"), Ok(Square::new(15, 15)));
    }

    #[test]
    fn bad_square_names_are_told_apart() {
        let chess = BoardShape::CHESS;
        assert_eq!(chess.parse("i4"), Err(SquareError::OffBoard("i4".into())));
        assert_eq!(chess.parse("a9"), Err(SquareError::OffBoard("a9".into())));
        for bad in ["", "4a", "a", "a0", "A1", "a01", "zz", "a1x"] {
            assert_eq!(chess.parse(bad), Err(SquareError::Unknown(bad.into())), "{bad}");
        }
    }

    #[test]
    fn moves_read_and_print_as_two_squares() {
        let m = Move::parse("g1f3", BoardShape::CHESS).unwrap();
        assert_eq!(m, Move::new(Square::new(6, 0), Square::new(5, 2)));
        assert_eq!(m.to_string(), "g1f3");
        let long = Move::parse("a16p1", BoardShape::HALMA).unwrap();
        assert_eq!(long.to_string(), "a16p1");
        assert!(Move::parse("g1", BoardShape::CHESS).is_none());
        assert!(Move::parse("g1i3", BoardShape::CHESS).is_none());
    }

    #[test]
    fn bitboards_number_the_8x8_board() {
        for square in BoardShape::CHESS.squares() {
            assert_eq!(Square::from_index64(square.index64() as u32), square);
            assert_eq!(square.bit(), 1 << square.index64());
        }
        assert_eq!(squares_of(u64::MAX).count(), 64);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "bitboards are 8×8")]
    fn a_square_off_the_8x8_board_has_no_bit() {
        Square::new(8, 0).bit();
    }

    #[test]
    fn knight_tables_match_the_geometry() {
        let g1 = Square::new(6, 0);
        let targets: Vec<String> = squares_of(KNIGHT_ATTACKS[g1.index64()]).map(|s| s.to_string()).collect();
        assert_eq!(targets, ["e2", "f3", "h3"]);
        assert_eq!(KNIGHT_ATTACKS[Square::new(0, 0).index64()].count_ones(), 2);
        assert_eq!(KNIGHT_ATTACKS[Square::new(3, 3).index64()].count_ones(), 8);
        // a1 to h8 takes six jumps; a1 to b2 takes four.
        assert_eq!(KNIGHT_DISTANCE[0][63], 6);
        assert_eq!(KNIGHT_DISTANCE[0][Square::new(1, 1).index64()], 4);
    }
}
