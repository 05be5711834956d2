//! Crazy Nard in the app without a window: whole games played through the messages a finger
//! produces (rolling, picking checkers, moving them by one or several numbers, taking moves back,
//! confirming a dice set), passed numbers and chain steps among them, the checkers on screen
//! mirroring the rules after every move, and Robots playing a match to its end.
use crate::common::{self, pieces_in_rules, pieces_shown};

use common::{command, press};

use bevy::prelude::*;
use tabla::app::board::celebrate::Confetti;
use tabla::app::board::input::BoardDrop;
use tabla::app::course::turn::{GameCommand, SetControls};
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::platform::art::Art;
use tabla::app::platform::settings::Words;
use tabla::app::session::feedback::{Notices, RoundOver};
use tabla::app::session::game::{Extra, GameInfo, GameView};
use tabla::app::session::play::{Play, Playing};
use tabla::app::session::play_of::PlayOf;
use tabla::app::{Control, MatchSetup, Opponent};
use tabla::chance::{SeededRng, rng};
use tabla::robot::RobotLevel;
use tabla::rules::board::Square;
use tabla::rules::nard::{Board, Event, Nard, NardAction, Phase, SetKind};
use tabla::rules::{Game, Seat};

fn setup(variant: &str, opponent: Opponent, person: Seat) -> MatchSetup {
    common::setup(&format!("nard/{variant}"), opponent, person, RobotLevel::One)
}

fn app(variant: &str, opponent: Opponent, person: Seat) -> App {
    common::headless(setup(variant, opponent, person), &format!("nard-{variant}"), 11, |_| {})
}

fn play(app: &App) -> &PlayOf<Nard> {
    app.world().resource::<Play>().of::<Nard>()
}

fn game(app: &App) -> Nard {
    play(app).game().clone()
}

fn settle(app: &mut App) {
    for _ in 0..40 {
        app.update();
    }
}

/// The checker entities are exactly the rules' checkers, on their points and in the trays.
fn check_screen_matches_rules(app: &mut App) {
    let expected = pieces_in_rules(&game(app));
    assert_eq!(pieces_shown(app), expected, "the checker entities mirror the rules");
}

/// What a seat's panel says.
fn panel(app: &App, seat: Seat) -> Vec<Extra> {
    app.world().resource::<ScoreBoard>().seats[seat.index()].extras.clone()
}

/// One move of the dice set in play, by taps: a movable checker, then one of the places it can
/// reach (with one number or several), as the board marks them. Returns how many numbers it used.
fn tap_a_move(app: &mut App, rng: &mut SeededRng) -> usize {
    use rand::Rng;
    let now = game(app);
    let movable: Vec<Square> = {
        let mut squares: Vec<Square> = GameView::pieces(&now).into_iter().map(|(s, _)| s).collect();
        squares.sort();
        squares.dedup();
        squares.into_iter().filter(|s| now.movable(*s)).collect()
    };
    assert!(!movable.is_empty(), "a set in play has a checker to move: {now:?}");
    let from = movable[rng.random_range(0..movable.len())];
    let paths = now.target_paths(from);
    let path = paths[rng.random_range(0..paths.len())].clone();
    press(app, from);
    let to = *path.last().expect("a route ends somewhere");
    if rng.random_bool(0.2) {
        // Dragged there instead.
        app.world_mut().write_message(BoardDrop { from, to: Some(to) });
        app.update();
    } else {
        press(app, to);
    }
    path.len()
}

