//! The match: its setup, the phases of a turn, how games end and are scored, and the `Nard` value
//! that holds it all.

use super::{
    Board, CHECKERS, CheckerMove, Cube, DiceSet, HeadRule, NardAction, Numbers, Play, SetKind, legal_moves,
    plays,
};
use crate::rules::{EndReason, Game, Outcome, Seat};

/// A match's rules and starting position, read from its level file.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    /// Points needed to win the match.
    pub match_length: u32,
    /// Whether the doubling cube is used (never in a 1-point match).
    pub cube: bool,
    /// Whether the Crawford rule applies.
    pub crawford: bool,
    pub head_rule: HeadRule,
    /// Where the checkers stand when a game starts.
    pub start: Board,
}

impl Setup {
    /// The spec's match: all 15 on the head, 5 points, cube and Crawford, head rule per dice set.
    pub fn standard(match_length: u32) -> Setup {
        Setup {
            match_length,
            cube: match_length > 1,
            crawford: match_length > 1,
            head_rule: HeadRule::PerDiceSet,
            start: Board::opening(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Each player rolls one die, White's first; `white_die` once White has rolled.
    Opening {
        white_die: Option<u8>,
    },
    /// The seat starts an ordinary turn: it rolls, or first doubles when the cube allows.
    AwaitingRoll(Seat),
    /// The seat has doubled; its opponent takes or drops.
    DoubleOffered(Seat),
    Playing(DiceSet),
    MatchOver,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ResultKind {
    /// An ordinary win: 1 point times the cube.
    Oin,
    /// The loser bore off nothing: 2 points times the cube.
    Mars,
    /// A double was dropped: the cube's value before the double.
    Dropped,
    /// Deadlock, or a position nobody can ever move from: no points.
    Draw,
}

impl ResultKind {
    pub fn key(self) -> &'static str {
        match self {
            ResultKind::Oin => "oin",
            ResultKind::Mars => "mars",
            ResultKind::Dropped => "dropped",
            ResultKind::Draw => "draw",
        }
    }
}

/// How a game of the match ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameResult {
    pub game_number: u32,
    pub winner: Option<Seat>,
    pub kind: ResultKind,
    pub points: u32,
    /// The cube's value the game was played for (before a dropped double).
    pub cube: u32,
    /// The position the game ended in.
    pub board: Board,
}

/// What happened on its own after the last action, for the screen to show in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Both opening dice showed this number: roll again.
    OpeningTie(u8),
    SetStarted {
        player: Seat,
        kind: SetKind,
        numbers: Numbers,
    },
    /// Numbers the player could not play went to its opponent.
    NumbersPassed {
        from: Seat,
        numbers: Numbers,
    },
    /// Passed numbers the player could not play either: they are gone.
    NumbersLost {
        player: Seat,
        numbers: Numbers,
    },
    GameEnded(GameResult),
    GameStarted {
        number: u32,
        crawford: bool,
    },
}

/// A Crazy Nard match in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nard {
    pub(super) match_length: u32,
    pub(super) cube_enabled: bool,
    pub(super) crawford_enabled: bool,
    pub(super) head_rule: HeadRule,
    pub(super) start_board: Board,
    pub(super) board: Board,
    pub(super) phase: Phase,
    /// The next double of a chain still to come, and whose chain it is.
    pub(super) chain: Option<(Seat, u8)>,
    /// The rolled double that began the chain of this turn, if the turn's roll was a double.
    pub(super) chain_start: Option<u8>,
    /// Who made the last ordinary roll (or won the opening); its opponent rolls next.
    pub(super) turn_owner: Seat,
    pub(super) rolls_made: [u32; 2],
    /// Head checkers each side may still move this turn (`HeadRule::PerTurn`).
    pub(super) head_this_turn: [u8; 2],
    pub(super) cube: Cube,
    pub(super) score: [u32; 2],
    pub(super) game_number: u32,
    pub(super) crawford_game: bool,
    pub(super) crawford_done: bool,
    pub(super) last_game: Option<GameResult>,
    pub(super) outcome: Option<Outcome>,
    pub(super) events: Vec<Event>,
    pub(super) serial: u32,
}

