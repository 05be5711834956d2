//! Whose turn it is, the person's taps, the Robot's turn (thought in slices), the clock, undo and
//! redo. Every decision is the rules' (`crate::rules`); this only keeps the history.

use super::board::AppGame;
use super::input::{BoardDrop, BoardPress};
use super::settings::Words;
use super::{Control, MatchSetup, Screen};
use crate::robot::Thinker;
use crate::rules::board::{Move, Square};
use crate::rules::{EndReason, Seat, Winner};
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

/// Hands the seats to other players in the middle of a game (the tour lets two Robots finish one).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetControls(pub [Control; 2]);

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Played {
        action: Move,
        mover: Seat,
    },
    /// A jump in time (start, restart, undo, redo): the board is laid out afresh.
    Reset,
}

struct Step<G> {
    game: G,
    action: Option<Move>,
    mover: Option<Seat>,
    /// What the move list writes for this step: the move, then any skipped turns.
    notes: Vec<MoveNote>,
}

/// One entry of the move list: a piece letter's words key and the square it went to, or a
/// skipped turn (`letter` and `to` both `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    pub seat: Seat,
    pub letter: Option<&'static str>,
    pub to: Option<Square>,
}

impl<G> Step<G> {
    fn start(game: G) -> Step<G> {
        Step { game, action: None, mover: None, notes: Vec::new() }
    }
}

struct RobotTurn<G: AppGame> {
    thinker: Box<dyn Thinker<G>>,
    waited: f32,
    choice: Option<Move>,
    shown: f32,
}

/// The game being played: its history (the current state is the last step), who plays each
/// seat, the selection, the clocks.
#[derive(Resource)]
pub struct Play<G: AppGame> {
    start: G,
    history: Vec<Step<G>>,
    undone: Vec<Step<G>>,
    pub controls: [Control; 2],
    pub selected: Option<Square>,
    /// Seconds left per seat, when playing with a clock.
    pub clocks: Option<[f32; 2]>,
    clock_seconds: Option<f32>,
    /// New with every change of any game (unique across games); the board redraws when it moves.
    pub version: u64,
    pub change: Change,
    pub notice: Option<Notice>,
    robot: Option<RobotTurn<G>>,
    seed: u64,
}

impl<G: AppGame> Play<G> {
    pub fn new(start: G, setup: &MatchSetup, seed: u64) -> Play<G> {
        let clock_seconds = (setup.clock_minutes > 0).then_some(setup.clock_minutes as f32 * 60.0);
        Play {
            history: vec![Step::start(start.clone())],
            start,
            undone: Vec::new(),
            controls: setup.controls(),
            selected: None,
            clocks: clock_seconds.map(|s| [s, s]),
            clock_seconds,
            version: next_version(),
            change: Change::Reset,
            notice: None,
            robot: None,
            seed,
        }
    }

    pub fn game(&self) -> &G {
        &self.history.last().expect("a game always has a current state").game
    }

    /// The state before the last step.
    pub fn previous(&self) -> Option<&G> {
        self.history.len().checked_sub(2).map(|i| &self.history[i].game)
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().and_then(|s| s.action)
    }

    pub fn moves_played(&self) -> usize {
        self.history.len() - 1
    }

    /// The seat to move when a person plays it.
    pub fn person_to_move(&self) -> Option<Seat> {
        self.game().to_move().filter(|s| self.controls[s.index()] == Control::Person)
    }

    pub fn robot_to_move(&self) -> bool {
        self.game().to_move().is_some_and(|s| matches!(self.controls[s.index()], Control::Robot(_)))
    }

    pub fn has_robot(&self) -> bool {
        self.controls.iter().any(|c| matches!(c, Control::Robot(_)))
    }

    /// The person's seat when one person plays the Robot.
    pub fn person_against_robot(&self) -> Option<Seat> {
        match self.controls {
            [Control::Person, Control::Robot(_)] => Some(Seat::WHITE),
            [Control::Robot(_), Control::Person] => Some(Seat::BLACK),
            _ => None,
        }
    }

    /// The move list so far.
    pub fn notes(&self) -> impl Iterator<Item = &MoveNote> {
        self.history.iter().flat_map(|step| step.notes.iter())
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
        self.clocks.is_none() && self.history.iter().skip(1).any(|s| self.is_person(s.mover))
    }

