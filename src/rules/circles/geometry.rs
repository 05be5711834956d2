//! Making Circles' geometry: every square's exact direction from the centre, the clockwise turn
//! from a piece's home to any square, which steps the clockwise rule allows, how a move changes a
//! piece's whole loops, and the fewest moves home from anywhere. Worked out once per setup and
//! shared by every copy of a game.

use super::{FULL_LOOP, Piece, SEATS, Setup, Step, Winding};
use crate::rules::Seat;
use crate::rules::board::{BoardShape, Square, squares_of};

/// "No way home" in the fewest-moves tables.
const UNREACHABLE: u8 = u8::MAX;
/// Loops counted from home that the fewest-moves tables tell apart: −1, 0 and 1 or more.
const LAPS: usize = 3;

/// A square's direction from the centre, exactly: its middle minus the centre, in half squares.
/// Every rule that tells one direction from another (forward or back, the line through the
/// centre, a loop completed, a new best winding) compares these with whole-number cross and dot
/// products, so it decides the same on every machine.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Direction {
    x: i64,
    y: i64,
}

impl Direction {
    /// 12 o'clock, towards rank 8.
    const UP: Direction = Direction { x: 0, y: 1 };

    fn of(square: Square, centre_halves: (i32, i32)) -> Direction {
        Direction {
            x: 2 * i64::from(square.file) + 1 - i64::from(centre_halves.0),
            y: 2 * i64::from(square.rank) + 1 - i64::from(centre_halves.1),
        }
    }

    fn is_zero(self) -> bool {
        self.x == 0 && self.y == 0
    }

    /// Positive when `to` lies clockwise of this direction (by less than half a turn), negative
    /// when anticlockwise, zero on the same line.
    fn clockwise(self, to: Direction) -> i64 {
        self.y * to.x - self.x * to.y
    }

    fn dot(self, to: Direction) -> i64 {
        self.x * to.x + self.y * to.y
    }

    /// The squared length (in quarter squares).
    fn length2(self) -> i64 {
        self.dot(self)
    }

    /// Which half of the turn clockwise from `self` the direction `to` lies in: 0 for [0°, 180°),
    /// 1 for [180°, 360°).
    fn half_of(self, to: Direction) -> u8 {
        let clockwise = self.clockwise(to);
        u8::from(!(clockwise > 0 || (clockwise == 0 && self.dot(to) > 0)))
    }

    /// Whether `a` comes strictly before `b` going clockwise from this direction.
    fn before(self, a: Direction, b: Direction) -> bool {
        let (half_a, half_b) = (self.half_of(a), self.half_of(b));
        if half_a != half_b { half_a < half_b } else { a.clockwise(b) > 0 }
    }

    /// The clockwise turn from this direction to `to`, in degrees in [0, 360).
    fn turn_to(self, to: Direction) -> f64 {
        let (clockwise, dot) = (self.clockwise(to), self.dot(to));
        if clockwise >= 0 {
            half_turn_degrees(clockwise, dot)
        } else {
            360.0 - half_turn_degrees(-clockwise, dot)
        }
    }

    /// The turn from this direction to `to`, in degrees in (−180, 180]: positive clockwise.
    fn delta_to(self, to: Direction) -> f64 {
        let (clockwise, dot) = (self.clockwise(to), self.dot(to));
        if clockwise >= 0 { half_turn_degrees(clockwise, dot) } else { -half_turn_degrees(-clockwise, dot) }
    }
}

/// atan2(s, c) in degrees, in [0, 180], for whole numbers s ≥ 0 and c, not both 0; exact at
/// the multiples of 45°.
fn half_turn_degrees(s: i64, c: i64) -> f64 {
    if c >= 0 { quarter_turn_degrees(s, c) } else { 180.0 - quarter_turn_degrees(s, -c) }
}

/// atan2(s, c) in degrees, in [0, 90], for whole numbers s, c ≥ 0, not both 0.
fn quarter_turn_degrees(s: i64, c: i64) -> f64 {
    if s <= c { octant_degrees(s, c) } else { 90.0 - octant_degrees(c, s) }
}

/// atan(s / c) in degrees, in [0, 45], for whole numbers 0 ≤ s ≤ c, c > 0.
fn octant_degrees(s: i64, c: i64) -> f64 {
    if s == 0 {
        0.0
    } else if s == c {
        45.0
    } else {
        portable_atan(s as f64 / c as f64) * (180.0 / std::f64::consts::PI)
    }
}

