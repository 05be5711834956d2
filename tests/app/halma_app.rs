//! Halma in the app without a window: whole games played through the messages a finger produces
//! (pick, preview, extend a chain, cancel, confirm), taps on a small board taken for the place
//! they meant or zooming in, hints, draw offers and votes, and four Robots playing to the end.
use crate::common::{self, pieces_in_rules, pieces_shown};

use common::{command, press};

use bevy::prelude::*;
use tabla::app::board::input::{BoardDrop, BoardTap};
use tabla::app::board::view::{BoardView, Mark};
use tabla::app::course::turn::{GameCommand, SetControls};
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::platform::settings::Words;
use tabla::app::session::feedback::{Preview, Selection};
use tabla::app::session::game::{Extra, GameView};
use tabla::app::session::play::{Play, Playing};
use tabla::app::session::play_of::PlayOf;
use tabla::app::{Control, MatchSetup, Opponent};
use tabla::robot::{RobotLevel, RobotPlayer};
use tabla::rules::board::{BoardShape, Square};
use tabla::rules::halma::{Halma, HalmaAction};
use tabla::rules::{EndReason, Game, Seat, Winner};

fn setup(variant: &str, seats: Vec<Control>) -> MatchSetup {
    let mut setup = common::setup(&format!("halma/{variant}"), Opponent::Friend, Seat(0), RobotLevel::One);
    setup.opponent =
        if seats.iter().any(|c| *c != Control::Person) { Opponent::Robot } else { Opponent::Friend };
    setup.seats = seats;
    setup
}

fn app(variant: &str, seats: Vec<Control>) -> App {
    common::headless(setup(variant, seats), "halma", 5, |_| {})
}

fn friends(variant: &str, seats: usize) -> App {
    app(variant, vec![Control::Person; seats])
}

fn game(app: &App) -> Halma {
    app.world().resource::<Play>().of::<Halma>().game().clone()
}

fn preview(app: &App) -> Vec<Square> {
    app.world().resource::<Preview>().0.clone()
}

fn selection(app: &App) -> Option<Square> {
    app.world().resource::<Selection>().0
}

fn settle(app: &mut App) {
    for _ in 0..60 {
        app.update();
    }
}

fn marks(app: &mut App) -> usize {
    let mut query = app.world_mut().query_filtered::<(), With<Mark>>();
    query.iter(app.world()).count()
}

/// The board's piece entities are exactly the rules' pieces, and each panel shows its seat's
/// pieces in the goal and whose turn it is.
fn check_screen_matches_rules(app: &mut App) {
    let game = game(app);
    assert_eq!(pieces_shown(app), pieces_in_rules(&game), "the piece entities mirror the rules");
    let board = app.world().resource::<ScoreBoard>().clone();
    for seat in game.seats() {
        let panel = &board.seats[seat.index()];
        let total = game.pieces(seat).count();
        let in_goal = format!("{} / {total}", game.in_goal(seat));
        assert!(
            panel.extras.contains(&Extra::Text(in_goal)),
            "the panel shows the pieces home: {:?}",
            panel.extras
        );
        assert_eq!(panel.to_move, game.to_move() == Some(seat));
    }
    assert_eq!(board.result.is_some(), game.outcome().is_some());
}

/// The move a level-2 Robot would play, to give the test's fingers something sensible to do.
fn robot_move(game: &Halma, seed: u64) -> HalmaAction {
    let mut thinker = game.thinker(RobotLevel::Two, seed);
    loop {
        if let Some(action) = thinker.step(1000) {
            return action;
        }
    }
}

