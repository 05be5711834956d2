//! What Tabla says aloud, read from the one `Speaker`: for a game of each kind against the Robot,
//! what is said, in which language and in which order (what to do, the person's turn, a question
//! and its answers, the result); nothing with the sound off or reading aloud off; a new message
//! cutting short the one still being said, and a turn waiting for it.
use crate::common;

use bevy::prelude::*;
use std::sync::{Arc, Mutex};
use tabla::app::course::turn::{GameCommand, SetControls};
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::platform::settings::Settings;
use tabla::app::platform::speech::{Speaker, Utterance, Voice, spoken};
use tabla::app::{Control, Launch, Opponent, core_plugin};
use tabla::i18n::{Language, Strings};
use tabla::robot::RobotLevel;
use tabla::rules::Seat;

fn said(app: &App) -> Vec<String> {
    app.world().resource::<Speaker>().said_texts()
}

fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// A key's words as they are said in `language`.
fn say(language: Language, key: &str) -> String {
    let words = Strings::new(language);
    let spoken_key = format!("say_{key}");
    spoken(words.get(if words.has(&spoken_key) { &spoken_key } else { key }))
}

fn position(said: &[String], text: &str) -> usize {
    said.iter().position(|s| s == text).unwrap_or_else(|| panic!("'{text}' was never said: {said:#?}"))
}

#[test]
fn a_game_of_each_kind_is_said_from_what_to_do_to_its_result() {
    for (level, person, language) in [
        ("knight_hunt/one_knight", Seat::WHITE, Language::Ro),
        ("circles/classic", Seat::BLACK, Language::En),
        ("bunnies/one_horse", Seat::WHITE, Language::It),
        ("halma/two_players", Seat::WHITE, Language::El),
        ("nard/one_point", Seat::WHITE, Language::En),
    ] {
        let game = level.split('/').next().unwrap();
        let setup = common::setup(level, Opponent::Robot, person, RobotLevel::One);
        let launch = Launch {
            start: Some(setup),
            settings_dir: Some(common::test_home(&format!("speech-{game}"))),
            language: Some(language),
            ..default()
        };
        let mut app = common::launched(launch, 5, |app| {
            app.add_plugins(core_plugin);
        });
        frames(&mut app, 40);
        // The person's turn (after the Robot's first move when it opens).
        let turn_said = |app: &App| {
            app.world().resource::<ScoreBoard>().said.status.as_ref().is_some_and(|s| {
                app.world().resource::<Speaker>().said.iter().any(|said| said.text == spoken(&s.text))
            })
        };
        for _ in 0..400 {
            if turn_said(&app) {
                break;
            }
            app.update();
        }
        let status = app.world().resource::<ScoreBoard>().said.status.clone();
        assert!(turn_said(&app), "{game}: the turn {status:?} was not said: {:#?}", said(&app));
        let first = said(&app);
        let what_to_do = position(&first, &say(language, &format!("help_short_{game}")));
        let turn = spoken(&app.world().resource::<ScoreBoard>().said.status.clone().unwrap().text);
        assert!(position(&first, &turn) > what_to_do, "{game}: the turn after what to do: {first:#?}");
        assert!(
            app.world().resource::<Speaker>().said.iter().all(|s| s.language == language),
            "{game}: all in {language:?}"
        );
        // Two Robots finish it: the result is said, the Robot's own moves never are.
        app.world_mut().write_message(SetControls(vec![
            Control::Robot(RobotLevel::One),
            Control::Robot(RobotLevel::One),
        ]));
        common::until(&mut app, |app| app.world().resource::<ScoreBoard>().result.is_some());
        frames(&mut app, 5);
        let title = spoken(&app.world().resource::<ScoreBoard>().result.clone().unwrap().title);
        let all = said(&app);
        assert_eq!(all.iter().filter(|s| **s == title).count(), 1, "{game}: the result said once: {all:#?}");
        let moves = app.world().resource::<ScoreBoard>().moves;
        assert!(all.len() < 20 + moves / 4, "{game}: no chatter: {} things said in {moves} moves", all.len());
    }
}

#[test]
fn a_question_is_said_before_its_answers_in_the_order_shown() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "speech-question", 3, |_| {});
    frames(&mut app, 10);
    // A move, then Restart asks first.
    let game = app.world().resource::<tabla::app::session::play::Play>().game().boxed();
    let knight = game.pieces().into_iter().map(|(at, _)| at).find(|at| game.movable(*at)).unwrap();
    let target = game.targets(knight)[0];
    common::press(&mut app, knight);
    common::press(&mut app, target);
    frames(&mut app, 30);
    common::command(&mut app, GameCommand::Restart);
    frames(&mut app, 3);
    let all = said(&app);
    let question = position(&all, &say(Language::En, "ask_restart"));
    assert_eq!(
        all[question + 1..question + 3],
        [say(Language::En, "keep_playing"), say(Language::En, "start_again")]
    );
}

