//! `tabla --tour <dir>`: opens every screen of every game in a real window, plays a few moves,
//! saves one picture per screen and quits. A picture of one colour counts as a failure.

use crate::app::board::animate::AnimationPace;
use crate::app::board::help::HelpOpen;
use crate::app::board::input::BoardPress;
use crate::app::board::view::{Cell, ViewCommand};
use crate::app::child::children::{ChildCommand, Children, ThePath};
use crate::app::child::stages::DiplomaFor;
use crate::app::course::replay::{Replay, ReplayCommand};
use crate::app::course::robot_turn::{RobotPace, ThinkBudget};
use crate::app::course::turn::{GameCommand, GameSeed, SetControls};
use crate::app::launch::{Control, Launch, MatchSetup, Opponent};
use crate::app::panels::layout_check::LayoutCheck;
use crate::app::panels::scoreboard::ScoreBoard;
use crate::app::platform::settings::Settings;
use crate::app::platform::store::{Store, game_slot};
use crate::app::screens::SetupFor;
use crate::app::session::play::{Play, Playing};
use crate::app::session::play_of::PlayOf;
use crate::app::session::screen::Screen;
use crate::i18n::Language;
use crate::levels;
use crate::levels::LevelGame;
use crate::progress::Stars;
use crate::robot::RobotLevel;
use crate::rules::Seat;
use crate::rules::board::{BoardShape, Square};
use crate::rules::knight_hunt::KnightHunt;
use crate::rules::nard::{Board, Nard, Setup};
use crate::rules::{Game, GameKind};
use bevy::app::AppExit;
use bevy::ecs::system::SystemParam;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
use bevy::input::mouse::MouseButtonInput;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy::time::TimeUpdateStrategy;
use bevy::window::{CursorMoved, PrimaryWindow};
use bevy::winit::WinitSettings;
use std::path::PathBuf;
use std::time::Duration;
use tracing::{error, info};

