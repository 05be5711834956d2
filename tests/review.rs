//! The coach's review (issue "Watch it again and learn from it"): clear slips are marked, best
//! moves are not, at most three slips, the review thinks in slices, and `tabla text` answers
//! `review` with one JSON line.

use serde_json::Value;
use tabla::history::History;
use tabla::levels::{self, FromLevel};
use tabla::robot::review::{self, Coached, Review, Reviewer};
use tabla::robot::{self, RobotLevel};
use tabla::rules::GameKind;
use tabla::rules::circles::Circles;
use tabla::rules::halma::Halma;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::Nard;
use tabla::rules::{Game, Seat};
use tabla::text::{self, Console};

fn level_game<G: FromLevel>(file: &str, source: &str) -> G {
    let level = levels::parse(file, source).unwrap_or_else(|e| panic!("{e}"));
    G::from_level(&level).expect("a level of this game")
}

/// The history of `start` after the actions `texts`.
fn played<G: Game>(start: G, texts: &[&str]) -> History<G> {
    let mut history = History::new(start, 1);
    for text in texts {
        let action = history.game().parse_action(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        history.play(&action, ()).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    history
}

/// The review of every seat's moves.
fn review_all<G: Coached>(history: &History<G>) -> Review<G::Action> {
    let data = review::coach_data(G::KIND).unwrap();
    let review = Reviewer::new(history.steps(), |_| true, data).finish();
    for rated in &review.moves {
        assert!(rated.why.is_none_or(|why| G::REASONS.contains(&why)), "{:?} is no listed reason", rated.why);
        assert!(rated.why.is_none() || rated.rating.loss > 0.0, "a reason only for a move that lost");
    }
    review
}

/// The move of the review made from step `from` (its action number `from + 1`).
fn at<A>(review: &Review<A>, ply: usize) -> &review::Rated<A> {
    review.moves.iter().find(|m| m.ply() == ply).unwrap_or_else(|| panic!("no rated move at ply {ply}"))
}

fn slip_plies<A>(review: &Review<A>) -> Vec<usize> {
    review.slips().map(|slip| slip.ply()).collect()
}

fn text_of<G: Game>(history: &History<G>, rated: &review::Rated<G::Action>, actions: &[G::Action]) -> String {
    review::actions_text(&history.steps()[rated.from].game, actions)
}

const KNIGHTS: &str = r#"#![enable(unwrap_variant_newtypes)]
KnightHunt(
    variant: "review",
    knights_capture: true,
    white: (knights: ["e3"], pawns: ["a2", "b2", "g2", "h2"]),
    black: (knights: ["e7"], pawns: ["a7", "b7", "g7", "h7"]),
    clock_minutes: [5],
)"#;

#[test]
fn a_knight_put_where_the_other_knight_takes_it_is_a_slip_and_a_safe_move_is_not() {
    let start: KnightHunt = level_game("review.ron", KNIGHTS);
    let blunder = played(start.clone(), &["e3d5"]);
    let review = review_all(&blunder);
    let slip = at(&review, 1);
    assert_eq!(slip_plies(&review), vec![1], "the knight on d5 is taken by e7 at once");
    assert_eq!(slip.why, Some("knight_left"));
    assert_ne!(text_of(&blunder, slip, &slip.rating.best), "e3d5");
    // The coach's own better move is no slip when it is played.
    let better = text_of(&blunder, slip, &slip.rating.best);
    let good = played(start, &[better.as_str()]);
    let review = review_all(&good);
    assert!(review.slips.is_empty(), "{:?}", review.moves);
    assert_eq!(at(&review, 1).rating.loss, 0.0);
}

/// The classic Making Circles level: both rooks in their corners beside the wall.
const CIRCLES: &str = include_str!("../ron_configs/circles/classic.ron");

#[test]
fn a_rook_crawling_one_square_where_it_could_run_along_the_wall_is_a_slip() {
    let start: Circles = level_game("circles/classic.ron", CIRCLES);
    let crawl = played(start.clone(), &["a1a2"]);
    let review = review_all(&crawl);
    let slip = at(&review, 1);
    assert_eq!(slip_plies(&review), vec![1], "a1a2 loses a move of the race: {:?}", slip.rating);
    assert_eq!(slip.why, Some("further_round"));
    // The reason names the piece and how far it could have gone: the rook along the wall.
    let to = text_of(&crawl, slip, &slip.rating.best)[2..].to_string();
    assert_eq!(slip.why_args, vec![("piece", "rook".to_string()), ("to", to)]);
    let run = played(start, &["a1a8"]);
    let review = review_all(&run);
    assert!(review.slips.is_empty(), "a1a8 runs the whole wall: {:?}", review.moves);
}

#[test]
fn a_halma_chain_cut_short_is_a_slip_and_the_whole_chain_is_not() {
    let setup = Halma::from_level(&levels::find("ron_configs/halma/two_players.ron").unwrap())
        .unwrap()
        .setup()
        .clone();
    let squares = |names: &[&str]| -> Vec<_> {
        names.iter().map(|n| tabla::rules::board::BoardShape::HALMA.parse(n).unwrap()).collect()
    };
    let start = Halma::from_position(
        &setup,
        &[squares(&["c3", "d4", "f6", "h8", "a1", "b1"]), squares(&["p16", "o16", "p15", "n16"])],
        Seat(0),
    );
    let short = played(start.clone(), &["c3e5"]);
    let review = review_all(&short);
    let slip = at(&review, 1);
    assert_eq!(slip_plies(&review), vec![1], "{:?}", slip.rating);
    assert_eq!(slip.why, Some("longer_chain"));
    assert_eq!(text_of(&short, slip, &slip.rating.best), "c3i9");
    let whole = played(start, &["c3i9"]);
    assert!(review_all(&whole).slips.is_empty());
}

/// A seeded game between two Robots of the given levels, `moves` actions long at most.
fn robot_game<G: robot::RobotPlayer>(start: G, levels: [RobotLevel; 2], moves: usize) -> History<G> {
    let mut history = History::new(start, 7);
    for _ in 0..moves {
        let Some(seat) = history.game().to_move() else {
            match history.game().chance() {
                Some(_) => {
                    history.roll();
                    continue;
                }
                None => break,
            }
        };
        let action = history.robot_action(levels[seat.index().min(1)]).expect("an action");
        history.play(&action, ()).unwrap();
    }
    history
}

#[test]
fn at_most_three_slips_are_marked_the_greatest_and_only_for_the_seats_reviewed() {
    let start: Circles = levels::find("ron_configs/circles/classic.ron")
        .ok()
        .and_then(|level| Circles::from_level(&level))
        .unwrap();
    let history = robot_game(start, [RobotLevel::One, RobotLevel::Three], 80);
    let data = review::coach_data(GameKind::Circles).unwrap();
    let review = review_all(&history);
    let over: Vec<f64> =
        review.moves.iter().map(|m| m.rating.loss).filter(|&l| l >= data.threshold).collect();
    assert!(over.len() > 3, "level 1 slips more than three times in 80 moves: {over:?}");
    assert_eq!(review.slips.len(), 3);
    let mut losses: Vec<f64> = review.moves.iter().map(|m| m.rating.loss).collect();
    losses.sort_by(|a, b| b.total_cmp(a));
    let mut marked: Vec<f64> = review.slips().map(|s| s.rating.loss).collect();
    marked.sort_by(|a, b| b.total_cmp(a));
    assert_eq!(marked, losses[..3].to_vec(), "the three greatest losses");
    let plies = slip_plies(&review);
    assert!(plies.windows(2).all(|w| w[0] < w[1]), "in the order played: {plies:?}");
    let white_only = Reviewer::new(history.steps(), |seat| seat == Seat::WHITE, data).finish();
    assert!(white_only.moves.iter().all(|m| m.seat == Seat::WHITE));
    assert!(!white_only.moves.is_empty());
}

#[test]
fn the_robot_at_its_best_makes_no_slip_and_its_best_move_gets_the_star() {
    let start: KnightHunt = levels::find("ron_configs/knight_hunt/one_knight.ron")
        .ok()
        .and_then(|level| KnightHunt::from_level(&level))
        .unwrap();
    let history = robot_game(start, [RobotLevel::Three, RobotLevel::Three], 30);
    let review = review_all(&history);
    assert!(review.slips.is_empty(), "{:?}", review.slips().collect::<Vec<_>>());
    let best = review.best_move().expect("a best move");
    assert_eq!(best.rating.loss, 0.0);
    let widest = review.moves.iter().map(|m| m.rating.margin).fold(0.0, f64::max);
    assert_eq!(best.rating.margin, widest);
}

#[test]
fn a_review_in_slices_is_the_review_in_one_go() {
    let start: KnightHunt = levels::find("ron_configs/knight_hunt/two_knights.ron")
        .ok()
        .and_then(|level| KnightHunt::from_level(&level))
        .unwrap();
    let history = robot_game(start, [RobotLevel::One, RobotLevel::Two], 24);
    let data = review::coach_data(GameKind::KnightHunt).unwrap();
    let whole = review_all(&history);
    let mut reviewer = Reviewer::new(history.steps(), |_| true, data);
    let mut slices = 0;
    let sliced = loop {
        slices += 1;
        if let Some(review) = reviewer.step(robot::SLICE_NODES) {
            break review;
        }
        let (done, all) = reviewer.progress();
        assert!(done <= all);
    };
    assert!(slices > 24, "a slice rates at most part of a move ({slices} slices)");
    assert_eq!(sliced, whole);
}

#[test]
fn a_crazy_nard_move_is_a_whole_dice_set() {
    let start: Nard = levels::find("ron_configs/nard/one_point.ron")
        .ok()
        .and_then(|level| Nard::from_level(&level))
        .unwrap();
    let history = robot_game(start, [RobotLevel::One, RobotLevel::Two], 100);
    let review = review_all(&history);
    assert!(review.moves.len() > 5);
    for rated in &review.moves {
        let before = &history.steps()[rated.from].game;
        let set = before.dice_set().expect("a move starts with its dice set");
        assert!(set.moves.is_empty(), "at the set's start");
        let after = review::after(before, &rated.played);
        assert!(
            after.dice_set().is_none_or(|next| next.serial != set.serial),
            "the set is over after the move's {} actions",
            rated.played.len()
        );
        let best = review::after(before, &rated.rating.best);
        assert!(best.dice_set().is_none_or(|next| next.serial != set.serial), "the better play is whole too");
        assert!(rated.rating.loss >= 0.0);
    }
    assert!(review.moves.iter().any(|m| m.played.len() >= 2));
}

fn answer(console: &mut dyn Console, line: &str) -> Value {
    console.handle(line)
}

#[test]
fn the_text_interface_answers_review_with_slips_and_a_best_move() {
    let level = levels::parse("review.ron", KNIGHTS).unwrap();
    let mut console = text::session_for(&level, 1);
    assert_eq!(answer(console.as_mut(), "play e3d5")["ok"], true);
    let review = answer(console.as_mut(), "review");
    let slips = review["slips"].as_array().expect("slips");
    assert_eq!(slips.len(), 1, "{review}");
    assert_eq!(slips[0]["ply"], 1);
    assert_eq!(slips[0]["seat"], "white");
    assert_eq!(slips[0]["played"], "e3d5");
    assert!(slips[0]["better"].as_str().is_some_and(|b| b != "e3d5"));
    assert!(slips[0]["loss"].as_f64().is_some_and(|l| l > 0.0));
    assert!(review.get("best").is_some());
    let refused = answer(console.as_mut(), "review white");
    assert_eq!(refused["ok"], false);
}

#[test]
fn review_without_all_looks_at_the_people_of_a_loaded_record_only() {
    let level = levels::parse("review.ron", KNIGHTS).unwrap();
    let mut record_of = text::session_for(&level, 1);
    answer(record_of.as_mut(), "play e3d5");
    answer(record_of.as_mut(), "play e7d5");
    let record = answer(record_of.as_mut(), "record")["record"].as_str().unwrap().to_string();
    let mut record = tabla::record::Record::from_ron(&record).unwrap();
    record.seats[0] = tabla::record::Control::Robot(RobotLevel::Two);
    let mut console = text::session_from_record(&level, &record).unwrap();
    let people = answer(console.as_mut(), "review");
    assert!(people["slips"].as_array().unwrap().is_empty(), "white is the Robot here: {people}");
    let all = answer(console.as_mut(), "review all");
    assert_eq!(all["slips"][0]["ply"], 1, "{all}");
}

#[test]
fn a_broken_coach_file_names_its_file_and_line() {
    let error =
        review::coach_data_in("coach.ron", "{\n \"circles\": (threshold: 1,\n oops),\n}", GameKind::Circles)
            .unwrap_err();
    assert!(error.starts_with("coach.ron:3:"), "{error}");
    let missing = review::coach_data_in("coach.ron", "{}", GameKind::Halma).unwrap_err();
    assert!(missing.contains("halma"), "{missing}");
    for game in GameKind::ALL {
        review::coach_data(game).unwrap();
    }
    let unknown =
        review::coach_data_in("coach.ron", "{\"chess\": (threshold: 1, decisive: 2)}", GameKind::Halma);
    assert!(unknown.unwrap_err().contains("chess"), "a game Tabla does not have is named");
}