/// atan(t) in radians for 0 < t < 1, made of + − × ÷ and the square root only, which IEEE 754
/// rounds the same on every machine (a platform's libm `atan` need not: the browser's differs),
/// so a replay shows the same degrees natively and in the browser. Accurate to about 1e-16.
fn portable_atan(t: f64) -> f64 {
    use std::f64::consts::FRAC_PI_4;
    // Above tan 22.5°: atan t = π/4 − atan((1 − t) / (1 + t)).
    let (t, base, sign) = if t > std::f64::consts::SQRT_2 - 1.0 {
        ((1.0 - t) / (1.0 + t), FRAC_PI_4, -1.0)
    } else {
        (t, 0.0, 1.0)
    };
    // Half the angle: atan t = 2 atan(t / (1 + √(1 + t²))), now below tan 11.25° ≈ 0.199.
    let h = t / (1.0 + (1.0 + t * t).sqrt());
    // The series h − h³/3 + h⁵/5 − …; its 13th term is below 1e-19.
    let h2 = h * h;
    let (mut power, mut sum) = (h, h);
    for n in 1..13 {
        power *= -h2;
        sum += power / (2 * n + 1) as f64;
    }
    base + sign * 2.0 * sum
}

/// What a setup makes of the board, worked out once and shared by every copy of a game.
#[derive(Debug, PartialEq)]
pub(super) struct Geometry {
    pub(super) setup: Setup,
    directions: [Direction; 64],
    /// Each square's clockwise angle from 12 o'clock, in degrees in [0, 360).
    pub(super) theta: [f64; 64],
    pub(super) barrier: u64,
    /// For every square, the squares the clockwise rule lets a piece there go to (ignoring blocking).
    allowed: [u64; 64],
    /// The clockwise turn from each piece's home to each square, in degrees in [0, 360):
    /// `[seat][piece][square]`.
    from_home: [[[f64; 64]; 2]; 2],
    /// The order of each square's direction going clockwise from each piece's home (0 for the
    /// home's own direction; squares in one direction share it): `[seat][piece][square]`.
    order_from_home: [[[u8; 64]; 2]; 2],
    /// Fewest moves to finish with only the barrier on the board: `[seat][piece][lap][square]`.
    pub(super) fewest: [[[[u8; 64]; LAPS]; 2]; 2],
    /// The same with the partner standing on its own home the whole time.
    pub(super) fewest_around_partner: [[[[u8; 64]; LAPS]; 2]; 2],
}

impl Geometry {
    pub(super) fn new(setup: &Setup) -> Geometry {
        let mut directions = [Direction::default(); 64];
        let mut theta = [0.0; 64];
        for square in BoardShape::CHESS.squares() {
            let direction = Direction::of(square, setup.centre_halves);
            directions[square.index64()] = direction;
            theta[square.index64()] =
                if direction.is_zero() { 0.0 } else { Direction::UP.turn_to(direction) };
        }
        let barrier = setup.barrier.iter().fold(0u64, |acc, s| acc | s.bit());
        let mut geometry = Geometry {
            setup: setup.clone(),
            directions,
            theta,
            barrier,
            allowed: [0; 64],
            from_home: [[[0.0; 64]; 2]; 2],
            order_from_home: [[[0; 64]; 2]; 2],
            fewest: [[[[UNREACHABLE; 64]; LAPS]; 2]; 2],
            fewest_around_partner: [[[[UNREACHABLE; 64]; LAPS]; 2]; 2],
        };
        for from in BoardShape::CHESS.squares() {
            for to in BoardShape::CHESS.squares() {
                if from != to && geometry.step(from, to).is_allowed() {
                    geometry.allowed[from.index64()] |= to.bit();
                }
            }
        }
        for seat in SEATS {
            for piece in Piece::ALL {
                let home = directions[setup.home(seat, piece).index64()];
                for square in BoardShape::CHESS.squares() {
                    let here = directions[square.index64()];
                    if here.is_zero() || home.is_zero() {
                        continue;
                    }
                    let turn = home.turn_to(here);
                    geometry.from_home[seat.index()][piece.index()][square.index64()] = turn;
                    let order = directions.iter().filter(|d| !d.is_zero() && home.before(**d, here)).count();
                    geometry.order_from_home[seat.index()][piece.index()][square.index64()] = order as u8;
                }
            }
        }
        for seat in SEATS {
            for piece in Piece::ALL {
                let partner_home = setup.home(seat, piece.partner()).bit();
                geometry.fewest[seat.index()][piece.index()] = geometry.fewest_moves(seat, piece, 0);
                geometry.fewest_around_partner[seat.index()][piece.index()] =
                    geometry.fewest_moves(seat, piece, partner_home);
            }
        }
        geometry
    }

    fn direction(&self, square: Square) -> Direction {
        self.directions[square.index64()]
    }