#[derive(Clone, Debug)]
enum Step {
    Language(Language),
    /// The device's tutor switch (no child plays in the tour).
    Tutor(Option<bool>),
    Go(Screen),
    SetupFor(GameKind),
    /// Starts a level: file, opponent, the person's seat.
    Start(&'static str, Opponent, Seat),
    /// Starts a level with each seat's player.
    StartSeats(&'static str, &'static [Control]),
    /// A button of the game screen.
    Command(GameCommand),
    /// A view button.
    View(ViewCommand),
    Robots,
    /// A real mouse (the window's own messages): moves over a square, presses, lets go.
    PointerAt(&'static str),
    PointerDown,
    PointerUp,
    /// A write of the settings is told to have failed (the notice a grown-up sees).
    NotSaved(&'static str),
    /// Fails the tour unless this many moves have been played in the game on screen.
    ExpectMoves(usize),
    /// The person takes the first seat back from the Robot.
    PersonAgain,
    Press(&'static str),
    /// A key pressed and let go.
    Key(KeyCode),
    Help(bool),
    /// Resizes the window (logical pixels), as a phone held upright.
    WindowSize(f32, f32),
    Wait(u32),
    WaitForEnd,
    /// Waits for the panel between two rounds.
    WaitForRoundPanel,
    Shot(&'static str),
    /// A picture of the screen as it is, not looked at in other languages or sizes (what the
    /// layout check found).
    Picture(String),
    /// Crazy Nard from a position of the tour's own, the game on screen keeping its players.
    NardPosition(fn(&Setup) -> Nard),
    /// A button of the replay.
    Replay(ReplayCommand),
    /// The replay goes to the middle of the game.
    ReplayHalfWay,
    /// Once the coach is done, the replay goes to its first slip (or, in a game without one, to
    /// the best move's star).
    ReplayToSlip,
    /// What a tap on the children's screen, the map or the grown-ups' page sends.
    Child(ChildCommand),
    /// Knight Hunt won by taps: each of the person's moves tapped as the Robot at level 3 would
    /// play it, until the game ends.
    TapToWin,
    /// A square tapped.
    PressAt(Square),
    /// The playing child's stars set to these (each stage's bits; none given: every stage's
    /// three), with the diplomas they bring.
    GiveStars(&'static [(&'static str, u8)]),
    /// The playing child's diploma of a game, shown.
    Diploma(GameKind),
    /// The grown-ups' gate passed (its holding and sum are the app tests').
    OpenGate,
    /// The diploma on screen saved as a picture, as its button does.
    SaveDiploma,
    /// Fails the tour unless this file is in the tour's data folder.
    ExpectFile(&'static str),
    /// A room with someone far away: `tabla serve` started for the tour and the setup's room page
    /// opened past its gate; the room made; someone joining it by text; the server stopped.
    FarServe,
    FarMake,
    FarJoinOther,
    FarServerDown,
    /// The seat far away goes (its device closed): the room's maker is offered its place.
    FarSeatGone,
    FarDone,
    /// A line to the seat far away (a `tabla text --join` command).
    FarSeat(&'static str),
    /// Waits (a bounded number of frames) until the room is as named.
    FarUntil(FarReady),
    /// The game's time stands still (while one screen is looked at in every language and size),
    /// or goes on.
    TimeStill(bool),
    /// Fails the tour for whatever the layout check finds on the screen, once it is laid out at
    /// the window's size (`panels::layout_check`); the words name the screen.
    Check(String),
}

/// What a room step waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FarReady {
    Code,
    Playing,
    Lost,
    /// The game has this many actions.
    Moves(usize),
    /// Someone far away asks to take back.
    Asked,
    /// Nobody asks to take back.
    NoAsking,
    /// Someone seated is away.
    Away,
}

#[derive(Resource)]
struct Tour {
    dir: PathBuf,
    steps: Vec<Step>,
    next: usize,
    waiting: u32,
    shots: usize,
    pending: Vec<String>,
    failures: Vec<String>,
    /// Frames a step has waited for what it needs (a replay opened by the step before).
    waited_for: u32,
    /// Frames still to be drawn whatever comes (a diploma saved as a picture).
    draw_for: u32,
    /// Frames drawn in a row until now.
    drawn: u32,
    /// Frames the next step has waited for the last picture to be taken.
    waited_for_picture: u32,
    /// Frames a check has waited for the screen to be laid out at the window's size.
    waited_for_size: u32,
    /// Pictures taken of what the layout check found (in `found/`, at most `FOUND_PICTURES`).
    found_pictures: usize,
    /// What the layout check found is written to `layout-found.txt` in the tour's folder, one
    /// line each, and fails the tour (unless TABLA_TOUR_LAYOUT=list, while a screen is mended).
    layout_fails: bool,
    layout_found: Vec<String>,
    /// Each finding already pictured (a picture is taken of a screen with a new one).
    found_before: std::collections::HashSet<String>,
}

/// At most this many pictures of what the layout check found: enough to see each, not so many
/// that a screen broken everywhere takes the tour an hour.
const FOUND_PICTURES: usize = 80;

/// Every frame of the tour moves the game's clock by this much, however long the frame took, so
/// a picture shows the same moment of an animation, a demonstration or a Robot's turn on a quick
/// machine and on a busy one.
const FRAME: Duration = Duration::from_millis(50);
/// The tour draws only the frames just before a picture: under a software renderer drawing is
/// nearly all that a frame costs. A picture waits for this many frames drawn in a row (the
/// renderer runs a frame behind the game).
const DRAWN_BEFORE_SHOT: u32 = 4;
/// At most this many frames a step waits for the picture before it (then it goes on, and the
/// picture is still awaited before the tour ends).
const PICTURE_WAIT: u32 = 600;
/// The first pictures are drawn with every frame before them, as the renderer makes its
/// pipelines (for the menus, then the board) the first time it draws them.
const ALWAYS_DRAWN_SHOTS: usize = 5;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, begin.run_if(|launch: Res<Launch>| launch.tour.is_some()));
    app.add_systems(Update, (run, draw_only_for_pictures).chain().run_if(resource_exists::<Tour>));
}

/// Turns the camera on for the frames a picture needs, and off between them.
fn draw_only_for_pictures(mut tour: ResMut<Tour>, mut cameras: Query<&mut Camera>) {
    let draw = tour.shots < ALWAYS_DRAWN_SHOTS || tour.draw_for > 0 || !tour.pending.is_empty();
    tour.draw_for = tour.draw_for.saturating_sub(1);
    tour.drawn = if draw { tour.drawn + 1 } else { 0 };
    for mut camera in &mut cameras {
        if camera.is_active != draw {
            camera.is_active = draw;
        }
    }
}

fn script() -> Vec<Step> {
    use Step::*;
    let mut steps = vec![Language(crate::i18n::Language::En), Go(Screen::Menu), Wait(40), Shot("menu_en")];
    steps.extend([Language(crate::i18n::Language::Ro), Wait(10), Shot("menu_ro")]);
    steps.extend([
        Language(crate::i18n::Language::En),
        SetupFor(GameKind::KnightHunt),
        Go(Screen::Setup),
        Wait(30),
    ]);
    steps.push(Shot("knight_hunt_setup_en"));
    steps.extend([
        Language(crate::i18n::Language::Ro),
        Start("knight_hunt/one_knight.ron", Opponent::Robot, Seat::WHITE),
        Wait(30),
        Press("g1"),
        Wait(20),
        Shot("knight_hunt_one_knight_selected_ro"),
        Press("f3"),
        Wait(120),
        ExpectMoves(2),
        Shot("knight_hunt_one_knight_robot_answered_ro"),
    ]);
    // A real mouse drags the knight, then taps it and its target, through the board's hit tests.
    steps.extend(drag("f3", "e5"));
    steps.extend([Wait(120), ExpectMoves(4)]);
    let (from, to) = ("e5", "c6");
    steps.extend([PointerAt(from), Wait(3), PointerDown, Wait(3), PointerUp, Wait(10)]);
    steps.extend([PointerAt(to), Wait(3), PointerDown, Wait(3), PointerUp, Wait(120), ExpectMoves(6)]);
    // A hint: the knight lit and its target marked; played by ✔, it is counted in the panel.
    steps.extend([Command(GameCommand::Hint), Wait(20), Shot("knight_hunt_hint_ro")]);
    steps.extend([
        Command(GameCommand::Confirm),
        Wait(120),
        ExpectMoves(8),
        Shot("knight_hunt_hint_counted_ro"),
        // Restart in a game with moves asks first; keeping on changes nothing.
        Command(GameCommand::Restart),
        Wait(20),
        Shot("ask_before_restart_ro"),
        Command(GameCommand::KeepPlaying),
        Wait(10),
        ExpectMoves(8),
        // ⌂ keeps the game: the menu offers it first.
        Go(Screen::Menu),
        Wait(30),
        Shot("menu_continue_ro"),
    ]);
    steps.extend([
        Language(crate::i18n::Language::El),
        Start("knight_hunt/two_knights.ron", Opponent::Friend, Seat::WHITE),
    ]);
    for square in ["g1", "f3", "g8", "h6", "f3", "h4", "b8", "c6", "b1", "c3"] {
        steps.extend([Wait(8), Press(square)]);
    }
    steps.extend([Wait(60), Shot("knight_hunt_two_knights_friends_el")]);
    steps.extend([
        Language(crate::i18n::Language::It),
        Start("knight_hunt/two_knights_capture.ron", Opponent::Robot, Seat::BLACK),
        Wait(30),
        Shot("knight_hunt_capture_black_below_it"),
        Robots,
        WaitForEnd,
        Wait(60),
        Shot("knight_hunt_capture_game_over_it"),
    ]);
    steps.extend(coach_mark(Shot("knight_hunt_replay_slip_it")));
    // The tutor asks before a slip: the knight on f3 turns away from the pawn it can catch.
    steps.extend([
        Language(crate::i18n::Language::En),
        Tutor(Some(true)),
        Start("knight_hunt/two_knights_capture.ron", Opponent::Friend, Seat::WHITE),
    ]);
    for square in ["g1", "f3", "g8", "f6", "f3", "e1"] {
        steps.extend([Wait(8), Press(square)]);
    }
    steps.extend([
        Wait(30),
        Shot("knight_hunt_tutor_warned_en"),
        Command(GameCommand::ThinkAgain),
        Wait(10),
        ExpectMoves(2),
        Tutor(None),
    ]);
    steps.extend([
        Language(crate::i18n::Language::En),
        Start("circles/classic.ron", Opponent::Robot, Seat::BLACK),
        Wait(90),
        Press("h8"),
        Wait(20),
        Shot("circles_rook_selected_en"),
        Press("h5"),
        Wait(60),
        Press("g8"),
        Wait(20),
        Shot("circles_bishop_selected_en"),
        Language(crate::i18n::Language::Ro),
        Robots,
        Wait(200),
        Shot("circles_race_ro"),
        WaitForEnd,
        Wait(40),
        Shot("circles_game_over_ro"),
    ]);
    steps.extend(watch_again());
    steps.extend([
        Language(crate::i18n::Language::En),
        SetupFor(GameKind::Bunnies),
        Go(Screen::Setup),
        Wait(30),
        Shot("bunnies_setup_en"),
        Start("bunnies/two_horses.ron", Opponent::Robot, Seat::WHITE),
        Wait(30),
        Press("d2"),
        Wait(20),
        Shot("bunnies_selected_en"),
        Press("d4"),
        Wait(80),
        Robots,
        WaitForRoundPanel,
        PersonAgain,
        Wait(12),
        Shot("bunnies_round_1_over_en"),
        Command(GameCommand::NextRound),
        Wait(90),
        Shot("bunnies_round_2_turned_en"),
        Robots,
        Language(crate::i18n::Language::El),
        WaitForEnd,
        Wait(40),
        Shot("bunnies_game_over_el"),
    ]);
    steps.extend(coach_mark(Shot("bunnies_replay_slip_el")));
    // Each game's help opens with its demonstration playing.
    let knight_hunt = Start("knight_hunt/one_knight.ron", Opponent::Robot, Seat::WHITE);
    steps.extend([Language(crate::i18n::Language::En), knight_hunt.clone(), Wait(20)]);
    steps.extend(in_help(20, Shot("knight_hunt_help_en")));
    steps.extend([Start("circles/classic.ron", Opponent::Friend, Seat::WHITE), Wait(20)]);
    steps.extend(in_help(120, Shot("circles_help_en")));
    steps.extend([
        Language(crate::i18n::Language::Ro),
        Start("bunnies/two_horses.ron", Opponent::Friend, Seat::WHITE),
        Wait(20),
    ]);
    steps.extend(in_help(160, Shot("bunnies_help_ro")));
    steps.extend([Language(crate::i18n::Language::En), knight_hunt, WindowSize(360.0, 640.0), Wait(30)]);
    steps.extend(in_help(60, Shot("knight_hunt_help_phone_en")));
    steps.extend([
        Wait(10),
        Press("g1"),
        Wait(20),
        Shot("knight_hunt_phone_en"),
        Start("bunnies/one_horse.ron", Opponent::Friend, Seat::WHITE),
        Wait(30),
        Press("e2"),
        Wait(20),
        Shot("bunnies_phone_en"),
        Start("circles/classic.ron", Opponent::Friend, Seat::WHITE),
        Wait(30),
        Press("a1"),
        Wait(20),
        Shot("circles_phone_en"),
        Go(Screen::Menu),
        Wait(20),
        Shot("menu_phone_en"),
        WindowSize(640.0, 360.0),
        Start("knight_hunt/two_knights.ron", Opponent::Robot, Seat::WHITE),
        Wait(30),
        Press("b1"),
        Wait(20),
        Shot("knight_hunt_phone_on_its_side_en"),
    ]);
    // By keys alone: the cursor shows mid-board, goes to g1, picks the knight, goes to f3 (a lit
    // target, shown), and plays it.
    steps.extend([
        WindowSize(1280.0, 800.0),
        Start("knight_hunt/two_knights.ron", Opponent::Friend, Seat::WHITE),
    ]);
    steps.push(Wait(30));
    let keys = [KeyCode::ArrowUp, KeyCode::ArrowRight, KeyCode::ArrowRight]
        .into_iter()
        .chain([KeyCode::ArrowDown; 4])
        .chain([KeyCode::Enter, KeyCode::ArrowUp, KeyCode::ArrowUp, KeyCode::ArrowLeft]);
    for key in keys {
        steps.extend([Key(key), Wait(3)]);
    }
    steps.extend([Wait(20), Shot("knight_hunt_keys_en"), Key(KeyCode::Enter), Wait(30), ExpectMoves(1)]);
    steps.extend(halma());
    steps.extend(nard());
    steps.extend(path());
    steps.extend(far());
    steps
}

/// Stars given for the half-way map: each stage's bits (1 a win, 2 on one's own, 4 the goal).
const HALF_WAY: &[(&str, u8)] = &[
    ("circles_1", 7),
    ("circles_2", 3),
    ("knight_hunt_2", 1),
    ("bunnies_1", 5),
    ("halma_1", 3),
    ("nard_1", 1),
];

/// The child's path: the first start asking who plays, a new child's map, a stage won by taps
/// with its stars, the stars flying to the map and the next stage opening, the map half-way and
/// all done (desktop and phone), a diploma in each language, and the grown-ups' gate and page.
fn path() -> Vec<Step> {
    use Step::*;
    let mut steps = vec![
        WindowSize(1280.0, 800.0),
        Language(crate::i18n::Language::En),
        Go(Screen::Children),
        Wait(30),
        Shot("children_first_start_en"),
        Child(ChildCommand::Add { animal: 0 }),
        Wait(40),
        Shot("map_new_en"),
        WindowSize(360.0, 640.0),
        Wait(30),
        Shot("map_new_phone_en"),
        WindowSize(1280.0, 800.0),
        Child(ChildCommand::PlayStage("knight_hunt_1".into())),
        Wait(40),
        TapToWin,
        Wait(60),
        Shot("stage_won_stars_en"),
        Go(Screen::Map),
        Wait(3),
        Shot("map_stars_flying_en"),
        Wait(80),
        Shot("map_next_stage_open_en"),
        GiveStars(HALF_WAY),
        Wait(20),
        Shot("map_half_way_en"),
        Language(crate::i18n::Language::Ro),
        WindowSize(360.0, 640.0),
        Wait(30),
        Shot("map_half_way_phone_ro"),
        Language(crate::i18n::Language::En),
        WindowSize(1280.0, 800.0),
        Go(Screen::Children),
        Wait(20),
        Child(ChildCommand::Add { animal: 4 }),
        Wait(10),
        GiveStars(&[]),
        Wait(30),
        Shot("map_all_done_en"),
        WindowSize(360.0, 640.0),
        Wait(30),
        Shot("map_all_done_phone_en"),
        WindowSize(1280.0, 800.0),
    ];
    let languages = [
        (crate::i18n::Language::En, GameKind::KnightHunt, "diploma_knight_hunt_en"),
        (crate::i18n::Language::Ro, GameKind::Circles, "diploma_circles_ro"),
        (crate::i18n::Language::It, GameKind::Bunnies, "diploma_bunnies_it"),
        (crate::i18n::Language::El, GameKind::Nard, "diploma_nard_el"),
    ];
    for (language, game, shot) in languages {
        steps.extend([Language(language), Diploma(game), Wait(30), Shot(shot)]);
    }
    steps.extend([SaveDiploma, Wait(30), ExpectFile("diplomas/diploma-2-Κουκουβάγια-nard.png"), Wait(5)]);
    steps.push(Shot("diploma_saved_el"));
    steps.extend([
        Language(crate::i18n::Language::En),
        Go(Screen::Children),
        Wait(20),
        Shot("children_two_en"),
        // Kept means kept: the same game asked about, a write that failed, another window.
        Child(ChildCommand::Choose(0)),
        Wait(10),
        Start("knight_hunt/one_knight.ron", Opponent::Robot, Seat::WHITE),
        Wait(30),
        Press("g1"),
        Wait(10),
        Press("f3"),
        Wait(60),
        Go(Screen::Setup),
        Wait(10),
        Go(Screen::Playing),
        Wait(30),
        Shot("kept_ask_take_place_en"),
        Command(GameCommand::KeepPlaying),
        Wait(40),
        Shot("kept_kept_playing_en"),
        NotSaved("the disk is full"),
        Go(Screen::Map),
        Wait(30),
        Shot("kept_not_saved_map_en"),
        WindowSize(360.0, 640.0),
        Wait(30),
        Shot("kept_not_saved_map_phone_en"),
        WindowSize(1280.0, 800.0),
        Go(Screen::Elsewhere),
        Wait(20),
        Shot("kept_elsewhere_en"),
        Language(crate::i18n::Language::El),
        WindowSize(360.0, 640.0),
        Wait(30),
        Shot("kept_elsewhere_phone_el"),
        Language(crate::i18n::Language::En),
        WindowSize(1280.0, 800.0),
        Go(Screen::Grownups),
        Wait(20),
        Shot("grownups_gate_en"),
        OpenGate,
        Wait(20),
        Shot("grownups_page_en"),
        WindowSize(360.0, 640.0),
        Wait(30),
        Shot("grownups_page_phone_en"),
        WindowSize(1280.0, 800.0),
        Wait(10),
    ]);
    steps
}

/// Watch it again, after the Making Circles game the Robots finished (the person takes White
/// back, so the coach reviews White): the replay half-way, a slip with both arrows on a desktop
/// and a phone, and a game tried again from the slip.
fn watch_again() -> Vec<Step> {
    use Step::*;
    vec![
        Language(crate::i18n::Language::En),
        PersonAgain,
        Replay(ReplayCommand::Open),
        Wait(20),
        Shot("replay_coach_thinking_en"),
        Replay(ReplayCommand::Speed),
        Wait(120),
        ReplayHalfWay,
        Wait(40),
        Shot("replay_half_way_en"),
        WindowSize(360.0, 640.0),
        Wait(30),
        Shot("replay_half_way_phone_en"),
        ReplayToSlip,
        Wait(40),
        Shot("replay_slip_phone_en"),
        Language(crate::i18n::Language::Ro),
        Wait(10),
        Shot("replay_slip_phone_ro"),
        Language(crate::i18n::Language::En),
        WindowSize(1280.0, 800.0),
        Wait(30),
        Shot("replay_slip_en"),
        Replay(ReplayCommand::TryAgain),
        Wait(40),
        Shot("replay_try_again_en"),
        WindowSize(360.0, 640.0),
        Wait(30),
        Shot("replay_try_again_phone_en"),
        WindowSize(1280.0, 800.0),
        Wait(10),
    ]
}

/// A game just finished, watched again: `shot` of the coach's first slip (both arrows), then back
/// to the game.
fn coach_mark(shot: Step) -> [Step; 6] {
    use Step::*;
    [Replay(ReplayCommand::Open), ReplayToSlip, Wait(40), shot, Replay(ReplayCommand::Close), Wait(10)]
}

/// Halma: the setup, two friends playing by taps (each move tapped twice: previewed, then
/// confirmed), a chain previewed hop by hop, the view zoomed and turned, a hint, three and four
/// players, a draw vote, a phone, and a game played to its end.
fn halma() -> Vec<Step> {
    use Step::*;
    const FRIENDS: &[Control] = &[Control::Person, Control::Person];
    const THREE: &[Control] =
        &[Control::Person, Control::Robot(RobotLevel::One), Control::Robot(RobotLevel::One)];
    const FOUR: &[Control] = &[Control::Person; 4];
    const ROBOTS: &[Control] = &[Control::Robot(RobotLevel::Three), Control::Robot(RobotLevel::Two)];
    const AGAINST_ROBOT: &[Control] = &[Control::Person, Control::Robot(RobotLevel::One)];
    let mut steps =
        vec![Language(crate::i18n::Language::En), SetupFor(GameKind::Halma), Go(Screen::Setup), Wait(30)];
    steps.extend([Shot("halma_setup_en"), StartSeats("halma/two_players.ron", FRIENDS), Wait(30)]);
    steps.extend(in_help(200, Shot("halma_help_en")));
    steps.push(Wait(10));
    for (from, to) in
        [("a3", "c5"), ("m16", "k14"), ("a4", "c6"), ("n16", "j14"), ("b2", "d6"), ("m15", "i13")]
    {
        steps.extend([Press(from), Wait(4), Press(to), Wait(4), Press(to), Wait(40)]);
    }
    steps.extend([ExpectMoves(6), Shot("halma_two_players_en")]);
    // b3 jumps over c4 to d5, then over d6 to d7: the chain grows one tap at a time.
    steps.extend([Press("b3"), Wait(4), Press("d5"), Wait(4), Press("d7"), Wait(20)]);
    steps.extend([Shot("halma_chain_preview_en"), Command(GameCommand::Confirm), Wait(60), ExpectMoves(7)]);
    steps.extend([View(ViewCommand::Zoom { factor: 2.0, around: None }), View(ViewCommand::Turn), Wait(20)]);
    steps.extend([Press("m14"), Wait(20), Shot("halma_zoomed_turned_en"), View(ViewCommand::Fit)]);
    steps.extend([View(ViewCommand::Turn), View(ViewCommand::Turn), View(ViewCommand::Turn)]);
    steps.extend([
        Command(GameCommand::Deselect),
        Command(GameCommand::Hint),
        Wait(20),
        Shot("halma_hint_en"),
    ]);
    steps.extend([
        Language(crate::i18n::Language::Ro),
        StartSeats("halma/three_players.ron", THREE),
        Wait(30),
    ]);
    steps.extend([Press("c3"), Wait(20), Shot("halma_three_players_ro")]);
    steps.extend([
        Language(crate::i18n::Language::It),
        StartSeats("halma/four_one_army.ron", FOUR),
        Wait(30),
    ]);
    steps.extend([Shot("halma_four_players_it"), Command(GameCommand::Choose(0)), Wait(20)]);
    steps.extend([Shot("halma_draw_vote_it"), Command(GameCommand::Choose(1)), Wait(20)]);
    steps.extend([Language(crate::i18n::Language::En), WindowSize(360.0, 640.0)]);
    steps.extend([StartSeats("halma/two_players.ron", AGAINST_ROBOT), Wait(30)]);
    // A real finger on e1, among its camp's pieces: the board comes closer instead of guessing.
    steps.extend([PointerAt("e1"), Wait(3), PointerDown, Wait(3), PointerUp, Wait(30)]);
    steps.extend([Shot("halma_phone_zoomed_en"), View(ViewCommand::Fit), Press("d2"), Wait(20)]);
    steps.extend([Shot("halma_phone_en"), WindowSize(1280.0, 800.0)]);
    steps.extend([
        Language(crate::i18n::Language::El),
        StartSeats("halma/two_players.ron", ROBOTS),
        WaitForEnd,
    ]);
    steps.extend([Wait(40), Shot("halma_won_el")]);
    steps.extend(coach_mark(Shot("halma_replay_slip_el")));
    steps
}

/// Drags with a real pointer from one square to another, in small steps.
/// The help opened, `shot` taken after `frames` frames of its demonstration, the help closed.
fn in_help(frames: u32, shot: Step) -> [Step; 4] {
    [Step::Help(true), Step::Wait(frames), shot, Step::Help(false)]
}

fn drag(from: &'static str, to: &'static str) -> Vec<Step> {
    use Step::*;
    vec![
        PointerAt(from),
        Wait(3),
        PointerDown,
        Wait(3),
        PointerAt(to),
        Wait(3),
        PointerAt(to),
        Wait(3),
        PointerUp,
    ]
}

fn begin(mut commands: Commands, launch: Res<Launch>, mut exit: MessageWriter<AppExit>) {
    let dir = launch.tour.clone().expect("only runs for a tour");
    // The tour makes children with every star: never among a family's own.
    let home = dir.join("home");
    if (1..=crate::progress::child::MOST_CHILDREN)
        .any(|n| home.join(format!("child-{n}")).join("child.ron").exists())
    {
        error!("the tour runs only on a folder of its own: {} holds a child already", home.display());
        exit.write(AppExit::error());
        return;
    }
    if let Err(e) = std::fs::create_dir_all(dir.join("found")) {
        error!("cannot make the tour folder {}: {e}", dir.display());
    }
    commands.insert_resource(PACE.0);
    commands.insert_resource(PACE.1);
    commands.insert_resource(TimeUpdateStrategy::ManualDuration(FRAME));
    // The tour counts frames: every one is drawn, still or not.
    commands.insert_resource(WinitSettings::continuous());
    // The Robot's choices follow the seed, so the tour plays the same moves every time.
    commands.insert_resource(GameSeed(2026));
    commands.insert_resource(Tour {
        dir,
        // TABLA_TOUR=nard runs one game's part alone, while working on it.
        steps: match std::env::var("TABLA_TOUR").as_deref() {
            Ok("nard") => nard(),
            Ok("path") => path(),
            Ok("far") => far(),
            _ => script(),
        },
        next: 0,
        waiting: 0,
        shots: 0,
        pending: Vec::new(),
        failures: Vec::new(),
        waited_for: 0,
        draw_for: 0,
        drawn: 0,
        waited_for_picture: 0,
        waited_for_size: 0,
        found_pictures: 0,
        layout_fails: !std::env::var("TABLA_TOUR_LAYOUT").is_ok_and(|v| v == "list"),
        layout_found: Vec::new(),
        found_before: Default::default(),
    });
    commands.insert_resource(LayoutCheck::default());
}

/// The tour's pace: the Robot quick and the pieces gliding faster than in play.
const PACE: (RobotPace, AnimationPace) =
    (RobotPace { think: 0.05, show: 0.1, budget: ThinkBudget::Millis(8.0) }, AnimationPace(2.5));
/// While a game is played to its end unpictured: under a software renderer every frame counts.
const HURRIED: (RobotPace, AnimationPace) =
    (RobotPace { think: 0.0, show: 0.0, budget: ThinkBudget::Millis(8.0) }, AnimationPace(12.0));

/// The replay and its orders, the Knight Hunt on screen, a room's game, the layout check's
/// findings and the game's time.
type TourParts<'w> = (
    Option<Res<'w, Replay>>,
    MessageWriter<'w, ReplayCommand>,
    Option<Res<'w, Play>>,
    Option<Res<'w, crate::app::far::FarGame>>,
    Res<'w, LayoutCheck>,
    ResMut<'w, Time<Virtual>>,
);

#[allow(clippy::too_many_arguments)]
fn run(
    mut commands: Commands,
    mut tour: ResMut<Tour>,
    mut settings: ResMut<Settings>,
    mut next: ResMut<NextState<Screen>>,
    mut presses: MessageWriter<BoardPress>,
    mut keys: MessageWriter<KeyboardInput>,
    mut controls: MessageWriter<SetControls>,
    mut game_commands: MessageWriter<GameCommand>,
    mut view: MessageWriter<ViewCommand>,
    mut help: ResMut<HelpOpen>,
    mut pace: (ResMut<RobotPace>, ResMut<AnimationPace>),
    board: Res<ScoreBoard>,
    mut windows: Query<(Entity, &mut Window)>,
    mut pointer: PointerSender,
    (replay, mut replay_orders, knights, far, layout, mut game_time): TourParts,
    mut exit: MessageWriter<AppExit>,
) {
    if tour.waiting > 0 {
        tour.waiting -= 1;
        return;
    }
    // A picture comes from a frame the renderer draws a little later, later still on a loaded
    // machine: the next step waits for it, so the picture shows the moment it was asked for.
    if !tour.pending.is_empty() && tour.waited_for_picture < PICTURE_WAIT {
        tour.waited_for_picture += 1;
        return;
    }
    tour.waited_for_picture = 0;
    let Some(step) = tour.steps.get(tour.next).cloned() else {
        // Every step done: wait for the last pictures, then leave.
        if tour.pending.is_empty() {
            let found = tour.dir.join("layout-found.txt");
            let lines: String = tour.layout_found.iter().map(|line| format!("{line}\n")).collect();
            if let Err(e) = std::fs::write(&found, lines) {
                error!("cannot write {}: {e}", found.display());
            }
            info!(
                "the layout check found {} things; each is in {}",
                tour.layout_found.len(),
                found.display()
            );
            if tour.failures.is_empty() {
                info!("tour finished: every picture saved in {}", tour.dir.display());
                exit.write(AppExit::Success);
            } else {
                error!("tour failed: {:?}", tour.failures);
                exit.write(AppExit::error());
            }
        }
        return;
    };
    tour.next += 1;
    match step {
        Step::Language(language) => settings.language = language,
        Step::Tutor(on) => settings.reading.tutor = on,
        Step::Go(screen) => next.set(screen),
        Step::SetupFor(game) => commands.insert_resource(SetupFor(game)),
        Step::Start(..) | Step::StartSeats(..) => {
            let (file, opponent, person_seat, seats) = match step {
                Step::Start(file, opponent, seat) => (file, opponent, seat, Vec::new()),
                Step::StartSeats(file, seats) => (file, Opponent::Robot, Seat::WHITE, seats.to_vec()),
                _ => unreachable!("a start step"),
            };
            let level = levels::find(&format!("ron_configs/{file}")).expect("the tour's levels are built in");
            commands.insert_resource(SetupFor(level.kind()));
            let clock_minutes = if seats.is_empty() { 3 } else { 0 };
            commands.insert_resource(MatchSetup {
                level,
                opponent,
                person_seat,
                robot_level: RobotLevel::One,
                clock_minutes,
                seats,
                stage: None,
            });
            // Leave the game screen and come back, so the new game starts afresh; where a game of
            // the same kind is in progress, the tour starts this one in its place when asked.
            next.set(Screen::Setup);
            let at = tour.next;
            tour.steps.splice(
                at..at,
                [Step::Go(Screen::Playing), Step::Wait(3), Step::Command(GameCommand::StartAgain)],
            );
            tour.waiting = 2;
        }
        Step::Robots => {
            controls.write(SetControls(vec![Control::Robot(RobotLevel::One); board.seats.len()]));
        }
        Step::Command(command) => {
            game_commands.write(command);
        }
        Step::View(command) => {
            view.write(command);
        }
        Step::PersonAgain => {
            controls.write(SetControls(vec![Control::Person, Control::Robot(RobotLevel::One)]));
        }
        Step::Press(name) => {
            let square = BoardShape::HALMA.parse(name).expect("the tour's squares are on the board");
            presses.write(BoardPress(square));
        }
        Step::Key(key_code) => {
            let Some((window, _)) = windows.iter().next() else { return };
            for state in [ButtonState::Pressed, ButtonState::Released] {
                let logical_key = Key::Unidentified(NativeKey::Unidentified);
                let repeat = false;
                keys.write(KeyboardInput { key_code, logical_key, state, text: None, repeat, window });
            }
        }
        Step::Help(open) => help.0 = open,
        Step::WindowSize(width, height) => {
            for (_, mut window) in &mut windows {
                window.resolution.set(width, height);
            }
        }
        Step::PointerAt(name) => {
            let square = BoardShape::HALMA.parse(name).expect("the tour's squares are on the board");
            if !pointer.move_to(square) {
                tour.failures.push(format!("the square {name} is not on screen"));
            }
        }
        Step::PointerDown => pointer.button(ButtonState::Pressed),
        Step::PointerUp => pointer.button(ButtonState::Released),
        Step::ExpectMoves(moves) => {
            if board.moves != moves {
                tour.failures.push(format!("expected {moves} moves on the board, found {}", board.moves));
            }
        }
        Step::Wait(frames) => tour.waiting = frames,
        Step::WaitForEnd => {
            let (robot, animation) = if board.result.is_none() {
                tour.next -= 1;
                HURRIED
            } else {
                PACE
            };
            *pace.0 = robot;
            *pace.1 = animation;
        }
        Step::WaitForRoundPanel => {
            if board.round.is_none() {
                tour.next -= 1;
            }
        }
        Step::NardPosition(position) => {
            commands.queue(move |world: &mut World| {
                let Some(setup) = world.get_resource::<MatchSetup>().cloned() else { return };
                let LevelGame::Nard(level) = &setup.level.game else { return };
                let game = position(&level.setup);
                // A position set up for a picture is no game of the child's: the Crazy Nard game
                // kept before it goes, so the picture is not of the question whether this one may
                // take its place.
                if let Some(store) = world.get_resource::<Store>() {
                    store.games().remove(&game_slot(GameKind::Nard));
                }
                world.insert_resource(Play(Box::new(PlayOf::new(game, &setup, 7))));
                world.resource_mut::<crate::app::session::feedback::Selection>().0 = None;
            });
        }
        Step::Replay(command) => {
            replay_orders.write(command);
        }
        Step::ReplayHalfWay => match replay {
            Some(replay) => {
                replay_orders.write(ReplayCommand::Seek(replay.length / 2));
            }
            None => tour.failures.push("no replay to take half-way".to_string()),
        },
        Step::ReplayToSlip => match replay.as_deref().map(|r| &r.coach) {
            Some(coach) if !coach.done => tour.next -= 1,
            Some(coach) => match (coach.slips.first(), &coach.best) {
                (Some(mark), _) | (None, Some(mark)) => {
                    tour.waited_for = 0;
                    replay_orders.write(ReplayCommand::Seek(mark.from));
                }
                (None, None) => tour.failures.push("the coach marked nothing to show".to_string()),
            },
            // The replay opens a frame or two after it is asked for.
            None if tour.waited_for < 30 => {
                tour.waited_for += 1;
                tour.next -= 1;
            }
            None => {
                tour.waited_for = 0;
                tour.failures.push("no replay to show a slip in".to_string());
            }
        },
        Step::Child(order) => {
            // A stage over a game of the same kind in progress starts in its place when asked.
            if matches!(order, ChildCommand::PlayStage(_)) {
                let at = tour.next;
                tour.steps.splice(at..at, [Step::Wait(4), Step::Command(GameCommand::StartAgain)]);
            }
            commands.queue(move |world: &mut World| {
                world.write_message(order);
            });
        }
        Step::TapToWin => {
            let Some(play) =
                knights.as_deref().filter(|play| play.is::<KnightHunt>()).map(Play::of::<KnightHunt>)
            else {
                tour.failures.push("no Knight Hunt to win".to_string());
                return;
            };
            // Unpictured until it ends, so at the hurried pace; the usual one for the picture.
            let over = play.game().outcome().is_some();
            (*pace.0, *pace.1) = if over { PACE } else { HURRIED };
            if over {
                return;
            }
            let at = tour.next;
            let chosen = play.person_to_move().and_then(|_| {
                crate::robot::choose(play.game(), RobotLevel::Three, play.moves_played() as u64)
            });
            let then = match chosen {
                Some(chosen) => {
                    presses.write(BoardPress(chosen.from));
                    vec![Step::Wait(1), Step::PressAt(chosen.to), Step::Wait(2), Step::TapToWin]
                }
                None => vec![Step::Wait(1), Step::TapToWin],
            };
            tour.steps.splice(at..at, then);
        }
        Step::PressAt(square) => {
            presses.write(BoardPress(square));
        }
        Step::GiveStars(stars) => commands.queue(move |world: &mut World| give_stars(world, stars)),
        Step::NotSaved(why) => commands.queue(move |world: &mut World| {
            let store = world.resource::<Store>();
            // The settings, which the tour itself never writes (so nothing clears the notice).
            store.games_of_device().note_not_saved("settings.ron", why);
        }),
        Step::Diploma(game) => {
            commands.queue(move |world: &mut World| {
                let Some(slot) = world.resource::<Store>().child() else { return };
                world.insert_resource(DiplomaFor { slot, game });
            });
            next.set(Screen::Diploma);
        }
        Step::OpenGate => commands.run_system_cached(crate::app::screens::pass_gate),
        Step::FarServe => commands.run_system_cached(far_tour::serve),
        Step::FarMake => commands.run_system_cached(far_tour::make),
        Step::FarJoinOther => commands.run_system_cached(far_tour::join_other),
        Step::FarServerDown => commands.run_system_cached(far_tour::server_down),
        Step::FarSeatGone => commands.run_system_cached(far_tour::seat_gone),
        Step::FarDone => commands.remove_resource::<far_tour::TourFar>(),
        Step::FarSeat(line) => commands.run_system_cached_with(far_tour::seat_says, line),
        Step::FarUntil(what) => {
            let ready = far.as_deref().is_some_and(|far| match what {
                FarReady::Code => far.code.is_some(),
                FarReady::Playing => knights.as_ref().is_some_and(|play| play.afar()) && far.others_here(),
                FarReady::Lost => far.away.is_some(),
                FarReady::Moves(moves) => knights.as_ref().is_some_and(|play| play.moves_played() == moves),
                FarReady::Asked => far.asked_here(),
                FarReady::NoAsking => far.asking.is_none(),
                FarReady::Away => far.waiting_for().is_some(),
            });
            if ready {
                tour.waited_for = 0;
            } else if tour.waited_for < 3000 {
                tour.waited_for += 1;
                tour.next -= 1;
            } else {
                tour.failures.push(format!("the room never came to {what:?}"));
            }
        }
        Step::SaveDiploma => {
            // The diploma is saved from a picture of the window.
            tour.draw_for = 40;
            commands.insert_resource(crate::app::screens::SaveDiploma(Some(2)));
        }
        Step::ExpectFile(name) => {
            // The tour keeps what it makes in its own folder (`Launch::from_flags`).
            let kept = Some(tour.dir.join("home").join(name));
            if !kept.as_ref().is_some_and(|file| file.exists()) {
                tour.failures.push(format!("{name} was not saved in the data folder"));
            }
        }
        Step::Shot(_) | Step::Picture(_) if tour.drawn < DRAWN_BEFORE_SHOT => {
            tour.draw_for = tour.draw_for.max(DRAWN_BEFORE_SHOT + 1);
            tour.next -= 1;
        }
        Step::Shot(name) => {
            tour.shots += 1;
            let path = tour.dir.join(format!("{:02}_{name}.png", tour.shots));
            tour.pending.push(path.display().to_string());
            commands.spawn(Screenshot::primary_window()).observe(save_checked(path));
            tour.waiting = 10;
            let Some((_, window)) = windows.iter().next() else { return };
            let at = tour.next;
            let sweep = every_language_and_size(name, settings.language, window.resolution.size());
            tour.steps.splice(at..at, sweep);
        }
        Step::TimeStill(still) => {
            if still {
                game_time.pause();
            } else {
                game_time.unpause();
            }
        }
        Step::Check(name) => {
            let Some((_, window)) = windows.iter().next() else { return };
            if layout.screen != window.resolution.size() && tour.waited_for_size < PICTURE_WAIT {
                tour.waited_for_size += 1;
                tour.next -= 1;
                return;
            }
            tour.waited_for_size = 0;
            if layout.screen != window.resolution.size() {
                tour.failures.push(format!("{name}: never laid out at the window's size"));
            }
            let found: Vec<String> =
                layout.findings.iter().map(|finding| format!("{name}: {finding}")).collect();
            if tour.layout_fails {
                tour.failures.extend(found.iter().cloned());
            }
            tour.layout_found.extend(found);
            let new = layout
                .findings
                .iter()
                .filter(|finding| tour.found_before.insert(finding.to_string()))
                .count();
            if new > 0 && tour.found_pictures < FOUND_PICTURES {
                tour.found_pictures += 1;
                let at = tour.next;
                tour.steps.insert(at, Step::Picture(name.replace(['×', ' '], "_")));
            }
        }
        Step::Picture(name) => {
            let path = tour.dir.join("found").join(format!("{name}.png"));
            tour.pending.push(path.display().to_string());
            commands.spawn(Screenshot::primary_window()).observe(save_checked(path));
            tour.waiting = 10;
        }
    }
}

/// The sizes the layout check looks at every screen in: a phone upright, a phone on its side,
/// and a desktop window.
const SIZES: [(f32, f32); 3] = [(360.0, 640.0), (640.0, 360.0), (1280.0, 800.0)];

/// The screen just pictured, in each language at each size with the game's time standing still,
/// each checked; then as it was.
fn every_language_and_size(name: &str, language: Language, size: Vec2) -> Vec<Step> {
    let mut steps = vec![Step::TimeStill(true)];
    for (width, height) in SIZES {
        for each in Language::ALL {
            steps.extend([Step::WindowSize(width, height), Step::Language(each), Step::Wait(3)]);
            steps.push(Step::Check(format!("{name} at {width}×{height} in {}", each.code())));
        }
    }
    steps.extend([Step::WindowSize(size.x, size.y), Step::Language(language), Step::Wait(3)]);
    steps.push(Step::TimeStill(false));
    steps
}

/// Sets the playing child's stars (every stage's three when none are given), with the diplomas
/// they bring, and keeps them.
fn give_stars(world: &mut World, stars: &[(&str, u8)]) {
    let path = world.resource::<ThePath>().0.clone();
    let store = world.resource::<Store>().clone();
    let Some(slot) = store.child() else { return };
    let mut children = world.resource_mut::<Children>();
    let Some(child) = children.slots.get_mut(slot).and_then(Option::as_mut) else { return };
    let all: Vec<(String, u8)> = if stars.is_empty() {
        path.trails.iter().flat_map(|t| &t.stages).map(|s| (s.id.clone(), 7)).collect()
    } else {
        stars.iter().map(|(id, bits)| (id.to_string(), *bits)).collect()
    };
    for (id, bits) in all {
        child.earn(&id, Stars(bits));
    }
    child.award_diplomas(&path, &crate::app::platform::web::today());
    crate::app::child::children::keep(&store, slot, child);
}

/// Sends the window's mouse messages as a real mouse would, so the board does its own hit tests.
#[derive(SystemParam)]
struct PointerSender<'w, 's> {
    moves: MessageWriter<'w, CursorMoved>,
    buttons: MessageWriter<'w, MouseButtonInput>,
    windows: Query<'w, 's, Entity, With<PrimaryWindow>>,
    cells: Query<'w, 's, (&'static Cell, &'static GlobalTransform)>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform)>,
    at: Local<'s, Vec2>,
}

