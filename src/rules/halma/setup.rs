//! A Halma game's seating: the corners, the camps and goals, how partners play, the rule on
//! clearing the starting camp; read from a level file.

use crate::rules::board::Square;

/// A corner of the board, where a camp lies. `ALL` is the turn order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Corner {
    A1,
    P1,
    P16,
    A16,
}

impl Corner {
    /// The corners in turn order: round the board counter-clockwise with a1 at the bottom left.
    pub const ALL: [Corner; 4] = [Corner::A1, Corner::P1, Corner::P16, Corner::A16];

    pub fn name(self) -> &'static str {
        match self {
            Corner::A1 => "a1",
            Corner::P1 => "p1",
            Corner::P16 => "p16",
            Corner::A16 => "a16",
        }
    }

    pub fn parse(name: &str) -> Option<Corner> {
        Corner::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The square `along` files and `up` ranks in from this corner (the board mirrored so that the
    /// corner is a1).
    pub fn square(self, along: u8, up: u8) -> Square {
        match self {
            Corner::A1 => Square::new(along, up),
            Corner::P1 => Square::new(15 - along, up),
            Corner::P16 => Square::new(15 - along, 15 - up),
            Corner::A16 => Square::new(along, 15 - up),
        }
    }

    /// The corner square itself.
    pub fn corner_square(self) -> Square {
        self.square(0, 0)
    }

    pub fn opposite(self) -> Corner {
        match self {
            Corner::A1 => Corner::P16,
            Corner::P1 => Corner::A16,
            Corner::P16 => Corner::A1,
            Corner::A16 => Corner::P1,
        }
    }
}

/// The squares of a camp given as row lengths counted from its corner: `[5, 5, 4, 3, 2]` at a1
/// is a1–e1, a2–e2, a3–d3, a4–c4, a5–b5.
pub fn camp_squares(corner: Corner, rows: &[u8]) -> Vec<Square> {
    let mut squares = Vec::new();
    for (up, &length) in rows.iter().enumerate() {
        for along in 0..length {
            squares.push(corner.square(along, up as u8));
        }
    }
    squares
}

/// How partners play.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Deserialize)]
pub enum Mode {
    /// Every seat for itself: the first to fill its goal wins.
    Individual,
    /// Two teams of opposite seats; a team wins when either partner has filled its goal.
    OneArmy,
    /// Two teams; both partners must fill their goals, and a partner who has finished moves the
    /// other's pieces on its own turns.
    BothArmies,
}

impl Mode {
    pub fn key(self) -> &'static str {
        match self {
            Mode::Individual => "individual",
            Mode::OneArmy => "one_army",
            Mode::BothArmies => "both_armies",
        }
    }
}

/// One seat of a seating: its corner, its camp (where its pieces start) and its goal.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatSetup {
    pub corner: Corner,
    /// Row lengths of the starting camp from `corner`; one piece on each square.
    pub camp: Vec<u8>,
    pub goal_corner: Corner,
    /// Row lengths of the goal camp from `goal_corner`.
    pub goal: Vec<u8>,
}

/// A seating, read from its level file.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// The seats, in any order (the game puts them in turn order).
    pub seats: Vec<SeatSetup>,
    pub mode: Mode,
    /// Partners by corner (team modes only).
    pub partners: Vec<(Corner, Corner)>,
    /// The seat that moves first.
    pub first: Corner,
    /// Clearing the starting camp: once a seat has made this many moves of its own, no move of
    /// the pieces it moves may end in their army's starting camp, and while one of them still
    /// stands there and can get out this move, the seat must move one out (spec/halma.md).
    pub clear_camp_after: u32,
}

impl Setup {
    /// The same seating with the first turn moved to the next seat ("New game").
    pub fn with_next_first(&self) -> Setup {
        let mut corners: Vec<Corner> = self.seats.iter().map(|s| s.corner).collect();
        corners.sort();
        let at = corners.iter().position(|&c| c == self.first).unwrap_or(0);
        Setup { first: corners[(at + 1) % corners.len().max(1)], ..self.clone() }
    }
}
