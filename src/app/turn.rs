//! Whose turn it is, the person's taps, the Robot's turn (thought in slices), the clock, undo and
//! redo. Every decision is the rules' (`crate::rules`); this only keeps the history.

use super::game::{AppGame, BoardAction};
use super::input::{BoardDrop, BoardPress};
use super::settings::Words;
use super::{Control, MatchSetup, Screen};
use crate::history::History;
use crate::robot::{RobotLevel, SLICE_NODES, Thinker};
use crate::rules::Seat;
use crate::rules::board::{Move, Square};
use bevy::platform::time::Instant;
use bevy::prelude::*;

/// The systems that change the game; the board mirrors it after them.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct TurnSet;

#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SoundCue {
    Move,
    Capture,
    Pass,
    Win,
}

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
}

/// How the Robot paces itself so a child sees each move coming.
#[derive(Resource, Clone, Copy, Debug)]
pub struct RobotPace {
    /// Seconds the Robot waits, at least, before it moves.
    pub think: f32,
    /// Seconds its chosen piece stays lit before it jumps.
    pub show: f32,
    /// Milliseconds of thinking per frame.
    pub slice_ms: f32,
}

impl Default for RobotPace {
    fn default() -> Self {
        RobotPace { think: 0.5, show: 0.4, slice_ms: 6.0 }
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
#[derive(Resource, Default, Debug)]
pub struct PickUp(pub Option<Square>);

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

/// What the last change to the game was, for the board's animation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// An action was played: the piece it moved, if any (a roll moves none), glides along
    /// `path`, the places it passed through, ending on `motion.to`.
    Played { motion: Option<Move>, path: Vec<Square>, mover: Seat },
    /// A jump in time (start, restart, undo, redo): the board is laid out afresh.
    Reset,
}

/// One entry of the move list: a piece letter's words key and the square it went to, or a
/// skipped turn (`letter` and `to` both `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    pub seat: Seat,
    pub letter: Option<&'static str>,
    pub to: Option<Square>,
}

struct RobotTurn<G: AppGame> {
    thinker: Box<dyn Thinker<G>>,
    waited: f32,
    choice: Option<G::Action>,
    shown: f32,
}

/// The game being played: its history (undo, redo and dice are the history's), who plays each
/// seat, the selection, the clocks.
#[derive(Resource)]
pub struct Play<G: AppGame> {
    history: History<G, Vec<MoveNote>>,
    /// Who plays each seat, one entry per seat of the game.
    pub controls: Vec<Control>,
    pub selected: Option<Square>,
    /// Seconds left per seat, when playing with a clock.
    pub clocks: Option<Vec<f32>>,
    clock_seconds: Option<f32>,
    /// New with every change of any game (unique across games); the board redraws when it moves.
    pub version: u64,
    pub change: Change,
    pub notice: Option<Notice>,
    robot: Option<RobotTurn<G>>,
}

impl<G: AppGame> Play<G> {
    pub fn new(start: G, setup: &MatchSetup, seed: u64) -> Play<G> {
        let clock_seconds = (setup.clock_minutes > 0).then_some(setup.clock_minutes as f32 * 60.0);
        let seats = start.seat_count();
        Play {
            history: History::new(start, seed),
            controls: setup.controls(seats),
            selected: None,
            clocks: clock_seconds.map(|s| vec![s; seats]),
            clock_seconds,
            version: next_version(),
            change: Change::Reset,
            notice: None,
            robot: None,
        }
    }

    pub fn game(&self) -> &G {
        self.history.game()
    }

    /// The state before the last step.
    pub fn previous(&self) -> Option<&G> {
        self.history.previous()
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().action.as_ref().and_then(BoardAction::motion)
    }

    pub fn moves_played(&self) -> usize {
        self.history.moves_played()
    }

    fn control(&self, seat: Seat) -> Control {
        self.controls.get(seat.index()).copied().unwrap_or(Control::Person)
    }

    /// The seat to move when a person plays it.
    pub fn person_to_move(&self) -> Option<Seat> {
        self.game().to_move().filter(|s| self.control(*s) == Control::Person)
    }

    /// The Robot's level when a Robot holds the seat to move.
    fn robot_to_move(&self) -> Option<RobotLevel> {
        match self.game().to_move().map(|s| self.control(s)) {
            Some(Control::Robot(level)) => Some(level),
            _ => None,
        }
    }

