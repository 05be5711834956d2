//! The child's path (issue "A child's path"): the path file is checked like a level file, a won
//! game earns its stage's stars (a win, a win on one's own, the stage's own goal), the next stage
//! opens on one star, diplomas come when a trail is all starred, and a child's file and the export
//! file are versioned; the same child brought from another device is merged (issue "Kept means
//! kept"): nothing earned is taken away, every file brought in is checked entry by entry, a game is
//! counted once however often it is undone and finished.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tabla::history::History;
use tabla::levels::FromLevel;
use tabla::progress::child::{self, ANIMALS};
use tabla::progress::gate::Gate;
use tabla::progress::path::{self, Goal, Stage};
use tabla::progress::{
    Child, Figures, GameEnd, Merge, Path, ProgressError, Stars, Transfer, day_text, is_day, plan_merge,
    stars_of,
};
use tabla::record::{Control, Record};
use tabla::robot::{RobotLevel, RobotPlayer};
use tabla::rules::GameKind;
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::circles::Circles;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::nard::{Nard, ResultKind};
use tabla::rules::{Game, Seat};

fn stage(id: &str) -> Stage {
    Path::builtin().stage(id).unwrap_or_else(|| panic!("no stage {id}")).clone()
}

/// A game on the stage's level: the child's seat played by the Robot at `child`, every other by
/// the stage's Robot; its record as the app writes it for the stage.
fn played<G: Game + FromLevel + RobotPlayer>(
    stage: &Stage,
    child: RobotLevel,
    seed: u64,
) -> (History<G>, Record) {
    let start = G::from_level(&stage.level).expect("the stage's game");
    let mut history = History::new(start, seed);
    for _ in 0..3000 {
        if history.game().outcome().is_some() {
            break;
        }
        let level = if history.game().to_move() == Some(stage.seat) { child } else { stage.robot };
        let action = history.robot_action(level).expect("an action while the game goes on");
        history.play(&action, ()).unwrap();
    }
    assert!(history.game().outcome().is_some(), "the game ended");
    let seats = (0..stage.level.seat_count())
        .map(|i| if i == stage.seat.index() { Control::Person } else { Control::Robot(stage.robot) })
        .collect();
    let record =
        Record { stage: Some(stage.id.clone()), ..Record::of_history(&stage.level, &history, seats) };
    (history, record)
}

/// The first seeded game of the stage whose history passes `wanted`.
fn find<G: Game + FromLevel + RobotPlayer>(
    stage: &Stage,
    child: RobotLevel,
    wanted: impl Fn(&History<G>) -> bool,
) -> (History<G>, Record) {
    (1..60)
        .map(|seed| played::<G>(stage, child, seed))
        .find(|(history, _)| wanted(history))
        .unwrap_or_else(|| panic!("no seeded game of {} is the one wanted", stage.id))
}

fn child_won<G: Game>(history: &History<G>, seat: Seat) -> bool {
    history.game().outcome().is_some_and(|o| o.winner.includes(seat))
}

// The path file.

#[test]
fn the_built_in_path_reads_and_leads_every_game_through_its_levels() {
    let path = Path::builtin();
    let games: Vec<&str> = path.trails.iter().map(|t| t.game.code()).collect();
    assert_eq!(games, ["circles", "knight_hunt", "bunnies", "halma", "nard"]);
    for trail in &path.trails {
        assert!(trail.stages.len() >= 3, "{} has {} stages", trail.game, trail.stages.len());
        // The Robot never gets weaker along a trail.
        let robots: Vec<u8> = trail.stages.iter().map(|s| s.robot.number()).collect();
        assert!(robots.windows(2).all(|w| w[0] <= w[1]), "{}: {robots:?}", trail.game);
        for stage in &trail.stages {
            assert_eq!(stage.level.kind(), trail.game);
            for language in tabla::i18n::Language::ALL {
                assert!(!stage.goal_text(language).is_empty(), "{} in {language:?}", stage.id);
            }
        }
    }
}

fn broken(source: &str) -> String {
    path::parse("path.ron", source).unwrap_err().to_string()
}

const GOOD_STAGE: &str = r#"(
                id: "kh",
                level: "knight_hunt/one_knight.ron",
                robot: 1,
                seat: 0,
                goal: KeepPawns(4),
                goal_words: { "ro": "a", "en": "b", "it": "c", "el": "d" },
            )"#;

