//! `tabla text`: the command contract every game shares, shown on Knight Hunt.

mod shared;
use shared::{legal, session};

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use tabla::levels::{self, FromLevel};
use tabla::record::{Control, Record};
use tabla::rules::knight_hunt::KnightHunt;
use tabla::text::{self, Console, Session};

#[test]
fn state_names_the_seat_to_move_and_no_outcome_yet() {
    let mut console = session("ron_configs/knight_hunt/one_knight.ron", 7);
    let state = console.handle("state");
    assert_eq!(state["to_move"], "white");
    assert_eq!(state["outcome"], Value::Null);
    assert_eq!(state["scores"], json!({"white": 0, "black": 0}));
    assert_eq!(state["knights"]["white"], json!(["g1"]));
}

#[test]
fn legal_lists_every_legal_action() {
    let mut console = session("ron_configs/knight_hunt/two_knights.ron", 7);
    let mut moves = legal(console.as_mut());
    moves.sort();
    assert_eq!(moves, ["b1a3", "b1c3", "b1d2", "g1e2", "g1f3", "g1h3"]);
}

#[test]
fn an_illegal_or_unreadable_action_is_refused_and_changes_nothing() {
    let mut console = session("ron_configs/knight_hunt/one_knight.ron", 7);
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
    let mut console = session("ron_configs/knight_hunt/one_knight.ron", 7);
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
    let mut console = session("ron_configs/knight_hunt/two_knights_capture.ron", 7);
    let options = legal(console.as_mut());
    let answer = console.handle("robot 2");
    assert_eq!(answer["ok"], true);
    assert!(options.contains(&answer["action"].as_str().unwrap().to_string()));
    assert_eq!(console.handle("robot 9")["ok"], false);
}

#[test]
fn a_whole_game_through_text_ends_with_a_result() {
    let mut console = session("ron_configs/knight_hunt/two_knights_capture.ron", 7);
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

#[test]
fn record_answers_the_game_s_record_as_ron() {
    let mut console = session("ron_configs/knight_hunt/one_knight.ron", 7);
    console.handle("play g1f3");
    let answer = console.handle("record");
    let record = Record::from_ron(answer["record"].as_str().unwrap()).unwrap();
    assert_eq!(record.actions, ["g1f3"]);
    assert_eq!(record.seed, 7);
    assert_eq!(record.seats, [Control::Person, Control::Person]);
    assert_eq!(record.clock_left_ms, None);
    // A session made from a game alone has no level file to name.
    let game = levels::builtin().into_iter().find_map(|level| KnightHunt::from_level(&level)).unwrap();
    let mut bare = Session::new(game, 7);
    assert_eq!(bare.handle("record")["ok"], false);
}

/// The JSON lines `text::run` answers to `input`.
fn run(input: impl std::io::Read) -> Vec<Value> {
    let mut console = session("ron_configs/knight_hunt/one_knight.ron", 7);
    let mut output = Vec::new();
    text::run(console.as_mut(), std::io::BufReader::new(input), &mut output).unwrap();
    String::from_utf8(output).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect()
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_next_one_read() {
    let answers = run(&b"play g1f3\r\nplay \xff\xfe\n\nstate\n"[..]);
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(answers[0]["ok"], true);
    assert_eq!(answers[1], json!({"ok": false, "error": "the line is not UTF-8 text"}));
    assert_eq!(answers[2]["knights"]["white"], json!(["f3"]), "the session went on");
}

#[test]
fn a_line_longer_than_the_limit_is_refused_and_skipped_to_its_end() {
    let longest = text::MAX_LINE_BYTES;
    let line_of = |bytes: usize| std::io::repeat(b'x').take(bytes as u64);
    // A line of the longest length is read (and refused as a command); one byte more is not
    // read at all; a line of several megabytes is skipped a buffer at a time.
    let input = line_of(longest)
        .chain(&b"\n"[..])
        .chain(line_of(longest + 1))
        .chain(&b"\nplay g1f3\n"[..])
        .chain(line_of(8 << 20))
        .chain(&b"\nstate\n"[..])
        .chain(line_of(longest + 10));
    let answers = run(input);
    assert_eq!(answers.len(), 6, "one answer a line");
    assert!(answers[0]["error"].as_str().unwrap().starts_with("unknown command 'xxx"));
    let too_long = json!({"ok": false, "error": "the line is longer than 65536 bytes"});
    assert_eq!(answers[1], too_long);
    assert_eq!(answers[2]["ok"], true);
    assert_eq!(answers[3], too_long);
    assert_eq!(answers[4]["knights"]["white"], json!(["f3"]));
    assert_eq!(answers[5], too_long, "a last line without its end");
}

#[test]
fn the_binary_reads_past_a_bad_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(["text", "--level", "ron_configs/knight_hunt/one_knight.ron"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = b"play g1f3\n\xc3\x28\n".to_vec();
    input.extend(std::iter::repeat_n(b'y', 200_000));
    input.extend(b"\nstate\n");
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), 4);
    assert_eq!([&answers[1]["ok"], &answers[2]["ok"]], [false, false]);
    assert_eq!(answers[3]["knights"]["white"], json!(["f3"]));
}