#[test]
fn nothing_is_said_with_the_sound_off_or_reading_aloud_off() {
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let mut app = common::headless(setup, "speech-off", 3, |_| {});
    frames(&mut app, 10);
    let before = said(&app).len();
    assert!(before > 0);
    app.world_mut().resource_mut::<Settings>().sound = false;
    common::command(&mut app, GameCommand::Hint);
    frames(&mut app, 30);
    assert_eq!(said(&app).len(), before, "the sound off: {:#?}", said(&app));
    app.world_mut().resource_mut::<Settings>().sound = true;
    app.world_mut().resource_mut::<Settings>().reading.aloud = false;
    common::command(&mut app, GameCommand::Deselect);
    common::command(&mut app, GameCommand::Hint);
    frames(&mut app, 30);
    assert_eq!(said(&app).len(), before, "reading aloud off: {:#?}", said(&app));
}

/// A voice that keeps talking until it is stopped, and writes down what it was asked.
#[derive(Clone, Default)]
struct Chatty(Arc<Mutex<(Vec<String>, usize, bool)>>);

impl Voice for Chatty {
    fn has(&mut self, _language: Language) -> bool {
        true
    }
    fn speak(&mut self, _utterance: &Utterance, text: &str, _slow: bool) -> bool {
        let mut log = self.0.lock().unwrap();
        log.0.push(text.to_string());
        log.2 = true;
        false
    }
    fn stop(&mut self) {
        let mut log = self.0.lock().unwrap();
        if log.2 {
            log.1 += 1;
        }
        log.2 = false;
    }
    fn busy(&mut self) -> bool {
        self.0.lock().unwrap().2
    }
}

#[test]
fn a_new_message_cuts_short_the_one_being_said_and_a_turn_waits_for_it() {
    let voice = Chatty::default();
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let heard = voice.clone();
    let mut app = common::headless(setup, "speech-cut", 3, move |app| {
        app.insert_resource(Speaker::new(Box::new(heard)));
    });
    frames(&mut app, 5);
    // What to do is still being said: the turn waits behind it.
    let log = voice.0.lock().unwrap().clone();
    assert_eq!(log.0, [say(Language::En, "help_short_knight_hunt")], "{log:?}");
    // A hint's words cut it short.
    common::command(&mut app, GameCommand::Hint);
    frames(&mut app, 30);
    let log = voice.0.lock().unwrap().clone();
    assert_eq!(log.1, 1, "one utterance cut short: {log:?}");
    let hint = app.world().resource::<ScoreBoard>().said.status.clone().unwrap();
    assert_eq!(log.0.last(), Some(&spoken(&hint.text)), "the hint's move in words: {log:?}");
    assert!(!log.0.contains(&say(Language::En, "your_turn")), "the turn was dropped with it: {log:?}");
}

#[test]
fn a_voice_pack_made_with_espeak_ng_is_played_where_it_has_the_message() {
    // A family's pack, made here with espeak-ng: one message of English recorded.
    let home = common::test_home("speech-pack");
    let _ = std::fs::remove_dir_all(&home);
    let folder = home.join("voice").join("en");
    std::fs::create_dir_all(&folder).unwrap();
    let words = Strings::new(Language::En);
    let made = std::process::Command::new("espeak-ng")
        .args(["-v", "en-gb", "-w"])
        .arg(folder.join("what_to_do.wav"))
        .arg(words.get("help_short_knight_hunt"))
        .status()
        .expect("espeak-ng makes the test's voice pack (test.sh installs it)");
    assert!(made.success());
    std::fs::write(folder.join("index.ron"), r#"{ "help_short_knight_hunt": "what_to_do.wav" }"#).unwrap();
    let setup = common::setup("knight_hunt/one_knight", Opponent::Robot, Seat::WHITE, RobotLevel::One);
    let launch = Launch { start: Some(setup), settings_dir: Some(home), ..default() };
    let mut app = common::launched(launch, 3, |app| {
        app.add_plugins(core_plugin);
    });
    frames(&mut app, 10);
    let speaker = app.world().resource::<Speaker>();
    let first = &speaker.said[0];
    assert_eq!(first.text, say(Language::En, "help_short_knight_hunt"));
    assert!(first.recorded, "the recording is played for the message it holds");
    assert!(
        speaker.said.iter().skip(1).all(|said| !said.recorded),
        "the others are spoken: {:?}",
        speaker.said
    );
}
