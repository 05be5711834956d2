//! The desktop app killed at any moment loses nothing that it told: two Robots play Halma in a
//! real window, the app is killed with SIGKILL at seeded random moments, started again with
//! `--continue`, and goes on from its last logged action every time. Each save is a temporary
//! file renamed over the last, so a kill leaves the old save or the new one, whole.
//!
//! It needs a display: test.sh runs it under Xvfb (`xvfb-run -a cargo test --test
//! continue_after_kill`).
#![cfg(feature = "app")]

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use tabla::record::Record;

/// A `record <game>/<variant> <actions> <last action>` line: the number and the action.
fn record_line(line: &str) -> Option<(usize, String)> {
    let rest = &line[line.find("record halma/two_players ")? + "record halma/two_players ".len()..];
    let (count, action) = rest.trim().split_once(' ')?;
    Some((count.parse().ok()?, action.to_string()))
}

/// The app running: its record lines come through `lines`, read from its output by `readers`,
/// which keep its last lines of output in `tail`, told when it ends without the line a run waits
/// for.
struct Running {
    child: Child,
    lines: Receiver<(usize, String)>,
    readers: Vec<JoinHandle<()>>,
    tail: Arc<Mutex<VecDeque<String>>>,
}

/// Starts the app with `args` in `home`.
fn start(home: &Path, args: &[&str]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabla"))
        .args(args)
        .env("TABLA_HOME", home)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the app starts");
    let (sender, lines) = channel();
    let tail = Arc::new(Mutex::new(VecDeque::new()));
    let mut readers = Vec::new();
    for stream in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let sender = sender.clone();
        let tail = tail.clone();
        readers.push(std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if let Some(found) = record_line(&line) {
                    let _ = sender.send(found);
                }
                let mut tail = tail.lock().unwrap();
                if tail.len() == 30 {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        }));
    }
    Running { child, lines, readers, tail }
}

impl Running {
    /// The next record line, or a failure that says how the app ended and what it printed last.
    fn next_line(&mut self, waiting_for: &str) -> (usize, String) {
        match self.lines.recv_timeout(Duration::from_secs(120)) {
            Ok(found) => found,
            Err(why) => {
                let _ = self.child.kill();
                let status = self.child.wait().map(|status| status.to_string()).unwrap_or_default();
                let printed = self.tail.lock().unwrap().iter().cloned().collect::<Vec<_>>().join("\n");
                panic!("{waiting_for}: {why:?}; the app ended ({status}); its last lines:\n{printed}")
            }
        }
    }

    /// Kills the app (SIGKILL) and returns the record lines it wrote before it died.
    fn kill(mut self) -> Vec<(usize, String)> {
        self.child.kill().expect("SIGKILL");
        self.child.wait().unwrap();
        // Lines already written before the kill count as told: read to the end of the pipes.
        for reader in self.readers {
            reader.join().unwrap();
        }
        self.lines.try_iter().collect()
    }
}

#[test]
fn killed_at_any_moment_the_game_goes_on_from_its_last_logged_action() {
    assert!(
        std::env::var_os("DISPLAY").is_some(),
        "run under Xvfb: xvfb-run -a cargo test --test continue_after_kill"
    );
    let home = std::env::temp_dir().join(format!("tabla-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut logged: Vec<(usize, String)> = Vec::new();
    let first = ["--game", "halma", "--variant", "two_players", "--seats", "robot1,robot1"];
    for run in 0..8 {
        let args: &[&str] = if run == 0 { &first } else { &["--continue"] };
        let mut app = start(&home, args);
        // The first line after a new start is the game as it was continued.
        let (count, action) = app.next_line(&format!("run {run}: a record line"));
        if let Some((last, last_action)) = logged.last() {
            // Each action is saved before its line is written: a kill between the two leaves one
            // more action saved than told, never fewer.
            assert!(
                count == *last || count == *last + 1,
                "run {run}: went on from {count} actions, {last} were logged"
            );
            if count == *last {
                assert_eq!(&action, last_action, "run {run}: the same last action");
            }
        }
        logged.push((count, action));
        // A few more actions, then a kill at a moment of no particular kind.
        for _ in 0..rng.random_range(1..6) {
            logged.push(app.next_line(&format!("run {run}: the Robots play on")));
        }
        std::thread::sleep(Duration::from_millis(rng.random_range(0..900)));
        logged.extend(app.kill());
    }
    let text = std::fs::read_to_string(home.join("game-halma.ron")).expect("the save is whole");
    let record = Record::from_ron(&text).expect("the save is a record");
    record.check().expect("the rules accept every saved action");
    for (count, action) in &logged {
        assert_eq!(&record.actions[count - 1], action, "logged action {count} is in the save");
    }
    let _ = std::fs::remove_dir_all(&home);
}
