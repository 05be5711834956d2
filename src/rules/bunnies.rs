//! Bunnies and Horses: white bunnies (pawns) run for the carrot garden on rank 8, black horses
//! (knights) guard it; two rounds with the roles swapped (spec/bunnies.md).
//!
//! One value holds the whole match. `Seat(0)` is Player 1, the bunnies of round 1 and the horses of
//! round 2; `Seat(1)` is Player 2. Round 2 starts by itself when round 1 ends.

use super::board::{BoardShape, KNIGHT_ATTACKS, Move, Square, ascii_rows, square_names, squares_of};
use super::{EndReason, Game, Outcome, Seat, Winner};
use serde_json::{Map, Value, json};

/// The starting position of one variant, read from its level file. Both rounds start from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub bunnies: Vec<Square>,
    pub horses: Vec<Square>,
}

/// The part a player takes in a round.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Role {
    Bunnies,
    Horses,
}

impl Role {
    pub fn other(self) -> Role {
        match self {
            Role::Bunnies => Role::Horses,
            Role::Horses => Role::Bunnies,
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Role::Bunnies => "bunnies",
            Role::Horses => "horses",
        }
    }

    fn bit(self) -> u8 {
        match self {
            Role::Bunnies => 1,
            Role::Horses => 2,
        }
    }
}

/// Why a round ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RoundEnd {
    /// No bunny is left on the board: all in the garden or caught.
    NoBunnies,
    /// No horse is left: the bunnies still on the board entered the garden.
    NoHorses,
    /// The bunnies had no legal move on three bunny turns in a row; those on the board score nothing.
    Stuck,
}

impl RoundEnd {
    pub fn key(self) -> &'static str {
        match self {
            RoundEnd::NoBunnies => "no_bunnies",
            RoundEnd::NoHorses => "no_horses",
            RoundEnd::Stuck => "stuck",
        }
    }
}

/// How a round that is over went, for the screen's "round over": who played the bunnies, what
/// became of them and why the round stopped.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RoundSummary {
    /// 1 or 2.
    pub round: u8,
    /// The seat that played the bunnies; `garden` is its score.
    pub bunnies_seat: Seat,
    /// Bunnies brought into the garden in the round.
    pub garden: u8,
    /// Bunnies the horses caught.
    pub caught: u8,
    /// Bunnies still on the board when the round stopped (stuck ones: they score nothing).
    pub left: u8,
    pub end: RoundEnd,
}

/// How a bunny came into the garden.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GardenEntry {
    /// It stepped onto rank 8.
    Step,
    /// It took a horse on rank 8.
    Capture,
    /// The last horse was caught, so it walked in from where it stood.
    HorsesGone,
}

impl GardenEntry {
    pub fn key(self) -> &'static str {
        match self {
            GardenEntry::Step => "step",
            GardenEntry::Capture => "capture",
            GardenEntry::HorsesGone => "horses_gone",
        }
    }
}

/// Bunny turns without a legal move that end the round.
pub const STUCK_LIMIT: u8 = 3;

const RANK_8: u64 = 0xFF00_0000_0000_0000;
const RANK_2: u64 = 0x0000_0000_0000_FF00;
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares a bunny on each square of `bunnies` could take on.
pub fn bunny_attacks(bunnies: u64) -> u64 {
    ((bunnies & !FILE_A) << 7) | ((bunnies & !FILE_H) << 9)
}

/// The whole two-round match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BunniesAndHorses {
    start_bunnies: u64,
    start_horses: u64,
    bunnies: u64,
    horses: u64,
    /// 1 or 2.
    round: u8,
    /// Bunnies each player brought into the garden while playing the bunnies.
    scores: [u8; 2],
    to_move: Role,
    /// Bunny turns in a row on which the bunnies had no legal move.
    stuck: u8,
    rounds: [Option<RoundSummary>; 2],
    outcome: Option<Outcome>,
    last: LastAction,
}

/// What the last action did, for the screen to animate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct LastAction {
    action: Option<Move>,
    /// Something was taken on the move's target square.
    captured: bool,
    /// Squares from which bunnies entered the garden (the target square for a step or capture).
    entered: u64,
    /// The moving bunny entered the garden itself.
    mover_entered: bool,
    /// Roles that passed right after the action (bits of `Role::bit`).
    passed: u8,
    /// The round this action ended, with why.
    round_ended: Option<(u8, RoundEnd)>,
    /// Bunnies and horses left on the board when that round ended.
    ended_board: (u64, u64),
}

fn bits_of(squares: &[Square]) -> u64 {
    squares.iter().fold(0, |acc, s| acc | s.bit())
}