#[test]
fn a_whole_one_point_game_by_taps_with_chains_passed_numbers_and_take_backs() {
    let mut app = app("one_point", Opponent::Friend, Seat::WHITE);
    let mut rng = rng(3);
    let (mut saw_chain, mut saw_passed, mut saw_route, mut took_back) = (false, false, false, false);
    for _ in 0..3000 {
        let now = game(&app);
        if now.outcome().is_some() {
            break;
        }
        saw_chain |= now.dice_set().is_some_and(|s| s.kind == SetKind::Chain);
        if !play(&app).drafting() && now.events().iter().any(|e| matches!(e, Event::NumbersPassed { .. })) {
            saw_passed = true;
            let receiver = now.dice_set().map(|s| s.player);
            assert!(
                now.passed().iter().all(|passer| Some(passer.opponent()) == receiver || receiver.is_none())
            );
        }
        if play(&app).draft_done() {
            // Once in a while a move is taken back and made again before the set is confirmed.
            if !took_back && rng_bool(&mut rng) {
                let before = game(&app);
                command(&mut app, GameCommand::Undo);
                assert!(play(&app).drafting() || play(&app).history().game() == &game(&app));
                assert_ne!(game(&app), before, "one move was taken back");
                settle(&mut app);
                check_screen_matches_rules(&mut app);
                took_back = true;
                continue;
            }
            let moves = play(&app).moves_played();
            command(&mut app, GameCommand::Confirm);
            assert!(!play(&app).drafting(), "confirmed");
            assert!(play(&app).moves_played() > moves, "the set's moves are in the history");
        } else if now.chance().is_some() {
            let moves = play(&app).moves_played();
            command(&mut app, GameCommand::Roll);
            assert_eq!(play(&app).moves_played(), moves + 1, "the dice were rolled");
        } else if now.dice_set().is_some() {
            let before = play(&app).history().game().clone();
            saw_route |= tap_a_move(&mut app, &mut rng) > 1;
            assert_eq!(play(&app).history().game(), &before, "a draft waits for its confirmation");
        } else {
            panic!("nothing to do in {now:?}");
        }
        settle(&mut app);
        check_screen_matches_rules(&mut app);
    }
    let end = game(&app);
    assert!(end.outcome().is_some(), "the game ended");
    assert!(
        saw_chain && saw_passed && saw_route && took_back,
        "{saw_chain} {saw_passed} {saw_route} {took_back}"
    );
    let board = app.world().resource::<ScoreBoard>().clone();
    assert!(board.result.is_some(), "the match's result shows");
}

fn rng_bool(rng: &mut SeededRng) -> bool {
    use rand::Rng;
    rng.random_bool(0.3)
}

/// The opening: one die each, White's first; who starts plays both.
#[test]
fn the_opening_is_one_die_each_and_the_higher_plays_both() {
    let mut app = app("one_point", Opponent::Friend, Seat::WHITE);
    assert_eq!(GameInfo::actor(&game(&app)), Some(Seat::WHITE), "White's die is due first");
    command(&mut app, GameCommand::Roll);
    loop {
        let now = game(&app);
        if now.dice_set().is_some() {
            break;
        }
        assert_eq!(
            GameInfo::actor(&now),
            Some(if now.opening_white_die().is_some() { Seat::BLACK } else { Seat::WHITE })
        );
        command(&mut app, GameCommand::Roll);
    }
    let set = game(&app).dice_set().cloned().expect("the opening pair is in play");
    assert_eq!(set.kind, SetKind::Roll);
    assert_eq!(set.dealt.len(), 2);
    settle(&mut app);
    assert!(panel(&app, set.player).iter().any(|e| matches!(e, Extra::Dice(d) if d.len() == 2)));
}

/// The big message over the board, in words.
fn big_notice(app: &App) -> String {
    let notice = app.world().resource::<Notices>().0.clone().expect("a message over the board");
    assert!(notice.big && notice.ready, "a big message: {notice:?}");
    notice.key
}

/// An opening tie: both dice stay on their sides and in their panels, the screen says so, and both
/// roll again; then it says who starts and with which numbers.
#[test]
fn an_opening_tie_is_shown_and_told_and_then_who_starts() {
    let mut app = app("one_point", Opponent::Friend, Seat::WHITE);
    let setup = app.world().resource::<MatchSetup>().clone();
    let start = game(&app);
    let ties = |play: &PlayOf<Nard>| play.game().events().iter().any(|e| matches!(e, Event::OpeningTie(_)));
    let seed = (0..200)
        .find(|&seed| {
            let mut play = PlayOf::new(start.clone(), &setup, seed);
            play.roll() && play.roll() && ties(&play)
        })
        .expect("an opening tie within 200 seeds");
    app.world_mut().insert_resource(Play::from(PlayOf::new(start, &setup, seed)));
    settle(&mut app);
    command(&mut app, GameCommand::Roll);
    let white = game(&app).opening_white_die().expect("White's die is rolled");
    assert!(
        panel(&app, Seat::WHITE).contains(&Extra::Dice(vec![(white, false)])),
        "White's die in its panel"
    );
    command(&mut app, GameCommand::Roll);
    let words = app.world().resource::<Words>().0.clone();
    assert_eq!(big_notice(&app), words.fill("nard_opening_tie", &[("n", &white.to_string())]));
    let tied = game(&app);
    assert_eq!(GameInfo::actor(&tied), Some(Seat::WHITE), "both roll again, White first");
    let dice: Vec<Art> = tied.pictures().iter().map(|d| d.art).filter(|a| matches!(a, Art::Die(_))).collect();
    assert_eq!(dice, vec![Art::Die(white), Art::Die(white)], "both tied dice stay on the board");
    for seat in [Seat::WHITE, Seat::BLACK] {
        assert!(
            panel(&app, seat).contains(&Extra::Dice(vec![(white, false)])),
            "{seat:?}'s panel shows its die"
        );
    }
    // Rolled again until one side is higher.
    while game(&app).dice_set().is_none() {
        command(&mut app, GameCommand::Roll);
    }
    let set = game(&app).dice_set().cloned().expect("the opening pair");
    let colour = |seat: Seat| words.get(if seat == Seat::WHITE { "white" } else { "black" }).to_string();
    let (w, b) = if set.player == Seat::WHITE {
        (set.dealt.as_slice()[0], set.dealt.as_slice()[1])
    } else {
        (set.dealt.as_slice()[1], set.dealt.as_slice()[0])
    };
    assert!(w != b && (w > b) == (set.player == Seat::WHITE), "the higher die starts");
    let expected = words.fill(
        "nard_starts",
        &[("name", &colour(set.player)), ("white", &w.to_string()), ("black", &b.to_string())],
    );
    assert_eq!(big_notice(&app), expected);
}

