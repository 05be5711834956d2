//! The app without a window: whole games played through the same messages the pointer produces,
//! checking the board's entities and the score panel after every move, and games between two
//! Robots played to the end, for every game with a screen.
use crate::common::{self, pieces_in_rules, pieces_shown, settle};

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use tabla::app::board::input::{BoardDrop, BoardPress};
use tabla::app::board::pieces::ArrowKind;
use tabla::app::board::view::{BoardView, KeyCursor, Mark, TrayItem};
use tabla::app::course::turn::{GameCommand, SetControls};
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::session::feedback::Selection;
use tabla::app::session::game::{AppGame, Extra};
use tabla::app::session::play::{Play, Playing};
use tabla::app::session::play_of::PlayOf;
use tabla::app::{Control, Launch, Opponent, Screen, core_plugin};
use tabla::robot;
use tabla::robot::RobotLevel;
use tabla::rules::board::{Move, Square};
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::circles::Circles;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::{Game, Seat};

fn app(level: &str, opponent: Opponent) -> App {
    app_for(&format!("knight_hunt/{level}"), opponent, Seat::WHITE)
}

fn app_for(level: &str, opponent: Opponent, person_seat: Seat) -> App {
    common::headless(common::setup(level, opponent, person_seat, RobotLevel::Two), "games", 11, |_| {})
}

fn game(app: &App) -> KnightHunt {
    app.world().resource::<Play>().of::<KnightHunt>().game().clone()
}

fn tray_counts(app: &mut App) -> [usize; 2] {
    let mut query = app.world_mut().query::<&TrayItem>();
    let mut counts = [0, 0];
    for item in query.iter(app.world()) {
        counts[item.seat.index()] += 1;
    }
    counts
}

fn check_screen_matches_rules(app: &mut App) {
    let game = game(app);
    assert_eq!(pieces_shown(app), pieces_in_rules(&game), "the piece entities mirror the rules");
    assert_eq!(tray_counts(app), [game.score(Seat::WHITE) as usize, game.score(Seat::BLACK) as usize]);
    let board = app.world().resource::<ScoreBoard>().clone();
    for seat in [Seat::WHITE, Seat::BLACK] {
        let panel = &board.seats[seat.index()];
        assert_eq!(panel.score, game.score(seat) as u32, "the score panel shows the score");
        assert!(
            matches!(panel.extras[..], [Extra::Count(_, n)] if n == game.knights_left(seat)),
            "knights left under the score"
        );
        assert_eq!(panel.to_move, game.to_move() == Some(seat));
    }
    assert_eq!(board.result.is_some(), game.outcome().is_some());
    if game.outcome().is_some() {
        assert_eq!(board.banner, None, "after the game only its result speaks, no phase's banner");
    }
}

#[test]
fn a_whole_game_by_taps_and_drags() {
    let mut app = app("two_knights_capture", Opponent::Friend);
    check_screen_matches_rules(&mut app);
    let mut moves = 0;
    while let Some(seat) = game(&app).to_move() {
        let choice: Move = robot::choose(
            &game(&app),
            if seat == Seat::WHITE { RobotLevel::Three } else { RobotLevel::Two },
            moves,
        )
        .unwrap();
        if moves % 3 == 2 {
            // Drag the knight there.
            app.world_mut().write_message(BoardDrop { from: choice.from, to: Some(choice.to) });
            app.update();
        } else {
            // Tap the knight: its legal squares light up; then tap the square.
            app.world_mut().write_message(BoardPress(choice.from));
            app.update();
            app.update();
            let targets = game(&app).targets_from(choice.from).count_ones() as usize;
            // The last move's trail is drawn too (its arrows carry their kind).
            let mut marks = app.world_mut().query_filtered::<(), (With<Mark>, Without<ArrowKind>)>();
            assert_eq!(
                marks.iter(app.world()).count(),
                targets + 1,
                "the targets and the selected knight are lit"
            );
            app.world_mut().write_message(BoardPress(choice.to));
            app.update();
        }
        assert_eq!(game(&app).last_move(), Some(choice), "move {moves} was played");
        settle(&mut app);
        check_screen_matches_rules(&mut app);
        moves += 1;
        assert!(moves < 400, "the game ends");
    }
    let result =
        app.world().resource::<ScoreBoard>().result.clone().expect("the game-over dialog has its text");
    assert!(!result.title.is_empty() && !result.reason.is_empty());
}