    pub fn has_robot(&self) -> bool {
        self.controls.iter().any(|c| matches!(c, Control::Robot(_)))
    }

    /// The person's seat when one person plays against Robots.
    pub fn person_against_robot(&self) -> Option<Seat> {
        let people: Vec<Seat> =
            Seat::all(self.controls.len()).filter(|s| self.control(*s) == Control::Person).collect();
        match people[..] {
            [seat] if self.has_robot() => Some(seat),
            _ => None,
        }
    }

    /// The move list so far.
    pub fn notes(&self) -> impl Iterator<Item = &MoveNote> {
        self.history.steps().iter().flat_map(|step| step.note.iter())
    }

    /// Minutes per player of the clock that the next Restart brings.
    pub fn next_clock_minutes(&self) -> u32 {
        self.clock_seconds.map_or(0, |s| (s / 60.0).round() as u32)
    }

    /// Chooses the clock for the next game; it starts at Restart.
    pub fn set_clock(&mut self, minutes: u32) {
        self.clock_seconds = (minutes > 0).then_some(minutes as f32 * 60.0);
    }

    pub fn can_undo(&self) -> bool {
        self.clocks.is_none() && self.history.steps().iter().skip(1).any(|s| self.is_person(s.mover))
    }

    /// Dice are due on a person's turn.
    pub fn can_roll(&self) -> bool {
        self.person_to_move().is_some() && self.game().chance().is_some()
    }

    pub fn can_redo(&self) -> bool {
        self.clocks.is_none() && !self.history.undone().is_empty()
    }

    fn is_person(&self, seat: Option<Seat>) -> bool {
        seat.is_some_and(|s| self.control(s) == Control::Person)
    }

    fn touched(&mut self, change: Change) {
        self.version = next_version();
        self.change = change;
        self.robot = None;
        self.selected = None;
    }

    /// Plays a legal action for the seat to move; refused actions change nothing.
    pub fn play(&mut self, action: G::Action, words: &Words, cues: &mut MessageWriter<SoundCue>) -> bool {
        let Some(mover) = self.game().to_move() else { return false };
        let before = self.game().clone();
        let mut notes = Vec::new();
        if let (Some(letter), Some(motion)) = (before.piece_letter(&action), action.motion()) {
            notes.push(MoveNote { seat: mover, letter: Some(letter), to: Some(motion.to) });
        }
        if self.history.play(&action, notes).is_err() {
            return false;
        }
        // One line per move, which the browser test reads from the console.
        let who = if self.is_person(Some(mover)) { "person" } else { "robot" };
        info!("tabla move {} {} {} {}", G::NAME, before.seat_name(mover), who, before.action_text(&action));
        let captured = self.game().pieces().len() < before.pieces().len();
        cues.write(if captured { SoundCue::Capture } else { SoundCue::Move });
        if self.game().outcome().is_some() {
            cues.write(SoundCue::Win);
        }
        // A big message (a new round) stays for its time; small ones end with the next move.
        if !self.notice.as_ref().is_some_and(|n| n.big) {
            self.notice = None;
        }
        for seat in self.game().passed() {
            cues.write(SoundCue::Pass);
            let key = game_key(words, "passes", G::NAME);
            self.notice = Some(Notice { key, seat: Some(seat), seconds_left: 3.0, big: false, ready: false });
            if let Some(step_notes) = self.history.last_note_mut()
                && !step_notes.is_empty()
            {
                step_notes.push(MoveNote { seat, letter: None, to: None });
            }
        }
        if let Some(text) = self.game().phase_notice(&before, self.person_against_robot(), words) {
            self.notice = Some(Notice { key: text, seat: None, seconds_left: 3.5, big: true, ready: true });
        }
        self.touched(Change::Played { motion: action.motion(), path: action.path(), mover });
        true
    }

    /// While dice are due: rolls them through the history (the same seeded dice as `tabla text`).
    fn roll(&mut self, cues: &mut MessageWriter<SoundCue>) {
        let Some(mover) = self.game().to_move() else { return };
        if self.history.roll().is_some() {
            cues.write(SoundCue::Move);
            self.touched(Change::Played { motion: None, path: Vec::new(), mover });
        }
    }

