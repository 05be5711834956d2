//! The rules of every game as pure values and functions: no Bevy, no clock, no randomness of their own.
//! The screens, the Robot, hints, undo, the text interface and the tests all go through `Game`.

/// The `Game` methods that the two-seat games played with a `Move` on the 8×8 board write the same
/// way, for a type with an `outcome: Option<Outcome>` field: seat count, outcome, losing on time,
/// and the action's text both ways. Used inside `impl Game for …`.
///
/// `two_seat_move_game!(white_and_black)` also writes whose turn it is, who passed and the seats'
/// names for a game whose seats are White and Black, with fields `to_move: Seat` and
/// `passed: Option<Seat>`.
macro_rules! two_seat_move_game {
    (white_and_black) => {
        two_seat_move_game!();

        fn to_move(&self) -> Option<$crate::rules::Seat> {
            self.outcome.is_none().then_some(self.to_move)
        }

        fn passed(&self) -> Vec<$crate::rules::Seat> {
            self.passed.into_iter().collect()
        }

        fn seat_name(&self, seat: $crate::rules::Seat) -> &'static str {
            $crate::rules::white_or_black(seat)
        }
    };
    () => {
        fn seat_count(&self) -> usize {
            2
        }

        fn outcome(&self) -> Option<$crate::rules::Outcome> {
            self.outcome
        }

        fn time_out(&mut self, seat: $crate::rules::Seat) {
            $crate::rules::Outcome::time_out(&mut self.outcome, seat);
        }

        fn action_text(&self, action: &$crate::rules::board::Move) -> String {
            action.to_string()
        }

        fn parse_action(&self, text: &str) -> Result<$crate::rules::board::Move, $crate::rules::RuleError> {
            $crate::rules::board::Move::parse_action(text, $crate::rules::board::BoardShape::CHESS)
        }
    };
}

pub mod board;
pub mod bunnies;
pub mod circles;
pub mod grid16;
pub mod halma;
pub mod knight_hunt;
pub mod nard;

use std::fmt;

/// Tabla's games, each named once: its code name is its level folder (`ron_configs/<code>/`), its
/// records' `game`, and the key of its Robot's coach, its bench figures, its trail on the map, its
/// figures, diplomas and setup choices, and its words (`game_<code>`). A sixth game is a variant
/// here (in `ALL` and `code` too) and an arm in `with_game!`; docs/adding-a-game.md lists every
/// other file it touches.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum GameKind {
    Circles,
    KnightHunt,
    Bunnies,
    Halma,
    Nard,
}

impl GameKind {
    /// Every game, in the menu's order.
    pub const ALL: [GameKind; 5] =
        [GameKind::Circles, GameKind::KnightHunt, GameKind::Bunnies, GameKind::Halma, GameKind::Nard];

    pub fn code(self) -> &'static str {
        match self {
            GameKind::Circles => "circles",
            GameKind::KnightHunt => "knight_hunt",
            GameKind::Bunnies => "bunnies",
            GameKind::Halma => "halma",
            GameKind::Nard => "nard",
        }
    }

    /// The game a code name names; any other text is refused, saying which names there are.
    pub fn parse(code: &str) -> Result<GameKind, String> {
        GameKind::ALL.into_iter().find(|kind| kind.code() == code).ok_or_else(|| {
            let names: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.code()).collect();
            format!("'{}' is no game of Tabla's (they are {})", crate::quote::quote(code), names.join(", "))
        })
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl TryFrom<String> for GameKind {
    type Error = String;
    fn try_from(code: String) -> Result<GameKind, String> {
        GameKind::parse(&code)
    }
}

impl From<GameKind> for String {
    fn from(kind: GameKind) -> String {
        kind.code().to_string()
    }
}

/// Runs `$body` with `$G` standing for the rules type of the game `$kind` names: with `GameKind`,
/// the one list of the games, so code that works for any game (the text interface, a record's
/// summary, a stage's stars, the bench, the screens) names none of them.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::rules::GameKind::Circles => {
                type $G = $crate::rules::circles::Circles;
                $body
            }
            $crate::rules::GameKind::KnightHunt => {
                type $G = $crate::rules::knight_hunt::KnightHunt;
                $body
            }
            $crate::rules::GameKind::Bunnies => {
                type $G = $crate::rules::bunnies::BunniesAndHorses;
                $body
            }
            $crate::rules::GameKind::Halma => {
                type $G = $crate::rules::halma::Halma;
                $body
            }
            $crate::rules::GameKind::Nard => {
                type $G = $crate::rules::nard::Nard;
                $body
            }
        }
    };
}

/// A place at the table. Two-player games use `Seat::WHITE` (moves first) and `Seat::BLACK`;
/// what a seat is called (white, bunnies, …) is the game's business (`Game::seat_name`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Seat(pub u8);

impl Seat {
    pub const WHITE: Seat = Seat(0);
    pub const BLACK: Seat = Seat(1);

    /// The other seat of a two-player game (for more seats, `next`).
    pub fn opponent(self) -> Seat {
        debug_assert!(self.0 < 2, "opponent() is for two-seat games");
        Seat(self.0 ^ 1)
    }

    /// The seat after this one round a table of `seat_count` seats.
    pub fn next(self, seat_count: usize) -> Seat {
        Seat(((self.index() + 1) % seat_count.max(1)) as u8)
    }

    /// Every seat of a table of `seat_count` seats, in turn order from seat 0.
    pub fn all(seat_count: usize) -> impl Iterator<Item = Seat> {
        (0..seat_count as u8).map(Seat)
    }

    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of seats, such as a team of partners.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct SeatSet(u8);

impl SeatSet {
    pub fn of(seats: &[Seat]) -> SeatSet {
        SeatSet(seats.iter().fold(0, |bits, s| bits | 1 << s.0))
    }