#[test]
fn illegal_taps_and_drops_change_nothing() {
    let mut app = app("one_knight", Opponent::Friend);
    let before = game(&app);
    // A black knight on White's turn, an empty square, an illegal jump by drag, a random storm.
    let g1 = Square::new(6, 0);
    app.world_mut().write_message(BoardPress(Square::new(6, 7)));
    app.world_mut().write_message(BoardPress(Square::new(3, 2)));
    app.world_mut().write_message(BoardDrop { from: g1, to: Some(Square::new(6, 2)) });
    app.world_mut().write_message(BoardDrop { from: g1, to: None });
    app.update();
    for i in 0..200u32 {
        let square = Square::new((i * 7 % 8) as u8, (i * 5 % 8) as u8);
        if game(&app).targets_from(square).count_ones() == 0 {
            app.world_mut().write_message(BoardPress(square));
            app.world_mut()
                .write_message(BoardDrop { from: square, to: Some(Square::new(0, (i % 8) as u8)) });
        }
    }
    settle(&mut app);
    assert_eq!(game(&app), before, "nothing illegal was played");
    check_screen_matches_rules(&mut app);
}

fn cursor(app: &App) -> Option<Square> {
    app.world().resource::<KeyCursor>().0
}

/// Moves the keyboard cursor to `square` with the arrows, on a board seen unturned.
fn cursor_to(app: &mut App, square: Square) {
    while let Some(at) = cursor(app)
        && at != square
    {
        let key = match (at.file.cmp(&square.file), at.rank.cmp(&square.rank)) {
            (std::cmp::Ordering::Less, _) => KeyCode::ArrowRight,
            (std::cmp::Ordering::Greater, _) => KeyCode::ArrowLeft,
            (_, std::cmp::Ordering::Less) => KeyCode::ArrowUp,
            _ => KeyCode::ArrowDown,
        };
        common::press_key(app, key);
    }
}

#[test]
fn the_keyboard_picks_plays_lets_go_and_takes_back() {
    let mut app = app("one_knight", Opponent::Friend);
    let (g1, f3) = (Square::new(6, 0), Square::new(5, 2));
    assert_eq!(cursor(&app), None, "no cursor until an arrow is pressed");
    common::press_key(&mut app, KeyCode::ArrowUp);
    assert_eq!(cursor(&app), Some(Square::new(4, 4)), "the first arrow shows the cursor mid-board");
    cursor_to(&mut app, g1);
    common::press_key(&mut app, KeyCode::Enter);
    assert_eq!(app.world().resource::<Selection>().0, Some(g1), "Enter picks the piece under the cursor");
    common::press_key(&mut app, KeyCode::Escape);
    assert_eq!(app.world().resource::<Selection>().0, None, "Esc lets go of it");
    common::press_key(&mut app, KeyCode::Enter);
    cursor_to(&mut app, f3);
    common::press_key(&mut app, KeyCode::Enter);
    let play = app.world().resource::<Play>().of::<KnightHunt>();
    assert_eq!(play.moves_played(), 1);
    assert_eq!(play.last_move(), Some(Move::new(g1, f3)), "Enter on a target plays the move");
    common::press_key(&mut app, KeyCode::KeyU);
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 0, "U takes it back");
    common::press_key(&mut app, KeyCode::KeyR);
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 1, "R plays it again");
    settle(&mut app);
    check_screen_matches_rules(&mut app);
}

