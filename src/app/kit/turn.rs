//! Whose turn it is: the person's taps, the Robot's turn (thought in slices, rolling its dice
//! through the history), the clocks, the short messages, undo and redo. The game itself is
//! `Play` (play.rs); everything that changes more often than the game lives beside it here.

use super::board::{BoardLayout, BoardView, MAX_ZOOM, ViewCommand, ViewSet};
use super::catalog::Screen;
use super::game::{AppGame, RoundReport};
use super::input::{BoardDrop, BoardPress, BoardTap};
use super::play::{News, Play, PlayKind, Resume, change_if};
use crate::app::launch::{Control, Launch, MatchSetup};
use crate::app::platform::settings::Words;
use crate::app::platform::sound::SoundCue;
use crate::robot::{SLICE_NODES, Thinker};
use crate::rules::board::Square;
use crate::rules::{GameKind, Seat};
use bevy::ecs::system::SystemParam;
use bevy::platform::time::Instant;
use bevy::prelude::*;

/// The systems that change the game; the board mirrors it after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TurnSet;

/// The systems that start the chosen game when the game screen opens.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct StartSet;

/// Buttons that change the course of the game.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameCommand {
    Undo,
    Redo,
    Restart,
    /// Minutes per player for the next game (0: no clock); it starts at Restart.
    SetClock(u32),
    /// The person rolls the dice (when dice are due on their turn).
    Roll,
    /// The person lets go of the previewed path, or else of the piece they picked.
    Deselect,
    /// Plays the previewed path.
    Confirm,
    /// Shows a move the Robot would play, as a preview to confirm.
    Hint,
    /// The person plays the game's n-th button action (`GameInfo::choices`).
    Choose(usize),
    /// A new game, the first turn moved to the next seat where the game passes it round.
    NewGame,
    /// Closes the panel between two rounds: the next round goes on.
    NextRound,
    /// The answer to "start again?" (asked by Restart or New game in a game with moves): yes.
    StartAgain,
    /// The same question: no, the game goes on.
    KeepPlaying,
    /// Gives the game out as a file (desktop: into `records/`, browser: a download).
    Export,
}

/// A question the person answers before the game goes on (keep playing, or start again).
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct AskFirst(pub Option<Question>);

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    /// Restart or New game asked in a game with moves.
    StartAgain(GameCommand),
    /// This game would take the place of `game`'s game in progress, which has `moves` moves
    /// (the keeper asks: `keeping.rs`).
    TakePlace { game: GameKind, moves: usize },
}

/// How the Robot paces itself so a child sees each move coming.
#[derive(Resource, Clone, Copy, Debug)]
pub struct RobotPace {
    /// Seconds the Robot waits, at least, before it moves.
    pub think: f32,
    /// Seconds its chosen piece stays lit before it jumps.
    pub show: f32,
    /// Milliseconds of thinking per frame, at most: no slice starts that would likely pass it.
    pub slice_ms: f32,
}

impl Default for RobotPace {
    fn default() -> Self {
        RobotPace { think: 0.5, show: 0.4, slice_ms: 8.0 }
    }
}

/// Hands the seats to other players in the middle of a game (the tour lets two Robots finish one):
/// one entry per seat.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct SetControls(pub Vec<Control>);

/// Something covers the board (help, settings, a dialog): the clock and the Robot wait.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardCovered(pub bool);

/// The seed of the next game's Robot choices; a test sets it to replay a game exactly.
#[derive(Resource, Clone, Copy, Debug)]
pub struct GameSeed(pub u64);

/// The square whose piece the person may pick up and drag now.
#[derive(Resource, Default, Debug, PartialEq, Eq)]
pub struct PickUp(pub Option<Square>);

/// The piece the person (or the Robot, about to move it) has picked.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection(pub Option<Square>);

/// The path the picked piece would take, previewed before it is played (places after the
/// piece's own, ending where it stops); empty when nothing is previewed.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Preview(pub Vec<Square>);

/// The message over the board now, if any.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Notices(pub Option<Notice>);

/// The panel between two rounds (a game of a match just ended), until it is closed: the Robot
/// and the clocks wait for it.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct RoundOver(pub Option<RoundReport>);

