//! The game being played, as the screens see it, whatever the game: `Play` holds it behind
//! `Playing`, so each system of the game screen exists once for the five games. Its history, who plays each seat
//! and the last change for the board's animation are the game's own (`play_of::PlayOf`); every
//! decision is the rules'. An action the game screen holds without knowing its type (the Robot's choice,
//! a hint) is a `Choice`.

use super::shown::Shown;
use crate::app::launch::Control;
use crate::record::Record;
use crate::robot::RobotLevel;
use crate::rules::board::{Move, Square};
use crate::rules::{GameKind, Outcome, Seat};
use bevy::prelude::*;
use std::any::Any;

/// The Robot's level that thinks of hints: not the strongest, and not the first either, whose
/// moves are meant to be beaten.
pub const HINT_LEVEL: RobotLevel = RobotLevel::Two;

/// The game being played (see the module's words). Systems change it through `change_if`, so
/// Bevy sees it changed only when the game (or its players) did: a piece picked, a hint shown or
/// a panel opened leaves it as it was.
#[derive(Resource, Deref, DerefMut)]
pub struct Play(pub Box<dyn Playing>);

/// Runs `f` on the game being played and marks it changed for Bevy only when the game (or who
/// plays it) changed: a tap that only picks a piece leaves it unchanged.
pub fn change_if<T>(play: &mut ResMut<Play>, f: impl FnOnce(&mut dyn Playing) -> T) -> T {
    let inner = play.bypass_change_detection();
    let before = inner.changes();
    let answer = f(inner.0.as_mut());
    if inner.changes() != before {
        play.set_changed();
    }
    answer
}

/// An action of the game being played, held without knowing its type (the Robot's choice, a
/// hint): only the game it came from can read it.
pub struct Choice(pub Box<dyn Any + Send + Sync>);

/// The Robot (or a hint) thinking of an action, a slice at a time.
pub trait AnyThinker: Send + Sync {
    /// Thinks for about `nodes` more nodes; the action once it is decided.
    fn step(&mut self, nodes: u64) -> Option<Choice>;
}