impl PointerSender<'_, '_> {
    fn button(&mut self, state: ButtonState) {
        if let Ok(window) = self.windows.single() {
            self.buttons.write(MouseButtonInput { button: MouseButton::Left, state, window });
        }
    }

    /// Moves the pointer over a square's centre; false if the square is not on screen.
    fn move_to(&mut self, square: Square) -> bool {
        let (Ok(window), Ok((camera, camera_at)), Some((_, cell_at))) = (
            self.windows.single(),
            self.cameras.single(),
            self.cells.iter().find(|(cell, _)| cell.0 == square),
        ) else {
            return false;
        };
        let Ok(position) = camera.world_to_viewport(camera_at, cell_at.translation()) else { return false };
        let delta = Some(position - *self.at);
        *self.at = position;
        self.moves.write(CursorMoved { window, position, delta });
        true
    }
}

/// Saves a screenshot, failing the tour if it is all one colour.
fn save_checked(path: PathBuf) -> impl FnMut(On<ScreenshotCaptured>, ResMut<Tour>) {
    move |captured, mut tour| {
        let name = path.display().to_string();
        tour.pending.retain(|p| *p != name);
        let image = match captured.image.clone().try_into_dynamic() {
            Ok(image) => image.to_rgb8(),
            Err(e) => {
                tour.failures.push(format!("{name}: {e}"));
                return;
            }
        };
        let first = image.get_pixel(0, 0);
        if image.pixels().all(|p| p == first) {
            tour.failures.push(format!("{name}: the picture is one colour"));
        }
        match image.save(&path) {
            Ok(()) => info!("saved {name}"),
            Err(e) => tour.failures.push(format!("{name}: {e}")),
        }
    }
}