/// Seconds left per seat while a clock runs, the minutes this game's clock started with, and the
/// minutes the next game's clock will have.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Clocks {
    pub left: Option<Vec<f32>>,
    pub minutes: u32,
    pub next_minutes: u32,
}

impl Clocks {
    fn start(minutes: u32, seats: usize) -> Clocks {
        Clocks {
            left: (minutes > 0).then(|| vec![minutes as f32 * 60.0; seats]),
            minutes,
            next_minutes: minutes,
        }
    }

    /// A saved game's clocks: each seat's time left, in milliseconds.
    fn resumed(minutes: u32, left_ms: Option<&[u64]>) -> Clocks {
        let left = left_ms.map(|left| left.iter().map(|&ms| ms as f32 / 1000.0).collect());
        Clocks { left, minutes, next_minutes: minutes }
    }

    /// Each seat's time left, in milliseconds, for a record.
    pub fn left_ms(&self) -> Option<Vec<u64>> {
        self.left.as_ref().map(|left| left.iter().map(|&s| (s.max(0.0) * 1000.0).round() as u64).collect())
    }
}

/// The Robot deciding the current position, a slice each frame.
#[derive(Resource)]
pub struct Thinking<G: AppGame>(Option<RobotTurn<G>>);

pub struct RobotTurn<G: AppGame> {
    thinker: Box<dyn Thinker<G>>,
    waited: f32,
    choice: Option<G::Action>,
    shown: f32,
}

/// The person asked the Robot to hurry: it plays the rest of its turn without pauses, until a
/// person is to act again.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hurry(pub bool);

/// A short message over the board (a pass, a refused square), in the words' keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// A words key, or the words themselves when `ready` is set.
    pub key: String,
    pub seat: Option<Seat>,
    pub seconds_left: f32,
    /// Shown large over the board (a new round), not in the status line.
    pub big: bool,
    /// The text is already in words.
    pub ready: bool,
}

pub(super) fn plugin(app: &mut App) {
    let seed =
        app.world().get_resource::<Launch>().and_then(|launch| launch.seed).unwrap_or_else(seed_from_clock);
    app.add_message::<GameCommand>()
        .add_message::<SetControls>()
        .init_resource::<RobotPace>()
        .init_resource::<PickUp>()
        .init_resource::<BoardCovered>()
        .init_resource::<Selection>()
        .init_resource::<Preview>()
        .init_resource::<Notices>()
        .init_resource::<RoundOver>()
        .init_resource::<AskFirst>()
        .init_resource::<Hurry>()
        .init_resource::<Clocks>()
        .init_resource::<super::play::NowPlaying>()
        .insert_resource(GameSeed(seed));
    app.configure_sets(Update, TurnSet.run_if(in_state(Screen::Playing)).before(ViewSet));
}

/// The game's own words for `key` (`<key>_<game>`) when it has them, else the shared ones.
pub fn game_key(words: &Words, key: &str, game: GameKind) -> String {
    let specific = format!("{key}_{game}");
    if words.has(&specific) { specific } else { key.to_string() }
}

fn seed_from_clock() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        (js_sys::Date::now() * 1000.0) as u64
    }
}

/// Adds the turn systems of one game.
pub fn add_game<G: AppGame>(app: &mut App) {
    app.add_systems(OnEnter(Screen::Playing), start_game::<G>.in_set(StartSet));
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| {
        commands.remove_resource::<Play<G>>();
        commands.remove_resource::<Thinking<G>>();
    });
    app.add_systems(
        Update,
        (
            person_input::<G>,
            commands::<G>,
            robot_turn::<G>,
            tick_clock::<G>,
            fade_notice,
            publish_pickup::<G>,
        )
            .chain()
            .in_set(TurnSet)
            .run_if(resource_exists::<Play<G>>.and_then(not(super::play::watching))),
    );
    app.add_systems(
        Update,
        super::play::publish_now_playing::<G>.after(TurnSet).run_if(resource_exists::<Play<G>>),
    );
}

