//! Game records: every level's game written through `tabla text`'s `record`, read back and
//! replayed to the same state, legal actions, undo and redo; a whole Nard match with the cube,
//! Halma's draw votes, a clock running out; and every kind of broken record refused with a
//! message that says what is wrong.

mod shared;
use shared::{legal, ok, session};

use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use tabla::history::History;
use tabla::levels::{self, FromLevel, Level};
use tabla::record::{Control, Progress, Record, RecordError, VERSION};
use tabla::robot::RobotLevel;
use tabla::rules::bunnies::BunniesAndHorses;
use tabla::rules::knight_hunt::KnightHunt;
use tabla::rules::{EndReason, Game, GameKind, Seat};
use tabla::text::{self, Console};

fn level(file: &str) -> Level {
    levels::find(file).unwrap_or_else(|e| panic!("{e}"))
}

fn is_over(console: &mut dyn Console) -> bool {
    !console.handle("state")["outcome"].is_null()
}

/// The record text the session writes.
fn record_text(console: &mut dyn Console) -> String {
    let answer = console.handle("record");
    answer["record"].as_str().unwrap_or_else(|| panic!("no record: {answer}")).to_string()
}

fn record_of(console: &mut dyn Console) -> Record {
    Record::from_ron(&record_text(console)).unwrap_or_else(|e| panic!("{e}"))
}

/// A file in the test's own scratch folder.
fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("record-{name}"))
}