    pub fn contains(self, seat: Seat) -> bool {
        self.0 & (1 << seat.0) != 0
    }

    pub fn seats(self) -> impl Iterator<Item = Seat> {
        (0..8u8).filter(move |i| self.0 & (1 << i) != 0).map(Seat)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Winner {
    Seat(Seat),
    /// Partners who win together.
    Team(SeatSet),
    Draw,
}

impl Winner {
    /// Whether `seat` is among the winners.
    pub fn includes(self, seat: Seat) -> bool {
        match self {
            Winner::Seat(winner) => winner == seat,
            Winner::Team(team) => team.contains(seat),
            Winner::Draw => false,
        }
    }
}

/// Why a game ended; the screens turn it into words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// A side reached the game's goal (all pawns taken, both pieces home, …).
    Goal,
    /// Nobody can move any more.
    NoMoves,
    /// A clock reached zero.
    OutOfTime,
    /// Too many moves without progress.
    NoProgress,
    /// The game's move or round limit was reached.
    MoveLimit,
    /// The same position came back too often.
    Repetition,
    /// Every player agreed.
    Agreement,
}

impl EndReason {
    pub fn key(self) -> &'static str {
        match self {
            EndReason::Goal => "goal",
            EndReason::NoMoves => "no_moves",
            EndReason::OutOfTime => "out_of_time",
            EndReason::NoProgress => "no_progress",
            EndReason::MoveLimit => "move_limit",
            EndReason::Repetition => "repetition",
            EndReason::Agreement => "agreement",
        }
    }
}

/// The name of a seat in the games whose two seats are White and Black (`Game::seat_name`).
pub fn white_or_black(seat: Seat) -> &'static str {
    if seat == Seat::WHITE { "white" } else { "black" }
}

/// A value per seat of a White and Black game, for `Game::state_fields`: `{"white": …, "black": …}`.
pub fn per_seat(value: impl Fn(Seat) -> serde_json::Value) -> serde_json::Value {
    serde_json::json!({ "white": value(Seat::WHITE), "black": value(Seat::BLACK) })
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub winner: Winner,
    pub reason: EndReason,
}

impl Outcome {
    pub fn win(seat: Seat, reason: EndReason) -> Outcome {
        Outcome { winner: Winner::Seat(seat), reason }
    }

    pub fn team(team: SeatSet, reason: EndReason) -> Outcome {
        Outcome { winner: Winner::Team(team), reason }
    }

    pub fn draw(reason: EndReason) -> Outcome {
        Outcome { winner: Winner::Draw, reason }
    }

    /// `Game::time_out` of a two-seat game: unless the game is already over, the seat that ran out
    /// of time loses.
    pub fn time_out(outcome: &mut Option<Outcome>, seat: Seat) {
        if outcome.is_none() {
            *outcome = Some(Outcome::win(seat.opponent(), EndReason::OutOfTime));
        }
    }
}

/// Why an action was refused. The state is never changed by a refused action.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RuleError {
    GameOver,
    /// The text could not be read as an action of this game.
    Unreadable(String),
    /// A well-formed action the rules do not allow now.
    Illegal(String),
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::GameOver => write!(f, "the game is over"),
            RuleError::Unreadable(text) => write!(f, "cannot read the action '{text}'"),
            RuleError::Illegal(why) => write!(f, "illegal: {why}"),
        }
    }
}

impl std::error::Error for RuleError {}

/// One game in progress: a value that knows whose turn it is, what may be done, and how it ends.
///
/// A side with no legal action passes by itself inside `play`, so whenever the game is not over
/// the seat returned by `to_move` has at least one legal action (or dice are due, see `chance`).
pub trait Game: Clone + Send + Sync + 'static {
    type Action: Clone + PartialEq + fmt::Debug + Send + Sync + 'static;
    /// Which of Tabla's games this is.
    const KIND: GameKind;

    fn seat_count(&self) -> usize;
    /// The seat to act, `None` once the game is over (or while nobody in particular acts).
    fn to_move(&self) -> Option<Seat>;
    /// Every legal action now, in a fixed order.
    fn legal_actions(&self) -> Vec<Self::Action>;
    /// Plays an action taken from `legal_actions`; anything else is a programming error.
    fn play(&mut self, action: &Self::Action);
    fn outcome(&self) -> Option<Outcome>;
    /// The seat ran out of time and loses, whatever the score.
    fn time_out(&mut self, seat: Seat);
    /// Seats that had no legal action and passed right after the last action.
    fn passed(&self) -> Vec<Seat> {
        Vec::new()
    }
    /// While dice are due: every roll with its probability. The Robot averages over them.
    fn chance(&self) -> Option<Vec<(Self::Action, f64)>> {
        None
    }

    fn seat_name(&self, seat: Seat) -> &'static str;
    /// How a winner is named in an outcome (the same as `seat_name` unless the game says otherwise).
    fn winner_name(&self, seat: Seat) -> &'static str {
        self.seat_name(seat)
    }
    fn action_text(&self, action: &Self::Action) -> String;
    fn parse_action(&self, text: &str) -> Result<Self::Action, RuleError>;
    /// The whole state for the text interface; `to_move` and `outcome` are added by the caller.
    fn state_fields(&self) -> serde_json::Map<String, serde_json::Value>;

    /// Checks an action against the rules and plays it; a refused action leaves the state as it was.
    fn apply(&mut self, action: &Self::Action) -> Result<(), RuleError> {
        if self.outcome().is_some() {
            return Err(RuleError::GameOver);
        }
        if !self.legal_actions().contains(action) {
            return Err(RuleError::Illegal(format!("{} is not a legal move now", self.action_text(action))));
        }
        self.play(action);
        Ok(())
    }
}