impl Nard {
    /// A new match: the first game waits for the opening dice.
    pub fn new(setup: &Setup) -> Nard {
        let start_board = setup.start;
        let mut game = Nard {
            match_length: setup.match_length.max(1),
            cube_enabled: setup.cube && setup.match_length > 1,
            crawford_enabled: setup.crawford,
            head_rule: setup.head_rule,
            start_board,
            board: start_board,
            phase: Phase::Opening { white_die: None },
            chain: None,
            chain_start: None,
            turn_owner: Seat::WHITE,
            rolls_made: [0, 0],
            head_this_turn: [1, 1],
            cube: Cube { value: 1, owner: None },
            score: [0, 0],
            game_number: 0,
            crawford_game: false,
            crawford_done: false,
            last_game: None,
            outcome: None,
            events: Vec::new(),
            serial: 0,
        };
        game.start_game();
        game.events.clear();
        game
    }

    /// A match whose first game starts from `board`, with `to_roll` about to roll an ordinary turn
    /// (neither side on its first roll any more). For practice positions and tests.
    pub fn from_position(setup: &Setup, board: Board, to_roll: Seat) -> Nard {
        let mut game = Nard::new(setup);
        game.board = board;
        game.rolls_made = [1, 1];
        game.turn_owner = to_roll.opponent();
        game.phase = Phase::AwaitingRoll(to_roll);
        game
    }

    /// The same match resumed at a score (White's, Black's): for practice positions and tests.
    pub fn with_score(mut self, score: [u32; 2]) -> Nard {
        self.score = score;
        self
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Dice are due: the opening dice, or an ordinary roll.
    pub fn awaiting_roll(&self) -> bool {
        matches!(self.phase, Phase::Opening { .. } | Phase::AwaitingRoll(_))
    }

    /// White's opening die, once rolled and while Black's is due.
    pub fn opening_white_die(&self) -> Option<u8> {
        match self.phase {
            Phase::Opening { white_die } => white_die,
            _ => None,
        }
    }

    /// The dice set in play: the numbers still to play, whose they are and where they come from.
    pub fn dice_set(&self) -> Option<&DiceSet> {
        match &self.phase {
            Phase::Playing(set) => Some(set),
            _ => None,
        }
    }

    /// The next double of a doubles chain still to come, and whose chain it is.
    pub fn chain_next(&self) -> Option<(Seat, u8)> {
        self.chain
    }

    /// The rolled double that began this turn's chain (its steps run from it up to 6-6), while
    /// the turn is one's that rolled a double.
    pub fn chain_start(&self) -> Option<u8> {
        self.chain_start
    }

    pub fn score(&self, seat: Seat) -> u32 {
        self.score[seat.index()]
    }

    pub fn match_length(&self) -> u32 {
        self.match_length
    }

    /// The game of the match under way, from 1.
    pub fn game_number(&self) -> u32 {
        self.game_number
    }

    pub fn is_crawford_game(&self) -> bool {
        self.crawford_game
    }

    pub fn head_rule(&self) -> HeadRule {
        self.head_rule
    }

    pub fn last_game(&self) -> Option<&GameResult> {
        self.last_game.as_ref()
    }

    /// What happened by itself after the last action.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub fn pip_count(&self, seat: Seat) -> u32 {
        self.board.pip_count(seat)
    }

    pub fn borne_off(&self, seat: Seat) -> u8 {
        self.board.borne_off(seat)
    }

    /// Ordinary rolls made in this game by the seat (the opening counts for its winner).
    pub fn rolls_made(&self, seat: Seat) -> u32 {
        self.rolls_made[seat.index()]
    }

    /// The legal single-checker moves of the dice set in play.
    pub fn legal_moves(&self) -> Vec<CheckerMove> {
        match &self.phase {
            Phase::Playing(set) if self.outcome.is_none() => {
                legal_moves(&self.board, set.player, set.left, set.head_left())
            }
            _ => Vec::new(),
        }
    }

    /// Own points of the player in play holding a checker that may move now.
    pub fn movable_points(&self) -> Vec<u8> {
        let mut points: Vec<u8> = self.legal_moves().iter().map(|m| m.from).collect();
        points.dedup();
        points
    }