fn write(name: &str, text: &str) -> String {
    let path = scratch(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

/// Both sessions answer the same to `state` and `legal`.
fn assert_same(original: &mut dyn Console, loaded: &mut dyn Console, at: &str) {
    assert_eq!(loaded.handle("state"), original.handle("state"), "{at}: state");
    assert_eq!(legal(loaded), legal(original), "{at}: legal");
}

/// Both sessions answer the same to each command, and stand the same after it.
fn assert_same_after(original: &mut dyn Console, loaded: &mut dyn Console, commands: &[&str], at: &str) {
    for command in commands {
        assert_eq!(loaded.handle(command), original.handle(command), "{at}: {command}");
        assert_same(original, loaded, &format!("{at} after {command}"));
    }
}

/// A seeded game of up to `actions` actions played by the level-1 Robot (its rolls too), with
/// the last two taken back so the record has something to redo.
fn played(file: &str, seed: u64, actions: usize) -> Box<dyn Console> {
    let mut console = session(file, seed);
    for _ in 0..actions {
        if is_over(console.as_mut()) {
            break;
        }
        ok(console.as_mut(), "robot 1");
    }
    ok(console.as_mut(), "undo");
    ok(console.as_mut(), "undo");
    console
}

#[test]
fn every_level_goes_on_from_its_record_as_it_was() {
    for (seed, (file, _)) in (1..).zip(levels::BUILTIN) {
        let mut original = played(file, seed, 60);
        let text = record_text(original.as_mut());
        let record = Record::from_ron(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(record.level_file(), *file);
        assert_eq!(record.seed, seed);
        assert_eq!(record.undone.len(), 2, "{file}");
        assert!(record.actions.len() >= 10, "{file}: a game of many actions");
        assert_eq!(Record::from_ron(&record.to_ron()), Ok(record.clone()), "{file}: written as read");

        // The library's way: the record replayed on its level.
        let mut replayed = text::session_from_record(&record.level().unwrap(), &record).unwrap();
        assert_same(original.as_mut(), replayed.as_mut(), file);
        assert_eq!(record_text(replayed.as_mut()), text, "{file}: the replayed game writes the same record");

        // The command line's way: `tabla text --load FILE`.
        let path = write(&format!("every-{seed}.ron"), &text);
        let mut loaded = text::load_session(&path, None).unwrap_or_else(|e| panic!("{e}"));
        assert_same(original.as_mut(), loaded.as_mut(), file);
        // Redo brings back what was undone, and the seed goes on: the Robot and the dice choose
        // the same as they would have in the original game.
        let commands = ["redo", "redo", "redo", "robot 1", "robot 1", "undo", "undo", "undo", "redo"];
        assert_same_after(original.as_mut(), loaded.as_mut(), &commands, file);

        let summary = record.check().unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(summary.actions, record.actions.len());
        assert_eq!((summary.game, summary.variant.as_str()), (record.game, record.variant.as_str()));
        let state = replayed.handle("state");
        assert_eq!(summary.to_move.as_deref(), state["to_move"].as_str(), "{file}");
        assert_eq!(summary.over, !state["outcome"].is_null(), "{file}");
    }
}

#[test]
fn a_record_names_its_level_seed_and_every_seat_a_person() {
    let mut console = session("ron_configs/halma/four_one_army.ron", 11);
    ok(console.as_mut(), "play d2e3");
    let record = record_of(console.as_mut());
    assert_eq!(record.version, VERSION);
    assert_eq!((record.game, record.variant.as_str()), (GameKind::Halma, "four_one_army"));
    assert_eq!(record.first, 0);
    assert_eq!(record.seed, 11);
    assert_eq!(record.seats, vec![Control::Person; 4]);
    assert_eq!((record.clock_minutes, record.clock_left_ms.as_ref()), (0, None));
    assert_eq!(record.actions, ["d2e3"]);
    assert!(record.undone.is_empty() && record.hinted.is_empty());
    assert_eq!((record.hints_asked, record.takebacks), (0, 0));
}

#[test]
fn a_whole_nard_match_with_the_cube_replays_to_its_end() {
    let file = "ron_configs/nard/three_points.ron";
    let mut console = session(file, 5);
    // The Robot plays the checkers and rolls; the cube is turned whenever it may be, and the
    // doubles are taken and dropped by turns.
    let mut answers = ["take", "drop"].into_iter().cycle();
    let mut actions = 0;
    while !is_over(console.as_mut()) {
        let legal = legal(console.as_mut());
        let command = if legal.iter().any(|a| a == "double") {
            "play double".to_string()
        } else if legal.iter().any(|a| a == "take") {
            format!("play {}", answers.next().unwrap())
        } else {
            "robot 1".to_string()
        };
        ok(console.as_mut(), &command);
        actions += 1;
        assert!(actions < 20_000, "the match must end");
    }
    let record = record_of(console.as_mut());
    for cube_action in ["double", "take", "drop"] {
        assert!(record.actions.iter().any(|a| a == cube_action), "the record has a {cube_action}");
    }
    assert!(record.actions.iter().any(|a| a.starts_with("roll ")), "the rolls are in the record");
    let state = console.handle("state");
    assert!(state["game_number"].as_u64().unwrap() >= 2, "a match of several games: {state}");

    let mut loaded = text::load_session(&write("nard-match.ron", &record.to_ron()), None).unwrap();
    assert_same(console.as_mut(), loaded.as_mut(), file);
    assert_eq!(loaded.handle("state")["outcome"], state["outcome"]);

    let summary = record.check().unwrap();
    assert!(summary.over);
    assert_eq!(summary.to_move, None);
    let score = |seat: &str| state["score"][seat].as_u64().unwrap() as u32;
    let game = state["game_number"].as_u64().unwrap() as u32;
    assert_eq!(
        summary.progress,
        Progress::Match { white: score("white"), black: score("black"), game, length: 3 }
    );
    assert!(score("white") >= 3 || score("black") >= 3, "someone won the match");
}

#[test]
fn halma_draw_offers_and_votes_are_replayed() {
    let file = "ron_configs/halma/three_players.ron";
    let mut console = session(file, 2);
    ok(console.as_mut(), "play offer_draw");
    ok(console.as_mut(), "play accept_draw");
    ok(console.as_mut(), "play refuse_draw");
    for _ in 0..6 {
        ok(console.as_mut(), "robot 1");
    }
    ok(console.as_mut(), "play offer_draw");
    ok(console.as_mut(), "play accept_draw");

    // Recorded in the middle of a vote: the last voter is still to answer.
    let middle = record_of(console.as_mut());
    assert_eq!(middle.actions[..3], ["offer_draw", "accept_draw", "refuse_draw"]);
    let mut loaded = text::session_from_record(&level(file), &middle).unwrap();
    assert_same(console.as_mut(), loaded.as_mut(), "mid-vote");
    assert!(!loaded.handle("state")["draw_proposal"].is_null());
    assert_same_after(console.as_mut(), loaded.as_mut(), &["play accept_draw"], "the last vote");

    let agreed = record_of(console.as_mut());
    let mut loaded = text::session_from_record(&level(file), &agreed).unwrap();
    let outcome = loaded.handle("state")["outcome"].clone();
    assert_eq!(outcome, json!({"result": "draw", "reason": "agreement"}));
    let summary = agreed.check().unwrap();
    assert!(summary.over);
    let Progress::InGoal(counts) = summary.progress else { panic!("Halma counts pieces in goal") };
    let seats: Vec<&str> = counts.iter().map(|c| c.seat.as_str()).collect();
    assert_eq!(seats, ["a1", "p1", "p16"]);
    assert!(counts.iter().all(|c| c.of > 0 && c.in_goal <= c.of));
}

#[test]
fn halma_that_starts_with_another_seat_records_its_first_seat() {
    let file = "ron_configs/halma/three_players.ron";
    let start = level(file).with_first(Seat(2));
    let mut history: History<tabla::rules::halma::Halma> =
        History::new(FromLevel::from_level(&start).unwrap(), 4);
    let first_move = history.game().legal_actions()[0];
    history.play(&first_move, ()).unwrap();
    let record = Record::of_history(&level(file), &history, vec![Control::Person; 3]);
    assert_eq!(record.first, 2);
    let replayed: History<tabla::rules::halma::Halma> = record.replay(|_, _, _| ()).unwrap();
    assert_eq!(replayed.steps()[0].game.to_move(), Some(Seat(2)));
    assert_eq!(replayed.game(), history.game());
    assert_eq!(record.check().unwrap().to_move.as_deref(), Some("a1"), "p16 moved, a1 is next");
}

/// A Knight Hunt history of `moves` moves, each the first legal one.
fn knight_hunt(moves: usize) -> History<KnightHunt> {
    let mut history =
        History::new(KnightHunt::from_level(&level("ron_configs/knight_hunt/two_knights.ron")).unwrap(), 9);
    for _ in 0..moves {
        let action = history.game().legal_actions()[0];
        history.play(&action, ()).unwrap();
    }
    history
}

fn knight_hunt_record(history: &History<KnightHunt>) -> Record {
    Record::of_history(&level("ron_configs/knight_hunt/two_knights.ron"), history, vec![Control::Person; 2])
}

#[test]
fn a_clock_running_out_is_recorded_and_replayed() {
    let mut history = knight_hunt(5);
    let seat = history.game().to_move().unwrap();
    history.time_out(seat);
    let record = knight_hunt_record(&history);
    assert_eq!(record.actions.last().unwrap(), "time_out black");
    let replayed: History<KnightHunt> = record.replay(|_, _, _| ()).unwrap();
    assert_eq!(replayed.game(), history.game());
    assert_eq!(replayed.game().outcome().unwrap().reason, EndReason::OutOfTime);
    assert_eq!(replayed.last().timed_out, Some(Seat::BLACK));
    assert!(record.check().unwrap().over);

    // Taken back, the time-out waits for redo.
    history.undo();
    let record = knight_hunt_record(&history);
    assert_eq!(record.undone, ["time_out black"]);
    let mut replayed: History<KnightHunt> = record.replay(|_, _, _| ()).unwrap();
    assert!(replayed.game().outcome().is_none());
    assert!(replayed.redo().is_some());
    assert_eq!(replayed.game(), history.redo().map(|step| &step.game).unwrap());
}

#[test]
fn a_time_out_names_the_seat_as_the_game_calls_it() {
    // In Bunnies and Horses a seat is named by its role in the round.
    let file = "ron_configs/bunnies/one_horse.ron";
    let mut history: History<BunniesAndHorses> =
        History::new(FromLevel::from_level(&level(file)).unwrap(), 3);
    let seat = history.game().to_move().unwrap();
    let name = history.game().seat_name(seat).to_string();
    history.time_out(seat);
    let record =
        Record::of_history(&level(file), &history, vec![Control::Person, Control::Robot(RobotLevel::Two)]);
    assert_eq!(record.actions, [format!("time_out {name}")]);
    let mut loaded = text::load_session(&write("bunnies-time-out.ron", &record.to_ron()), None).unwrap();
    assert_eq!(loaded.handle("state")["outcome"]["reason"], "out_of_time");
}

#[test]
fn undone_actions_survive_the_record_for_redo() {
    let mut history = knight_hunt(6);
    let after: Vec<KnightHunt> = history.steps().iter().map(|step| step.game.clone()).collect();
    for _ in 0..4 {
        history.undo();
    }
    let record = knight_hunt_record(&history);
    assert_eq!(record.actions.len(), 2);
    assert_eq!(record.undone.len(), 4);
    assert_eq!(record.undone, knight_hunt(6).action_texts()[2..], "the next redo first");

    let mut replayed: History<KnightHunt> = record.replay(|_, _, _| ()).unwrap();
    assert_eq!(replayed.undone_texts(), record.undone);
    for expected in &after[3..] {
        assert_eq!(&replayed.redo().unwrap().game, expected);
    }
    assert!(replayed.redo().is_none());
}

#[test]
fn replay_rebuilds_each_step_s_note_from_the_state_before_it() {
    let mut history = knight_hunt(4);
    history.undo();
    let record = knight_hunt_record(&history);
    let replayed: History<KnightHunt, String> = record
        .replay(|before: &KnightHunt, action, index| format!("{index}:{}", before.action_text(action)))
        .unwrap();
    let notes: Vec<&str> = replayed.steps().iter().skip(1).map(|step| step.note.as_str()).collect();
    let texts = &record.actions;
    assert_eq!(notes, [format!("0:{}", texts[0]), format!("1:{}", texts[1]), format!("2:{}", texts[2])]);
    assert_eq!(replayed.undone()[0].note, format!("3:{}", record.undone[0]));
}

#[test]
fn hinted_actions_are_counted_over_the_played_and_the_undone() {
    let mut history: History<KnightHunt, bool> =
        History::new(KnightHunt::from_level(&level("ron_configs/knight_hunt/two_knights.ron")).unwrap(), 9);
    for hinted in [false, true, false, true] {
        let action = history.game().legal_actions()[0];
        history.play(&action, hinted).unwrap();
    }
    history.undo();
    assert_eq!(Record::hinted_in(&history, |&hinted| hinted), [2, 4]);
    let record = Record {
        hinted: Record::hinted_in(&history, |&hinted| hinted),
        hints_asked: 3,
        ..Record::of_history(
            &level("ron_configs/knight_hunt/two_knights.ron"),
            &history,
            vec![Control::Person; 2],
        )
    };
    let replayed: History<KnightHunt, bool> =
        record.replay(|_, _, index| record.hinted.contains(&(index as u32 + 1))).unwrap();
    assert_eq!(Record::hinted_in(&replayed, |&hinted| hinted), [2, 4]);
    assert_eq!(Record::from_ron(&record.to_ron()).unwrap(), record);
}

#[test]
fn clocks_and_robots_are_kept() {
    let history = knight_hunt(2);
    let record = Record {
        clock_minutes: 5,
        clock_left_ms: Some(vec![299_000, 287_500]),
        takebacks: 1,
        ..Record::of_history(
            &level("ron_configs/knight_hunt/two_knights.ron"),
            &history,
            vec![Control::Robot(RobotLevel::Three), Control::Person],
        )
    };
    let text = record.to_ron();
    assert!(text.contains("Robot(3)"), "{text}");
    assert_eq!(Record::from_ron(&text).unwrap(), record);
}

// Broken records: each says what is wrong.

fn error_of(text: &str) -> RecordError {
    match Record::from_ron(text).and_then(|record| record.check()) {
        Ok(summary) => panic!("a broken record was read: {summary:?}"),
        Err(e) => e,
    }
}

fn good_record() -> Record {
    knight_hunt_record(&knight_hunt(6))
}

#[test]
fn a_text_that_is_not_a_record_says_where() {
    let message = error_of("(version: 1, game: \"knight_hunt\",\n variant: )").to_string();
    assert!(message.starts_with("not a record: 2:"), "{message}");
    let message = error_of("hello").to_string();
    assert!(message.starts_with("not a record: 1:"), "{message}");
    let missing = good_record().to_ron().replace("    actions: [", "    actons: [");
    let message = error_of(&missing).to_string();
    assert!(message.starts_with("not a record: ") && message.contains("actons"), "{message}");
}

#[test]
fn a_record_of_another_version_names_its_version() {
    // A future record with fields this Tabla does not know still names its version.
    let future = good_record().to_ron().replace("version: 1,", "version: 7,\n    colours: [\"blue\"],");
    assert_eq!(error_of(&future), RecordError::UnknownVersion(7));
    assert_eq!(error_of(&future).to_string(), "unknown version 7 (this Tabla reads version 1)");
    let without = good_record().to_ron().replace("version: 1,", "");
    assert!(error_of(&without).to_string().contains("version"), "a record without a version");
}

#[test]
fn a_record_of_a_game_tabla_does_not_have_is_refused_as_it_is_read() {
    let chess = good_record().to_ron().replace("game: \"knight_hunt\"", "game: \"chess\"");
    let message = Record::from_ron(&chess).unwrap_err().to_string();
    assert!(message.contains("'chess' is no game of Tabla's"), "{message}");
}

#[test]
fn a_record_whose_level_does_not_exist_names_the_level() {
    let record = Record { game: GameKind::Halma, variant: "nope".into(), ..good_record() };
    let message = error_of(&record.to_ron()).to_string();
    assert!(message.starts_with("the level ron_configs/halma/nope.ron: "), "{message}");
    let sneaky = Record { variant: "../../etc/passwd".into(), ..good_record() };
    assert!(error_of(&sneaky.to_ron()).to_string().contains("not a plain name"));
}

#[test]
fn a_hand_edited_action_is_refused_with_its_number() {
    let mut record = good_record();
    let legal_then = record.actions[2].clone();
    record.actions[2] = "a1a2".into();
    let message = error_of(&record.to_ron()).to_string();
    assert_eq!(message, "action 3 'a1a2': illegal: a1a2 is not a legal move now");

    record.actions[2] = "hello".into();
    assert_eq!(error_of(&record.to_ron()).to_string(), "action 3 'hello': cannot read the action 'hello'");

    record.actions[2] = legal_then;
    record.undone = vec!["h8h1".into()];
    let message = error_of(&record.to_ron()).to_string();
    assert!(message.starts_with("action 7 'h8h1' (undone, kept for redo): illegal"), "{message}");

    record.undone = vec!["time_out green".into()];
    let message = error_of(&record.to_ron()).to_string();
    assert_eq!(
        message,
        "action 7 'time_out green' (undone, kept for redo): no seat is called 'green' (the seats are white, black)"
    );
}

#[test]
fn a_record_that_does_not_fit_its_level_says_how() {
    let seats = Record { seats: vec![Control::Person; 3], ..good_record() };
    assert!(error_of(&seats.to_ron()).to_string().contains("the record names 3 players"));
    let clocks = Record { clock_left_ms: Some(vec![1000]), ..good_record() };
    assert!(error_of(&clocks.to_ron()).to_string().contains("1 clocks"));
    let hinted = Record { hinted: vec![40], ..good_record() };
    assert!(error_of(&hinted.to_ron()).to_string().contains("hinted action 40"));
    let first = Record { first: 1, ..good_record() };
    assert!(error_of(&first.to_ron()).to_string().starts_with("first seat 1:"));
}

#[test]
fn loading_a_broken_record_file_names_the_file() {
    let mut record = good_record();
    record.actions[4] = "b1b2".into();
    let path = write("broken-action.ron", &record.to_ron());
    let Err(message) = text::load_session(&path, None) else { panic!("a broken record was loaded") };
    assert_eq!(message, format!("{path}: action 5 'b1b2': illegal: b1b2 is not a legal move now"));
    let Err(message) = text::load_session(&scratch("absent.ron").display().to_string(), None) else {
        panic!("an absent file was loaded")
    };
    assert!(message.contains("record-absent.ron: cannot read the record"), "{message}");
}

#[test]
fn a_level_given_beside_a_record_must_be_its_own() {
    let path = write("level-beside.ron", &good_record().to_ron());
    assert!(text::load_session(&path, Some("ron_configs/knight_hunt/two_knights.ron")).is_ok());
    assert!(text::load_session(&path, Some("./ron_configs/knight_hunt/two_knights.ron")).is_ok());
    let Err(message) = text::load_session(&path, Some("ron_configs/knight_hunt/one_knight.ron")) else {
        panic!("a record was played on another level")
    };
    assert!(message.contains("the record is of ron_configs/knight_hunt/two_knights.ron, not of the level ron_configs/knight_hunt/one_knight.ron"), "{message}");
}

// The real binary.

/// Runs `tabla text` with `args`, `input` on its standard input; its status, output and errors.
fn tabla_text(args: &[&str], input: &[u8]) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .arg("text")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        // A tabla that refuses its arguments exits without reading: its input may find no reader.
        let _ = child.stdin.take().unwrap().write_all(input);
    }
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_binary_goes_on_from_a_record_file() {
    let file = "ron_configs/nard/crazy.ron";
    let commands = "robot 1\n".repeat(30) + "undo\nrecord\n";
    let (success, out, _) = tabla_text(&["--level", file, "--seed", "21"], commands.as_bytes());
    assert!(success);
    let answer: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let path = write("binary.ron", answer["record"].as_str().unwrap());

    let mut original = session(file, 21);
    for command in commands.lines().filter(|&line| line != "record") {
        ok(original.as_mut(), command);
    }
    let probe = "state\nlegal\nredo\nstate\nrobot 1\nstate\n";
    let expected: Vec<Value> = probe.lines().map(|line| original.handle(line)).collect();
    let (success, out, errors) = tabla_text(&["--load", &path], probe.as_bytes());
    assert!(success, "{errors}");
    let answers: Vec<Value> = out.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(answers, expected);
    let (success, out, _) = tabla_text(&["--load", &path, "--level", file], b"state\n");
    assert!(success);
    assert_eq!(serde_json::from_str::<Value>(out.trim()).unwrap(), expected[0]);
}

#[test]
fn the_binary_refuses_a_bad_record_with_a_message() {
    let corrupt = write("binary-corrupt.ron", "(version: 1, game: ");
    let future = write("binary-future.ron", &good_record().to_ron().replace("version: 1", "version: 2"));
    let beside = write("binary-beside.ron", &good_record().to_ron());
    let cases = [
        (vec!["--load", corrupt.as_str()], format!("{corrupt}: not a record: ")),
        (
            vec!["--load", future.as_str()],
            format!("{future}: unknown version 2 (this Tabla reads version 1)"),
        ),
        (vec!["--load", beside.as_str(), "--level", "ron_configs/nard/crazy.ron"], "not of the level".into()),
        (vec!["--load", beside.as_str(), "--seed", "3"], "--seed does not go with --load".into()),
    ];
    for (args, expected) in cases {
        let (success, out, errors) = tabla_text(&args, b"state\n");
        assert!(!success, "{args:?}");
        assert!(out.is_empty(), "{args:?}: no session: {out}");
        assert!(errors.contains(&expected), "{args:?}: {errors}");
        assert!(!errors.contains("panicked"), "{args:?}: {errors}");
    }
}

// Limits (issue "Kept means kept"): what is read of a file is bounded, and so is what a message
// quotes of it.

#[test]
fn a_record_over_a_megabyte_or_twenty_thousand_actions_is_refused() {
    let mut record = good_record();
    record.actions = vec!["g1f3".into(); tabla::record::MOST_ACTIONS + 1];
    let message = Record::from_ron(&record.to_ron()).unwrap_err().to_string();
    assert!(message.contains("20001 actions"), "{message}");
    let padded = format!("{}{}", good_record().to_ron(), " ".repeat(tabla::record::MOST_BYTES));
    let message = Record::from_ron(&padded).unwrap_err().to_string();
    assert!(message.contains("bytes long"), "{message}");
    // A file that large is not even read.
    let path = write("huge.ron", &padded);
    let message = text::load_session(&path, None).err().expect("refused");
    assert!(message.contains("bytes long"), "{message}");
}

#[test]
fn a_message_quotes_at_most_about_eighty_characters_of_a_file() {
    let mut record = good_record();
    record.actions[2] = "x".repeat(1_000_000 - 2000);
    let message = error_of(&record.to_ron()).to_string();
    assert!(message.chars().count() < 300, "{} characters", message.chars().count());
    assert!(message.starts_with("action 3 'xxxx"), "{message}");
    let long_field =
        good_record().to_ron().replace("    actions: [", &format!("    {}: [", "a".repeat(5000)));
    let message = error_of(&long_field).to_string();
    assert!(message.chars().count() < 300, "{} characters", message.chars().count());
}

#[test]
fn a_games_identity_is_its_level_first_seat_and_seed() {
    let record = good_record();
    assert_eq!(
        record.identity(),
        Record { actions: Vec::new(), ..record.clone() }.identity(),
        "moves change it not"
    );
    assert_ne!(record.identity(), Record { seed: record.seed + 1, ..record.clone() }.identity());
    assert_ne!(record.identity(), Record { variant: "one_knight".into(), ..record.clone() }.identity());
}

#[test]
fn a_loaded_record_gives_back_its_seats_clock_stage_hints_and_take_backs() {
    let mut checked = 0;
    for (seed, (file, _)) in (1..).zip(levels::BUILTIN) {
        let level = level(file);
        let mut original = played(file, seed, 12);
        let plain = record_of(original.as_mut());
        let seats: Vec<Control> = (0..plain.seats.len())
            .map(|i| if i == 0 { Control::Person } else { Control::Robot(RobotLevel::Two) })
            .collect();
        let all = (plain.actions.len() + plain.undone.len()) as u32;
        let record = Record {
            seats,
            clock_minutes: 5,
            clock_left_ms: Some(vec![123_456; plain.seats.len()]),
            stage: Some("knight_hunt_2".into()),
            hinted: vec![1, all],
            hints_asked: 3,
            takebacks: 4,
            ..plain
        };
        let path = write(&format!("round-trip-{seed}.ron"), &record.to_ron());
        let mut loaded = text::load_session(&path, None).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(record_of(loaded.as_mut()), record, "{file}: the record comes back as it was");
        let mut on_level = text::session_from_record(&level, &record).unwrap();
        assert_eq!(record_of(on_level.as_mut()), record, "{file}");
        checked += 1;
    }
    assert_eq!(checked, levels::BUILTIN.len());
}
