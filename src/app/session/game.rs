//! What a game brings to the game screen beyond its rules: what it tells about itself (`GameInfo`)
//! and how it stands on the board (`GameView`). A game's view file implements both; together with
//! its Robot and level files that makes it an `AppGame`, and the game screen does the rest.

use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::levels::FromLevel;
use crate::robot::review::Coached;
use crate::rules::board::{BoardShape, Move, Square};
use crate::rules::{Game, Seat};
use bevy::prelude::*;

/// What an action does on the board: the piece it moves, if any (a roll of the dice or a cube
/// decision moves none).
pub trait BoardAction {
    fn motion(&self) -> Option<Move>;
    /// The places the piece passes through, in order, ending where it stops (a jump chain, a
    /// checker moved with several numbers). One place for a plain move.
    fn path(&self) -> Vec<Square> {
        self.motion().map(|m| vec![m.to]).unwrap_or_default()
    }
}

impl BoardAction for Move {
    fn motion(&self) -> Option<Move> {
        Some(*self)
    }
}

/// What a game tells the screens about itself: its name and picture, its seats' labels and
/// scores, its banner and notices, the letters of its move list.
pub trait GameInfo: Game {
    /// The game's picture on the menu.
    const MENU_ART: Art;
    /// The piece its stages show on the map.
    const STAGE_ART: Art;
    /// The person's seat against the Robot, when the game decides it (else the person chooses).
    const PERSON_SEAT: Option<Seat> = None;
    /// The setup chooses each seat's player (a person or a Robot level) and who starts, instead of
    /// an opponent and the person's colour.
    const SEAT_BY_SEAT: bool = false;
    /// Whether the panels show a score.
    const SHOW_SCORE: bool = true;
    /// The words key of a seat's colour or role now ("white", "role_bunnies"…).
    fn seat_label_key(&self, seat: Seat) -> &'static str {
        if seat == Seat::WHITE { "white" } else { "black" }
    }
    /// The seat's score as its panel shows it.
    fn score(&self, seat: Seat) -> u32;
    /// What the seat's panel shows under its score (knights left, progress, …).
    fn extras(&self, _seat: Seat, _words: &Words) -> Vec<Extra> {
        Vec::new()
    }
    /// A lasting message about the game's phase.
    fn banner(&self, _words: &Words) -> Option<String> {
        None
    }
    /// A big message when this state begins something the players must see at once (an opening
    /// tie, who starts, a rule coming into force, a refused draw), told to `person` (the person
    /// playing the Robot; `None` for two players).
    fn phase_notice(&self, _before: &Self, _person: Option<Seat>, _words: &Words) -> Option<String> {
        None
    }
    /// The words key of the letter the move list writes for the piece making `action`; games
    /// without a move list say `None`.
    fn piece_letter(&self, _action: &Self::Action) -> Option<&'static str> {
        None
    }
    /// Whether this state begins a new phase laid out afresh (a new round): every piece of the
    /// last phase leaves the board and the new ones appear.
    fn new_phase(&self, _before: &Self) -> bool {
        false
    }
    /// A seat's picture beside its name (an army's piece), when the seats differ by more than
    /// a colour word.
    fn seat_art(&self, _seat: Seat) -> Option<Art> {
        None
    }
    /// The seat playing on the same team, where seats play in pairs.
    fn partner_of(&self, _seat: Seat) -> Option<Seat> {
        None
    }
    /// Actions played by a button rather than on the board (offering a draw, answering one), each
    /// with the words key of its button, while a person is to act.
    fn choices(&self) -> Vec<(Self::Action, &'static str)> {
        Vec::new()
    }
    /// A question the seat to act must answer with the `choices` before anything else (a draw
    /// offered to it): they show as a dialog instead of buttons beside the board.
    fn question(&self, _words: &Words) -> Option<String> {
        None
    }
    /// The same game begun afresh with the first turn moved to the next seat (New game), for
    /// games where who starts goes round; `None` where a new game is a restart.
    fn next_first(&self) -> Option<Self> {
        None
    }
    /// The seat the screen waits for: the one to move, or the one whose die is due where the
    /// rules name nobody (each side's opening die).
    fn actor(&self) -> Option<Seat> {
        self.to_move()
    }
    /// Whether undo may stop at this state: a person's move taken back lands on a state where
    /// the game would have them begin afresh (not in the middle of a dice set).
    fn undo_stop(&self) -> bool {
        true
    }
    /// The words key saying why the piece on `square` cannot move now, for a tap on it.
    fn why_stuck(&self, _square: Square) -> Option<&'static str> {
        None
    }
    /// A place as a child hears it named: a square's name ("g1"), a backgammon point's number.
    fn place_name(&self, square: Square) -> String {
        square.to_string()
    }
    /// What the last action ended, when it ended one round of several (a game of a match):
    /// shown in a panel the players close with Next before the next round goes on, told to
    /// `person` (the person playing the Robot; `None` for two players).
    fn round_over(&self, _before: &Self, _person: Option<Seat>, _words: &Words) -> Option<RoundReport> {
        None
    }
    /// The picture of the question's dialog.
    fn question_art(&self) -> Art {
        Art::Handshake
    }
    /// The picture on a choice's button in the question's dialog, if it has one (then the
    /// button is the picture with its words under it).
    fn choice_art(&self, _choice: &Self::Action) -> Option<Art> {
        None
    }
}