/// Starts the chosen game when the game screen opens, if the chosen level is this game's.
#[allow(clippy::too_many_arguments)]
fn start_game<G: AppGame>(
    mut commands: Commands,
    setup: Res<MatchSetup>,
    mut seed: ResMut<GameSeed>,
    mut clocks: ResMut<Clocks>,
    mut selection: ResMut<Selection>,
    mut preview: ResMut<Preview>,
    mut notices: ResMut<Notices>,
    mut round_over: ResMut<RoundOver>,
    mut ask: ResMut<AskFirst>,
    images: Res<crate::app::platform::art::ArtImages>,
    resume: Option<Res<Resume>>,
) {
    let Some(game) = G::from_level(&setup.level) else { return };
    let resumed = resume.as_ref().filter(|r| r.record.game == G::KIND).map(|r| {
        let clocks = Clocks::resumed(r.record.clock_minutes, r.record.clock_left_ms.as_deref());
        Play::<G>::of_record(&r.record, r.from).map(|play| (play, clocks))
    });
    if resumed.is_some() {
        commands.remove_resource::<Resume>();
    }
    let (play, started_clocks) = match resumed {
        Some(Ok(resumed)) => resumed,
        other => {
            if let Some(Err(why)) = other {
                tracing::error!("the saved game could not be continued: {why}");
            }
            (Play::new(game.clone(), &setup, seed.0), Clocks::start(setup.clock_minutes, game.seat_count()))
        }
    };
    let game = play.game().clone();
    let flipped = game.flipped(play.person_against_robot());
    let layout = BoardLayout::of(&game, flipped);
    super::board::spawn_board(&mut commands, &game, layout, &images);
    *clocks = started_clocks;
    *selection = Selection::default();
    *preview = Preview::default();
    *notices = Notices::default();
    *round_over = RoundOver::default();
    *ask = AskFirst::default();
    commands.insert_resource(play);
    commands.insert_resource(Thinking::<G>(None));
    seed.0 = seed.0.wrapping_add(0x9E37_79B9);
}

/// What the person sees and hears around the board besides the game itself: the piece picked
/// and its previewed path, the message over the board, the panel between rounds, the sounds. The
/// game's own news (`Play::take_news`) becomes these in one place, `report`.
#[derive(SystemParam)]
pub(super) struct Feedback<'w> {
    words: Res<'w, Words>,
    notices: ResMut<'w, Notices>,
    selection: ResMut<'w, Selection>,
    preview: ResMut<'w, Preview>,
    round_over: ResMut<'w, RoundOver>,
    ask: ResMut<'w, AskFirst>,
    cues: MessageWriter<'w, SoundCue>,
}