    /// Takes back the person's last move, and the Robot's answers after it.
    pub fn undo(&mut self) {
        if !self.can_undo() {
            return;
        }
        while let Some(mover) = self.history.undo().map(|step| step.mover) {
            if self.is_person(mover) {
                break;
            }
        }
        self.notice = None;
        self.touched(Change::Reset);
    }

    /// Replays up to and including the next move of a person, with the Robot's answers before it.
    pub fn redo(&mut self) {
        if !self.can_redo() {
            return;
        }
        while let Some(mover) = self.history.redo().map(|step| step.mover) {
            if self.is_person(mover) {
                break;
            }
        }
        self.notice = None;
        self.touched(Change::Reset);
    }

    pub fn restart(&mut self) {
        self.history.restart();
        self.clocks = self.clock_seconds.map(|s| vec![s; self.controls.len()]);
        self.notice = None;
        self.touched(Change::Reset);
    }

    fn time_out(&mut self, seat: Seat) {
        self.history.time_out(seat);
        self.touched(Change::Reset);
    }

    fn tell(&mut self, key: String) {
        self.notice = Some(Notice { key, seat: None, seconds_left: 2.5, big: false, ready: false });
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SoundCue>()
        .add_message::<GameCommand>()
        .add_message::<SetControls>()
        .init_resource::<RobotPace>()
        .init_resource::<PickUp>()
        .init_resource::<BoardCovered>()
        .insert_resource(GameSeed(seed_from_clock()));
    app.configure_sets(Update, TurnSet.run_if(in_state(Screen::Playing)));
}

/// A number never handed out before: a new game must not look like the last one to the board.
fn next_version() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The game's own words for `key` (`<key>_<game>`) when it has them, else the shared ones.
pub fn game_key(words: &Words, key: &str, game: &str) -> String {
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
    app.add_systems(OnEnter(Screen::Playing), start_game::<G>);
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| commands.remove_resource::<Play<G>>());
    app.add_systems(
        Update,
        (
            person_input::<G>,
            commands::<G>,
            robot_turn::<G>,
            tick_clock::<G>,
            fade_notice::<G>,
            publish_pickup::<G>,
        )
            .chain()
            .in_set(TurnSet)
            .run_if(resource_exists::<Play<G>>),
    );
}

/// Starts the chosen game when the game screen opens, if the chosen level is this game's.
fn start_game<G: AppGame>(
    mut commands: Commands,
    setup: Res<MatchSetup>,
    mut seed: ResMut<GameSeed>,
    images: Res<super::art::ArtImages>,
) {
    let Some(game) = G::from_level(&setup.level) else { return };
    let play = Play::new(game.clone(), &setup, seed.0);
    let flipped = game.flipped(play.person_against_robot());
    let tray_gap = if G::HAS_TRAYS { 0.55 } else { 0.0 };
    let layout = super::board::BoardLayout {
        shape: game.shape(),
        stack_step: game.stack_step(),
        flipped,
        turns: 0,
        tray_gap,
    };
    let board = super::board::spawn_board(&mut commands, &game, layout, &images);
    super::input::observe_board(&mut commands, board);
    commands.insert_resource(play);
    seed.0 = seed.0.wrapping_add(0x9E37_79B9);
}

fn person_input<G: AppGame>(
    mut play: ResMut<Play<G>>,
    words: Res<Words>,
    mut presses: MessageReader<BoardPress>,
    mut drops: MessageReader<BoardDrop>,
    mut cues: MessageWriter<SoundCue>,
) {
    let presses: Vec<Square> = presses.read().map(|p| p.0).collect();
    let drops: Vec<BoardDrop> = drops.read().copied().collect();
    if play.person_to_move().is_none() {
        return;
    }
    for square in presses {
        press(&mut play, square, &words, &mut cues);
    }
    for drop in drops {
        match drop.to {
            Some(to) if let Some(action) = play.game().action_between(drop.from, to) => {
                play.play(action, &words, &mut cues);
            }
            Some(_) => play.tell(format!("not_allowed_{}", G::NAME)),
            // Let go where it started, or off the board: the piece glides home, still selected.
            None => {}
        }
    }
}