/// Crazy Nard: the setup, the opening roll, a checker picked with its targets marked by the
/// dice they use, a whole dice set played by taps and confirmed, a doubles chain, numbers passed
/// to the other side, the cube offered, bearing off, a phone upright and on its side, and a
/// match played to its end by two Robots.
/// Playing with someone far away: the room's page past its gate, its code, the game once someone
/// joined (the room's strip says who is there), a take-back asked by each side, and the strip
/// when the server goes away.
fn far() -> Vec<Step> {
    use Step::*;
    vec![
        Language(crate::i18n::Language::En),
        WindowSize(1280.0, 800.0),
        FarServe,
        Wait(20),
        Shot("far_make_en"),
        FarMake,
        FarUntil(FarReady::Code),
        Wait(10),
        Shot("far_code_en"),
        FarJoinOther,
        FarUntil(FarReady::Playing),
        // After the path's part a child's own Knight Hunt waits: the room's game takes its place
        // (nothing is asked when no game waits).
        Wait(5),
        Command(GameCommand::StartAgain),
        Wait(20),
        Shot("far_game_en"),
        // Grandma moves, Ion answers, then asks to take his move back: Grandma is asked.
        Press("g1"),
        Wait(4),
        Press("f3"),
        FarUntil(FarReady::Moves(1)),
        // The seat far away plays when it has heard Grandma's move (on a loaded machine it
        // hears it later than this window does): its text client waits for its turn first.
        FarSeat("wait"),
        FarSeat("play g8f6"),
        FarUntil(FarReady::Moves(2)),
        Wait(30),
        FarSeat("undo"),
        FarUntil(FarReady::Asked),
        Wait(10),
        Shot("far_asks_en"),
        Command(GameCommand::AllowTakeBack),
        FarUntil(FarReady::Moves(1)),
        Wait(30),
        // Grandma asks to take hers back; Ion says no.
        Command(GameCommand::Undo),
        Wait(20),
        Shot("far_asked_en"),
        FarSeat("answer no"),
        FarUntil(FarReady::NoAsking),
        Wait(10),
        Shot("far_declined_en"),
        FarSeatGone,
        FarUntil(FarReady::Away),
        Wait(10),
        Shot("far_away_en"),
        FarServerDown,
        FarUntil(FarReady::Lost),
        Wait(5),
        Shot("far_lost_en"),
        FarDone,
        Go(Screen::Menu),
        Wait(10),
    ]
}

