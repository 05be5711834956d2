//! The 16×16 board of Halma as a 256-bit bitboard. A square's index is `rank * 16 + file`
//! (a1 = 0, p1 = 15, a16 = 240, p16 = 255); `Square` (from `board`) names it.

use super::board::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares of the 16×16 board: bit `i` of the 256 is the square with index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Grid16(pub [u64; 4]);

/// The eight directions as (files, ranks), in a fixed order.
pub const DIRECTIONS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// `NEIGHBOURS[index]`: the up to eight squares around `index`.
pub static NEIGHBOURS: [Grid16; 256] = neighbour_table();

/// The jumps from one square: (the square jumped over, the landing), in `DIRECTIONS` order.
#[derive(Clone, Copy)]
pub struct Jumps {
    pairs: [(u8, u8); 8],
    len: u8,
}

impl Jumps {
    pub fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        self.pairs[..self.len as usize].iter().copied()
    }
}

/// `JUMPS[index]`: every straight jump from `index` that stays on the board. (Every index 0 to
/// 255 is a square, p16 included, so no index can stand for "off the board".)
pub static JUMPS: [Jumps; 256] = jump_table();

/// The square `d` steps in `DIRECTIONS[dir]` from `index`, if it is on the board.
const fn along(index: usize, dir: usize, d: i16) -> Option<u8> {
    let (file, rank) = ((index % 16) as i16, (index / 16) as i16);
    let (df, dr) = DIRECTIONS[dir];
    let (f, r) = (file + d * df as i16, rank + d * dr as i16);
    if f >= 0 && f < 16 && r >= 0 && r < 16 { Some((r * 16 + f) as u8) } else { None }
}

const fn neighbour_table() -> [Grid16; 256] {
    let mut table = [Grid16([0; 4]); 256];
    let mut index = 0;
    while index < 256 {
        let mut dir = 0;
        while dir < 8 {
            if let Some(n) = along(index, dir, 1) {
                table[index].0[(n >> 6) as usize] |= 1u64 << (n & 63);
            }
            dir += 1;
        }
        index += 1;
    }
    table
}

const fn jump_table() -> [Jumps; 256] {
    let mut table = [Jumps { pairs: [(0, 0); 8], len: 0 }; 256];
    let mut index = 0;
    while index < 256 {
        let mut dir = 0;
        while dir < 8 {
            if let (Some(over), Some(land)) = (along(index, dir, 1), along(index, dir, 2)) {
                let len = table[index].len as usize;
                table[index].pairs[len] = (over, land);
                table[index].len += 1;
            }
            dir += 1;
        }
        index += 1;
    }
    table
}

/// The index of a square of the 16×16 board.
pub const fn index(square: Square) -> u8 {
    square.rank * 16 + square.file
}

/// The square with this index.
pub const fn square(index: u8) -> Square {
    Square::new(index % 16, index / 16)
}

impl Grid16 {
    pub const EMPTY: Grid16 = Grid16([0; 4]);
    pub const FULL: Grid16 = Grid16([u64::MAX; 4]);

    pub const fn bit(index: u8) -> Grid16 {
        let mut words = [0u64; 4];
        words[(index >> 6) as usize] = 1u64 << (index & 63);
        Grid16(words)
    }

    pub fn of(squares: impl IntoIterator<Item = Square>) -> Grid16 {
        let mut grid = Grid16::EMPTY;
        for s in squares {
            grid.insert(index(s));
        }
        grid
    }

    #[inline]
    pub fn contains(self, index: u8) -> bool {
        (self.0[(index >> 6) as usize] >> (index & 63)) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, index: u8) {
        self.0[(index >> 6) as usize] |= 1u64 << (index & 63);
    }

    #[inline]
    pub fn remove(&mut self, index: u8) {
        self.0[(index >> 6) as usize] &= !(1u64 << (index & 63));
    }

    pub fn is_empty(self) -> bool {
        self.0 == [0; 4]
    }

    pub fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether every square of `other` is in this set.
    pub fn covers(self, other: Grid16) -> bool {
        (other & !self).is_empty()
    }

    /// The indices of the squares, in increasing order.
    pub fn indices(self) -> Indices {
        Indices { words: self.0, word: 0 }
    }

    /// The squares, in increasing index order (rank by rank from a1).
    pub fn squares(self) -> impl Iterator<Item = Square> {
        self.indices().map(square)
    }
}

/// The indices of a `Grid16`, lowest first.
pub struct Indices {
    words: [u64; 4],
    word: usize,
}

impl Iterator for Indices {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some((self.word as u32 * 64 + w.trailing_zeros()) as u8);
            }
            self.word += 1;
        }
        None
    }
}

macro_rules! word_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign:ident, $op:tt) => {
        impl $trait for Grid16 {
            type Output = Grid16;
            #[inline]
            fn $method(self, other: Grid16) -> Grid16 {
                Grid16([
                    self.0[0] $op other.0[0],
                    self.0[1] $op other.0[1],
                    self.0[2] $op other.0[2],
                    self.0[3] $op other.0[3],
                ])
            }
        }
        impl $assign_trait for Grid16 {
            #[inline]
            fn $assign(&mut self, other: Grid16) {
                *self = *self $op other;
            }
        }
    };
}

word_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
word_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
word_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Grid16 {
    type Output = Grid16;
    #[inline]
    fn not(self) -> Grid16 {
        Grid16([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}