#[test]
fn the_arrows_follow_the_board_as_the_view_turns() {
    let mut app = app("one_knight", Opponent::Friend);
    common::press_key(&mut app, KeyCode::ArrowUp);
    common::press_key(&mut app, KeyCode::ArrowUp);
    assert_eq!(cursor(&app), Some(Square::new(4, 5)), "unturned, up is toward rank 8");
    common::press_key(&mut app, KeyCode::ArrowDown);
    common::press_key(&mut app, KeyCode::KeyT);
    // A quarter turn counterclockwise puts the files upward on the screen.
    common::press_key(&mut app, KeyCode::ArrowUp);
    assert_eq!(cursor(&app), Some(Square::new(5, 4)), "turned, up is toward the h-file");
    common::press_key(&mut app, KeyCode::ArrowRight);
    assert_eq!(cursor(&app), Some(Square::new(5, 3)), "turned, right is toward rank 1");
    // Zooming by keys changes the view, never the game.
    let before = game(&app);
    let zoom = |app: &App| app.world().resource::<BoardView>().zoom;
    common::press_key(&mut app, KeyCode::Equal);
    common::press_key(&mut app, KeyCode::Equal);
    assert!(zoom(&app) > 1.5, "+ zooms in");
    common::press_key(&mut app, KeyCode::Minus);
    assert!(zoom(&app) > 1.0 && zoom(&app) < 1.5, "- zooms out");
    common::press_key(&mut app, KeyCode::KeyF);
    assert_eq!(zoom(&app), 1.0, "F shows the whole board");
    assert_eq!(game(&app), before);
}

#[test]
fn undo_takes_back_the_persons_move_and_the_robots_answer() {
    let mut app = app("one_knight", Opponent::Robot);
    app.world_mut().write_message(BoardPress(Square::new(6, 0)));
    app.update();
    app.world_mut().write_message(BoardPress(Square::new(5, 2)));
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 2, "the Robot answered");
    app.world_mut().write_message(GameCommand::Undo);
    settle(&mut app);
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 0);
    check_screen_matches_rules(&mut app);
    app.world_mut().write_message(GameCommand::Redo);
    settle(&mut app);
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 2);
    check_screen_matches_rules(&mut app);
}

#[test]
fn two_robots_play_a_game_to_the_end() {
    let mut app = app("two_knights", Opponent::Robot);
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::Three), Control::Robot(RobotLevel::One)]));
    let mut frames = 0;
    while app.world().resource::<ScoreBoard>().result.is_none() {
        app.update();
        frames += 1;
        assert!(frames < 20_000, "the Robots finish their game");
    }
    settle(&mut app);
    check_screen_matches_rules(&mut app);
    let outcome = game(&app).outcome().unwrap();
    assert!(game(&app).score(Seat::WHITE) + game(&app).score(Seat::BLACK) > 0, "{outcome:?}");
    // People take the seats back, and Restart lays out a fresh board.
    app.world_mut().write_message(SetControls(vec![Control::Person, Control::Person]));
    app.world_mut().write_message(GameCommand::Restart);
    settle(&mut app);
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 0);
    check_screen_matches_rules(&mut app);
}

fn pieces_match<G: AppGame>(app: &mut App) -> bool {
    let game = app.world().resource::<Play>().of::<G>().game().clone();
    let trays = tray_counts(app);
    pieces_shown(app) == pieces_in_rules(&game)
        && trays == [game.tray(Seat::WHITE).len(), game.tray(Seat::BLACK).len()]
}

fn gliding(app: &mut App) -> bool {
    let mut glides = app.world_mut().query_filtered::<(), With<tabla::app::board::animate::Glide>>();
    glides.iter(app.world()).next().is_some()
}

/// Two Robots play a whole game; whenever the board is at rest it must show exactly the rules'
/// pieces and trays, and the panels the rules' scores.
fn robots_play_to_the_end<G: AppGame>(level: &str, levels: [RobotLevel; 2]) -> G {
    let mut app = app_for(level, Opponent::Robot, Seat::WHITE);
    app.world_mut().write_message(SetControls(vec![Control::Robot(levels[0]), Control::Robot(levels[1])]));
    let mut frames = 0;
    let mut checked = 0;
    while app.world().resource::<ScoreBoard>().result.is_none() || gliding(&mut app) {
        app.update();
        if !gliding(&mut app) {
            if !pieces_match::<G>(&mut app) {
                let game = app.world().resource::<Play>().of::<G>().game().clone();
                panic!(
                    "{level}: after {frames} frames the board shows {:?} and trays {:?}; the rules say {:?} and {:?}",
                    pieces_shown(&mut app),
                    tray_counts(&mut app),
                    pieces_in_rules(&game),
                    [game.tray(Seat::WHITE).len(), game.tray(Seat::BLACK).len()]
                );
            }
            let game = app.world().resource::<Play>().of::<G>().game().clone();
            let board = app.world().resource::<ScoreBoard>().clone();
            for seat in [Seat::WHITE, Seat::BLACK] {
                assert_eq!(board.seats[seat.index()].score, game.score(seat), "{level}: the panel's score");
            }
            checked += 1;
        }
        frames += 1;
        assert!(frames < 40_000, "{level}: the Robots finish their game");
    }
    assert!(checked > 10, "{level}: the board was checked at rest");
    app.world().resource::<Play>().of::<G>().game().clone()
}