/// The room's part of the tour: its own `tabla serve` and a seat played through text, both
/// stopped when the part is done.
mod far_tour {
    use super::Tour;
    use crate::app::far::FarGame;
    use crate::app::launch::{MatchSetup, Opponent};
    use crate::app::screens::FarPage;
    use crate::app::session::screen::Screen;
    use bevy::prelude::*;
    use std::io::BufRead;
    use std::process::{Child, Command, Stdio};

    #[derive(Resource)]
    pub(super) struct TourFar {
        url: String,
        server: Option<Child>,
        seat: Option<Child>,
    }

    impl Drop for TourFar {
        fn drop(&mut self) {
            for child in [self.server.as_mut(), self.seat.as_mut()].into_iter().flatten() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }

    /// This program with `args`: its output piped, its input kept open (a text seat stays until
    /// it is stopped).
    fn tabla(args: &[&str]) -> std::io::Result<Child> {
        Command::new(std::env::current_exe()?)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
    }

    fn setup() -> MatchSetup {
        let level = crate::levels::find("ron_configs/knight_hunt/one_knight.ron").expect("built in");
        MatchSetup {
            level,
            opponent: Opponent::Far,
            person_seat: crate::rules::Seat::WHITE,
            robot_level: crate::robot::RobotLevel::One,
            clock_minutes: 0,
            seats: Vec::new(),
            stage: None,
        }
    }

