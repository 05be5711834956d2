//! The tutor ("Warn me before a slip") without a window: a person's slip is held and asked about,
//! with the coach's two arrows and its reason; "think again" takes it back, "play it" plays it
//! as any move; a good move is played without a question; with the tutor off nothing is asked.
use crate::common;
use crate::shared::sq;

use common::{command, press};

use bevy::prelude::*;
use tabla::app::Opponent;
use tabla::app::course::turn::GameCommand;
use tabla::app::course::tutor::Tutoring;
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::platform::settings::{Settings, Words};
use tabla::app::session::feedback::CoachArrows;
use tabla::app::session::feedback::{AskFirst, Question, Selection};
use tabla::app::session::play::Play;
use tabla::robot::RobotLevel;
use tabla::rules::Seat;
use tabla::rules::board::Square;

/// Knight Hunt with captures between two friends, after g1-f3 g8-f6, the tutor `on`: the white
/// knight on f3 can catch the pawn on d4.
fn app(on: bool) -> App {
    let setup =
        common::setup("knight_hunt/two_knights_capture", Opponent::Friend, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, &format!("tutor-{on}"), 5, |_| {});
    // No child plays: the device's own switch.
    app.world_mut().resource_mut::<Settings>().reading.tutor = Some(on);
    app.update();
    for (played, (from, to)) in [("g1", "f3"), ("g8", "f6")].into_iter().enumerate() {
        press(&mut app, sq(from));
        press(&mut app, sq(to));
        common::until(&mut app, |app| moves(app) == played + 1 || warned(app));
    }
    assert_eq!(moves(&app), 2, "g1f3 and g8f6 are good moves, played without a question");
    app
}

fn moves(app: &App) -> usize {
    app.world().resource::<Play>().moves_played()
}

fn warned(app: &App) -> bool {
    matches!(app.world().resource::<AskFirst>().0, Some(Question::Warned { .. }))
}

/// Taps the knight on f3 and e1 (away from the pawn it can catch), and waits for the question.
fn slip(app: &mut App) {
    press(app, sq("f3"));
    press(app, sq("e1"));
    assert_eq!(moves(app), 2, "the move is held while the tutor looks");
    common::until(app, warned);
    assert!(app.world().resource::<Tutoring>().busy(), "the move is held while the tutor asks");
}

#[test]
fn a_slip_is_asked_about_with_the_coachs_arrows_and_its_reason() {
    let mut app = app(true);
    slip(&mut app);
    assert_eq!(moves(&app), 2, "nothing is played while the tutor asks");
    let arrows = app.world().resource::<CoachArrows>().clone();
    assert_eq!(arrows.played.first().map(|(from, _)| *from), Some(sq("f3")), "the slip's dashed line");
    assert_eq!(
        arrows.better.first().map(|(from, path)| (*from, path.last().copied())),
        Some((sq("f3"), Some(sq("d4"))))
    );
    let words = app.world().resource::<Words>();
    let board = app.world().resource::<ScoreBoard>().clone();
    let question = board.asking.expect("the question shows");
    assert!(board.asking_tutor);
    assert!(
        question.starts_with(&words.fill("coach_knight_hunt_missed_catch", &[("to", "d4")])),
        "{question}"
    );
    assert!(question.ends_with(words.get("tutor_anyway")), "{question}");
    let said: Vec<String> = board.said.asking.iter().map(|u| u.text.clone()).collect();
    assert!(
        said.iter().any(|t| t == words.get("tutor_play_it"))
            && said.iter().any(|t| t == words.get("tutor_think_again")),
        "{said:?}"
    );

    // Think again: the move goes back, nothing is played, the board takes taps again.
    command(&mut app, GameCommand::ThinkAgain);
    assert!(!warned(&app) && !app.world().resource::<Tutoring>().busy());
    assert_eq!(moves(&app), 2);
    assert_eq!(app.world().resource::<Selection>().0, None);
    assert!(app.world().resource::<CoachArrows>().played.is_empty(), "the arrows go with the question");

    // Play it: the move counts as any other.
    slip(&mut app);
    command(&mut app, GameCommand::PlayAnyway);
    assert!(!warned(&app));
    assert_eq!(moves(&app), 3);
    assert_eq!(
        app.world().resource::<Play>().last_move().map(|m| (m.from, m.to)),
        Some((sq("f3"), sq("e1")))
    );
    assert_eq!(app.world().resource::<Play>().person_to_move(), Some(Seat::BLACK));
}

#[test]
fn the_buttons_wait_while_the_tutor_holds_a_move() {
    let mut app = app(true);
    slip(&mut app);
    command(&mut app, GameCommand::Undo);
    assert_eq!(moves(&app), 2, "Undo waits for the answer");
    assert!(warned(&app));
}

#[test]
fn a_good_move_is_played_without_a_question_and_the_tutor_off_asks_nothing() {
    let mut app = app(true);
    press(&mut app, sq("f3"));
    press(&mut app, sq("d4"));
    common::until(&mut app, |app| moves(app) == 3);
    assert!(!warned(&app));

    let mut app = app_off();
    press(&mut app, sq("f3"));
    press(&mut app, sq("e1"));
    assert_eq!(moves(&app), 3, "with the tutor off the slip is played at once");
    assert!(!warned(&app));
}

fn app_off() -> App {
    app(false)
}

/// Crazy Nard between two friends with random dice-set plays by taps: a set the coach would mark
/// is asked about at ✔, and "think again" takes the whole set's moves back.
#[test]
fn a_crazy_nard_set_asked_about_at_confirm_goes_back_whole() {
    use rand::Rng;
    use tabla::app::session::game::GameView;
    use tabla::rules::Game;
    use tabla::rules::nard::Nard;
    let setup = common::setup("nard/one_point", Opponent::Friend, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "tutor-nard", 11, |_| {});
    app.world_mut().resource_mut::<Settings>().reading.tutor = Some(true);
    let nard = |app: &App| app.world().resource::<Play>().of::<Nard>().game().clone();
    let mut rng = tabla::chance::rng(3);
    for _ in 0..3000 {
        let play = app.world().resource::<Play>();
        assert!(play.game().outcome().is_none(), "a whole game of random plays and no set asked about");
        if warned(&app) {
            let played = moves(&app);
            assert!(play.drafting(), "the set's moves stand on the board while the tutor asks");
            command(&mut app, GameCommand::ThinkAgain);
            let play = app.world().resource::<Play>();
            assert!(!play.drafting(), "think again takes the whole set back");
            assert_eq!(moves(&app), played, "nothing was played");
            assert!(!warned(&app));
            assert!(
                nard(&app).dice_set().is_some_and(|set| set.moves.is_empty()),
                "the set waits to be played again"
            );
            return;
        }
        if app.world().resource::<Tutoring>().busy() {
            app.update();
            continue;
        }
        let now = nard(&app);
        if play.draft_done() {
            command(&mut app, GameCommand::Confirm);
        } else if now.chance().is_some() {
            command(&mut app, GameCommand::Roll);
        } else if now.dice_set().is_some() {
            let mut movable: Vec<Square> = GameView::pieces(&now).into_iter().map(|(s, _)| s).collect();
            movable.sort();
            movable.dedup();
            movable.retain(|s| now.movable(*s));
            let from = movable[rng.random_range(0..movable.len())];
            let paths = now.target_paths(from);
            let to = *paths[rng.random_range(0..paths.len())].last().expect("a route ends somewhere");
            press(&mut app, from);
            press(&mut app, to);
        }
        for _ in 0..5 {
            app.update();
        }
    }
    panic!("no set was asked about");
}