impl BunniesAndHorses {
    pub fn new(setup: &Setup) -> BunniesAndHorses {
        let bunnies = bits_of(&setup.bunnies);
        let horses = bits_of(&setup.horses);
        let mut game = BunniesAndHorses {
            start_bunnies: bunnies,
            start_horses: horses,
            bunnies,
            horses,
            round: 1,
            scores: [0, 0],
            to_move: Role::Bunnies,
            stuck: 0,
            rounds: [None, None],
            outcome: None,
            last: LastAction::default(),
        };
        game.start_round();
        game
    }

    /// 1 or 2.
    pub fn round(&self) -> u8 {
        self.round
    }

    /// The role `seat` plays in the current round.
    pub fn role_of(&self, seat: Seat) -> Role {
        if (seat == Seat(0)) == (self.round == 1) { Role::Bunnies } else { Role::Horses }
    }

    /// The seat playing `role` in the current round.
    pub fn seat_of(&self, role: Role) -> Seat {
        if (role == Role::Bunnies) == (self.round == 1) { Seat(0) } else { Seat(1) }
    }

    /// The role to move, `None` once the match is over.
    pub fn role_to_move(&self) -> Option<Role> {
        self.outcome.is_none().then_some(self.to_move)
    }

    pub fn bunnies(&self) -> impl Iterator<Item = Square> {
        squares_of(self.bunnies)
    }

    pub fn horses(&self) -> impl Iterator<Item = Square> {
        squares_of(self.horses)
    }

    /// The bunnies every round starts with, as a bitboard.
    pub fn start_bunny_bits(&self) -> u64 {
        self.start_bunnies
    }

    pub fn start_horse_bits(&self) -> u64 {
        self.start_horses
    }

    pub fn bunny_bits(&self) -> u64 {
        self.bunnies
    }

    pub fn horse_bits(&self) -> u64 {
        self.horses
    }

    pub fn piece_at(&self, square: Square) -> Option<Role> {
        if self.bunnies & square.bit() != 0 {
            Some(Role::Bunnies)
        } else if self.horses & square.bit() != 0 {
            Some(Role::Horses)
        } else {
            None
        }
    }

    /// Bunnies the seat brought into the garden while playing the bunnies.
    pub fn score(&self, seat: Seat) -> u8 {
        self.scores[seat.index()]
    }

    /// Bunnies in the garden in the current round.
    pub fn garden(&self) -> u8 {
        self.scores[self.seat_of(Role::Bunnies).index()]
    }

    /// Bunnies the setup starts each round with.
    pub fn bunnies_at_start(&self) -> u32 {
        self.start_bunnies.count_ones()
    }

    pub fn horses_at_start(&self) -> u32 {
        self.start_horses.count_ones()
    }

    /// Bunnies caught by the horses in the current round.
    pub fn caught(&self) -> u32 {
        self.bunnies_at_start() - self.garden() as u32 - self.bunnies.count_ones()
    }

    /// Bunny turns in a row on which the bunnies had no legal move (the round ends at `STUCK_LIMIT`).
    pub fn stuck(&self) -> u8 {
        self.stuck
    }

    /// Why round 1 or 2 ended, once it has (`None` for a round under way or no such round).
    pub fn round_end(&self, round: u8) -> Option<RoundEnd> {
        self.round_summary(round).map(|summary| summary.end)
    }

    /// How round 1 or 2 went, once it is over: it stays known after the next round starts.
    pub fn round_summary(&self, round: u8) -> Option<RoundSummary> {
        self.rounds.get(usize::from(round).checked_sub(1)?).copied().flatten()
    }

    /// The round the last action ended and why: the screen's "round over" banner.
    pub fn round_just_ended(&self) -> Option<(u8, RoundEnd)> {
        self.last.round_ended
    }

    /// The bunnies and horses left on the board when the last action ended a round (stuck
    /// bunnies stay there; round 2 then starts from the setup).
    pub fn ended_round_position(&self) -> Option<(Vec<Square>, Vec<Square>)> {
        self.last.round_ended?;
        let (bunnies, horses) = self.last.ended_board;
        Some((squares_of(bunnies).collect(), squares_of(horses).collect()))
    }

    pub fn last_move(&self) -> Option<Move> {
        self.last.action
    }

    /// Whether the last action took a piece on its target square.
    pub fn last_move_captured(&self) -> bool {
        self.last.captured
    }