    pub(super) fn serve(mut commands: Commands, mut tour: ResMut<Tour>, mut next: ResMut<NextState<Screen>>) {
        let data = tour.dir.join("serve").to_string_lossy().to_string();
        let mut child = match tabla(&["serve", "--port", "0", "--data", &data]) {
            Ok(child) => child,
            Err(e) => return tour.failures.push(format!("tabla serve did not start: {e}")),
        };
        let mut first = String::new();
        let _ = std::io::BufReader::new(child.stdout.take().expect("piped")).read_line(&mut first);
        let Some(url) = first.split_whitespace().find(|word| word.starts_with("http://")) else {
            return tour.failures.push(format!("tabla serve said {first}"));
        };
        let mut page = FarPage::to_make(setup(), url, "Grandma");
        page.pass_gate();
        commands.insert_resource(page);
        commands.insert_resource(TourFar { url: url.to_string(), server: Some(child), seat: None });
        next.set(Screen::Far);
    }

    pub(super) fn make(mut commands: Commands, far: Res<TourFar>) {
        commands.insert_resource(FarGame::make(&far.url, &setup(), "Grandma"));
    }

    pub(super) fn join_other(mut far: ResMut<TourFar>, game: Res<FarGame>, mut tour: ResMut<Tour>) {
        let code = game.code.clone().unwrap_or_default();
        match tabla(&["text", "--join", &far.url, &code, "--seat", "1", "--name", "Ion"]) {
            Ok(seat) => far.seat = Some(seat),
            Err(e) => tour.failures.push(format!("the seat far away did not start: {e}")),
        }
    }