/// A roll none of whose numbers can be played passes them all to the other side, and says so.
#[test]
fn a_roll_whose_numbers_all_pass_says_so() {
    let mut app = app("one_point", Opponent::Friend, Seat::WHITE);
    // Black holds White's 23 to 19: White's head can move only with a six.
    let blocks = [(24, 5), (11, 2), (10, 2), (9, 2), (8, 2), (7, 2)];
    let board = Board::from_points(&[(24, 15)], &blocks).unwrap();
    let start = Nard::from_position(&Setup::standard(1), board, Seat::WHITE);
    let setup = app.world().resource::<MatchSetup>().clone();
    let seed = (0..200)
        .find(|&seed| {
            let mut play = PlayOf::new(start.clone(), &setup, seed);
            play.roll() && play.game().passed() == vec![Seat::WHITE]
        })
        .expect("a roll with no six within 200 seeds");
    app.world_mut().insert_resource(Play::from(PlayOf::new(start, &setup, seed)));
    settle(&mut app);
    command(&mut app, GameCommand::Roll);
    let notice = app.world().resource::<Notices>().0.clone().expect("a message");
    assert_eq!((notice.key.as_str(), notice.seat), ("passes_nard", Some(Seat::WHITE)));
    let set = game(&app).dice_set().cloned().expect("the numbers passed");
    assert_eq!((set.player, set.kind), (Seat::BLACK, SetKind::Passed));
}

/// A checker that cannot move says why; a legal one lights its targets.
#[test]
fn a_tap_on_a_checker_that_cannot_move_says_why() {
    let mut app = app("one_point", Opponent::Friend, Seat::WHITE);
    let board = Board::from_points(&[(5, 14), (10, 1)], &[(24, 15)]).unwrap();
    let mut start = Nard::from_position(&Setup::standard(1), board, Seat::WHITE);
    start.apply(&NardAction::roll(2, 1)).unwrap();
    let setup = app.world().resource::<MatchSetup>().clone();
    app.world_mut().insert_resource(Play::from(PlayOf::new(start, &setup, 1)));
    settle(&mut app);
    // White's 5 is the bottom row's eighth place (h1).
    let five = Square::new(7, 0);
    press(&mut app, five);
    let notice = app.world().resource::<Notices>().0.clone().expect("a notice");
    assert_eq!(notice.key, "nard_stuck_home_frozen");
    let ten = Square::new(2, 0);
    press(&mut app, ten);
    assert_eq!(app.world().resource::<tabla::app::session::feedback::Selection>().0, Some(ten));
}

use tabla::rules::nard::Setup;

/// Against the Robot: undo goes back to the start of the person's last dice set.
#[test]
fn against_the_robot_undo_goes_back_to_the_start_of_the_persons_last_set() {
    let mut app = app("one_point", Opponent::Robot, Seat::WHITE);
    let mut rng = rng(9);
    let mut sets_played = 0;
    for _ in 0..600 {
        let now = game(&app);
        if play(&app).person_to_move().is_none() {
            app.update();
            continue;
        }
        if play(&app).draft_done() {
            command(&mut app, GameCommand::Confirm);
            sets_played += 1;
            if sets_played == 3 {
                break;
            }
        } else if now.chance().is_some() {
            command(&mut app, GameCommand::Roll);
        } else if now.double_offered_by().is_some() {
            command(&mut app, GameCommand::Choose(0));
        } else {
            tap_a_move(&mut app, &mut rng);
        }
        settle(&mut app);
    }
    assert_eq!(sets_played, 3);
    // Wait for the Robot to be done, then take back.
    for _ in 0..400 {
        if play(&app).person_to_move().is_some() {
            break;
        }
        app.update();
    }
    command(&mut app, GameCommand::Undo);
    settle(&mut app);
    let now = game(&app);
    let set = now.dice_set().expect("a dice set in play");
    assert_eq!(set.player, Seat::WHITE, "the person's set");
    assert!(set.moves.is_empty(), "at its start: {now:?}");
    check_screen_matches_rules(&mut app);
}