    pub fn can_redo(&self) -> bool {
        self.clocks.is_none() && !self.undone.is_empty()
    }

    fn is_person(&self, seat: Option<Seat>) -> bool {
        seat.is_some_and(|s| self.controls[s.index()] == Control::Person)
    }

    fn touched(&mut self, change: Change) {
        self.version = next_version();
        self.change = change;
        self.robot = None;
        self.selected = None;
    }

    /// Plays a legal action for the seat to move; refused actions change nothing.
    pub fn play(&mut self, action: Move, words: &Words, cues: &mut MessageWriter<SoundCue>) -> bool {
        let Some(mover) = self.game().to_move() else { return false };
        let mut next = self.game().clone();
        if next.apply(&action).is_err() {
            return false;
        }
        // One line per move, which the browser test reads from the console.
        let who = if self.is_person(Some(mover)) { "person" } else { "robot" };
        info!(
            "tabla move {} {} {} {}",
            G::NAME,
            self.game().seat_name(mover),
            who,
            self.game().action_text(&action)
        );
        let captured = next.pieces().len() < self.game().pieces().len();
        cues.write(if captured { SoundCue::Capture } else { SoundCue::Move });
        if next.outcome().is_some() {
            cues.write(SoundCue::Win);
        }
        let mut notes = Vec::new();
        if let Some(letter) = self.game().piece_letter(&action) {
            notes.push(MoveNote { seat: mover, letter: Some(letter), to: Some(action.to) });
        }
        // A big message (a new round) stays for its time; small ones end with the next move.
        if !self.notice.as_ref().is_some_and(|n| n.big) {
            self.notice = None;
        }
        for seat in next.passed() {
            cues.write(SoundCue::Pass);
            let key = game_key(words, "passes", G::NAME);
            self.notice = Some(Notice { key, seat: Some(seat), seconds_left: 3.0, big: false, ready: false });
            if !notes.is_empty() {
                notes.push(MoveNote { seat, letter: None, to: None });
            }
        }
        if let Some(text) = next.phase_notice(self.game(), self.person_against_robot(), words) {
            self.notice = Some(Notice { key: text, seat: None, seconds_left: 3.5, big: true, ready: true });
        }
        self.history.push(Step { game: next, action: Some(action), mover: Some(mover), notes });
        self.undone.clear();
        self.touched(Change::Played { action, mover });
        true
    }

    /// Takes back the person's last move, and the Robot's answers after it.
    pub fn undo(&mut self) {
        if !self.can_undo() {
            return;
        }
        while self.history.len() > 1 {
            let step = self.history.pop().expect("more than one step");
            let by_person = self.is_person(step.mover);
            self.undone.push(step);
            if by_person {
                break;
            }
        }
        self.notice = None;
        self.touched(Change::Reset);
    }

    pub fn redo(&mut self) {
        if !self.can_redo() {
            return;
        }
        // Replays up to and including the next move of a person, with the Robot's answers before it.
        while let Some(step) = self.undone.pop() {
            let by_person = self.is_person(step.mover);
            self.history.push(step);
            if by_person {
                break;
            }
        }
        self.notice = None;
        self.touched(Change::Reset);
    }

    pub fn restart(&mut self) {
        self.history = vec![Step::start(self.start.clone())];
        self.undone.clear();
        self.clocks = self.clock_seconds.map(|s| [s, s]);
        self.notice = None;
        self.seed = self.seed.wrapping_add(1);
        self.touched(Change::Reset);
    }