    pub(super) fn delta(&self, from: Square, to: Square) -> f64 {
        let (a, b) = (self.direction(from), self.direction(to));
        if a.is_zero() || b.is_zero() { 0.0 } else { a.delta_to(b) }
    }

    pub(super) fn step(&self, from: Square, to: Square) -> Step {
        let (a, b) = (self.direction(from), self.direction(to));
        // The square whose middle is the centre has no direction: no piece goes there or from there.
        if a.is_zero() || b.is_zero() {
            return Step::Backward;
        }
        let clockwise = a.clockwise(b);
        if clockwise == 0 && a.dot(b) > 0 {
            Step::Neutral
        } else if clockwise >= 0 {
            // Clockwise, or exactly half a turn across the centre: +180°, as (−180°, 180°] says.
            Step::Forward
        } else if -a.delta_to(b) <= self.setup.max_back_step_deg && b.length2() < a.length2() {
            Step::SmallStepBack
        } else {
            Step::Backward
        }
    }

    /// Squares a piece on `from` may move to when `blockers` stand on the board.
    pub(super) fn targets(&self, piece: Piece, from: Square, blockers: u64) -> u64 {
        slide(from, piece.directions(), blockers) & self.allowed[from.index64()]
    }

    /// How the whole loops of the piece change when it moves from `from` to `to`: +1 when a
    /// clockwise move comes round to (or past) its home's direction, −1 when a small step back
    /// goes back past it, else 0. Worked out from the directions' order alone, exactly.
    pub(super) fn loop_change(&self, seat: Seat, piece: Piece, from: Square, to: Square) -> i32 {
        let order = &self.order_from_home[seat.index()][piece.index()];
        let (before, after) = (order[from.index64()], order[to.index64()]);
        let (a, b) = (self.direction(from), self.direction(to));
        let clockwise = a.clockwise(b);
        let forward = clockwise > 0 || (clockwise == 0 && a.dot(b) < 0);
        if forward && after < before {
            1
        } else if clockwise < 0 && after > before {
            -1
        } else {
            0
        }
    }

    /// A winding in degrees.
    pub(super) fn degrees(&self, seat: Seat, piece: Piece, winding: Winding) -> f64 {
        self.from_home[seat.index()][piece.index()][winding.square.index64()]
            + FULL_LOOP * winding.loops as f64
    }

    /// What orders windings exactly: the loops, then the direction's order from home.
    pub(super) fn rank(&self, seat: Seat, piece: Piece, winding: Winding) -> (i32, u8) {
        (winding.loops, self.order_from_home[seat.index()][piece.index()][winding.square.index64()])
    }

    pub(super) fn lap_index(loops: i32) -> usize {
        (loops.clamp(-1, 1) + 1) as usize
    }

    /// Fewest moves to finish from every square and lap, with the barrier and `blocked` fixed in
    /// the way (Bellman–Ford: neutral moves and small steps back make the move graph cyclic).
    fn fewest_moves(&self, seat: Seat, piece: Piece, blocked: u64) -> [[u8; 64]; LAPS] {
        let home = self.setup.home(seat, piece);
        let walls = self.barrier | blocked;
        let mut table = [[UNREACHABLE; 64]; LAPS];
        table[Self::lap_index(1)][home.index64()] = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for from in BoardShape::CHESS.squares() {
                if walls & from.bit() != 0 {
                    continue;
                }
                for to in squares_of(self.targets(piece, from, walls)) {
                    let lap_change = self.loop_change(seat, piece, from, to);
                    for lap in -1..=1 {
                        let after = table[Self::lap_index(lap + lap_change)][to.index64()];
                        let here = &mut table[Self::lap_index(lap)][from.index64()];
                        if after != UNREACHABLE && after + 1 < *here {
                            *here = after + 1;
                            changed = true;
                        }
                    }
                }
            }
        }
        table
    }
}

/// The empty squares reached along `directions` before the first blocker or the edge.
fn slide(from: Square, directions: &[(i8, i8)], blockers: u64) -> u64 {
    let mut reached = 0u64;
    for &(df, dr) in directions {
        let mut at = from;
        while let Some(next) = at.offset(df, dr, BoardShape::CHESS) {
            if blockers & next.bit() != 0 {
                break;
            }
            reached |= next.bit();
            at = next;
        }
    }
    reached
}

/// A fewest-moves table's entry for a winding.
pub(super) fn look_up(table: &[[u8; 64]; LAPS], winding: Winding) -> Option<u8> {
    let moves = table[Geometry::lap_index(winding.loops)][winding.square.index64()];
    (moves != UNREACHABLE).then_some(moves)
}