    /// The bunnies that entered the garden with the last action: the square each came from
    /// (the target square for a step or a capture) and how.
    pub fn entered_garden(&self) -> Vec<(Square, GardenEntry)> {
        squares_of(self.last.entered)
            .map(|square| {
                let by_mover = self.last.mover_entered && self.last.action.is_some_and(|m| m.to == square);
                let how = match (by_mover, self.last.captured) {
                    (true, true) => GardenEntry::Capture,
                    (true, false) => GardenEntry::Step,
                    (false, _) => GardenEntry::HorsesGone,
                };
                (square, how)
            })
            .collect()
    }

    /// Legal target squares of the piece on `from`, as a bitboard (empty unless it is to move).
    pub fn targets_from(&self, from: Square) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        let bit = from.bit();
        match self.to_move {
            Role::Bunnies if self.bunnies & bit != 0 => self.bunny_targets(bit),
            Role::Horses if self.horses & bit != 0 => KNIGHT_ATTACKS[from.index64()] & !self.horses,
            _ => 0,
        }
    }

    /// Legal target squares of the piece on `from`, in a fixed order.
    pub fn legal_targets(&self, from: Square) -> Vec<Square> {
        squares_of(self.targets_from(from)).collect()
    }

    fn occupied(&self) -> u64 {
        self.bunnies | self.horses
    }

    fn bunny_targets(&self, bit: u64) -> u64 {
        let empty = !self.occupied();
        let single = (bit << 8) & empty;
        let double = ((single & (RANK_2 << 8)) << 8) & empty;
        single | double | (bunny_attacks(bit) & self.horses)
    }

    fn has_move(&self, role: Role) -> bool {
        match role {
            Role::Bunnies => {
                (self.bunnies << 8) & !self.occupied() != 0 || bunny_attacks(self.bunnies) & self.horses != 0
            }
            Role::Horses => squares_of(self.horses).any(|h| KNIGHT_ATTACKS[h.index64()] & !self.horses != 0),
        }
    }

    /// Bunny moves: captures first, then steps, the most advanced bunny first.
    fn bunny_moves(&self, out: &mut Vec<Move>) {
        let empty = !self.occupied();
        for (shift, not_file) in [(7, FILE_A), (9, FILE_H)] {
            for to in squares_of(((self.bunnies & !not_file) << shift) & self.horses) {
                out.push(Move::new(Square::from_index64(to.index64() as u32 - shift), to));
            }
        }
        let singles = (self.bunnies << 8) & empty;
        let doubles = ((singles & (RANK_2 << 8)) << 8) & empty;
        let mut left = singles;
        while left != 0 {
            let index = 63 - left.leading_zeros();
            left ^= 1 << index;
            let to = Square::from_index64(index);
            out.push(Move::new(Square::new(to.file, to.rank - 1), to));
        }
        for to in squares_of(doubles) {
            out.push(Move::new(Square::new(to.file, to.rank - 2), to));
        }
    }

    /// Horse moves: captures first.
    fn horse_moves(&self, out: &mut Vec<Move>) {
        for capturing in [true, false] {
            for from in squares_of(self.horses) {
                let landing = KNIGHT_ATTACKS[from.index64()] & !self.horses;
                let wanted = if capturing { landing & self.bunnies } else { landing & !self.bunnies };
                out.extend(squares_of(wanted).map(|to| Move::new(from, to)));
            }
        }
    }

    fn start_round(&mut self) {
        self.bunnies = self.start_bunnies;
        self.horses = self.start_horses;
        self.stuck = 0;
        self.hand_turn_to(Role::Bunnies);
    }

    /// Gives the turn to `role`, or passes it on when `role` cannot move; the bunnies' third
    /// turn in a row without a move ends the round.
    fn hand_turn_to(&mut self, mut role: Role) {
        loop {
            if self.has_move(role) {
                if role == Role::Bunnies {
                    self.stuck = 0;
                }
                self.to_move = role;
                return;
            }
            if role == Role::Bunnies {
                self.stuck += 1;
                if self.stuck >= STUCK_LIMIT {
                    self.end_round(RoundEnd::Stuck);
                    return;
                }
            }
            self.last.passed |= role.bit();
            role = role.other();
        }
    }

    fn enter_garden(&mut self, squares: u64) {
        self.last.entered |= squares;
        self.bunnies &= !squares;
        let seat = self.seat_of(Role::Bunnies);
        self.scores[seat.index()] += squares.count_ones() as u8;
    }

    fn end_round(&mut self, reason: RoundEnd) {
        let bunnies_seat = self.seat_of(Role::Bunnies);
        let garden = self.scores[bunnies_seat.index()];
        let left = self.bunnies.count_ones() as u8;
        let caught = self.bunnies_at_start() as u8 - garden - left;
        self.rounds[self.round as usize - 1] =
            Some(RoundSummary { round: self.round, bunnies_seat, garden, caught, left, end: reason });
        self.last.round_ended = Some((self.round, reason));
        self.last.ended_board = (self.bunnies, self.horses);
        // Passes inside a round that is over mean nothing any more.
        self.last.passed = 0;
        if self.round == 1 {
            self.round = 2;
            self.start_round();
        } else {
            let winner = match self.scores[0].cmp(&self.scores[1]) {
                std::cmp::Ordering::Greater => Winner::Seat(Seat(0)),
                std::cmp::Ordering::Less => Winner::Seat(Seat(1)),
                std::cmp::Ordering::Equal => Winner::Draw,
            };
            let reason = if reason == RoundEnd::Stuck { EndReason::NoMoves } else { EndReason::Goal };
            self.outcome = Some(Outcome { winner, reason });
        }
    }
}

