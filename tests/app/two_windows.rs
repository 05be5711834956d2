//! Two windows on one data folder (issue "Kept means kept"): two processes of Tabla on one
//! `TABLA_HOME`. The first holds the data; the second says Tabla is open elsewhere and writes
//! nothing until "play here", when the first lets go (and then writes nothing) and the second
//! reads the data afresh. Neither loses the other's child. The second window is this very test
//! binary, started again on its own test with `TABLA_SECOND_WINDOW` naming the folder.
use crate::common;
use common::send;

use bevy::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tabla::app::child::children::{ChildCommand, Children};
use tabla::app::platform::store::Store;
use tabla::app::screens::PlayHere;
use tabla::app::screens::TakingOver;
use tabla::app::{Launch, Screen, core_plugin};
use tabla::progress::Child;

/// This test as the test program names it (its module, then itself): the second window runs it.
const TEST: &str = "two_windows::two_processes_on_one_folder_never_lose_each_others_children";

fn started(home: &Path, seed: u64) -> App {
    let launch = Launch { settings_dir: Some(home.to_path_buf()), ..default() };
    let mut app = common::launched(launch, seed, |app| {
        app.add_plugins(core_plugin);
    });
    app.update();
    app
}

fn kept_animal(home: &Path, slot: usize) -> Option<u8> {
    let text = std::fs::read_to_string(home.join(format!("child-{slot}/child.ron"))).ok()?;
    Child::from_ron(&text).ok().map(|child| child.animal)
}

fn holds(app: &App) -> bool {
    app.world().resource::<Store>().holding().is_ok()
}

#[test]
fn two_processes_on_one_folder_never_lose_each_others_children() {
    if let Some(home) = std::env::var_os("TABLA_SECOND_WINDOW") {
        second_window(Path::new(&home));
        return;
    }
    let home: PathBuf = common::test_home("two-windows");
    let _ = std::fs::remove_dir_all(&home);
    // The first window holds the data and makes a fox.
    let mut first = started(&home, 1);
    assert!(holds(&first));
    send(&mut first, ChildCommand::Add { animal: 0 });
    assert_eq!(kept_animal(&home, 1), Some(0));
    // The second window: another process on the same folder.
    let mut second = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", TEST, "--nocapture", "--test-threads", "1"])
        .env("TABLA_SECOND_WINDOW", &home)
        .spawn()
        .expect("the second window starts");
    // The first plays on (it looks every second whether another asked for the data) until the
    // second is done, a minute and a half at most.
    let mut status = None;
    let until = std::time::Instant::now() + Duration::from_secs(90);
    while std::time::Instant::now() < until {
        first.update();
        if let Some(done) = second.try_wait().unwrap() {
            status = Some(done);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = status.unwrap_or_else(|| {
        let _ = second.kill();
        let _ = second.wait();
        panic!("the second window did not finish within a minute and a half")
    });
    assert!(status.success(), "the second window's part failed");
    first.update();
    assert!(!holds(&first), "the first window let go");
    assert_eq!(*first.world().resource::<State<Screen>>().get(), Screen::Elsewhere, "and says so");
    // It writes nothing any more: a child made there now is not made.
    send(&mut first, ChildCommand::Add { animal: 7 });
    assert!(first.world().resource::<Children>().get(2).is_none());
    // Both children are kept: the first's fox and the second's bear.
    assert_eq!(kept_animal(&home, 1), Some(0), "the fox");
    assert_eq!(kept_animal(&home, 2), Some(2), "the bear");
    assert_eq!(kept_animal(&home, 3), None);
    // No temporary file is left behind by either.
    let left: Vec<String> = std::fs::read_dir(home.join("child-2"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|name| name.ends_with(".new"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The second window's part, in a process of its own.
fn second_window(home: &Path) {
    let mut second = started(home, 2);
    assert!(!holds(&second), "another window holds the data");
    // What a child does here is not kept while the other window holds the data.
    send(&mut second, ChildCommand::Add { animal: 5 });
    assert!(second.world().resource::<Children>().get(1).is_none(), "nothing made that would be lost");
    second.world_mut().write_message(PlayHere);
    // The two windows are two processes, each with the tests' clock of 50 ms a frame: this one
    // gives up after its 10 s (200 frames), which a loaded machine may spend before the other
    // looks (once a second of its frames). Then a person taps Play here again; 45 s at most.
    let until = std::time::Instant::now() + Duration::from_secs(45);
    while std::time::Instant::now() < until {
        second.update();
        if holds(&second) {
            break;
        }
        if second.world().resource::<TakingOver>().0.is_none() {
            second.world_mut().write_message(PlayHere);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(holds(&second), "the first window let go within the wait");
    second.update();
    second.update();
    let children = second.world().resource::<Children>();
    assert_eq!(children.get(0).map(|c| c.animal), Some(0), "it read the data afresh: the fox is there");
    assert_eq!(*second.world().resource::<State<Screen>>().get(), Screen::Children);
    send(&mut second, ChildCommand::Add { animal: 2 });
    assert_eq!(kept_animal(home, 2), Some(2));
}