/// What the game being played can be asked and told, whatever the game (`PlayOf` of each game).
pub trait Playing: Send + Sync + 'static {
    fn kind(&self) -> GameKind;
    fn as_any(&self) -> &dyn Any;
    /// Counts the changes to the game and its players (`change_if` compares it).
    fn changes(&self) -> u64;

    /// The game as the board shows it: with the draft's moves, if any.
    fn game(&self) -> &dyn Shown;
    /// The game as its history holds it (without a draft's moves).
    fn history_game(&self) -> &dyn Shown;
    /// The state before the last step (of the draft, while there is one).
    fn previous(&self) -> Option<&dyn Shown>;
    /// The game's start.
    fn first(&self) -> &dyn Shown;
    /// What the last change was, for the board's animation.
    fn change(&self) -> &Change;
    fn moves_played(&self) -> usize;
    /// Actions that redo would bring back.
    fn undone(&self) -> usize;
    fn controls(&self) -> &[Control];
    fn control(&self, seat: Seat) -> Control;
    fn has_robot(&self) -> bool;
    /// The person's seat when one person plays against Robots.
    fn person_against_robot(&self) -> Option<Seat>;
    /// The seat to act when a person plays it; while a draft waits, the person drafting.
    fn person_to_move(&self) -> Option<Seat>;
    /// The Robot's level when a Robot holds the seat to act (never while a person drafts).
    fn robot_to_move(&self) -> Option<RobotLevel>;
    fn drafting(&self) -> bool;
    fn draft_done(&self) -> bool;
    fn can_hint(&self) -> bool;
    fn can_undo(&self) -> bool;
    fn can_roll(&self) -> bool;
    fn can_redo(&self) -> bool;
    fn last_move(&self) -> Option<Move>;
    /// The move list so far, each entry with whether a hint proposed its move.
    fn notes(&self) -> Vec<(MoveNote, bool)>;
    /// The moves of `seat` that a hint proposed.
    fn hints_used(&self, seat: Seat) -> usize;
    /// The moves of the last turn (one seat's actions in a row), each as its start and the places
    /// its piece passed through.
    fn last_turn_paths(&self) -> Vec<(Square, Vec<Square>)>;
    fn asked(&self) -> Asked;
    /// The game as a record: its level, seats, actions, what was asked for, its stage (the
    /// clocks are the clocks': `Clocks::stamp`).
    fn record(&self) -> Record;

    /// Plays the actions taking the piece on `from` to `to` as one motion; `false` when none was.
    fn play_route(&mut self, from: Square, to: Square) -> bool;
    /// Plays the move from `from` to `to` as previewed along `path`; `false` when it is no move.
    fn play_previewed(&mut self, from: Square, to: Square, path: Vec<Square>) -> bool;
    /// The game's `index`-th button action (`GameInfo::choices`); `false` when there is none.
    fn choose(&mut self, index: usize) -> bool;
    fn roll(&mut self) -> bool;
    fn confirm_draft(&mut self) -> bool;
    fn undo(&mut self);
    fn redo(&mut self);
    fn new_game(&mut self);
    fn restart(&mut self);
    fn time_out(&mut self, seat: Seat);
    fn set_controls(&mut self, controls: &[Control]);
    fn ask_hint(&mut self);
    /// What happened since the feedback last read it, in order.
    fn take_news(&mut self) -> Vec<News>;
    /// What happened since the keeper was last told, in order.
    fn take_happened(&mut self) -> Vec<Happened>;
    /// A replay's step on or back; `false` at either end.
    fn step_once(&mut self, on: bool) -> bool;
    /// A replay's jump to the state after `actions` actions.
    fn jump_to(&mut self, actions: usize);
    /// Try again from here: a new game going on from the position shown.
    fn go_on_from_here(&mut self);

    /// While dice are due: what the Robot at `level` does before the roll, if anything.
    fn before_roll(&self, level: RobotLevel) -> Option<Choice>;
    /// The Robot at `level` thinking about the position.
    fn thinker(&self, level: RobotLevel) -> Box<dyn AnyThinker>;
    /// A Robot not at its strongest thinking of a move for the person (`None` when no hint fits).
    fn hint_thinker(&self) -> Option<Box<dyn AnyThinker>>;
    /// Remembers the move a hint proposed, so the move list can mark it.
    fn set_hint(&mut self, choice: &Choice);
    /// Plays a chosen action; `false` when it was refused (or of another game).
    fn play_choice(&mut self, choice: Choice) -> bool;
    fn choice_motion(&self, choice: &Choice) -> Option<Move>;
    fn choice_path(&self, choice: &Choice) -> Vec<Square>;
    /// The coach's review of the people's seats (every seat, when only Robots played).
    fn reviewer(&self) -> Box<dyn super::coach::AnyReview>;
    /// The tutor's look at a person's move before it is played (`None`: no move to look at).
    fn tutor(&self, pending: &Pending) -> Option<Box<dyn super::coach::AnyTutor>>;
    /// Plays a move held for the tutor; `false` when it is no move.
    fn play_pending(&mut self, pending: Pending) -> bool;
    /// Plays an action of a room's game that came from its server (another seat's, or the dice),
    /// as text; `false` when the rules refuse it here.
    fn play_far(&mut self, text: &str) -> bool;
    /// Whether a person asked for the dice of a room's game since the last call.
    fn take_dice_asked(&mut self) -> bool;
    /// The actions a room's game would go back to, had a person asked Undo since the last call
    /// (the room's others are asked first).
    fn take_back_asked(&mut self) -> Option<usize>;
    /// Goes back to the state after `actions` actions, as a room agreed (no Redo brings them back).
    fn take_back_to(&mut self, actions: usize);
    /// Whether the game is played in a room, with someone far away.
    fn afar(&self) -> bool {
        self.controls().contains(&Control::Far)
    }
}

/// A person's move held while the tutor looks at it: a motion played at once, a previewed path
/// confirmed, or a dice set's draft confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pending {
    Route { from: Square, to: Square },
    Previewed { from: Square, to: Square, path: Vec<Square> },
    Draft,
}

/// Where the game on the screen came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opened {
    /// A new game, from the setup, the map, the command line or the page's address.
    New,
    /// Its game's game in progress, continued.
    Continued,
    /// A record file the person chose.
    File,
    /// The last game, to watch.
    LastGame,
    /// Tried again from a position watched again: a new game whose record begins with the moves
    /// before it.
    TryAgain,
}

/// What happened to the game being played, as the keeper is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Happened {
    Opened(Opened),
    /// An action reached the game (a move, a roll, a draft confirmed, a clock running out).
    Played,
    Undone,
    Redone,
    /// Other players took the seats.
    Seated,
    /// Restart or New game: the same game from its start, with no move yet.
    BegunAgain,
    /// The last action ended the game.
    Finished,
    /// The clocks ran on a second (nothing is written: the page keeps it ready for its closing).
    Ticked,
    /// The game screen was left, or the app closed: the clocks as they stand.
    Left,
}