#[test]
fn robots_finish_every_game_and_the_board_always_mirrors_the_rules() {
    let hunt: KnightHunt =
        robots_play_to_the_end("knight_hunt/two_knights_capture", [RobotLevel::Two, RobotLevel::One]);
    assert!(hunt.outcome().is_some());
    let circles: Circles = robots_play_to_the_end("circles/classic", [RobotLevel::One, RobotLevel::Two]);
    assert!(circles.outcome().is_some());
    let bunnies: BunniesAndHorses =
        robots_play_to_the_end("bunnies/two_horses", [RobotLevel::Two, RobotLevel::One]);
    assert_eq!(bunnies.round(), 2, "the match went on to round 2");
    assert!(bunnies.outcome().is_some());
}

#[test]
fn circles_against_the_robot_the_person_plays_black_and_the_move_list_grows() {
    let mut app = app_for("circles/classic", Opponent::Robot, Seat::BLACK);
    // The Robot (White) moves first.
    for _ in 0..30 {
        app.update();
    }
    let play = app.world().resource::<Play>().of::<Circles>();
    assert_eq!(play.moves_played(), 1);
    assert_eq!(play.person_to_move(), Some(Seat::BLACK));
    // Tap the black rook, then a square it may go to.
    let h8 = Square::new(7, 7);
    app.world_mut().write_message(BoardPress(h8));
    app.update();
    let target = app.world().resource::<Play>().of::<Circles>().game().legal_targets(h8)[0];
    app.world_mut().write_message(BoardPress(target));
    for _ in 0..40 {
        app.update();
    }
    let board = app.world().resource::<ScoreBoard>().clone();
    assert_eq!(board.moves, 3, "the person moved and the Robot answered");
    assert_eq!(board.move_list.len(), 2, "two rounds in the move list: {:?}", board.move_list);
    assert!(board.move_list[0].contains(&format!("R{target}")), "{:?}", board.move_list);
    assert!(!board.show_score, "Making Circles shows progress, not a score");
}

#[test]
fn bunnies_against_the_robot_the_board_turns_for_round_2() {
    let mut app = app_for("bunnies/one_horse", Opponent::Robot, Seat::WHITE);
    assert!(
        !app.world().resource::<tabla::app::board::view::BoardLayout>().flipped,
        "bunnies below in round 1"
    );
    // The Robot finishes round 1 for the person, who takes over again in round 2.
    app.world_mut()
        .write_message(SetControls(vec![Control::Robot(RobotLevel::Three), Control::Robot(RobotLevel::One)]));
    let mut frames = 0;
    while app.world().resource::<Play>().of::<BunniesAndHorses>().game().round() == 1 {
        app.update();
        frames += 1;
        assert!(frames < 20_000);
    }
    app.world_mut().write_message(SetControls(vec![Control::Person, Control::Robot(RobotLevel::One)]));
    app.update();
    app.update();
    let board = app.world().resource::<ScoreBoard>().clone();
    let round = board.round.clone().expect("the panel between the rounds");
    assert_eq!(round.title, "Round 1 is over");
    // Two Robots finished round 1, so the panel speaks to two players.
    assert!(round.lines.last().is_some_and(|line| line.starts_with("Round 2")), "{:?}", round.lines);
    assert!(
        app.world().resource::<tabla::app::board::view::BoardLayout>().flipped,
        "the person's horses are below"
    );
    // Under the panel the seats still tell the round that ended, and nobody is to move.
    assert!(board.seats[0].name.contains("Bunnies"), "{}", board.seats[0].name);
    assert!(board.seats.iter().all(|seat| !seat.to_move), "nobody moves under the panel");
    common::command(&mut app, GameCommand::NextRound);
    settle(&mut app);
    let board = app.world().resource::<ScoreBoard>().clone();
    assert!(board.seats[0].name.contains("Horses"), "round 2: {}", board.seats[0].name);
}

