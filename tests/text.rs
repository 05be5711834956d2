//! `tabla text`: the command contract every game shares, shown on Knight Hunt.

use serde_json::{Value, json};
use tabla::levels;
use tabla::text::{self, Console};

fn session(level: &str) -> Box<dyn Console> {
    text::session_for(&levels::find(level).unwrap(), 7)
}

fn legal(console: &mut dyn Console) -> Vec<String> {
    let answer = console.handle("legal");
    answer["legal"].as_array().unwrap().iter().map(|a| a.as_str().unwrap().to_string()).collect()
}

#[test]
fn state_names_the_seat_to_move_and_no_outcome_yet() {
    let mut console = session("ron_configs/knight_hunt/one_knight.ron");
    let state = console.handle("state");
    assert_eq!(state["to_move"], "white");
    assert_eq!(state["outcome"], Value::Null);
    assert_eq!(state["scores"], json!({"white": 0, "black": 0}));
    assert_eq!(state["knights"]["white"], json!(["g1"]));
}

#[test]
fn legal_lists_every_legal_action() {
    let mut console = session("ron_configs/knight_hunt/two_knights.ron");
    let mut moves = legal(console.as_mut());
    moves.sort();
    assert_eq!(moves, ["b1a3", "b1c3", "b1d2", "g1e2", "g1f3", "g1h3"]);
}

#[test]
fn an_illegal_or_unreadable_action_is_refused_and_changes_nothing() {
    let mut console = session("ron_configs/knight_hunt/one_knight.ron");
    let before = console.handle("state");
    for bad in ["play g1g3", "play hello", "play", "jump g1f3", "play g8f6"] {
        let answer = console.handle(bad);
        assert_eq!(answer["ok"], false, "{bad}");
        assert!(answer["error"].as_str().is_some_and(|e| !e.is_empty()), "{bad}");
    }
    assert_eq!(console.handle("state"), before);
}

#[test]
fn play_undo_and_redo() {
    let mut console = session("ron_configs/knight_hunt/one_knight.ron");
    let start = console.handle("state");
    let answer = console.handle("play g1f3");
    assert_eq!(answer["ok"], true);
    assert_eq!(answer["to_move"], "black");
    let after = console.handle("state");
    assert_eq!(after["knights"]["white"], json!(["f3"]));
    assert_eq!(console.handle("undo")["ok"], true);
    assert_eq!(console.handle("state"), start);
    assert_eq!(console.handle("undo")["ok"], false, "nothing before the start");
    assert_eq!(console.handle("redo")["ok"], true);
    assert_eq!(console.handle("state"), after);
    assert_eq!(console.handle("redo")["ok"], false);
}

#[test]
fn the_robot_plays_a_legal_action() {
    let mut console = session("ron_configs/knight_hunt/two_knights_capture.ron");
    let options = legal(console.as_mut());
    let answer = console.handle("robot 2");
    assert_eq!(answer["ok"], true);
    assert!(options.contains(&answer["action"].as_str().unwrap().to_string()));
    assert_eq!(console.handle("robot 9")["ok"], false);
}

#[test]
fn a_whole_game_through_text_ends_with_a_result() {
    let mut console = session("ron_configs/knight_hunt/two_knights_capture.ron");
    let mut moves = 0;
    while console.handle("state")["outcome"].is_null() {
        let level = if moves % 2 == 0 { "3" } else { "1" };
        assert_eq!(console.handle(&format!("robot {level}"))["ok"], true);
        moves += 1;
        assert!(moves < 500, "the game must end");
    }
    let outcome = console.handle("state")["outcome"].clone();
    assert!(["white", "black", "draw"].contains(&outcome["result"].as_str().unwrap()));
    assert_eq!(console.handle("state")["to_move"], Value::Null);
    assert_eq!(console.handle("robot 3")["ok"], false, "nobody moves after the end");
}