fn one_trail(game: &str, stage: &str) -> String {
    format!(
        "Path(\n    games: [\n        (\n            game: \"{game}\",\n            stages: [\n                {stage},\n            ],\n        ),\n    ],\n)\n"
    )
}

#[test]
fn a_good_path_file_reads() {
    let path = path::parse("path.ron", &one_trail("knight_hunt", GOOD_STAGE)).unwrap();
    assert_eq!(path.trails[0].stages[0].goal, Goal::KeepPawns(4));
    assert_eq!(path.trails[0].stages[0].robot, RobotLevel::One);
}

#[test]
fn a_broken_path_file_names_its_file_and_line() {
    let source = one_trail("knight_hunt", GOOD_STAGE).replace("robot: 1,", "robot: 1,,");
    let message = broken(&source);
    assert!(message.starts_with("path.ron:9:"), "{message}");

    let message = broken(&one_trail("knight_hunt", &GOOD_STAGE.replace("one_knight", "no_such_level")));
    assert!(message.starts_with("path.ron:8:") && message.contains("no_such_level"), "{message}");

    let message = broken(&one_trail("knight_hunt", &GOOD_STAGE.replace("robot: 1", "robot: 4")));
    assert!(message.starts_with("path.ron:9:") && message.contains("1, 2 or 3"), "{message}");

    let message = broken(&one_trail("knight_hunt", &GOOD_STAGE.replace("seat: 0", "seat: 2")));
    assert!(message.contains("seat 2"), "{message}");

    let message = broken(&one_trail("knight_hunt", &GOOD_STAGE.replace("KeepPawns(4)", "Mars")));
    assert!(message.starts_with("path.ron:11:") && message.contains("not one of knight_hunt's"), "{message}");

    let message = broken(&one_trail("knight_hunt", &GOOD_STAGE.replace(r#""el": "d" "#, "")));
    assert!(message.contains("no words in \"el\""), "{message}");

    let message = broken(&one_trail("bunnies", GOOD_STAGE));
    assert!(message.contains("not a level of bunnies"), "{message}");

    let twice = format!("{GOOD_STAGE},\n{GOOD_STAGE}");
    let message = broken(&one_trail("knight_hunt", &twice));
    assert!(message.contains("two stages are called \"kh\""), "{message}");

    let message = broken(&one_trail("chess", GOOD_STAGE));
    assert!(message.starts_with("path.ron:4:") && message.contains("'chess' is no game"), "{message}");
}

// Stars.

#[test]
fn a_win_on_ones_own_earns_two_stars_and_a_hint_or_a_take_back_keeps_it_to_one() {
    let stage = stage("knight_hunt_1");
    let (_, record) = find::<KnightHunt>(&stage, RobotLevel::Three, |h| child_won(h, Seat(0)));
    let own = stars_of(&stage, &record).unwrap();
    assert!(own.has(Stars::WON) && own.has(Stars::ON_OWN), "{own:?}");
    let hinted = stars_of(&stage, &Record { hints_asked: 1, ..record.clone() }).unwrap();
    assert!(hinted.has(Stars::WON) && !hinted.has(Stars::ON_OWN), "{hinted:?}");
    let taken_back = stars_of(&stage, &Record { takebacks: 2, ..record.clone() }).unwrap();
    assert!(taken_back.has(Stars::WON) && !taken_back.has(Stars::ON_OWN), "{taken_back:?}");
}

#[test]
fn a_lost_game_earns_no_star() {
    let stage = stage("knight_hunt_1");
    let (_, record) = find::<KnightHunt>(&stage, RobotLevel::One, |h| {
        h.game().outcome().is_some_and(|o| !o.winner.includes(Seat(0)))
    });
    assert_eq!(stars_of(&stage, &record).unwrap(), Stars::default());
}

#[test]
fn a_game_that_is_not_the_stages_earns_no_star() {
    let stage = stage("knight_hunt_1");
    let (_, record) = find::<KnightHunt>(&stage, RobotLevel::Three, |h| child_won(h, Seat(0)));
    assert!(stars_of(&stage, &record).unwrap().has(Stars::WON));
    let friends = Record { seats: vec![Control::Person, Control::Person], ..record.clone() };
    assert_eq!(stars_of(&stage, &friends).unwrap(), Stars::default());
    let weaker_robot = stage_with(&stage, |s| s.robot = RobotLevel::Two);
    assert_eq!(stars_of(&weaker_robot, &record).unwrap(), Stars::default());
}

fn stage_with(stage: &Stage, change: impl FnOnce(&mut Stage)) -> Stage {
    let mut changed = stage.clone();
    change(&mut changed);
    changed
}

#[test]
fn knight_hunts_third_star_is_for_winning_with_the_stages_pawns_kept() {
    let stage = stage("knight_hunt_1");
    let (history, record) = find::<KnightHunt>(&stage, RobotLevel::Three, |h| child_won(h, Seat(0)));
    let kept = history.game().pawns_left(Seat(0));
    assert!(kept < 8, "the Robot took some pawns");
    let just_enough = stage_with(&stage, |s| s.goal = Goal::KeepPawns(kept));
    assert!(stars_of(&just_enough, &record).unwrap().has(Stars::GOAL));
    let one_more = stage_with(&stage, |s| s.goal = Goal::KeepPawns(kept + 1));
    let stars = stars_of(&one_more, &record).unwrap();
    assert!(stars.has(Stars::WON) && !stars.has(Stars::GOAL), "{stars:?}");
}

#[test]
fn bunnies_third_star_is_for_every_bunny_in_the_garden() {
    let stage = stage("bunnies_1");
    let all =
        |h: &History<BunniesAndHorses>| u32::from(h.game().score(Seat(0))) == h.game().bunnies_at_start();
    let (_, every_bunny) =
        find::<BunniesAndHorses>(&stage, RobotLevel::Three, |h| child_won(h, Seat(0)) && all(h));
    assert!(stars_of(&stage, &every_bunny).unwrap().has(Stars::GOAL));
    let (_, fewer) = find::<BunniesAndHorses>(&stage, RobotLevel::Two, |h| child_won(h, Seat(0)) && !all(h));
    assert!(!stars_of(&stage, &fewer).unwrap().has(Stars::GOAL));
}

#[test]
fn making_circles_third_star_is_for_winning_within_the_stages_moves() {
    let stage = stage("circles_1");
    let (history, record) = find::<Circles>(&stage, RobotLevel::Three, |h| child_won(h, Seat(0)));
    let moves = history.steps().iter().filter(|s| s.mover == Some(Seat(0))).count() as u32;
    let just_enough = stage_with(&stage, |s| s.goal = Goal::WinWithin(moves));
    assert!(stars_of(&just_enough, &record).unwrap().has(Stars::GOAL));
    let one_short = stage_with(&stage, |s| s.goal = Goal::WinWithin(moves - 1));
    let stars = stars_of(&one_short, &record).unwrap();
    assert!(stars.has(Stars::WON) && !stars.has(Stars::GOAL), "{stars:?}");
}

#[test]
fn crazy_nards_third_stars_are_a_mars_and_a_match_without_a_game_lost() {
    let one_point = stage("nard_1");
    let mars = |h: &History<Nard>| h.game().last_game().is_some_and(|r| r.kind == ResultKind::Mars);
    let (_, by_mars) = find::<Nard>(&one_point, RobotLevel::Two, |h| child_won(h, Seat(0)) && mars(h));
    assert!(stars_of(&one_point, &by_mars).unwrap().has(Stars::GOAL));
    let (_, plain) = find::<Nard>(&one_point, RobotLevel::Two, |h| child_won(h, Seat(0)) && !mars(h));
    assert!(!stars_of(&one_point, &plain).unwrap().has(Stars::GOAL));

    let three_points = stage("nard_2");
    let clean = |h: &History<Nard>| h.game().score(Seat(1)) == 0;
    let (_, whitewash) = find::<Nard>(&three_points, RobotLevel::Two, |h| child_won(h, Seat(0)) && clean(h));
    assert!(stars_of(&three_points, &whitewash).unwrap().has(Stars::GOAL));
    let (_, one_lost) = find::<Nard>(&three_points, RobotLevel::Two, |h| child_won(h, Seat(0)) && !clean(h));
    let stars = stars_of(&three_points, &one_lost).unwrap();
    assert!(stars.has(Stars::WON) && !stars.has(Stars::GOAL), "{stars:?}");
}

// The map's trail.

#[test]
fn one_star_opens_the_next_stage_and_the_next_to_play_moves_on() {
    let path = Path::builtin();
    let trail = path.trail(GameKind::KnightHunt).unwrap();
    let mut child = Child::new(0);
    assert!(trail.is_open(0, |id| child.star_count(id)) && !trail.is_open(1, |id| child.star_count(id)));
    assert_eq!(trail.next(|id| child.star_count(id)), Some(0));
    child.earn("knight_hunt_1", Stars::WON);
    assert!(trail.is_open(1, |id| child.star_count(id)) && !trail.is_open(2, |id| child.star_count(id)));
    assert_eq!(trail.next(|id| child.star_count(id)), Some(1));
}

#[test]
fn stars_once_earned_stay_and_only_new_ones_are_told() {
    let mut child = Child::new(3);
    assert_eq!(child.earn("halma_1", Stars::WON.with(Stars::GOAL)), Stars::WON.with(Stars::GOAL));
    assert_eq!(child.earn("halma_1", Stars::WON), Stars::default());
    assert_eq!(child.earn("halma_1", Stars::WON.with(Stars::ON_OWN)), Stars::ON_OWN);
    assert_eq!(child.star_count("halma_1"), 3);
    assert_eq!(child.earn("halma_2", Stars::default()), Stars::default());
    assert!(!child.stars.contains_key("halma_2"), "a game without a star leaves no entry");
}

#[test]
fn a_diploma_comes_when_every_stage_of_a_game_has_a_star_and_goes_with_its_stars() {
    let path = Path::builtin();
    let trail = path.trail(GameKind::Circles).unwrap();
    let mut child = Child::new(1);
    for stage in &trail.stages[..trail.stages.len() - 1] {
        child.earn(&stage.id, Stars::WON);
    }
    assert!(child.award_diplomas(&path, "2026-12-04").is_empty());
    child.earn(&trail.stages.last().unwrap().id, Stars::WON);
    assert_eq!(child.award_diplomas(&path, "2026-12-04"), [GameKind::Circles]);
    assert_eq!(child.award_diplomas(&path, "2026-12-05"), Vec::<GameKind>::new(), "given once");
    assert_eq!(child.diplomas[&GameKind::Circles], "2026-12-04");
    child.clear_stars(&path, GameKind::Circles);
    assert_eq!(child.trail_stars(trail), 0);
    assert!(child.diplomas.is_empty());
}

fn end(identity: &str, won: Option<bool>, drawn: bool) -> GameEnd {
    GameEnd {
        identity: identity.into(),
        game: GameKind::Nard,
        won,
        drawn,
        hints: 1,
        takebacks: 2,
        day: "2026-12-04".into(),
    }
}

#[test]
fn the_figures_count_every_game_and_its_help_and_time() {
    let mut child = Child::new(2);
    child.count(&end("a", Some(true), false));
    child.count(&end("b", Some(false), false));
    child.count(&end("c", None, true));
    child.add_time(GameKind::Nard, 90, "2026-12-05");
    let figures = &child.figures[&GameKind::Nard];
    assert_eq!((figures.played, figures.won, figures.lost, figures.drawn), (3, 1, 1, 1));
    assert_eq!((figures.hints, figures.takebacks, figures.seconds), (3, 6, 90));
    assert_eq!(figures.last_played, "2026-12-05");
}

#[test]
fn a_game_lost_then_undone_and_won_is_counted_once_as_won() {
    let mut child = Child::new(2);
    child.count(&end("game-1", Some(false), false));
    // Undone and played on: the record's hints and take-backs have grown since.
    child.count(&GameEnd { hints: 3, takebacks: 5, ..end("game-1", Some(true), false) });
    let figures = &child.figures[&GameKind::Nard];
    assert_eq!((figures.played, figures.won, figures.lost), (1, 1, 0), "one game, won");
    assert_eq!((figures.hints, figures.takebacks), (3, 5), "its help once, as it stands at the end");
    child.count(&end("game-2", Some(false), false));
    assert_eq!(child.figures[&GameKind::Nard].played, 2, "another game counts");
    // Read back, the game counted once stays counted once.
    let mut again = Child::from_ron(&child.to_ron()).unwrap();
    again.count(&GameEnd { hints: 3, takebacks: 5, ..end("game-1", Some(true), false) });
    assert_eq!(again.figures[&GameKind::Nard].played, 2);
}

#[test]
fn counters_stop_at_their_largest_instead_of_wrapping() {
    let mut child = Child::new(1);
    child.figures.insert(
        GameKind::Nard,
        Figures { played: u32::MAX, won: u32::MAX, hints: u32::MAX, seconds: u64::MAX, ..Figures::default() },
    );
    child.count(&end("x", Some(true), false));
    child.add_time(GameKind::Nard, 60, "2026-12-04");
    let figures = &child.figures[&GameKind::Nard];
    assert_eq!(
        (figures.played, figures.won, figures.hints, figures.seconds),
        (u32::MAX, u32::MAX, u32::MAX, u64::MAX)
    );
}

// The files.

#[test]
fn a_childs_file_reads_back_and_a_broken_or_newer_one_says_why() {
    let mut child = Child::new(5).with_id("a1b2c3d4e5f60718".into());
    child.name = "Ana".into();
    child.earn("bunnies_1", Stars::WON);
    child.award_diplomas(&Path::builtin(), "2026-12-04");
    assert_eq!(Child::from_ron(&child.to_ron()).unwrap(), child);
    let newer = child.to_ron().replace("version: 3", "version: 9");
    assert_eq!(Child::from_ron(&newer), Err(ProgressError::Newer(9)));
    assert_eq!(Child::peek(&newer), Some((5, "Ana".into())), "a newer file still shows who it is");
    let older = child.to_ron().replace("version: 3", "version: 0");
    assert_eq!(Child::from_ron(&older), Err(ProgressError::UnknownVersion(0)));
    assert!(matches!(Child::from_ron("Child(version: 2, animal: "), Err(ProgressError::Unreadable(_))));
    let named = format!("Child{}", child.to_ron());
    assert_eq!(Child::from_ron(&named).unwrap(), child, "a file that names its struct reads too");
    let named_newer = format!("Child{}", newer);
    assert_eq!(Child::from_ron(&named_newer), Err(ProgressError::Newer(9)));
    let long_name = child.to_ron().replace("\"Ana\"", &format!("\"{}\"", "A".repeat(40)));
    assert!(matches!(Child::from_ron(&long_name), Err(ProgressError::Wrong(_))));
    let no_animal = child.to_ron().replace("animal: 5", &format!("animal: {ANIMALS}"));
    assert!(matches!(Child::from_ron(&no_animal), Err(ProgressError::Wrong(_))));
    let huge = format!("{}{}", child.to_ron(), " ".repeat(tabla::record::MOST_BYTES));
    assert!(matches!(Child::from_ron(&huge), Err(ProgressError::Wrong(why)) if why.contains("bytes")));
}

#[test]
fn a_file_of_the_first_version_reads_without_an_identity() {
    let old = r#"(version: 1, animal: 3, name: "Dan", stars: {"nard_1": 1}, figures: {"nard": (played: 2, won: 1)})"#;
    let child = Child::from_ron(old).expect("version 1 still reads");
    assert_eq!((child.animal, child.name.as_str(), child.id.as_str()), (3, "Dan", ""));
    assert_eq!(child.figures[&GameKind::Nard].played, 2);
    assert!(child.to_ron().contains("version: 3"), "it is written as this Tabla writes");
}

#[test]
fn names_lose_the_characters_that_hide_or_turn_text() {
    for typed in
        ["Ana\u{200B}", "\u{202E}Ana", "A\u{200D}na", "\u{2066}Ana\u{2069}", " Ana\u{FEFF} ", "Ana\n"]
    {
        assert_eq!(Child::tidy_name(typed), "Ana", "{typed:?}");
    }
    let mut child = Child::new(0);
    child.name = "Ana\u{200B}".into();
    let read = Child::from_ron(&child.to_ron()).unwrap();
    assert_eq!(read.name, "Ana", "a file's name is cleaned as it is read");
}

fn transfer(children: Vec<Child>) -> Transfer {
    Transfer::from_ron(&Transfer::new(children).to_ron(), &Path::builtin()).unwrap()
}

#[test]
fn an_import_merges_the_same_child_by_identity_and_takes_nothing_away() {
    let path = Path::builtin();
    let mut ana = Child::new(0).with_id("0000000000000aaa".into());
    ana.earn("nard_1", Stars::WON);
    ana.earn("circles_1", Stars::WON);
    ana.figures.insert(GameKind::Nard, Figures { played: 5, won: 3, seconds: 100, ..Figures::default() });
    let mut ana_there = Child::new(0).with_id("0000000000000aaa".into());
    ana_there.name = "Ana".into();
    ana_there.earn("nard_1", Stars::ON_OWN);
    ana_there.earn("knight_hunt_1", Stars::GOAL);
    ana_there
        .figures
        .insert(GameKind::Nard, Figures { played: 2, won: 2, seconds: 900, ..Figures::default() });
    for stage in &path.trail(GameKind::Circles).unwrap().stages {
        ana_there.earn(&stage.id, Stars::WON);
    }
    ana_there.award_diplomas(&path, "2026-11-01");
    // Another child with the same picture and no name: a lion of another family.
    let other_unnamed = Child::new(0).with_id("0000000000000bbb".into());
    let here = [Some(ana.clone()), None, None, None, None, None, None, None];
    let plan = plan_merge(&here, transfer(vec![ana_there.clone(), other_unnamed.clone()]));
    let Merge::Merged { slot: 0, merged } = &plan[0] else { panic!("{:?}", plan[0]) };
    assert_eq!(merged.stars("nard_1"), Stars(Stars::WON.0 | Stars::ON_OWN.0), "the stars of both");
    assert_eq!(merged.stars("circles_1"), Stars::WON);
    assert_eq!(merged.stars("knight_hunt_1"), Stars::GOAL);
    let nard = &merged.figures[&GameKind::Nard];
    assert_eq!((nard.played, nard.won, nard.seconds), (5, 3, 900), "the larger of each figure");
    assert_eq!(merged.diplomas[&GameKind::Circles], "2026-11-01");
    assert_eq!(merged.name, "Ana", "a name given on the other device");
    assert_eq!(plan[1], Merge::Add(other_unnamed), "the same picture with another identity is another child");
    // Merged again, nothing changes; an earlier diploma wins, a later one does not.
    let here = [Some(merged.clone()), None, None, None, None, None, None, None];
    assert_eq!(plan_merge(&here, transfer(vec![ana_there.clone()])), [Merge::Same]);
    let mut later = merged.clone();
    later.diplomas.insert(GameKind::Circles, "2026-12-24".into());
    assert_eq!(plan_merge(&here, transfer(vec![later])), [Merge::Same]);
}

#[test]
fn a_file_without_identities_knows_the_same_child_by_picture_and_name() {
    let mut ana = Child::new(0);
    ana.name = "Ana".into();
    let mut ana_there = ana.clone();
    ana_there.earn("nard_1", Stars::WON);
    let mut dan = Child::new(4);
    dan.name = "Dan".into();
    let here =
        [Some(ana.clone().with_id("00000000000000aa".into())), None, None, None, None, None, None, None];
    let plan = plan_merge(&here, transfer(vec![ana_there, dan.clone(), ana.clone()]));
    assert!(matches!(&plan[0], Merge::Merged { slot: 0, merged } if merged.stars("nard_1") == Stars::WON));
    assert_eq!(plan[1], Merge::Add(dan.clone()));
    assert_eq!(plan[2], Merge::Same);
    let full: Vec<Option<Child>> = (0..child::MOST_CHILDREN).map(|i| Some(Child::new(i as u8))).collect();
    let plan = plan_merge(&full, Transfer::new(vec![dan.clone()]));
    assert_eq!(plan, [Merge::NoRoom(dan)]);
}

#[test]
fn an_import_is_checked_entry_by_entry_and_refused_whole_naming_the_first_bad_one() {
    let path = Path::builtin();
    let refused = |text: &str| match Transfer::from_ron(text, &path) {
        Err(ProgressError::Wrong(why)) => why,
        other => panic!("{text}: {other:?}"),
    };
    let child =
        |inside: &str| format!("Transfer(version: 2, children: [Child(version: 2, animal: 1, {inside})])");
    assert!(refused(&child(r#"stars: {"no_such_stage": 1}"#)).contains("no_such_stage"));
    assert!(refused(&child(r#"stars: {"nard_1": 9}"#)).contains("nard_1 has stars 9"));
    assert!(refused(&child(r#"diplomas: {"nard": "2026-02-30"}"#)).contains("no day"));
    assert!(refused(&child(r#"diplomas: {"nard": "2026-12-04"}"#)).contains("without a star on every stage"));
    let chess = Transfer::from_ron(&child(r#"figures: {"chess": (played: 1)}"#), &path);
    assert!(matches!(chess, Err(ProgressError::Unreadable(why)) if why.contains("'chess' is no game")));
    assert!(refused(&child(r#"figures: {"nard": (last_played: "yesterday")}"#)).contains("no day"));
    assert!(refused(&child(r#"id: "../../x""#)).contains("identity"));
    let second = r#"Transfer(version: 2, children: [Child(version: 2, animal: 1), Child(version: 2, animal: 2, stars: {"x": 1})])"#;
    assert!(refused(second).starts_with("child 2"), "the bad entry is named");
    let junk: String = (0..100_000).map(|i| format!("\"k{i}\": 1,")).collect();
    let big = child(&format!("stars: {{{junk}}}"));
    assert!(big.len() > tabla::record::MOST_BYTES);
    assert!(refused(&big).contains("bytes"), "a file over a megabyte is not read");
    let long_key = refused(&child(&format!("stars: {{\"{}\": 1}}", "k".repeat(5000))));
    assert!(long_key.chars().count() < 200, "what a message quotes of a file is cut: {}", long_key.len());
}

#[test]
fn an_export_file_too_big_or_of_another_version_is_refused() {
    let path = Path::builtin();
    let nine = Transfer::new((0..9).map(|i| Child::new(i % 8)).collect()).to_ron();
    assert!(matches!(Transfer::from_ron(&nine, &path), Err(ProgressError::Wrong(_))));
    let newer = Transfer::new(vec![]).to_ron().replace("version: 3", "version: 4");
    assert_eq!(Transfer::from_ron(&newer, &path), Err(ProgressError::Newer(4)));
    let by_hand = r#"Transfer(version: 1, children: [Child(version: 1, animal: 0, name: "", stars: {"knight_hunt_1": 3})])"#;
    let read = Transfer::from_ron(by_hand, &path).expect("a file written by hand, naming its structs");
    assert_eq!(read.children[0].star_count("knight_hunt_1"), 2);
}

#[test]
fn real_days_are_told_from_others() {
    for day in ["2024-02-29", "2026-12-04", "2000-02-29", "1999-12-31"] {
        assert!(is_day(day), "{day}");
    }
    for day in
        ["2026-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-1-1", "", "2026-12-04x", "abcd-ef-gh"]
    {
        assert!(!is_day(day), "{day}");
    }
}

#[test]
fn days_are_written_as_the_calendar_has_them() {
    assert_eq!(day_text(0), "1970-01-01");
    assert_eq!(day_text(11_016), "2000-02-29");
    assert_eq!(day_text(20_791), "2026-12-04");
}

// The grown-ups' gate.

fn hold_three_seconds(gate: &mut Gate) {
    for _ in 0..190 {
        gate.hold(true, 1.0 / 60.0);
    }
}

#[test]
fn the_gate_opens_after_three_seconds_held_and_the_right_sum() {
    let mut gate = Gate::new(7);
    for _ in 0..170 {
        gate.hold(true, 1.0 / 60.0);
    }
    assert!(gate.sum().is_none(), "under three seconds asks nothing yet");
    gate.hold(false, 1.0 / 60.0);
    assert_eq!(gate.held(), 0.0, "letting go starts again");
    hold_three_seconds(&mut gate);
    let (a, b) = gate.sum().expect("the sum is asked");
    for digit in (a + b).to_string().chars() {
        gate.digit(digit.to_digit(10).unwrap());
    }
    assert!(gate.is_open());
}

#[test]
fn a_wrong_answer_closes_the_sum_and_the_holding_starts_again() {
    let mut gate = Gate::new(8);
    hold_three_seconds(&mut gate);
    let (a, b) = gate.sum().unwrap();
    let wrong = (a + b + 1).to_string();
    for digit in wrong.chars() {
        gate.digit(digit.to_digit(10).unwrap());
    }
    assert!(!gate.is_open() && gate.sum().is_none() && gate.held() == 0.0);
}

#[test]
fn the_gate_holds_against_a_storm_of_taps() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut gate = Gate::new(9);
    for _ in 0..200_000 {
        // Taps: down for a frame or two, up again; digits pressed at random in between.
        gate.hold(rng.random_bool(0.5), rng.random_range(0.0..0.05));
        if rng.random_bool(0.3) {
            gate.digit(rng.random_range(0..10));
        }
        assert!(!gate.is_open());
    }
}