impl Feedback<'_> {
    /// A short message over the board, by its words key.
    pub(super) fn tell(&mut self, key: String) {
        self.notices.0 = Some(Notice { key, seat: None, seconds_left: 2.5, big: false, ready: false });
    }

    /// Picks the piece on `from` and previews `path` for it.
    pub(super) fn show_path(&mut self, from: Square, path: Vec<Square>) {
        self.selection.0 = Some(from);
        self.preview.0 = path;
    }

    /// Turns what happened to the game since the last report into messages, sounds and marks.
    pub(super) fn report<G: AppGame>(&mut self, play: &mut Play<G>) {
        // Reading the news changes nothing on the board: the board must not lay itself out again.
        let person = play.person_against_robot();
        for news in play.take_news() {
            match news {
                News::Played { before, after, kind } => self.played(&before, &after, kind, person),
                News::Rolled { before, after } => {
                    self.cues.write(SoundCue::Roll);
                    self.announce(&before, &after, person);
                }
                News::Jumped { afresh } => {
                    self.notices.0 = None;
                    self.selection.0 = None;
                    self.preview.0.clear();
                    if afresh {
                        self.round_over.0 = None;
                        self.ask.0 = None;
                    }
                }
                News::TimedOut => {
                    self.cues.write(SoundCue::Win);
                }
            }
        }
    }

    /// After actions: nothing picked any more, their sounds, and the messages they bring.
    fn played<G: AppGame>(&mut self, before: &G, after: &G, kind: PlayKind, person: Option<Seat>) {
        self.selection.0 = None;
        self.preview.0.clear();
        let captured = after.pieces().len() < before.pieces().len();
        self.cues.write(if captured { SoundCue::Capture } else { SoundCue::Move });
        if kind == PlayKind::Drafted {
            if !self.notices.0.as_ref().is_some_and(|n| n.big) {
                self.notices.0 = None;
            }
            return;
        }
        if kind == PlayKind::Confirmed {
            self.notices.0 = None;
        }
        if after.outcome().is_some() {
            self.cues.write(SoundCue::Win);
        }
        self.announce(before, after, person);
    }

    /// The messages and panels that actions or a roll bring: who passed, a new phase, a round over.
    fn announce<G: AppGame>(&mut self, before: &G, after: &G, person: Option<Seat>) {
        // A big message (a new round, a tie) stays for its time; small ones end with the next move.
        if !self.notices.0.as_ref().is_some_and(|n| n.big) {
            self.notices.0 = None;
        }
        for seat in after.passed() {
            self.cues.write(SoundCue::Pass);
            let key = game_key(&self.words, "passes", G::KIND);
            self.notices.0 =
                Some(Notice { key, seat: Some(seat), seconds_left: 3.0, big: false, ready: false });
        }
        if let Some(text) = after.phase_notice(before, person, &self.words) {
            self.notices.0 =
                Some(Notice { key: text, seat: None, seconds_left: 3.5, big: true, ready: true });
        }
        if let Some(round) = after.round_over(before, person, &self.words) {
            self.round_over.0 = Some(round);
        }
    }

    /// The board waits for a panel between rounds to be closed, or a question to be answered.
    fn waits(&self) -> bool {
        self.round_over.0.is_some() || self.ask.0.is_some()
    }
}

/// The person chose to take the piece on `from` to `to`: played at once (the actions of its
/// route one after the other), or previewed first where the game asks for a confirmation;
/// `false` when it cannot go there.
fn choose<G: AppGame>(play: &mut Play<G>, from: Square, to: Square, feedback: &mut Feedback) -> bool {
    if !G::CONFIRM_MOVES {
        return play.play_route(from, to);
    }
    let Some(action) = play.game().action_between(from, to) else { return false };
    let path = play.game().path_of(&action);
    feedback.show_path(from, path);
    true
}

/// Plays the previewed path (a hint's, in a game that drafts), or else the draft that waits;
/// `false` when there is none (or it no longer fits the game).
fn confirm<G: AppGame>(play: &mut Play<G>, feedback: &mut Feedback) -> bool {
    let (Some(from), Some(&to)) = (feedback.selection.0, feedback.preview.0.last()) else {
        return play.confirm_draft();
    };
    let Some(action) = play.game().action_between(from, to) else {
        feedback.preview.0.clear();
        return false;
    };
    let path = std::mem::take(&mut feedback.preview.0);
    play.play_along(action, Some(path))
}

#[allow(clippy::too_many_arguments)]
fn person_input<G: AppGame>(
    mut play: ResMut<Play<G>>,
    mut presses: MessageReader<BoardPress>,
    mut taps: MessageReader<BoardTap>,
    mut drops: MessageReader<BoardDrop>,
    layout: Option<Res<BoardLayout>>,
    board_view: Res<BoardView>,
    mut view: MessageWriter<ViewCommand>,
    mut hurry: ResMut<Hurry>,
    mut feedback: Feedback,
) {
    let mut squares: Vec<Square> = presses.read().map(|p| p.0).collect();
    let taps: Vec<BoardTap> = taps.read().copied().collect();
    let drops: Vec<BoardDrop> = drops.read().copied().collect();
    if feedback.waits() {
        return;
    }
    // A tap while the Robot plays its moves one by one asks it to hurry.
    if play.robot_to_move().is_some() && !(taps.is_empty() && squares.is_empty()) {
        hurry.0 = true;
    }
    if play.person_to_move().is_none() {
        return;
    }
    for tap in taps {
        let Some(layout) = layout.as_deref() else { continue };
        let meant = meant_places(play.game(), layout, &feedback, tap);
        match meant[..] {
            [] => squares.push(tap.square),
            [one] => squares.push(one),
            // Two places a finger cannot tell apart: look closer instead of guessing (unless the
            // view is already as close as it gets).
            [nearest, ..] if board_view.zoom * 2.0 > MAX_ZOOM => squares.push(nearest),
            _ => {
                view.write(ViewCommand::Zoom { factor: 2.5, around: Some(tap.pointer) });
                feedback.tell("zoomed_in".to_string());
            }
        }
    }
    for square in squares {
        change_if(&mut play, |play| {
            press(play, square, &mut feedback);
            feedback.report(play);
        });
    }
    for drop in drops {
        let Some(to) = drop.to else {
            // Let go where it started, or off the board: the piece glides home, still selected.
            continue;
        };
        change_if(&mut play, |play| {
            if choose(play, drop.from, to, &mut feedback) {
                feedback.report(play);
            } else {
                feedback.tell(format!("not_allowed_{}", G::KIND));
            }
        });
    }
}