/// Two Robots play a three-point match to its end in the app, the panel between games not
/// holding them up, the board mirroring the rules at the end, and confetti for the match (not
/// for a game of it).
#[test]
fn two_robots_play_a_match_to_its_end() {
    let mut app = app("three_points", Opponent::Robot, Seat::WHITE);
    app.world_mut().write_message(SetControls(vec![Control::Robot(RobotLevel::One); 2]));
    let mut frames = 0;
    let mut rounds = 0u32;
    while game(&app).outcome().is_none() {
        app.update();
        if app.world().resource::<RoundOver>().0.is_some() {
            rounds += 1;
            assert_eq!(confetti(&mut app), 0, "no confetti for a game of the match");
            command(&mut app, GameCommand::NextRound);
        }
        frames += 1;
        assert!(frames < 60_000, "the Robots stood still at {:?}", game(&app));
    }
    settle(&mut app);
    check_screen_matches_rules(&mut app);
    let end = game(&app);
    assert!(Game::outcome(&end).is_some());
    assert!(matches!(end.phase(), Phase::MatchOver));
    assert_eq!(rounds, end.game_number() - 1, "a panel after every game but the last");
    assert!(app.world().resource::<ScoreBoard>().result.is_some());
    assert!(confetti(&mut app) > 20, "the match's winner gets a shower of confetti");
}

fn confetti(app: &mut App) -> usize {
    app.world_mut().query::<&Confetti>().iter(app.world()).count()
}

/// A tap while the Robot plays its checkers one by one makes it hurry through the rest of its
/// turn; once it is the person's turn again, it takes its time again.
#[test]
fn a_tap_while_the_robot_plays_makes_it_hurry() {
    use tabla::app::course::robot_turn::{Hurry, RobotPace};
    let mut app = app("one_point", Opponent::Robot, Seat::WHITE);
    // The Robot's own pauses, its thinking counted in slices as in every test.
    app.insert_resource(RobotPace { budget: crate::common::TEST_PACE.budget, ..RobotPace::default() });
    for _ in 0..400 {
        if play(&app).robot_to_move().is_some() && game(&app).dice_set().is_some() {
            break;
        }
        if play(&app).person_to_move().is_some() {
            if play(&app).draft_done() {
                command(&mut app, GameCommand::Confirm);
            } else if game(&app).chance().is_some() {
                command(&mut app, GameCommand::Roll);
            } else {
                tap_a_move(&mut app, &mut rng(1));
            }
        }
        app.update();
    }
    assert!(play(&app).robot_to_move().is_some(), "the Robot is playing a dice set");
    assert!(!app.world().resource::<Hurry>().0);
    press(&mut app, Square::new(0, 0));
    assert!(app.world().resource::<Hurry>().0, "the tap asked the Robot to hurry");
    for _ in 0..2000 {
        if play(&app).person_to_move().is_some() {
            break;
        }
        app.update();
    }
    app.update();
    assert!(!app.world().resource::<Hurry>().0, "the person's turn: no more hurry");
}

#[test]
fn a_move_from_one_row_to_the_other_is_drawn_round_the_boards_end() {
    let nard = game(&app("one_point", Opponent::Friend, Seat::WHITE));
    // White goes from its 15 (top, third from the left) round the left end to its 10.
    let (top_left, bottom_left) = (Square::new(0, 1), Square::new(0, 0));
    assert_eq!(nard.corners_between(Square::new(2, 1), Square::new(2, 0)), vec![top_left, bottom_left]);
    // From the corner itself, only the turn down is left.
    assert_eq!(nard.corners_between(top_left, Square::new(3, 0)), vec![bottom_left]);
    // Black goes round the right end, from White's 3 up to White's 22.
    let (bottom_right, top_right) = (Square::new(11, 0), Square::new(11, 1));
    assert_eq!(nard.corners_between(Square::new(9, 0), Square::new(9, 1)), vec![bottom_right, top_right]);
    // Along a row, or off the board to a tray, the arrow is straight.
    assert!(nard.corners_between(Square::new(2, 1), Square::new(7, 1)).is_empty());
    assert!(nard.corners_between(Square::new(11, 0), Square::new(12, 0)).is_empty());
}