/// Plays `from`→`to` by taps the way a child would: pick the piece, tap the first landing, tap
/// each further landing of the chain, then confirm (by the button or by tapping the end again).
fn play_by_taps(app: &mut App, from: Square, to: Square, by_button: bool) {
    let path = game(app).path(from, to).expect("a legal move has a path");
    press(app, from);
    assert_eq!(selection(app), Some(from), "the piece is picked");
    assert!(marks(app) > path.len(), "its targets are lit");
    let first_stops = game(app).reach(from).iter().any(|(to, _)| *to == path[0]);
    if first_stops {
        press(app, path[0]);
        assert_eq!(preview(app), vec![path[0]], "the first landing is previewed");
        for (i, &landing) in path.iter().enumerate().skip(1) {
            assert!(GameView::further(&game(app), from, &path[..i]).contains(&landing));
            press(app, landing);
            assert_eq!(preview(app), path[..=i].to_vec(), "the chain grows hop by hop");
        }
    } else {
        // A chain through the piece's own camp, which it must clear, cannot stop at its first
        // landing: that is no target. A tap on the destination shows the whole path at once.
        press(app, to);
        assert_eq!(preview(app), path, "the destination's whole path is previewed");
    }
    let moves_before = app.world().resource::<Play>().of::<Halma>().moves_played();
    if by_button {
        command(app, GameCommand::Confirm);
    } else {
        press(app, to);
    }
    assert_eq!(
        app.world().resource::<Play>().of::<Halma>().moves_played(),
        moves_before + 1,
        "confirmed and played"
    );
    assert!(preview(app).is_empty() && selection(app).is_none());
}

#[test]
fn a_whole_two_player_game_by_taps_with_previews_cancels_and_confirms() {
    let mut app = friends("two_players", 2);
    check_screen_matches_rules(&mut app);
    let mut chains = 0;
    for turn in 0..600u64 {
        let before = game(&app);
        if before.outcome().is_some() {
            break;
        }
        let HalmaAction::Move { from, to } = robot_move(&before, turn) else { panic!("the Robot moves") };
        if turn % 7 == 3 {
            // Preview, then Cancel: nothing is played, the piece stays picked; Cancel again lets go.
            press(&mut app, from);
            press(&mut app, to);
            assert_eq!(preview(&app), before.path(from, to).unwrap());
            command(&mut app, GameCommand::Deselect);
            assert!(preview(&app).is_empty());
            assert_eq!(selection(&app), Some(from));
            command(&mut app, GameCommand::Deselect);
            assert_eq!(selection(&app), None);
            assert_eq!(game(&app), before, "a cancelled preview plays nothing");
        }
        if turn % 11 == 5 {
            // A drag onto a target previews it too.
            app.world_mut().write_message(BoardDrop { from, to: Some(to) });
            app.update();
            assert_eq!(preview(&app), before.path(from, to).unwrap());
            command(&mut app, GameCommand::Confirm);
        } else {
            play_by_taps(&mut app, from, to, turn % 2 == 0);
        }
        chains += usize::from(before.path(from, to).unwrap().len() > 1);
        let mut expected = before.clone();
        expected.play(&HalmaAction::Move { from, to });
        assert_eq!(game(&app), expected, "the move the fingers made is the one played");
        settle(&mut app);
        check_screen_matches_rules(&mut app);
    }
    let end = game(&app);
    assert!(
        matches!(end.outcome().map(|o| o.winner), Some(Winner::Seat(_))),
        "the game ends with a winner: {:?}",
        end.outcome()
    );
    assert!(chains > 10, "chains of several hops were played: {chains}");
    let board = app.world().resource::<ScoreBoard>().clone();
    assert!(board.result.is_some());
}

#[test]
fn a_tap_on_a_small_board_takes_the_one_place_near_it_or_zooms_in() {
    let mut app = friends("two_players", 2);
    let game = game(&app);
    let local = |app: &App, square: Square| {
        app.world().resource::<tabla::app::board::view::BoardLayout>().local(square)
    };
    // a1's camp is packed: a tap on b2 with 20 px squares is near several movable pieces.
    let b2 = Square::new(1, 1);
    let at = local(&app, b2);
    app.world_mut().write_message(BoardTap {
        square: b2,
        pointer: Vec2::new(100.0, 500.0),
        local: at,
        pitch: 20.0,
    });
    app.update();
    assert_eq!(selection(&app), None, "no guess between close pieces");
    assert!(app.world().resource::<BoardView>().zoom > 1.0, "the view comes closer instead");
    // Squares a finger wide: the tap means the square it touched.
    app.world_mut().write_message(BoardTap {
        square: b2,
        pointer: Vec2::new(100.0, 500.0),
        local: at,
        pitch: 50.0,
    });
    app.update();
    assert_eq!(selection(&app), Some(b2));
    // The only movable piece near the tap: the front piece e1 seen from an empty square beside it.
    command(&mut app, GameCommand::Deselect);
    let e1 = Square::new(4, 0);
    assert!(GameView::movable(&game, e1));
    let f1 = Square::new(5, 0);
    let between = local(&app, e1) * 0.3 + local(&app, f1) * 0.7;
    app.world_mut().write_message(BoardTap {
        square: f1,
        pointer: Vec2::new(0.0, 0.0),
        local: between,
        pitch: 20.0,
    });
    app.update();
    assert_eq!(selection(&app), Some(e1), "the tap beside the piece takes it");
}