/// Half a finger, in window pixels: a tap means a place this near it.
const HALF_FINGER: f32 = 24.0;

/// The places a tap on a small board may mean, nearest first: the person's movable pieces and
/// the lit places (targets, further landings, the preview's end) within half a finger of it.
/// Where the places are a finger wide or more, the tap means the square it touched (none here).
/// A place whose cell is larger than a square (a backgammon point) is taken as tapped.
fn meant_places<G: AppGame>(
    game: &G,
    layout: &BoardLayout,
    feedback: &Feedback,
    tap: BoardTap,
) -> Vec<Square> {
    let cell = layout.places.get(&tap.square).map_or(Vec2::ONE, |p| p.size);
    if tap.pitch >= 2.0 * HALF_FINGER || cell.max_element() > 1.0 {
        return Vec::new();
    }
    let mut places: Vec<Square> =
        game.pieces().into_iter().map(|(s, _)| s).filter(|s| game.movable(*s)).collect();
    if let Some(from) = feedback.selection.0 {
        places.extend(game.target_paths(from).iter().filter_map(|p| p.last().copied()));
        places.extend(game.further(from, &feedback.preview.0));
    }
    let mut near: Vec<(f32, Square)> = places
        .into_iter()
        .map(|s| (layout.local(s).distance(tap.local) * tap.pitch, s))
        .filter(|(pixels, _)| *pixels <= HALF_FINGER)
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    near.dedup_by_key(|(_, s)| *s);
    near.into_iter().map(|(_, s)| s).collect()
}

/// A tap on `square`: the tap becomes an action for `play` to apply, or a pick, a preview or a
/// message.
fn press<G: AppGame>(play: &mut Play<G>, square: Square, feedback: &mut Feedback) {
    if play.person_to_move().is_none() {
        return;
    }
    if let Some(from) = feedback.selection.0 {
        // A previewed path: tapping its end plays it, a further landing extends it, anything
        // else drops it and counts as a fresh tap.
        if let Some(&end) = feedback.preview.0.last() {
            if end == square {
                confirm(play, feedback);
                return;
            }
            if play.game().further(from, &feedback.preview.0).contains(&square) {
                feedback.preview.0.push(square);
                return;
            }
            feedback.preview.0.clear();
        }
        if choose(play, from, square, feedback) {
            return;
        }
    }
    if play.can_roll() && play.game().rolls_dice_at(square) {
        play.roll();
        return;
    }
    if play.draft_done() {
        feedback.tell(game_key(&feedback.words, "confirm_first", G::KIND));
        return;
    }
    if play.game().movable(square) {
        feedback.selection.0 = Some(square);
        if play.game().targets(square).is_empty() {
            let why = play.game().why_stuck(square).map(str::to_string);
            feedback.tell(why.unwrap_or_else(|| format!("stuck_{}", G::KIND)));
        }
    } else if let Some(why) = play.game().why_stuck(square) {
        feedback.selection.0 = None;
        feedback.tell(why.to_string());
    } else if feedback.selection.0.take().is_some() && !play.game().pieces().iter().any(|(s, _)| *s == square)
    {
        feedback.tell(format!("not_allowed_{}", G::KIND));
    }
}

