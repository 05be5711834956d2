//! Crazy Nard: the level files (built-in ones, and broken ones reported with file and line) and the
//! `tabla text` contract.

mod shared;
use shared::{ok, session};

use serde_json::{Value, json};
use tabla::levels::{self, LevelGame};
use tabla::rules::nard::{Board, HeadRule};

fn nard_level(file: &str) -> tabla::levels::NardLevel {
    match levels::find(file).unwrap_or_else(|e| panic!("{e}")).game {
        LevelGame::Nard(level) => level,
        other => panic!("{file} is not a Crazy Nard level: {other:?}"),
    }
}

#[test]
fn the_built_in_levels_hold_the_match_rules() {
    let crazy = nard_level("ron_configs/nard/crazy.ron");
    assert_eq!(crazy.variant, "crazy");
    assert_eq!(crazy.setup.match_length, 5);
    assert!(crazy.setup.cube && crazy.setup.crawford);
    assert_eq!(crazy.setup.head_rule, HeadRule::PerDiceSet);
    assert_eq!(crazy.setup.start, Board::opening());
    let lengths: Vec<u32> = ["one_point", "three_points", "crazy", "seven_points"]
        .iter()
        .map(|name| nard_level(&format!("ron_configs/nard/{name}.ron")).setup.match_length)
        .collect();
    assert_eq!(lengths, vec![1, 3, 5, 7]);
    assert!(!nard_level("ron_configs/nard/one_point.ron").setup.cube);
    assert!(!nard_level("ron_configs/nard/five_points_no_cube.ron").setup.cube);
    assert_eq!(nard_level("ron_configs/nard/head_per_turn.ron").setup.head_rule, HeadRule::PerTurn);
    let nard_files: Vec<&str> =
        levels::BUILTIN.iter().map(|(f, _)| *f).filter(|f| f.starts_with("ron_configs/nard/")).collect();
    assert_eq!(nard_files[0], "ron_configs/nard/crazy.ron", "the default Crazy Nard level comes first");
    for file in nard_files {
        let on_disk = std::fs::read_to_string(file).unwrap();
        assert!(levels::parse(file, &on_disk).is_ok(), "{file}");
    }
}

const GOOD: &str = r#"// a test level
#![enable(unwrap_variant_newtypes)]
Nard(
    variant: "test",
    match_length: 5,
    cube: true,
    crawford: true,
    head_rule: PerDiceSet,
    start: [(24, 15)],
)
"#;