#[test]
fn a_hint_is_a_preview_to_confirm() {
    let mut app = app("two_players", vec![Control::Person, Control::Robot(RobotLevel::One)]);
    command(&mut app, GameCommand::Hint);
    let from = selection(&app).expect("the hint picks a piece");
    let path = preview(&app);
    let to = *path.last().expect("and previews its path");
    assert_eq!(game(&app).path(from, to), Some(path), "the previewed path is the rules' one");
    assert_eq!(app.world().resource::<Play>().of::<Halma>().moves_played(), 0, "a hint plays nothing");
    command(&mut app, GameCommand::Confirm);
    let first = app.world().resource::<Play>().of::<Halma>().history().steps()[1].action;
    assert_eq!(first, Some(HalmaAction::Move { from, to }), "confirming plays it");
}

#[test]
fn a_draw_offer_is_voted_and_a_refusal_hands_the_turn_back() {
    let mut app = friends("three_players", 3);
    let words = |app: &App, key: &str| app.world().resource::<Words>().get(key).to_string();
    let board = app.world().resource::<ScoreBoard>().clone();
    assert_eq!(board.choices, vec![words(&app, "offer_draw")]);
    assert_eq!(board.question, None);
    command(&mut app, GameCommand::Choose(0));
    assert!(game(&app).vote().is_some());
    let board = app.world().resource::<ScoreBoard>().clone();
    assert!(board.question.is_some(), "the next seat is asked");
    assert_eq!(board.choices, vec![words(&app, "draw_yes"), words(&app, "draw_no")]);
    command(&mut app, GameCommand::Choose(0));
    command(&mut app, GameCommand::Choose(1));
    assert_eq!(game(&app).vote(), None);
    assert_eq!(game(&app).to_move(), Some(Seat(0)), "the refusal hands the turn back");
    assert!(app.world().resource::<ScoreBoard>().big_notice.is_some(), "the refusal is told");
    assert!(app.world().resource::<ScoreBoard>().choices.is_empty(), "one offer per turn");
    // The next seat offers and both others accept: a draw by agreement.
    let HalmaAction::Move { from, to } = robot_move(&game(&app), 1) else { panic!() };
    play_by_taps(&mut app, from, to, true);
    command(&mut app, GameCommand::Choose(0));
    command(&mut app, GameCommand::Choose(0));
    command(&mut app, GameCommand::Choose(0));
    let outcome = game(&app).outcome().expect("the game ends");
    assert_eq!((outcome.winner, outcome.reason), (Winner::Draw, EndReason::Agreement));
    let result = app.world().resource::<ScoreBoard>().result.clone().expect("the result shows");
    assert_eq!(result.reason, words(&app, "reason_agreement_halma"));
}

#[test]
fn the_third_repetition_ends_the_game_as_a_draw_with_a_message() {
    let mut app = friends("two_players", 2);
    let (a, b) = (Square::new(4, 0), Square::new(5, 0));
    let (c, d) = (Square::new(11, 15), Square::new(10, 15));
    for _ in 0..2 {
        for (from, to) in [(a, b), (c, d), (b, a), (d, c)] {
            play_by_taps(&mut app, from, to, true);
        }
    }
    let outcome = game(&app).outcome().expect("the position came back a third time");
    assert_eq!((outcome.winner, outcome.reason), (Winner::Draw, EndReason::Repetition));
    let words = app.world().resource::<Words>().get("reason_repetition_halma").to_string();
    assert_eq!(app.world().resource::<ScoreBoard>().result.clone().unwrap().reason, words);
}