pub(super) fn commands<G: AppGame>(
    mut play: ResMut<Play<G>>,
    mut commands: MessageReader<GameCommand>,
    mut controls: MessageReader<SetControls>,
    mut clocks: ResMut<Clocks>,
    mut feedback: Feedback,
) {
    for SetControls(new) in controls.read() {
        change_if(&mut play, |play| play.set_controls(new));
    }
    for command in commands.read() {
        change_if(&mut play, |play| obey(play, *command, &mut clocks, &mut feedback));
    }
}

/// One button's command for the game.
fn obey<G: AppGame>(play: &mut Play<G>, command: GameCommand, clocks: &mut Clocks, feedback: &mut Feedback) {
    // Nothing is taken back while a clock runs.
    let clock_runs = clocks.left.is_some();
    match command {
        GameCommand::Undo if play.can_undo() && !clock_runs => play.undo(),
        GameCommand::Redo if play.can_redo() && !clock_runs => play.redo(),
        // A game with moves, not over yet, is not thrown away by one tap: the person is asked.
        GameCommand::Restart | GameCommand::NewGame if worth_asking(play) => {
            feedback.ask.0 = Some(Question::StartAgain(command));
        }
        GameCommand::Restart | GameCommand::NewGame => begin_again(play, clocks, command),
        // The keeper's question (another game's place) is the keeper's to hear answered.
        GameCommand::StartAgain => {
            if let Some(Question::StartAgain(asked)) = feedback.ask.0 {
                feedback.ask.0 = None;
                begin_again(play, clocks, asked);
            }
        }
        GameCommand::KeepPlaying => {
            if let Some(Question::StartAgain(_)) = feedback.ask.0 {
                feedback.ask.0 = None;
            }
        }
        GameCommand::NextRound => feedback.round_over.0 = None,
        GameCommand::SetClock(minutes) => clocks.next_minutes = minutes,
        GameCommand::Roll if play.can_roll() => {
            play.roll();
        }
        GameCommand::Deselect if play.person_to_move().is_some() => {
            if feedback.preview.0.is_empty() {
                feedback.selection.0 = None;
            } else {
                feedback.preview.0.clear();
            }
        }
        GameCommand::Confirm if play.person_to_move().is_some() => {
            confirm(play, feedback);
        }
        GameCommand::Choose(index) if play.person_to_move().is_some() => {
            if let Some((action, _)) = play.game().choices().into_iter().nth(index) {
                play.play(action);
            }
        }
        GameCommand::Undo
        | GameCommand::Redo
        | GameCommand::Roll
        | GameCommand::Deselect
        | GameCommand::Confirm
        | GameCommand::Choose(_) => {}
        // Thought of in slices, by hint.rs; given out by keeping.rs.
        GameCommand::Hint | GameCommand::Export => {}
    }
    feedback.report(play);
}

/// Whether Restart or New game asks first: the game has moves and is not over, and a person plays.
fn worth_asking<G: AppGame>(play: &Play<G>) -> bool {
    play.moves_played() > 0 && play.game().outcome().is_none() && play.controls().contains(&Control::Person)
}

/// Restart (the same game again) or New game (the first turn to the next seat), with the clock
/// chosen for the next game.
fn begin_again<G: AppGame>(play: &mut Play<G>, clocks: &mut Clocks, command: GameCommand) {
    if command == GameCommand::NewGame {
        play.new_game();
    } else {
        play.restart();
    }
    *clocks = Clocks::start(clocks.next_minutes, play.controls().len());
}

/// Thinks in slices until the frame's budget would be passed by one more as long as the longest
/// yet; the action once it is decided.
pub(super) fn think_within<G: AppGame>(thinker: &mut dyn Thinker<G>, budget_ms: f32) -> Option<G::Action> {
    within_budget(budget_ms, |nodes| thinker.step(nodes))
}