/// Bunnies and Horses between the rounds: a panel tells why round 1 stopped, what the bunnies
/// did, the score and who plays what next; round 2 waits for it to be closed.
#[test]
fn bunnies_round_1_ends_with_a_panel_that_tells_how() {
    let mut app = app_for("bunnies/one_horse", Opponent::Friend, Seat::WHITE);
    let setup = app.world().resource::<tabla::app::MatchSetup>().clone();
    let square = |name: &str| tabla::rules::board::BoardShape::CHESS.parse(name).unwrap();
    let squares = |names: &[&str]| names.iter().map(|n| square(n)).collect();
    let start = BunniesAndHorses::new(&tabla::rules::bunnies::Setup {
        bunnies: squares(&["c7", "h4"]),
        horses: squares(&["g7", "a1"]),
    });
    app.world_mut().insert_resource(Play::from(PlayOf::new(start, &setup, 3)));
    settle(&mut app);
    // A bunny steps up, the horse catches it, the other hops into the garden: none is left.
    for (from, to) in [("h4", "h5"), ("g7", "h5"), ("c7", "c8")] {
        common::press(&mut app, square(from));
        common::press(&mut app, square(to));
        settle(&mut app);
    }
    let round = app.world().resource::<ScoreBoard>().round.clone().expect("the panel between the rounds");
    assert_eq!(round.title, "Round 1 is over");
    assert_eq!(
        round.lines,
        vec![
            "No bunnies are left on the board.",
            "Bunnies (Player 1): 1 in the garden, 1 caught.",
            "Carrots: Player 1 1 – Player 2 0",
            "Round 2: swap! Player 2 plays the bunnies.",
        ]
    );
    assert_eq!(app.world().resource::<Play>().of::<BunniesAndHorses>().game().round(), 2);
    // The round just ended is not taken back under its panel (which would leave it with nothing
    // to tell and the board waiting for it).
    assert!(!app.world().resource::<ScoreBoard>().can_undo, "no Undo under the panel");
    common::command(&mut app, GameCommand::Undo);
    assert_eq!(app.world().resource::<Play>().of::<BunniesAndHorses>().game().round(), 2);
    assert!(app.world().resource::<ScoreBoard>().round.is_some(), "the panel stays");
    common::command(&mut app, GameCommand::NextRound);
    assert!(app.world().resource::<ScoreBoard>().round.is_none(), "Next closes it");
    settle(&mut app);
    let layout = app.world().resource::<tabla::app::board::view::BoardLayout>();
    assert!(!layout.flipped, "two people share the board as it stands: it stays put for round 2");
}

/// Making Circles from the classic setup with more walls (the squares named), White to move.
fn circles_walled(app: &mut App, walls: &[&str]) {
    let mut rules = app.world().resource::<Play>().of::<Circles>().game().setup().clone();
    rules
        .barrier
        .extend(walls.iter().map(|name| tabla::rules::board::BoardShape::CHESS.parse(name).unwrap()));
    let setup = app.world().resource::<tabla::app::MatchSetup>().clone();
    app.world_mut().insert_resource(Play::from(PlayOf::new(Circles::new(&rules), &setup, 3)));
    settle(app);
}

fn circles_square(name: &str) -> Square {
    tabla::rules::board::BoardShape::CHESS.parse(name).unwrap()
}