#[test]
fn new_game_passes_the_first_turn_on_and_restart_keeps_it() {
    let mut app = friends("four_one_army", 4);
    assert_eq!(game(&app).to_move(), Some(Seat(0)));
    command(&mut app, GameCommand::NewGame);
    assert_eq!(game(&app).to_move(), Some(Seat(1)), "New game: the next seat starts");
    let HalmaAction::Move { from, to } = robot_move(&game(&app), 3) else { panic!() };
    play_by_taps(&mut app, from, to, true);
    // A game with a move asks before it is thrown away; keeping on playing changes nothing.
    command(&mut app, GameCommand::Restart);
    assert_eq!(app.world().resource::<Play>().of::<Halma>().moves_played(), 1, "nothing is lost by one tap");
    assert!(app.world().resource::<ScoreBoard>().asking.is_some(), "Restart asks first");
    command(&mut app, GameCommand::KeepPlaying);
    assert!(app.world().resource::<ScoreBoard>().asking.is_none());
    assert_eq!(app.world().resource::<Play>().of::<Halma>().moves_played(), 1);
    command(&mut app, GameCommand::Restart);
    command(&mut app, GameCommand::StartAgain);
    assert_eq!(app.world().resource::<Play>().of::<Halma>().moves_played(), 0);
    assert_eq!(game(&app).to_move(), Some(Seat(1)), "Restart: the same first seat");
    settle(&mut app);
    check_screen_matches_rules(&mut app);
}

#[test]
fn against_the_robots_undo_takes_back_their_replies_too() {
    let mut app = app(
        "three_players",
        vec![Control::Robot(RobotLevel::One), Control::Person, Control::Robot(RobotLevel::One)],
    );
    // The person's camp (p1) is at the bottom already; the Robot at a1 opens.
    while game(&app).to_move() != Some(Seat(1)) {
        app.update();
    }
    let start = game(&app);
    let HalmaAction::Move { from, to } = robot_move(&start, 9) else { panic!() };
    play_by_taps(&mut app, from, to, true);
    for _ in 0..400 {
        app.update();
        if game(&app).to_move() == Some(Seat(1)) {
            break;
        }
    }
    assert_eq!(app.world().resource::<Play>().of::<Halma>().moves_played(), 4, "both Robots answered");
    command(&mut app, GameCommand::Undo);
    assert_eq!(game(&app), start, "back to before the person's move");
}

#[test]
fn the_persons_camp_starts_at_the_bottom() {
    for (person, flipped) in [(0, false), (1, true)] {
        let mut seats = vec![Control::Robot(RobotLevel::One); 2];
        seats[person] = Control::Person;
        let app = app("two_players", seats);
        assert_eq!(app.world().resource::<tabla::app::board::view::BoardLayout>().flipped, flipped);
    }
}

#[test]
fn four_robots_play_a_game_to_the_end_and_the_board_mirrors_the_rules() {
    let mut app = app("four_both_armies", vec![Control::Robot(RobotLevel::Two); 4]);
    let mut frames = 0;
    let mut checked = 0;
    loop {
        app.update();
        frames += 1;
        let at_rest = {
            let mut glides = app.world_mut().query_filtered::<(), With<tabla::app::board::animate::Glide>>();
            glides.iter(app.world()).next().is_none()
        };
        if at_rest && frames % 5 == 0 {
            check_screen_matches_rules(&mut app);
            checked += 1;
        }
        if at_rest && game(&app).outcome().is_some() {
            break;
        }
        assert!(frames < 60_000, "the Robots finish their game");
    }
    assert!(checked > 50);
    let outcome = game(&app).outcome().unwrap();
    assert!(matches!(outcome.winner, Winner::Team(_) | Winner::Draw), "{outcome:?}");
    // People take the seats back; the board is theirs again.
    app.world_mut().write_message(SetControls(vec![Control::Person; 4]));
    command(&mut app, GameCommand::NewGame);
    settle(&mut app);
    check_screen_matches_rules(&mut app);
}