/// Runs `step` a slice of nodes at a time until it gives an answer, or until another slice would
/// likely pass `budget_ms` (the Robot's turn, a hint and the coach's review all think this way).
pub(super) fn within_budget<T>(budget_ms: f32, mut step: impl FnMut(u64) -> Option<T>) -> Option<T> {
    let started = Instant::now();
    let mut longest = 0.0f32;
    loop {
        let before = started.elapsed().as_secs_f32() * 1000.0;
        if let Some(answer) = step(SLICE_NODES) {
            return Some(answer);
        }
        let now = started.elapsed().as_secs_f32() * 1000.0;
        longest = longest.max(now - before);
        if now + longest > budget_ms {
            return None;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn robot_turn<G: AppGame>(
    mut play: ResMut<Play<G>>,
    mut thinking: ResMut<Thinking<G>>,
    pace: Res<RobotPace>,
    covered: Res<BoardCovered>,
    time: Res<Time>,
    gliding: Query<(), With<super::animate::Glide>>,
    mut hurry: ResMut<Hurry>,
    mut feedback: Feedback,
) {
    // A new position (or new players) needs a new thought.
    if play.is_changed() {
        thinking.0 = None;
    }
    // The Robot waits for the last move to land, for a big message to be read, for the panel
    // between rounds to close, and while something covers the board.
    let Some(level) = play.robot_to_move() else {
        hurry.set_if_neq(Hurry(false));
        return;
    };
    // Robots playing among themselves do not wait for the panel between rounds.
    let panel_waits = feedback.waits() && play.controls().contains(&Control::Person);
    if covered.0 || !gliding.is_empty() || feedback.notices.0.as_ref().is_some_and(|n| n.big) || panel_waits {
        return;
    }
    let pace = if hurry.0 { RobotPace { think: 0.0, show: 0.0, ..*pace } } else { *pace };
    if play.game().chance().is_some() {
        // Dice are due: the Robot acts before the roll when it wants to (a double), else rolls
        // through the history.
        match play.game().before_roll(level, play.history().position_seed()) {
            Some(action) => {
                play.play(action);
            }
            None => {
                play.roll();
            }
        }
        feedback.report(play.bypass_change_detection());
        return;
    }
    let robot = thinking.0.get_or_insert_with(|| RobotTurn {
        thinker: play.history().thinker(level),
        waited: 0.0,
        choice: None,
        shown: 0.0,
    });
    robot.waited += time.delta_secs();
    if robot.choice.is_none() {
        robot.choice = think_within(robot.thinker.as_mut(), pace.slice_ms);
    }
    let Some(choice) = robot.choice.clone() else { return };
    if robot.waited < pace.think {
        return;
    }
    robot.shown += time.delta_secs();
    let shown = robot.shown;
    // The chosen piece and its path show before it moves.
    let motion = play.game().motion_of(&choice);
    if feedback.selection.set_if_neq(Selection(motion.map(|m| m.from))) {
        feedback.preview.0 = if motion.is_some() { play.game().path_of(&choice) } else { Vec::new() };
    }
    if shown >= pace.show {
        play.play(choice);
        feedback.report(play.bypass_change_detection());
        thinking.0 = None;
    }
}

fn tick_clock<G: AppGame>(
    mut play: ResMut<Play<G>>,
    mut clocks: ResMut<Clocks>,
    covered: Res<BoardCovered>,
    time: Res<Time>,
    gliding: Query<(), With<super::animate::Glide>>,
    mut feedback: Feedback,
) {
    let Some(seat) = play.game().to_move() else { return };
    // The clock waits while a move is still flying, until the first move is made, and while
    // something covers the board.
    if covered.0 || feedback.waits() || !gliding.is_empty() || play.moves_played() == 0 {
        return;
    }
    let Some(left) = clocks.left.as_mut().and_then(|l| l.get_mut(seat.index())) else { return };
    *left = (*left - time.delta_secs()).max(0.0);
    if *left <= 0.0 {
        play.time_out(seat);
        feedback.report(play.bypass_change_detection());
    }
}

fn fade_notice(mut notices: ResMut<Notices>, time: Res<Time>) {
    let Some(notice) = notices.0.as_mut() else { return };
    notice.seconds_left -= time.delta_secs();
    if notice.seconds_left <= 0.0 {
        notices.0 = None;
    }
}

fn publish_pickup<G: AppGame>(play: Res<Play<G>>, selection: Res<Selection>, mut pickup: ResMut<PickUp>) {
    let now = selection.0.filter(|_| play.person_to_move().is_some());
    pickup.set_if_neq(PickUp(now));
}