/// The move list in Romanian: T for the rook, N for the bishop, and a dash for a skipped turn.
#[test]
fn the_move_list_writes_t_n_and_a_dash_for_a_skipped_turn_in_romanian() {
    let mut app = app_for("circles/classic", Opponent::Friend, Seat::WHITE);
    app.world_mut().resource_mut::<tabla::app::platform::settings::Settings>().language =
        tabla::i18n::Language::Ro;
    // Black's rook and bishop are walled in on h8 and g8: its turns are skipped.
    circles_walled(&mut app, &["h7", "f7"]);
    for (from, to) in [("a1", "a8"), ("b1", "c2")] {
        common::press(&mut app, circles_square(from));
        common::press(&mut app, circles_square(to));
        settle(&mut app);
    }
    let board = app.world().resource::<ScoreBoard>().clone();
    assert_eq!(board.move_list, vec!["1. Ta8  —", "2. Nc2  —"]);
}

/// A tap on a piece with no move says to move the other one, and picks nothing.
#[test]
fn a_tap_on_a_circles_piece_with_no_move_says_to_move_the_other_piece() {
    let mut app = app_for("circles/classic", Opponent::Friend, Seat::WHITE);
    // The rook on a1 has a wall above it and its own bishop beside it.
    circles_walled(&mut app, &["a2"]);
    common::press(&mut app, circles_square("a1"));
    let words = app.world().resource::<tabla::app::platform::settings::Words>();
    let told = words.get("stuck_circles").to_string();
    assert_eq!(app.world().resource::<ScoreBoard>().status, told);
    assert!(told.contains("other piece"), "{told}");
}

/// Making Circles' board is never turned: against the Robot the person plays Black from the top,
/// and two people share it as it stands.
#[test]
fn the_circles_board_never_turns() {
    use tabla::app::board::view::BoardLayout;
    for (opponent, person) in [(Opponent::Robot, Seat::BLACK), (Opponent::Friend, Seat::WHITE)] {
        let mut app = app_for("circles/classic", opponent, person);
        assert!(!app.world().resource::<BoardLayout>().flipped, "{opponent:?}: White below");
        common::press(&mut app, circles_square("a1"));
        common::press(&mut app, circles_square("a5"));
        settle(&mut app);
        assert!(!app.world().resource::<BoardLayout>().flipped, "{opponent:?}: still after a move");
    }
}

/// A clock that runs out ends the game for the side whose time ran out; a new time chosen during
/// a game applies from Restart.
#[test]
fn a_time_out_loses_and_a_new_time_starts_at_restart() {
    use tabla::app::course::clocks::Clocks;
    use tabla::rules::{EndReason, Winner};
    let mut setup = common::setup("knight_hunt/one_knight", Opponent::Friend, Seat::WHITE, RobotLevel::Two);
    setup.clock_minutes = 1;
    let mut app = common::headless(setup, "clock", 11, |_| {});
    assert_eq!(app.world().resource::<Clocks>().left, Some(vec![60.0, 60.0]));
    let knight = game(&app).legal_actions()[0];
    common::press(&mut app, knight.from);
    common::press(&mut app, knight.to);
    settle(&mut app);
    // Black to move, a moment from the end of its time.
    app.world_mut().resource_mut::<Clocks>().left.as_mut().unwrap()[1] = 0.001;
    common::command(&mut app, GameCommand::SetClock(3));
    for _ in 0..200 {
        if game(&app).outcome().is_some() {
            break;
        }
        std::thread::yield_now();
        app.update();
    }
    let outcome = game(&app).outcome().expect("Black's time ran out");
    assert_eq!((outcome.winner, outcome.reason), (Winner::Seat(Seat::WHITE), EndReason::OutOfTime));
    assert_eq!(app.world().resource::<Clocks>().minutes, 1, "the new time waits for Restart");
    common::command(&mut app, GameCommand::Restart);
    let clocks = app.world().resource::<Clocks>();
    assert_eq!((clocks.minutes, clocks.left.clone()), (3, Some(vec![180.0, 180.0])));
    assert_eq!(app.world().resource::<Play>().of::<KnightHunt>().moves_played(), 0);
}