/// The panel between two rounds: what was won and how.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundReport {
    pub title: String,
    pub lines: Vec<String>,
    pub winner: Option<Seat>,
}

/// How a game stands on the board: its places (the grid's squares and zones beyond it) and where
/// they stand, the pieces on them and their pictures, stacks, trays, targets and paths, colours
/// and decorations. Places are named by `Square` (a file and a rank), whatever the board's
/// shape; `place_at` puts each where the game wants it.
pub trait GameView: Game<Action: BoardAction> {
    /// Whether pieces leave the board for trays beside it (else no room is kept for them).
    const HAS_TRAYS: bool = true;
    /// Whether tapping a target first previews the whole path, to be confirmed (or extended,
    /// where `further` gives landings beyond its end) before it is played.
    const CONFIRM_MOVES: bool = false;
    /// Whether pieces hop from place to place (each hop an arc) rather than slide.
    const HOPS: bool = false;
    /// Whether a person's moves are tried out first (a draft, taken back one by one) and played
    /// only when the whole turn's part is confirmed; `draft_open` says how long a draft goes on.
    const DRAFTS: bool = false;
    /// Whether the pieces the seat to act can move are marked before any tap.
    const SHOW_MOVABLE: bool = false;
    /// Whether the board is much wider than tall (a backgammon board), so a screen held upright
    /// shows it turned on its side.
    const LONG: bool = false;
    /// How an action moves a piece on the board, asked of the state before it (a move named in
    /// the mover's own numbering needs the state to find its places).
    fn motion_of(&self, action: &Self::Action) -> Option<Move> {
        action.motion()
    }
    /// While drafting: whether moves may still follow those played since `start` (the same dice
    /// set), else the draft waits to be confirmed.
    fn draft_open(&self, _start: &Self) -> bool {
        false
    }
    /// The actions that take the piece on `from` to `to`, one after the other (a checker moved
    /// by several numbers); empty when it cannot get there.
    fn route_between(&self, from: Square, to: Square) -> Vec<Self::Action> {
        self.action_between(from, to).into_iter().collect()
    }
    /// Pictures beside a target, reached from `from` along `path` (the dice a route uses).
    fn target_labels(&self, _from: Square, _path: &[Square]) -> Vec<Art> {
        Vec::new()
    }
    /// Whether a tap on this place rolls the dice when they are due.
    fn rolls_dice_at(&self, _square: Square) -> bool {
        false
    }
    /// The size of a place's cell, in squares.
    fn cell_size(&self, _square: Square) -> Vec2 {
        Vec2::ONE
    }
    /// From one piece of a stack on `square` to the next, in squares, where places differ.
    fn stack_step_at(&self, _square: Square) -> Vec2 {
        self.stack_step()
    }
    /// From a place's centre to its stack's first piece, in squares.
    fn stack_start(&self, _square: Square) -> Vec2 {
        Vec2::ZERO
    }
    /// The most pieces of a stack on `square` drawn apart; higher ones sit on the last, which
    /// then shows the stack's height (`count_art`).
    fn stack_drawn(&self, _square: Square) -> usize {
        5
    }
    /// The picture telling a stack's height, for stacks taller than `stack_drawn`.
    fn count_art(&self, _height: usize) -> Option<Art> {
        None
    }
    /// Whether the board is turned (rank 8 at the bottom) for `person`.
    fn flipped(&self, person: Option<Seat>) -> bool {
        person == Some(Seat::BLACK)
    }
    fn shape(&self) -> BoardShape {
        BoardShape::CHESS
    }
    /// Every piece on the board and its picture.
    fn pieces(&self) -> Vec<(Square, Art)>;
    /// The pieces a seat has collected, shown beside the board.
    fn tray(&self, seat: Seat) -> Vec<Art>;
    /// Whether a seat's tray lies beyond rank 8 (else below rank 1).
    fn tray_on_far_side(&self, seat: Seat) -> bool {
        seat == Seat::BLACK
    }
    /// Where a piece goes when it leaves the board with the last action, played by `mover`.
    fn exit(&self, _square: Square, _art: Art, mover: Seat) -> Exit {
        Exit::Tray(mover)
    }
    /// The legal destinations of the piece on `from`, for the seat to move.
    fn targets(&self, from: Square) -> Vec<Square> {
        self.legal_actions()
            .iter()
            .filter_map(|a| self.motion_of(a))
            .filter(|m| m.from == from)
            .map(|m| m.to)
            .collect()
    }
    /// Every place the piece on `from` can reach, each with the path it takes there.
    fn target_paths(&self, from: Square) -> Vec<Vec<Square>> {
        self.legal_actions()
            .iter()
            .filter(|a| self.motion_of(a).is_some_and(|m| m.from == from))
            .map(|a| self.path_of(a))
            .collect()
    }
    /// The places the piece moved by `action` passes through, ending where it stops, asked of
    /// the state before it (a jump chain's hops).
    fn path_of(&self, action: &Self::Action) -> Vec<Square> {
        action.path()
    }
    /// An arrow for `action`, asked of the state before it: where its piece starts and the places
    /// it passes through (`None` for an action that moves no piece, such as a roll).
    fn arrow_of(&self, action: &Self::Action) -> Option<(Square, Vec<Square>)> {
        self.motion_of(action).map(|motion| (motion.from, self.path_of(action)))
    }
    /// Landings that extend a previewed path (from `from` through `path`) by one more hop.
    fn further(&self, _from: Square, _path: &[Square]) -> Vec<Square> {
        Vec::new()
    }
    /// From one piece of a stack to the next, in squares; games whose places hold one piece
    /// keep zero.
    fn stack_step(&self) -> Vec2 {
        Vec2::ZERO
    }
    /// The legal action that takes the piece on `from` to `to`, if there is one.
    fn action_between(&self, from: Square, to: Square) -> Option<Self::Action> {
        self.legal_actions().into_iter().find(|a| self.motion_of(a) == Some(Move::new(from, to)))
    }
    /// Whether the piece on `square` belongs to the seat to move (it may be picked up).
    fn movable(&self, square: Square) -> bool;
    /// Where a place stands, in squares from the centre of a1: a board that is no grid (the
    /// points of a backgammon board, a tray) puts its places where it wants them.
    fn place_at(&self, square: Square) -> Vec2 {
        Vec2::new(square.file as f32, square.rank as f32)
    }
    /// Places beyond the grid (a tray for borne-off checkers, a bar): each is a place like a
    /// square, standing at `place_at`, with a cell to tap or to drop a piece on, holding a stack.
    fn zones(&self) -> Vec<Square> {
        Vec::new()
    }
    /// Places an arrow from `from` to `to` turns at on its way, where a straight line would cross
    /// the board (a Crazy Nard move round the board's end follows the track).
    fn corners_between(&self, _from: Square, _to: Square) -> Vec<Square> {
        Vec::new()
    }
    fn square_colour(&self, square: Square) -> Color {
        if square.is_dark() { Color::srgb(0.71, 0.53, 0.39) } else { Color::srgb(0.94, 0.85, 0.71) }
    }
    /// Pictures drawn on the board under the pieces.
    fn decorations(&self) -> Vec<Decoration> {
        Vec::new()
    }
    /// Pictures over the board that the game's own systems draw on the game screen (dice), for
    /// drawings of the board elsewhere (the help's demonstration).
    fn pictures(&self) -> Vec<Decoration> {
        Vec::new()
    }
}