#[test]
fn by_keys_a_piece_is_picked_its_move_previewed_confirmed_and_a_preview_dropped() {
    let mut app = friends("two_players", 2);
    let cursor_to = |app: &mut App, square: Square| {
        // The first arrow shows the cursor mid-board; then it walks there (a1's camp is below-left).
        common::press_key(app, KeyCode::ArrowUp);
        loop {
            let at = app.world().resource::<tabla::app::board::view::KeyCursor>().0.unwrap();
            let key = if at.file > square.file {
                KeyCode::ArrowLeft
            } else if at.file < square.file {
                KeyCode::ArrowRight
            } else if at.rank > square.rank {
                KeyCode::ArrowDown
            } else if at.rank < square.rank {
                KeyCode::ArrowUp
            } else {
                break;
            };
            common::press_key(app, key);
        }
    };
    let (e1, f1) = (Square::new(4, 0), Square::new(5, 0));
    cursor_to(&mut app, e1);
    common::press_key(&mut app, KeyCode::Enter);
    assert_eq!(selection(&app), Some(e1));
    cursor_to(&mut app, f1);
    common::press_key(&mut app, KeyCode::Enter);
    assert_eq!(preview(&app), vec![f1], "Enter on a target previews it");
    common::press_key(&mut app, KeyCode::Escape);
    assert!(preview(&app).is_empty(), "Esc drops the preview");
    assert_eq!(selection(&app), Some(e1), "and keeps the piece");
    common::press_key(&mut app, KeyCode::Enter);
    assert_eq!(preview(&app), vec![f1]);
    common::press_key(&mut app, KeyCode::Enter);
    assert_eq!(game(&app).last_move(), Some((e1, f1)), "Enter on the preview's end plays it");
}

/// Once every piece must leave home: a tap on a piece the rule holds back says why, and the move
/// that brings the rule in says so to everyone when pieces are still at home.
#[test]
fn a_tap_on_a_piece_held_back_by_clearing_the_camp_says_why() {
    use tabla::app::session::feedback::Notices;
    let mut app = friends("two_players", 2);
    let setup = app.world().resource::<MatchSetup>().clone();
    let rules = game(&app).setup().clone();
    let square = |name: &str| BoardShape::HALMA.parse(name).unwrap();
    let place = |names: &[&str]| names.iter().map(|n| square(n)).collect::<Vec<_>>();
    let notice = |app: &App| app.world().resource::<Notices>().0.clone().map(|n| n.key);
    let after = rules.clear_camp_after;
    // Red's pieces on `red`, Blue's one on p16, Red to move having made `moves` moves.
    let start_at = |app: &mut App, red: &[&str], moves: u32| {
        let start =
            Halma::from_position_with_moves(&rules, &[place(red), place(&["p16"])], Seat(0), &[moves, 0]);
        app.world_mut().insert_resource(Play::from(PlayOf::new(start, &setup, 5)));
        settle(app);
    };
    // a1 can only step or hop back into its camp.
    start_at(&mut app, &["a1", "f2"], after);
    press(&mut app, square("a1"));
    assert_eq!(notice(&app).as_deref(), Some("halma_would_end_at_home"));
    // h8 is outside the camp and may not move while e1 can leave it.
    start_at(&mut app, &["e1", "h8"], after);
    press(&mut app, square("h8"));
    assert_eq!(notice(&app).as_deref(), Some("halma_others_must_leave"));
    assert!(game(&app).targets(square("e1")).iter().all(|to| !game(&app).camp(Seat(0)).contains(to)));
    // The seat's last free move: the rule comes in with it, and e1 is still at home.
    start_at(&mut app, &["e1", "h8"], after - 1);
    play_by_taps(&mut app, square("h8"), square("h9"), true);
    let words = app.world().resource::<Words>();
    let expected = words.fill("halma_leave_home_now", &[("name", words.get("halma_red"))]);
    assert_eq!(notice(&app), Some(expected));
}

/// Zooming in and turning the board a quarter while a path is previewed changes the view only:
/// the same path stays previewed, nothing is played, and Confirm then plays it.
#[test]
fn zoom_and_a_quarter_turn_keep_a_previewed_path_and_the_game() {
    use tabla::app::board::view::{BoardLayout, ViewCommand};
    let mut app = friends("two_players", 2);
    let from = Square::new(4, 0);
    let to = Square::new(5, 1);
    assert!(game(&app).path(from, to).is_some(), "a step out of the camp");
    press(&mut app, from);
    press(&mut app, to);
    let (shown, before) = (preview(&app), game(&app));
    assert_eq!(shown, vec![to]);
    app.world_mut().write_message(ViewCommand::Zoom { factor: 2.0, around: None });
    app.world_mut().write_message(ViewCommand::Turn);
    settle(&mut app);
    assert_eq!(app.world().resource::<BoardLayout>().turns, 1, "the view turned");
    assert_eq!((preview(&app), selection(&app)), (shown, Some(from)), "the preview stays");
    assert_eq!(game(&app), before, "nothing was played");
    command(&mut app, GameCommand::Confirm);
    assert_eq!(game(&app).last_move(), Some((from, to)));
}