/// A window at rest draws nothing until woken: a running clock asks for a frame when the second
/// it shows changes (whole seconds, rounded up), and counts the real time that went by between
/// two frames however long the rest, up to a few seconds (a computer asleep costs no game).
#[test]
fn a_running_clock_asks_for_a_frame_when_its_second_changes_and_counts_the_rest() {
    use bevy::time::TimeUpdateStrategy;
    use std::time::Duration;
    use tabla::app::course::clocks::Clocks;
    use tabla::app::platform::wake::WakeWithin;
    let mut setup = common::setup("knight_hunt/one_knight", Opponent::Friend, Seat::WHITE, RobotLevel::Two);
    setup.clock_minutes = 1;
    let mut app = common::headless(setup, "clock_wakes", 11, |_| {});
    let knight = game(&app).legal_actions()[0];
    common::press(&mut app, knight.from);
    common::press(&mut app, knight.to);
    settle(&mut app);
    let black_left = |app: &App| app.world().resource::<Clocks>().left.clone().expect("a clock")[1];
    let frame_after = |app: &mut App, gap_ms: u64| {
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(gap_ms)));
        app.world_mut().resource_mut::<WakeWithin>().take();
        app.update();
        app.world_mut().resource_mut::<WakeWithin>().take()
    };
    app.world_mut().resource_mut::<Clocks>().left.as_mut().unwrap()[1] = 42.3;
    // 42.25 s left shows 43 until 42.0: a frame is asked for a quarter of a second on.
    let within = frame_after(&mut app, 50).expect("a running clock asks for a frame");
    assert!((black_left(&app) - 42.25).abs() < 1e-3, "{}", black_left(&app));
    assert!((within - 0.255).abs() < 0.01, "woken in {within} s");
    // A rest of three seconds is three seconds off the clock (not the game's quarter second).
    frame_after(&mut app, 3000);
    assert!((black_left(&app) - 39.25).abs() < 1e-3, "{}", black_left(&app));
    // A minute without a frame (a computer asleep) costs five seconds at most.
    frame_after(&mut app, 60_000);
    assert!((black_left(&app) - 34.25).abs() < 1e-3, "{}", black_left(&app));
}

fn settings_read_from(text: &str, name: &str) -> tabla::app::platform::settings::Settings {
    let home = common::test_home(name);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("settings.ron"), text).unwrap();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, StatesPlugin, AssetPlugin::default()))
        .init_asset::<Image>()
        .insert_resource(Launch { settings_dir: Some(home), ..default() })
        .add_plugins(core_plugin);
    app.update();
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Menu);
    app.world().resource::<tabla::app::platform::settings::Settings>().clone()
}

#[test]
fn settings_are_read_back_and_a_broken_file_gives_the_defaults() {
    let kept = settings_read_from("(language: El, sound: false)", "kept");
    assert_eq!(kept.language, tabla::i18n::Language::El);
    assert!(!kept.sound);
    let broken = settings_read_from("(language: Klingon, sound: maybe", "broken");
    assert!(broken.sound, "a broken file gives the default settings");
}

#[test]
fn a_second_game_of_the_same_kind_lays_out_its_own_pieces() {
    let mut app = app("one_knight", Opponent::Robot);
    settle(&mut app);
    check_screen_matches_rules(&mut app);
    // Back to the menu and into the same game again, with no move made in either.
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Menu);
    app.update();
    app.update();
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Playing);
    settle(&mut app);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Playing);
    check_screen_matches_rules(&mut app);
}

#[test]
fn the_command_line_opens_every_game_and_an_app_without_the_game_stays_on_the_menu() {
    let flags = |game: &str| vec![("game".to_string(), game.to_string())];
    let launch = Launch::from_flags(&flags("bunnies")).unwrap();
    assert_eq!(launch.start.map(|setup| setup.level.kind().code()), Some("bunnies"));
    assert!(Launch::from_flags(&flags("chess")).is_err());
    let nard = Launch::from_flags(&flags("nard")).unwrap();
    let level = nard.start.clone().expect("a level").level;
    let open = |plugin: fn(&mut App)| {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, StatesPlugin, AssetPlugin::default()))
            .init_asset::<Image>()
            .insert_resource(Launch { settings_dir: Some(common::test_home("nard")), ..nard.clone() })
            .add_plugins(plugin);
        for _ in 0..3 {
            app.update();
        }
        *app.world().resource::<State<Screen>>().get()
    };
    assert_eq!(open(core_plugin), Screen::Playing, "Crazy Nard opens on its board");
    // The game screen alone holds no game: it stays on the menu and says where to play instead.
    assert_eq!(open(tabla::app::game_screen_plugin), Screen::Menu);
    let refused = tabla::app::screens::no_screen_yet(&level);
    assert!(refused.contains("tabla text --level ron_configs/nard/"), "{refused}");
}