/// A game on screen: its rules and Robot, its level files, what it tells about itself and how it
/// stands on the board. A game's view file implements `GameInfo` and `GameView`; the game screen does
/// the rest.
pub trait AppGame: GameInfo + GameView + Coached + FromLevel {}

impl<G: GameInfo + GameView + Coached + FromLevel> AppGame for G {}

/// A line of a seat's panel.
#[derive(Clone, Debug, PartialEq)]
pub enum Extra {
    /// A picture repeated `n` times (knights left).
    Count(Art, u32),
    /// A piece's way round, filling a bar.
    Progress { art: Art, percent: u8, finished: bool },
    /// A few words.
    Text(String),
    /// Dice: each its number and whether it is played already (greyed).
    Dice(Vec<(u8, bool)>),
}

/// A picture on the board: `at` in squares from the centre of a1, `size` in squares (width and
/// height), tinted by `colour`; a shape that turns with the board (a backgammon point) has an
/// `angle` of its own (radians, counterclockwise), a picture of a thing stays upright (`None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decoration {
    pub art: Art,
    pub at: Vec2,
    pub size: Vec2,
    pub colour: Color,
    pub angle: Option<f32>,
}

impl Decoration {
    /// A square picture in its own colours.
    pub fn new(art: Art, at: Vec2, size: f32) -> Decoration {
        Decoration { art, at, size: Vec2::splat(size), colour: Color::WHITE, angle: None }
    }
}

pub enum Exit {
    Tray(Seat),
    Vanish,
}