/// A record to go on from when the game screen opens, and where it came from.
#[derive(Resource, Clone, Debug)]
pub struct Resume {
    pub record: Record,
    pub from: Opened,
}

/// The game is being watched again: shown, not played, so the turns, the clocks, hints and the
/// keeping wait (`replay` keeps it). `Opening`: the game screen opens to watch its game.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Watching {
    Opening,
    Open,
}

/// A run condition: whether the game is being watched again.
pub fn watching(watching: Option<Res<Watching>>) -> bool {
    watching.is_some()
}

/// What a person asked for in a game besides moves: hints, and moves taken back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    pub hints: u32,
    pub takebacks: u32,
}

/// What happened to the game, as `Play` reports it: the one place that turns it into messages,
/// sounds and marks (`feedback::Feedback::report`) reads these, in order.
pub enum News {
    /// Actions reached the game: one, a checker's route of several, a move into a draft, or a
    /// draft confirmed; the game `before` and `after` them.
    Played { before: Box<dyn Shown>, after: Box<dyn Shown>, kind: PlayKind },
    /// The dice were rolled: the game `before` and `after` the roll (a tie at the opening, who
    /// starts, numbers that pass at once all show in `after`).
    Rolled { before: Box<dyn Shown>, after: Box<dyn Shown> },
    /// Time jumped (undo, redo); `afresh` when a new game began (restart, new game).
    Jumped { afresh: bool },
    /// A seat's clock ran out and the game ended with that.
    TimedOut,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayKind {
    /// Played into the history.
    Played,
    /// Tried out in a draft, not played yet.
    Drafted,
    /// A draft played into the history at once.
    Confirmed,
}

/// What any screen may know of the game being played, whatever the game: which it is and how it
/// ended (for a match, the match).
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct NowPlaying {
    pub game: Option<GameKind>,
    pub outcome: Option<Outcome>,
}

/// Publishes `NowPlaying` when the game changes.
pub(in crate::app) fn publish_now_playing(play: Res<Play>, mut now: ResMut<NowPlaying>) {
    if play.is_changed() {
        now.set_if_neq(NowPlaying { game: Some(play.kind()), outcome: play.game().outcome() });
    }
}

/// What the last change to the game was, for the board's animation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// An action was played: the piece it moved, if any (a roll moves none), glides along
    /// `path`, the places it passed through, ending on `motion.to`.
    Played { motion: Option<Move>, path: Vec<Square>, mover: Seat },
    /// A jump in time (start, restart, undo, redo): the board is laid out afresh.
    Reset,
}

impl Change {
    /// An action taken back: its piece glides back the way it came.
    pub(in crate::app) fn back(motion: Option<Move>, mover: Seat) -> Change {
        let back = motion.map(|m| Move::new(m.to, m.from));
        Change::Played { motion: back, path: back.map(|m| vec![m.to]).unwrap_or_default(), mover }
    }
}

/// One entry of the move list: a piece letter's words key and the square it went to, or a
/// skipped turn (`letter` and `to` both `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    pub seat: Seat,
    pub letter: Option<&'static str>,
    pub to: Option<Square>,
}

/// What the history remembers with each step: its move-list entries, and whether the move was
/// the one a hint proposed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StepNote {
    pub moves: Vec<MoveNote>,
    pub hinted: bool,
}

impl StepNote {
    /// The move-list entries of `action`, played in `before` and leading to `after`: the piece's
    /// letter and where it went, then the seats that passed right after it.
    pub fn of<G: super::game::AppGame>(before: &G, action: &G::Action, after: &G, hinted: bool) -> StepNote {
        use super::game::GameInfo;
        let mut moves = Vec::new();
        if let (Some(letter), Some(motion), Some(seat)) =
            (before.piece_letter(action), before.motion_of(action), GameInfo::actor(before))
        {
            moves.push(MoveNote { seat, letter: Some(letter), to: Some(motion.to) });
            moves.extend(crate::rules::Game::passed(after).into_iter().map(|seat| MoveNote {
                seat,
                letter: None,
                to: None,
            }));
        }
        StepNote { moves, hinted }
    }
}

/// The systems that change the game; the board mirrors it after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TurnSet;