/// The message for `GOOD` with one line replaced.
fn broken(line: usize, text: &str) -> String {
    let mut lines: Vec<&str> = GOOD.lines().collect();
    lines[line - 1] = text;
    let source = lines.join("\n");
    match levels::parse("ron_configs/nard/broken.ron", &source) {
        Ok(_) => panic!("line {line} = {text} should be refused"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_test_level_itself_is_fine() {
    assert!(levels::parse("ron_configs/nard/good.ron", GOOD).is_ok());
}

#[test]
fn a_syntax_error_names_the_file_and_line() {
    let message = broken(6, "    cube: true true,");
    assert!(message.starts_with("ron_configs/nard/broken.ron:6:"), "{message}");
}

#[test]
fn an_unknown_field_names_its_line() {
    let message = broken(7, "    crawfurd: true,");
    assert!(message.starts_with("ron_configs/nard/broken.ron:7:"), "{message}");
}

#[test]
fn an_unknown_head_rule_names_its_line() {
    let message = broken(8, "    head_rule: PerGame,");
    assert!(message.starts_with("ron_configs/nard/broken.ron:8:"), "{message}");
}

#[test]
fn a_match_of_no_points_names_its_line() {
    let message = broken(5, "    match_length: 0,");
    assert!(message.starts_with("ron_configs/nard/broken.ron:5:"), "{message}");
    assert!(message.contains("1 to 25"), "{message}");
}

#[test]
fn a_one_point_match_with_the_cube_names_the_cube_line() {
    let message = broken(5, "    match_length: 1,");
    assert!(message.starts_with("ron_configs/nard/broken.ron:6:"), "{message}");
    assert!(message.contains("without the cube"), "{message}");
}

#[test]
fn a_point_off_the_board_names_its_line() {
    let message = broken(9, "    start: [(25, 15)],");
    assert!(message.starts_with("ron_configs/nard/broken.ron:9:"), "{message}");
    assert!(message.contains("off the board"), "{message}");
}

#[test]
fn a_point_given_twice_names_the_line_of_the_second() {
    let mut lines: Vec<&str> = GOOD.lines().collect();
    lines[8] = "    start: [\n        (24, 10),\n        (24, 5),\n    ],";
    let source = lines.join("\n");
    let message = levels::parse("ron_configs/nard/broken.ron", &source).unwrap_err().to_string();
    assert!(message.starts_with("ron_configs/nard/broken.ron:11:"), "{message}");
    assert!(message.contains("twice"), "{message}");
}

#[test]
fn a_start_without_fifteen_checkers_names_its_line() {
    let message = broken(9, "    start: [(24, 14)],");
    assert!(message.starts_with("ron_configs/nard/broken.ron:9:"), "{message}");
    assert!(message.contains("15 checkers"), "{message}");
}

// ---------------------------------------------------------------------------------------------
// The text interface

#[test]
fn the_state_shows_everything_the_issue_names() {
    let mut console = session("ron_configs/nard/crazy.ron", 1);
    let state = console.handle("state");
    assert_eq!(state["game"], json!("nard"));
    assert_eq!(state["to_move"], Value::Null, "nobody in particular while the opening dice are due");
    assert_eq!(state["awaiting_roll"], json!(true));
    assert_eq!(state["outcome"], Value::Null);
    let board = state["board"].as_array().unwrap();
    assert_eq!(board.len(), 24);
    assert_eq!((board[23].clone(), board[11].clone()), (json!(15), json!(-15)));
    assert_eq!(state["dice"], Value::Null);
    assert_eq!(state["cube"]["value"], json!(1));
    assert_eq!(state["cube"]["owner"], Value::Null);
    assert_eq!(state["score"], json!({"white": 0, "black": 0}));
    assert_eq!(state["match_length"], json!(5));
    assert_eq!(state["game_number"], json!(1));
    assert_eq!(state["last_game"], Value::Null);
    assert_eq!(state["crawford"], json!(false));
    assert_eq!(console.handle("legal"), json!({"legal": []}), "rolls are not listed");
}

#[test]
fn a_turn_through_text() {
    let mut console = session("ron_configs/nard/crazy.ron", 1);
    assert_eq!(console.handle("play roll 3 5")["ok"], json!(false), "the opening is one die each");
    ok(console.as_mut(), "play roll 5");
    let answer = ok(console.as_mut(), "play roll 3");
    assert_eq!(answer["to_move"], json!("white"));
    let state = console.handle("state");
    assert_eq!(state["awaiting_roll"], json!(false));
    assert_eq!(state["dice"]["player"], json!("white"));
    assert_eq!(state["dice"]["kind"], json!("roll"));
    assert_eq!(state["dice"]["to_play"], json!([5, 3]));
    assert_eq!(console.handle("legal"), json!({"legal": ["24/21", "24/19"]}));
    ok(console.as_mut(), "play 24/21");
    assert_eq!(console.handle("legal"), json!({"legal": ["21/16"]}));
    assert_eq!(console.handle("play 21/18")["ok"], json!(false));
    let answer = ok(console.as_mut(), "play 21/16");
    assert_eq!(answer["to_move"], json!("black"));
    let state = console.handle("state");
    assert_eq!(state["awaiting_roll"], json!(true));
    assert_eq!(state["board"][15], json!(1), "White's checker on its 16");
    // Black may double before rolling.
    assert_eq!(console.handle("legal"), json!({"legal": ["double"]}));
    ok(console.as_mut(), "play double");
    let state = console.handle("state");
    assert_eq!(state["to_move"], json!("white"));
    assert_eq!(state["awaiting_roll"], json!(false));
    assert_eq!(state["cube"]["offered_by"], json!("black"));
    assert_eq!(console.handle("legal"), json!({"legal": ["take", "drop"]}));
    ok(console.as_mut(), "play take");
    let state = console.handle("state");
    assert_eq!(state["cube"]["value"], json!(2));
    assert_eq!(state["cube"]["owner"], json!("white"));
    assert_eq!((state["to_move"].clone(), state["awaiting_roll"].clone()), (json!("black"), json!(true)));
    ok(console.as_mut(), "play roll 6 1");
    ok(console.as_mut(), "undo");
    assert_eq!(console.handle("state")["awaiting_roll"], json!(true));
}

#[test]
fn the_robot_rolls_when_dice_are_due_and_replays_from_the_seed() {
    let transcript = |seed: u64| {
        let mut console = session("ron_configs/nard/crazy.ron", seed);
        (0..40).map(|_| ok(console.as_mut(), "robot 2")["action"].clone()).collect::<Vec<_>>()
    };
    let first = transcript(7);
    assert!(first[0].as_str().unwrap().starts_with("roll "), "the opening die: {}", first[0]);
    assert_eq!(first, transcript(7), "the same seed replays the same session");
}

#[test]
fn a_one_point_match_played_by_robots_ends_with_an_outcome() {
    let mut console = session("ron_configs/nard/one_point.ron", 3);
    let mut answers = 0;
    loop {
        let answer = ok(console.as_mut(), "robot 1");
        answers += 1;
        if answer["outcome"] != Value::Null {
            assert_eq!(answer["outcome"]["reason"], json!("goal"));
            break;
        }
        assert!(answers < 5000, "the match should have ended");
    }
    let state = console.handle("state");
    assert_eq!(state["last_game"]["game"], json!(state["game_number"]));
    let winner = state["last_game"]["winner"].as_str().unwrap().to_string();
    assert_eq!(state["outcome"]["result"], json!(winner));
    assert!(state["score"][&winner].as_u64().unwrap() >= 1);
    assert_eq!(console.handle("robot 1")["ok"], json!(false), "nobody is to move after the match");
}