    pub(super) fn seat_says(line: In<&'static str>, mut far: ResMut<TourFar>, mut tour: ResMut<Tour>) {
        use std::io::Write;
        let said =
            far.seat.as_mut().and_then(|seat| seat.stdin.as_mut()).map(|input| writeln!(input, "{}", *line));
        if !matches!(said, Some(Ok(()))) {
            tour.failures.push(format!("the seat far away was not told '{}'", *line));
        }
    }

    pub(super) fn seat_gone(mut far: ResMut<TourFar>) {
        if let Some(mut seat) = far.seat.take() {
            let _ = seat.kill();
            let _ = seat.wait();
        }
    }

    pub(super) fn server_down(mut far: ResMut<TourFar>) {
        if let Some(mut server) = far.server.take() {
            let _ = server.kill();
            let _ = server.wait();
        }
    }
}

fn nard() -> Vec<Step> {
    use Step::*;
    const ROBOTS: &[Control] = &[Control::Robot(RobotLevel::Two), Control::Robot(RobotLevel::One)];
    let mut steps =
        vec![Language(crate::i18n::Language::En), SetupFor(GameKind::Nard), Go(Screen::Setup), Wait(30)];
    steps.extend([
        Shot("nard_setup_en"),
        Start("nard/one_point.ron", Opponent::Friend, Seat::WHITE),
        Wait(30),
    ]);
    steps.extend(in_help(260, Shot("nard_help_en")));
    steps.push(Wait(10));
    steps.extend([Shot("nard_opening_en"), Command(GameCommand::Roll), Wait(40)]);
    steps.extend([Command(GameCommand::Roll), Wait(60), Shot("nard_opening_roll_en")]);
    // White's head (l2) picked: its targets marked with the dice they use.
    steps.extend([Press("l2"), Wait(20), Shot("nard_picked_en")]);
    // An opening tie: White has rolled a 3, and the tour's dice give Black a 3 too.
    steps.extend([NardPosition(white_rolled_three), Wait(20), Command(GameCommand::Roll), Wait(30)]);
    steps.push(Shot("nard_opening_tie_en"));
    // 2-2 rolled: 4×2 now, 4×3 to 4×6 to come; two twos played by taps.
    steps.extend([NardPosition(chain_position), Wait(20), Press("h2"), Wait(4), Press("f2"), Wait(30)]);
    steps.extend([Press("e2"), Wait(4), Press("c2"), Wait(30), Shot("nard_chain_en")]);
    steps.extend([
        Command(GameCommand::Hint),
        Wait(20),
        Shot("nard_hint_en"),
        // On a phone the hint's words stand in the far strip's place, the board whole under them.
        WindowSize(640.0, 360.0),
        Wait(10),
        Shot("nard_hint_phone_side_en"),
        WindowSize(1280.0, 800.0),
        Wait(10),
        Command(GameCommand::Deselect),
    ]);
    // 6-3 with a 3 that cannot be played: 10/4, confirmed, and the 3 goes over to Black.
    steps.extend([NardPosition(pass_position), Wait(20), Press("c1"), Wait(4), Press("i1"), Wait(30)]);
    steps.extend([WindowSize(360.0, 640.0), Wait(10), Command(GameCommand::Confirm), Wait(30)]);
    steps.extend([Shot("nard_passed_phone_en"), WindowSize(1280.0, 800.0), Wait(10), Shot("nard_passed_en")]);
    steps.extend([
        NardPosition(bear_off_position),
        Wait(20),
        Press("h1"),
        Wait(20),
        Shot("nard_bearing_off_en"),
    ]);
    steps.extend([Press("m1"), Wait(30), Press("j1"), Wait(30), Shot("nard_borne_off_en")]);
    steps.extend([Start("nard/three_points.ron", Opponent::Friend, Seat::WHITE), Wait(30)]);
    steps.extend([NardPosition(cube_position), Wait(20), Command(GameCommand::Choose(0)), Wait(30)]);
    steps.extend([Shot("nard_cube_offered_en")]);
    steps.extend([WindowSize(360.0, 640.0), NardPosition(chain_position), Wait(40), Shot("nard_phone_en")]);
    steps.extend([WindowSize(640.0, 360.0), Wait(40), Shot("nard_phone_on_its_side_en")]);
    steps.extend([WindowSize(1280.0, 800.0), Language(crate::i18n::Language::El)]);
    steps.extend([StartSeats("nard/one_point.ron", ROBOTS), WaitForEnd]);
    steps.extend([Wait(40), Shot("nard_match_won_el"), Language(crate::i18n::Language::En)]);
    steps.extend(coach_mark(Shot("nard_replay_slip_en")));
    steps
}

/// A position of the tour's own, with the roll made in it.
fn rolled(setup: &Setup, white: &[(u8, u8)], black: &[(u8, u8)], roll: &str) -> Nard {
    let board = Board::from_points(white, black).expect("a valid position");
    let mut game = Nard::from_position(setup, board, Seat::WHITE);
    let action = game.parse_action(roll).expect("a roll");
    game.apply(&action).expect("the roll is due");
    game
}

/// The opening, White's die showing 3 (the tour's seeded dice roll Black a 3 next: a tie).
fn white_rolled_three(setup: &Setup) -> Nard {
    let mut game = Nard::new(setup);
    let action = game.parse_action("roll 3").expect("White's opening die");
    game.apply(&action).expect("White's die is due");
    game
}

/// White, its checkers spread out, has rolled 2-2: a doubles chain begins.
fn chain_position(setup: &Setup) -> Nard {
    rolled(setup, &[(24, 9), (20, 2), (17, 2), (13, 2)], &[(24, 10), (19, 2), (16, 3)], "roll 2 2")
}

/// White's one checker outside home can play the 6 or the 3, not both: the 3 will pass.
fn pass_position(setup: &Setup) -> Nard {
    rolled(setup, &[(2, 4), (4, 4), (5, 3), (6, 3), (10, 1)], &[(24, 14), (13, 1)], "roll 6 3")
}

/// White bearing off with 5-3, Black far behind.
fn bear_off_position(setup: &Setup) -> Nard {
    rolled(setup, &[(1, 4), (2, 4), (3, 3), (5, 2), (6, 2)], &[(24, 10), (12, 5)], "roll 5 3")
}

/// White about to roll, well ahead in the race: it may double.
fn cube_position(setup: &Setup) -> Nard {
    let board = Board::from_points(&[(1, 5), (3, 5), (8, 5)], &[(24, 8), (19, 7)]).expect("a valid position");
    Nard::from_position(setup, board, Seat::WHITE)
}