fn press<G: AppGame>(play: &mut Play<G>, square: Square, words: &Words, cues: &mut MessageWriter<SoundCue>) {
    if play.person_to_move().is_none() {
        return;
    }
    if let Some(from) = play.selected
        && let Some(action) = play.game().action_between(from, square)
    {
        play.play(action, words, cues);
        return;
    }
    if play.game().movable(square) {
        play.selected = Some(square);
        if play.game().targets(square).is_empty() {
            play.tell(format!("stuck_{}", G::NAME));
        }
    } else if play.selected.take().is_some() && !play.game().pieces().iter().any(|(s, _)| *s == square) {
        play.tell(format!("not_allowed_{}", G::NAME));
    }
}

fn commands<G: AppGame>(
    mut play: ResMut<Play<G>>,
    mut commands: MessageReader<GameCommand>,
    mut controls: MessageReader<SetControls>,
    mut cues: MessageWriter<SoundCue>,
) {
    for SetControls(new) in controls.read() {
        if new.len() == play.controls.len() {
            play.controls = new.clone();
            play.robot = None;
        }
    }
    for command in commands.read() {
        match command {
            GameCommand::Undo => play.undo(),
            GameCommand::Redo => play.redo(),
            GameCommand::Restart => play.restart(),
            GameCommand::SetClock(minutes) => play.set_clock(*minutes),
            GameCommand::Roll if play.can_roll() => play.roll(&mut cues),
            GameCommand::Roll => {}
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn robot_turn<G: AppGame>(
    mut play: ResMut<Play<G>>,
    words: Res<Words>,
    pace: Res<RobotPace>,
    covered: Res<BoardCovered>,
    time: Res<Time>,
    gliding: Query<(), With<super::animate::Glide>>,
    mut cues: MessageWriter<SoundCue>,
) {
    // The Robot waits for the last move to land, for a big message to be read, and while
    // something covers the board.
    let Some(level) = play.robot_to_move() else { return };
    if covered.0 || !gliding.is_empty() || play.notice.as_ref().is_some_and(|n| n.big) {
        return;
    }
    if play.game().chance().is_some() {
        // Dice are due: the Robot acts before the roll when it wants to (a double), else rolls
        // through the history.
        match play.game().before_roll(level, play.history.position_seed()) {
            Some(action) => {
                play.play(action, &words, &mut cues);
            }
            None => play.roll(&mut cues),
        }
        return;
    }
    if play.robot.is_none() {
        let thinker = play.history.thinker(level);
        play.robot = Some(RobotTurn { thinker, waited: 0.0, choice: None, shown: 0.0 });
    }
    let robot = play.robot.as_mut().expect("just made");
    robot.waited += time.delta_secs();
    if robot.choice.is_none() {
        let started = Instant::now();
        while robot.choice.is_none() && (started.elapsed().as_secs_f32() * 1000.0) < pace.slice_ms {
            robot.choice = robot.thinker.step(SLICE_NODES);
        }
    }
    let Some(choice) = robot.choice.clone() else { return };
    if robot.waited < pace.think {
        return;
    }
    robot.shown += time.delta_secs();
    let shown = robot.shown;
    play.selected = choice.motion().map(|m| m.from);
    if shown >= pace.show {
        play.play(choice, &words, &mut cues);
    }
}

fn tick_clock<G: AppGame>(
    mut play: ResMut<Play<G>>,
    covered: Res<BoardCovered>,
    time: Res<Time>,
    gliding: Query<(), With<super::animate::Glide>>,
    mut cues: MessageWriter<SoundCue>,
) {
    let Some(seat) = play.game().to_move() else { return };
    // The clock waits while a move is still flying, until the first move is made, and while
    // something covers the board.
    if covered.0 || !gliding.is_empty() || play.moves_played() == 0 {
        return;
    }
    let Some(clocks) = play.clocks.as_mut() else { return };
    let left = &mut clocks[seat.index()];
    *left = (*left - time.delta_secs()).max(0.0);
    if *left <= 0.0 {
        play.time_out(seat);
        cues.write(SoundCue::Win);
    }
}

fn fade_notice<G: AppGame>(mut play: ResMut<Play<G>>, time: Res<Time>) {
    if let Some(notice) = play.notice.as_mut() {
        notice.seconds_left -= time.delta_secs();
        if notice.seconds_left <= 0.0 {
            play.notice = None;
        }
    }
}

fn publish_pickup<G: AppGame>(play: Res<Play<G>>, mut pickup: ResMut<PickUp>) {
    let now = play.selected.filter(|_| play.person_to_move().is_some());
    if pickup.0 != now {
        pickup.0 = now;
    }
}