#[test]
fn the_command_line_gives_each_seat_its_player() {
    let flags = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    };
    let launch = Launch::from_flags(&flags(&[("game", "knight_hunt"), ("seats", "robot3,person")])).unwrap();
    let setup = launch.start.unwrap();
    assert_eq!(setup.controls(2), vec![Control::Robot(RobotLevel::Three), Control::Person]);
    // Halma's four seats, each its own player.
    let launch = Launch::from_flags(&flags(&[
        ("game", "halma"),
        ("variant", "four_one_army"),
        ("seats", "person,robot1,person,robot"),
        ("robot-level", "2"),
    ]))
    .unwrap();
    let robot = |n| Control::Robot(RobotLevel::from_number(n).unwrap());
    assert_eq!(launch.start.unwrap().controls(4), vec![Control::Person, robot(1), Control::Person, robot(2)]);
    // Without --seats, the person against the Robot as before, for any number of seats.
    let launch = Launch::from_flags(&flags(&[("game", "halma"), ("variant", "three_players")])).unwrap();
    assert_eq!(launch.start.unwrap().controls(3), vec![Control::Person, robot(1), robot(1)]);
    for wrong in ["person", "person,robot,robot", "person,robot7", "person,friend"] {
        let refused = Launch::from_flags(&flags(&[("game", "knight_hunt"), ("seats", wrong)]));
        assert!(refused.is_err(), "--seats {wrong} must be refused");
    }
}

#[test]
fn every_sound_is_made_audible_and_the_same_each_time() {
    use tabla::app::platform::sound::SoundCue;
    use tabla::app::platform::synth::RATE;
    for cue in SoundCue::ALL {
        let samples = cue.samples();
        assert!(samples.len() > RATE as usize / 20, "{cue:?}: {} samples", samples.len());
        assert!(samples.iter().all(|s| s.abs() <= 1.0), "{cue:?} stays in range");
        assert!(samples.iter().any(|s| s.abs() > 0.5), "{cue:?} is not silent");
        assert_eq!(samples, cue.samples(), "{cue:?} is the same sound each time");
        // The desktop's file: a mono 16-bit PCM WAV at the rate, its data every sample.
        let wav = cue.wav();
        assert_eq!((&wav[..4], &wav[8..16]), (&b"RIFF"[..], &b"WAVEfmt "[..]));
        assert_eq!(u16::from_le_bytes([wav[22], wav[23]]), 1, "mono");
        assert_eq!(u32::from_le_bytes(wav[24..28].try_into().unwrap()), RATE);
        assert_eq!(u16::from_le_bytes([wav[34], wav[35]]), 16, "16-bit");
        assert_eq!(wav.len(), 44 + 2 * samples.len());
    }
    assert_ne!(SoundCue::Move.samples(), SoundCue::Capture.samples());
}

#[test]
fn every_game_of_the_list_is_on_the_kit_with_its_pictures() {
    let app = app("one_knight", Opponent::Robot);
    let playable = app.world().resource::<tabla::app::course::catalog::PlayableGames>();
    let levels = app.world().resource::<tabla::app::course::catalog::Levels>();
    let menu: Vec<tabla::rules::GameKind> = playable.in_menu_order(levels).iter().map(|e| e.kind).collect();
    assert_eq!(menu, tabla::rules::GameKind::ALL.to_vec(), "the menu shows every game, in the list's order");
    for kind in tabla::rules::GameKind::ALL {
        let entry = playable.get(kind).unwrap();
        let level = levels.of(kind).next().unwrap();
        assert!(
            (entry.start)(&common::setup_of(level.clone()), 1).is_some(),
            "{kind}: its first level starts"
        );
        assert_ne!(
            entry.picture, entry.stage_picture,
            "{kind}: the menu and the map show different pictures"
        );
    }
}