    fn time_out(&mut self, seat: Seat) {
        let mut game = self.game().clone();
        game.time_out(seat);
        self.history.push(Step::start(game));
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
        .init_resource::<ScoreBoard>()
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
    app.init_resource::<super::screens::PlayableGames>();
    app.world_mut().resource_mut::<super::screens::PlayableGames>().0.push(super::screens::GameInfo {
        name: G::NAME,
        picture: G::MENU_ART,
        person_seat: G::PERSON_SEAT,
    });
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
            publish_scoreboard::<G>,
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
    let layout = super::board::BoardLayout { shape: game.shape(), flipped, tray_gap };
    super::board::spawn_board(&mut commands, &game, layout, &images);
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
            Some(to) if play.game().targets(drop.from).contains(&to) => {
                play.play(Move::new(drop.from, to), &words, &mut cues);
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
        && play.game().targets(from).contains(&square)
    {
        play.play(Move::new(from, square), words, cues);
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
) {
    for SetControls(new) in controls.read() {
        play.controls = *new;
        play.robot = None;
    }
    for command in commands.read() {
        match command {
            GameCommand::Undo => play.undo(),
            GameCommand::Redo => play.redo(),
            GameCommand::Restart => play.restart(),
            GameCommand::SetClock(minutes) => play.set_clock(*minutes),
        }
    }
}

fn robot_turn<G: AppGame>(
    mut play: ResMut<Play<G>>,
    words: Res<Words>,
    pace: Res<RobotPace>,
    time: Res<Time>,
    gliding: Query<(), With<super::animate::Glide>>,
    mut cues: MessageWriter<SoundCue>,
) {
    // The Robot waits for the last move to land and for a big message to be read.
    if !play.robot_to_move() || !gliding.is_empty() || play.notice.as_ref().is_some_and(|n| n.big) {
        return;
    }
    let Some(Control::Robot(level)) = play.game().to_move().map(|s| play.controls[s.index()]) else { return };
    if play.robot.is_none() {
        let seed = play.seed ^ (play.history.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let thinker = play.game().thinker(level, seed);
        play.robot = Some(RobotTurn { thinker, waited: 0.0, choice: None, shown: 0.0 });
    }
    let robot = play.robot.as_mut().expect("just made");
    robot.waited += time.delta_secs();
    if robot.choice.is_none() {
        let started = Instant::now();
        while robot.choice.is_none() && (started.elapsed().as_secs_f32() * 1000.0) < pace.slice_ms {
            robot.choice = robot.thinker.step(1_500);
        }
    }
    let Some(choice) = robot.choice else { return };
    if robot.waited < pace.think {
        return;
    }
    robot.shown += time.delta_secs();
    let shown = robot.shown;
    play.selected = Some(choice.from);
    if shown >= pace.show {
        play.play(choice, &words, &mut cues);
    }
}

fn tick_clock<G: AppGame>(
    mut play: ResMut<Play<G>>,
    time: Res<Time>,
    gliding: Query<(), With<super::animate::Glide>>,
    mut cues: MessageWriter<SoundCue>,
) {
    let Some(seat) = play.game().to_move() else { return };
    // The clock waits while a move is still flying, and until the first move is made.
    if !gliding.is_empty() || play.moves_played() == 0 {
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

/// What the panels show about one seat.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatBoard {
    pub seat: Seat,
    pub name: String,
    pub control: Control,
    pub score: u32,
    pub extras: Vec<super::board::Extra>,
    pub to_move: bool,
    pub clock: Option<f32>,
}

/// The panels' view of the game, rebuilt from the rules state every frame.
#[derive(Resource, Clone, Debug, Default)]
pub struct ScoreBoard {
    pub game: &'static str,
    pub seats: Vec<SeatBoard>,
    /// The seat whose panel sits below the board (the person's, or the first player's).
    pub bottom_seat: Seat,
    pub show_score: bool,
    /// The line under the board: whose turn, the Robot thinking, a pass…
    pub status: String,
    /// A big message over the board, such as a new round.
    pub big_notice: Option<String>,
    pub banner: Option<String>,
    /// The move list in rounds: each round's moves, White's (or the first seat's) first.
    pub move_list: Vec<String>,
    pub result: Option<ResultBoard>,
    pub can_undo: bool,
    pub can_redo: bool,
    pub moves: usize,
    /// Clock choices of this level, and the one the next Restart brings.
    pub clock_choices: Vec<u32>,
    pub next_clock: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResultBoard {
    pub title: String,
    pub reason: String,
    pub winner: Option<Seat>,
}

/// The name a seat goes by: "You", "Robot", "Player 1"…, with its colour or role.
pub fn seat_name<G: AppGame>(play: &Play<G>, seat: Seat, words: &Words) -> String {
    let colour = words.get(play.game().seat_label_key(seat));
    let who = match play.controls[seat.index()] {
        Control::Robot(_) => words.get("robot").to_string(),
        Control::Person if play.has_robot() => words.get("you").to_string(),
        Control::Person => words.get(if seat == Seat::WHITE { "player_1" } else { "player_2" }).to_string(),
    };
    format!("{who} ({colour})")
}

/// The move list written round by round: "1. Ta8 Nf7".
fn move_list<G: AppGame>(play: &Play<G>, words: &Words) -> Vec<String> {
    let mut rounds: Vec<String> = Vec::new();
    let mut current = String::new();
    for note in play.notes() {
        let text = match (note.letter, note.to) {
            (Some(letter), Some(to)) => format!("{}{to}", words.get(letter)),
            _ => "—".to_string(),
        };
        if note.seat == Seat::WHITE && !current.is_empty() {
            rounds.push(std::mem::take(&mut current));
        }
        if current.is_empty() {
            current = if note.seat == Seat::WHITE {
                format!("{}. {text}", rounds.len() + 1)
            } else {
                format!("{}. … {text}", rounds.len() + 1)
            };
        } else {
            current = format!("{current}  {text}");
        }
    }
    if !current.is_empty() {
        rounds.push(current);
    }
    rounds
}

pub fn publish_scoreboard<G: AppGame>(
    play: Res<Play<G>>,
    words: Res<Words>,
    setup: Res<MatchSetup>,
    mut board: ResMut<ScoreBoard>,
) {
    let game = play.game();
    let seats = [Seat::WHITE, Seat::BLACK]
        .into_iter()
        .map(|seat| SeatBoard {
            seat,
            name: seat_name(&play, seat, &words),
            control: play.controls[seat.index()],
            score: game.score(seat),
            extras: game.extras(seat),
            to_move: game.to_move() == Some(seat),
            clock: play.clocks.map(|c| c[seat.index()]),
        })
        .collect();
    let notice_text = |notice: &Notice| {
        if notice.ready {
            return notice.key.clone();
        }
        let name = notice.seat.map(|s| seat_name(&play, s, &words)).unwrap_or_default();
        words.fill(&notice.key, &[("name", &name)])
    };
    let status = match (play.notice.as_ref().filter(|n| !n.big), game.to_move()) {
        (Some(notice), _) => notice_text(notice),
        (None, Some(_)) if play.robot_to_move() => words.get("robot_thinking").to_string(),
        (None, Some(_)) if play.has_robot() => words.get("your_turn").to_string(),
        (None, Some(seat)) => words.fill("to_move", &[("name", &seat_name(&play, seat, &words))]),
        (None, None) => String::new(),
    };
    let result = game.outcome().map(|outcome| {
        let winner = match outcome.winner {
            Winner::Seat(seat) => Some(seat),
            Winner::Team(team) => team.seats().next(),
            Winner::Draw => None,
        };
        let title = match (winner, play.has_robot()) {
            (None, _) => words.get("draw").to_string(),
            (Some(seat), true) if play.controls[seat.index()] == Control::Person => {
                words.get("you_win").to_string()
            }
            (Some(_), true) => words.get("robot_wins").to_string(),
            (Some(seat), false) => words.fill("wins", &[("name", &seat_name(&play, seat, &words))]),
        };
        let reason = match outcome.reason {
            EndReason::OutOfTime => {
                let loser = winner.map(|w| w.opponent()).unwrap_or(Seat::WHITE);
                words.fill("reason_out_of_time", &[("name", &seat_name(&play, loser, &words))])
            }
            other => words.get(&game_key(&words, &format!("reason_{}", other.key()), G::NAME)).to_string(),
        };
        ResultBoard { title, reason, winner }
    });
    *board = ScoreBoard {
        game: G::NAME,
        seats,
        bottom_seat: play.person_against_robot().unwrap_or(Seat::WHITE),
        show_score: G::SHOW_SCORE,
        status,
        big_notice: play.notice.as_ref().filter(|n| n.big).map(notice_text),
        banner: game.banner(&words),
        move_list: move_list(&play, &words),
        result,
        can_undo: play.can_undo(),
        can_redo: play.can_redo(),
        moves: play.moves_played(),
        clock_choices: setup.level.clock_minutes().to_vec(),
        next_clock: play.next_clock_minutes(),
    };
}