impl Game for BunniesAndHorses {
    type Action = Move;
    const KIND: crate::rules::GameKind = crate::rules::GameKind::Bunnies;

    two_seat_move_game!();

    fn to_move(&self) -> Option<Seat> {
        self.role_to_move().map(|role| self.seat_of(role))
    }

    fn legal_actions(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(24);
        match self.role_to_move() {
            Some(Role::Bunnies) => self.bunny_moves(&mut moves),
            Some(Role::Horses) => self.horse_moves(&mut moves),
            None => {}
        }
        moves
    }

    fn play(&mut self, action: &Move) {
        let mover = self.to_move;
        let (from, to) = (action.from.bit(), action.to.bit());
        self.last = LastAction { action: Some(*action), ..LastAction::default() };
        match mover {
            Role::Bunnies => {
                self.bunnies ^= from | to;
                self.last.captured = self.horses & to != 0;
                self.horses &= !to;
                if to & RANK_8 != 0 {
                    self.last.mover_entered = true;
                    self.enter_garden(to);
                }
            }
            Role::Horses => {
                self.horses ^= from | to;
                self.last.captured = self.bunnies & to != 0;
                self.bunnies &= !to;
            }
        }
        if self.horses == 0 {
            self.enter_garden(self.bunnies);
            self.end_round(RoundEnd::NoHorses);
        } else if self.bunnies == 0 {
            self.end_round(RoundEnd::NoBunnies);
        } else {
            self.hand_turn_to(mover.other());
        }
    }

    fn passed(&self) -> Vec<Seat> {
        [Role::Bunnies, Role::Horses]
            .into_iter()
            .filter(|role| self.last.passed & role.bit() != 0)
            .map(|role| self.seat_of(role))
            .collect()
    }

    /// The role the seat plays in the current round.
    fn seat_name(&self, seat: Seat) -> &'static str {
        self.role_of(seat).key()
    }

    fn winner_name(&self, seat: Seat) -> &'static str {
        if seat == Seat(0) { "p1" } else { "p2" }
    }

    fn state_fields(&self) -> Map<String, Value> {
        let board = ascii_rows(BoardShape::CHESS, |square| match self.piece_at(square) {
            Some(Role::Bunnies) => 'P',
            Some(Role::Horses) => 'n',
            None => '.',
        });
        let entered: Vec<Value> = self
            .entered_garden()
            .into_iter()
            .map(|(square, how)| json!({ "square": square.to_string(), "by": how.key() }))
            .collect();
        let mut fields = Map::new();
        fields.insert("game".into(), json!("bunnies"));
        fields.insert("round".into(), json!(self.round));
        fields.insert("board".into(), json!(board));
        fields.insert("bunnies".into(), json!(square_names(self.bunnies)));
        fields.insert("horses".into(), json!(square_names(self.horses)));
        fields.insert("scores".into(), json!({ "p1": self.scores[0], "p2": self.scores[1] }));
        fields.insert("garden".into(), json!(self.garden()));
        fields.insert("caught".into(), json!(self.caught()));
        fields.insert("stuck".into(), json!(self.stuck));
        fields.insert("bunnies_player".into(), json!(if self.round == 1 { "p1" } else { "p2" }));
        fields.insert("round_ends".into(), json!(self.rounds.map(|round| round.map(|r| r.end.key()))));
        fields.insert(
            "round_just_ended".into(),
            json!(self.last.round_ended.map(|(round, why)| json!({ "round": round, "reason": why.key() }))),
        );
        let passed: Vec<&str> = self.passed().into_iter().map(|s| self.seat_name(s)).collect();
        fields.insert("passed".into(), json!(passed));
        fields.insert("last_move".into(), json!(self.last.action.map(|m| m.to_string())));
        fields.insert("entered_garden".into(), json!(entered));
        fields
    }
}