    /// The legal moves of the checker on the player's own point `from`.
    pub fn targets_from(&self, from: u8) -> Vec<CheckerMove> {
        self.legal_moves().into_iter().filter(|m| m.from == from).collect()
    }

    /// Where the checker on the player's own point `from` can get with the numbers still to play,
    /// moving alone: one route per destination (the fewest moves), each move legal in its turn.
    pub fn routes_from(&self, from: u8) -> Vec<Vec<CheckerMove>> {
        let Some(serial) = self.dice_set().map(|s| s.serial) else { return Vec::new() };
        let mut routes: Vec<Vec<CheckerMove>> = Vec::new();
        let mut frontier: Vec<(Nard, Vec<CheckerMove>)> = vec![(self.clone(), Vec::new())];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for (game, route) in frontier {
                let at = route.last().map_or(from, |m| m.to);
                for mv in game.targets_from(at) {
                    if routes.iter().any(|r| r.last().map(|m| m.to) == Some(mv.to)) {
                        continue;
                    }
                    let mut longer = route.clone();
                    longer.push(mv);
                    routes.push(longer.clone());
                    let mut after = game.clone();
                    after.play(&NardAction::Move(mv));
                    let same_set = after.dice_set().is_some_and(|s| s.serial == serial);
                    if same_set && !mv.is_bear_off() && after.outcome.is_none() {
                        next.push((after, longer));
                    }
                }
            }
            frontier = next;
        }
        routes
    }

    /// Every way to play the rest of the dice set in play, one line per distinct end position.
    pub fn plays(&self) -> Vec<Play> {
        match &self.phase {
            Phase::Playing(set) if self.outcome.is_none() => {
                plays(&self.board, set.player, set.left, set.head_left())
            }
            _ => Vec::new(),
        }
    }

    pub(super) fn start_game(&mut self) {
        self.game_number += 1;
        self.board = self.start_board;
        self.phase = Phase::Opening { white_die: None };
        self.chain = None;
        self.chain_start = None;
        self.rolls_made = [0, 0];
        self.head_this_turn = [1, 1];
        self.cube = Cube { value: 1, owner: None };
        self.events.push(Event::GameStarted { number: self.game_number, crawford: self.crawford_game });
    }

    pub(super) fn play_move(&mut self, mv: CheckerMove) {
        let Phase::Playing(set) = &mut self.phase else { return };
        let player = set.player;
        self.board = self.board.after(player, mv);
        set.left = set.left.without(mv.die());
        set.moves.push(mv);
        if self.board.borne_off(player) == CHECKERS {
            let loser = player.opponent();
            let kind = if self.board.borne_off(loser) == 0 { ResultKind::Mars } else { ResultKind::Oin };
            self.end_game(Some(player), kind);
        } else if self.board.is_deadlock() {
            self.end_game(None, ResultKind::Draw);
        } else {
            self.settle();
        }
    }

    pub(super) fn end_game(&mut self, winner: Option<Seat>, kind: ResultKind) {
        let points = match kind {
            ResultKind::Oin | ResultKind::Dropped => self.cube.value,
            ResultKind::Mars => 2 * self.cube.value,
            ResultKind::Draw => 0,
        };
        let cube = self.cube.value;
        let result =
            GameResult { game_number: self.game_number, winner, kind, points, cube, board: self.board };
        self.events.push(Event::GameEnded(result));
        self.last_game = Some(result);
        self.crawford_game = false;
        if let Some(seat) = winner {
            let before = self.score[seat.index()];
            self.score[seat.index()] += points;
            if self.score[seat.index()] >= self.match_length {
                self.phase = Phase::MatchOver;
                self.outcome = Some(Outcome::win(seat, EndReason::Goal));
                return;
            }
            let short_by_one =
                self.score[seat.index()] + 1 == self.match_length && before + 1 < self.match_length;
            if self.crawford_enabled && self.cube_enabled && !self.crawford_done && short_by_one {
                self.crawford_game = true;
                self.crawford_done = true;
            }
        }
        self.start_game();
    }
}
