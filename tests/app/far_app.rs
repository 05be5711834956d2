//! Two devices play one game through `tabla serve`, as two headless apps: one makes a room, the
//! other joins it by its code, and they play Knight Hunt to its end, each move made by a person's
//! taps on one device and seen on the other; the server is killed in the middle and started again
//! on its folder, both devices say the connection is lost, come back, and the game goes on. Undo
//! on one device asks the other's person, and the move goes back on both only when they agree.
//! The test starts the server it needs (on 127.0.0.1) and stops it.
use crate::common;
use crate::port;

use bevy::prelude::*;
use std::process::Child;
use std::time::{Duration, Instant};
use tabla::app::course::clocks::Clocks;
use tabla::app::course::turn::GameCommand;
use tabla::app::far::FarGame;
use tabla::app::panels::scoreboard::ScoreBoard;
use tabla::app::session::play::Play;
use tabla::app::{Control, Launch, Opponent, Screen};
use tabla::net::ANY_SEAT;
use tabla::robot::RobotLevel;
use tabla::rules::Seat;
use tabla::rules::knight_hunt::KnightHunt;

/// `tabla serve` on a port, killed when let go.
struct Server(Child, u16);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(port: u16, data: &std::path::Path) -> Server {
    Server(port::serve(env!("CARGO_BIN_EXE_tabla"), port, &["--data", data.to_str().unwrap()]), port)
}

fn device(name: &str) -> App {
    let folder = common::test_home(&format!("far-{name}"));
    let _ = std::fs::remove_dir_all(&folder);
    common::launched(Launch { settings_dir: Some(folder), ..default() }, 1, |app| {
        app.add_plugins(tabla::app::core_plugin);
    })
}

/// Runs frames of both devices until `done`, for at most a minute of real time (the server and
/// the links answer on their own threads meanwhile).
fn both_until(a: &mut App, b: &mut App, done: impl Fn(&App, &App) -> bool) {
    let started = Instant::now();
    while !done(a, b) {
        assert!(started.elapsed() < Duration::from_secs(60), "it never came");
        a.update();
        b.update();
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// `tabla serve` on a free port with a folder of its own, and two devices: the first makes a room
/// of `level` (`ron_configs/<level>.ron`, the first seat its own), the second joins it by its code;
/// both on the game screen. The server, its folder, the devices and the room's code.
fn room_of(level: &str, name: &str) -> (Server, std::path::PathBuf, App, App, String) {
    room_on_clock(level, name, 0)
}

/// The same, the room's seats each with a clock of `minutes` (0: none).
fn room_on_clock(level: &str, name: &str, minutes: u32) -> (Server, std::path::PathBuf, App, App, String) {
    let data = common::test_home(&format!("far-{name}-server"));
    let _ = std::fs::remove_dir_all(&data);
    let port = port::quiet_port();
    let url = format!("http://127.0.0.1:{port}");
    let server = serve(port, &data);
    let mut maker = device(&format!("{name}-maker"));
    let mut joiner = device(&format!("{name}-joiner"));
    let setup = common::setup(level, Opponent::Far, Seat::WHITE, RobotLevel::One);
    let setup = tabla::app::MatchSetup { clock_minutes: minutes, ..setup };
    maker.insert_resource(FarGame::make(&url, &setup, "Grandma"));
    both_until(&mut maker, &mut joiner, |a, _| far(a).code.is_some());
    let code = far(&maker).code.clone().unwrap();
    assert!(!playing(&maker), "the maker waits with the code until someone joins");
    joiner.insert_resource(FarGame::join(&url, &code, ANY_SEAT, None, "Ion"));
    both_until(&mut maker, &mut joiner, |a, b| playing(a) && playing(b));
    (server, data, maker, joiner, code)
}

fn far(app: &App) -> &FarGame {
    app.world().resource::<FarGame>()
}

fn playing(app: &App) -> bool {
    *app.world().resource::<State<Screen>>().get() == Screen::Playing
        && app.world().contains_resource::<Play>()
}

fn actions(app: &App) -> Vec<String> {
    app.world().resource::<Play>().record().actions
}

/// The device whose person is to move makes the move the level-1 Robot would, by two taps.
fn tap_a_move(app: &mut App) -> bool {
    let play = app.world().resource::<Play>();
    if play.person_to_move().is_none() {
        return false;
    }
    let game = play.of::<KnightHunt>().game();
    let seed = play.moves_played() as u64;
    let Some(motion) = tabla::robot::choose(game, RobotLevel::One, seed) else { return false };
    common::press(app, motion.from);
    common::press(app, motion.to);
    true
}

/// Plays `moves` moves (or to the end), each device tapping on its turn, until both show the
/// same game.
fn play_moves(a: &mut App, b: &mut App, moves: usize) {
    for _ in 0..moves {
        if a.world().resource::<Play>().game().outcome().is_some() {
            return;
        }
        let before = actions(a).len();
        if !tap_a_move(a) {
            assert!(tap_a_move(b), "one of the two devices is to move");
        }
        both_until(a, b, |a, b| actions(a).len() > before && actions(a) == actions(b));
    }
}

#[test]
fn two_devices_play_knight_hunt_through_a_room_and_the_server_comes_back() {
    let (server, data, mut grandma, mut child, code) = room_of("knight_hunt/one_knight", "knights");
    let port = server.1;
    assert_eq!(far(&grandma).pictures.len(), 4);
    let controls = |app: &App| app.world().resource::<Play>().controls().to_vec();
    assert_eq!(controls(&grandma), vec![Control::Person, Control::Far]);
    assert_eq!(controls(&child), vec![Control::Far, Control::Person]);
    both_until(&mut grandma, &mut child, |a, b| far(a).others_here() && far(b).others_here());
    assert_eq!(far(&child).people.iter().find(|p| p.seat == 0).map(|p| p.name.as_str()), Some("Grandma"));
    let card = |app: &App| app.world().resource::<ScoreBoard>().seats[0].name.clone();
    assert!(card(&child).starts_with("Grandma ("), "the far seat's card names her: {}", card(&child));

    play_moves(&mut grandma, &mut child, 6);
    assert_eq!(actions(&grandma).len(), 6);

    // The server goes away (SIGKILL): both devices say so and keep trying.
    drop(server);
    both_until(&mut grandma, &mut child, |a, b| far(a).away.is_some() && far(b).away.is_some());
    let _again = serve(port, &data);
    both_until(&mut grandma, &mut child, |a, b| far(a).away.is_none() && far(b).away.is_none());

    play_moves(&mut grandma, &mut child, 1_000);
    let over = |app: &App| app.world().resource::<Play>().game().outcome();
    assert!(over(&grandma).is_some(), "the game was played to its end");
    assert_eq!(over(&grandma), over(&child));
    assert_eq!(actions(&grandma), actions(&child));
    let kept = std::fs::read_to_string(data.join("rooms").join(format!("{code}.ron"))).unwrap();
    let room: tabla::net::room::RoomFile = ron::from_str(&kept).unwrap();
    assert_eq!(room.record.actions, actions(&grandma), "the server kept every move");
    let place = grandma.world().resource::<Play>().record().room.expect("the record names its room");
    assert_eq!((place.code.as_str(), place.seat), (code.as_str(), 0));
}

#[test]
fn undo_in_a_room_asks_the_other_side_and_goes_back_only_when_they_agree() {
    let (_server, data, mut grandma, mut child, code) = room_of("knight_hunt/one_knight", "undo");
    both_until(&mut grandma, &mut child, |a, b| far(a).others_here() && far(b).others_here());
    play_moves(&mut grandma, &mut child, 3);
    let board = |app: &App| app.world().resource::<ScoreBoard>().clone();
    let three = actions(&grandma);
    assert_eq!(three.len(), 3);
    assert!(board(&child).can_undo, "Undo is there in a room");

    // The child (Black) asks: Grandma's device asks her; she says no, and nothing goes back.
    child.world_mut().write_message(GameCommand::Undo);
    both_until(&mut grandma, &mut child, |a, _| board(a).asking_far);
    let question = board(&grandma).asking.unwrap();
    assert!(question.contains("Ion"), "the question names who asks: {question}");
    assert_eq!(actions(&child), three, "nothing goes back before the answer");
    let waiting = board(&child);
    assert!(!waiting.can_undo && waiting.status.contains("Grandma"), "the asker waits: {}", waiting.status);
    grandma.world_mut().write_message(GameCommand::DeclineTakeBack);
    both_until(&mut grandma, &mut child, |a, b| !board(a).asking_far && far(b).asking.is_none());
    assert_eq!(
        (actions(&grandma), actions(&child)),
        (three.clone(), three.clone()),
        "declined: the game goes on"
    );

    // Asked again and agreed: both devices go back before the child's move, which was the second.
    child.world_mut().write_message(GameCommand::Undo);
    both_until(&mut grandma, &mut child, |a, _| board(a).asking_far);
    grandma.world_mut().write_message(GameCommand::AllowTakeBack);
    both_until(&mut grandma, &mut child, |a, b| actions(a).len() == 1 && actions(b).len() == 1);
    assert_eq!(actions(&child), three[..1], "back before the child's move");
    let to_move = |app: &App| app.world().resource::<Play>().person_to_move();
    assert_eq!((to_move(&child), to_move(&grandma)), (Some(Seat(1)), None), "the child moves again");

    // The game goes on from there, and the server kept the room as it went.
    play_moves(&mut grandma, &mut child, 2);
    assert_eq!(actions(&grandma), actions(&child));
    assert_eq!(actions(&grandma).len(), 3);
    let kept = std::fs::read_to_string(data.join("rooms").join(format!("{code}.ron"))).unwrap();
    let room: tabla::net::room::RoomFile = ron::from_str(&kept).unwrap();
    assert_eq!((room.record.actions, room.era), (actions(&grandma), 1), "the room went back once");
}

#[test]
fn a_rooms_clocks_come_from_its_server_and_run_down_on_both_devices() {
    let (_server, _data, mut grandma, mut child, _code) = room_on_clock("knight_hunt/one_knight", "clock", 1);
    let clocks = |app: &App| app.world().resource::<Clocks>().clone();
    let left = |app: &App, seat: usize| clocks(app).left.expect("the room's clocks")[seat];
    assert_eq!(clocks(&child).left, Some(vec![60.0, 60.0]), "a minute each, from the room");
    assert!(clocks(&grandma).held && clocks(&child).held, "waiting for the first move");

    // Grandma's first move starts the clocks: the child's runs down on both devices, hers stays.
    play_moves(&mut grandma, &mut child, 1);
    both_until(&mut grandma, &mut child, |a, b| !clocks(a).held && !clocks(b).held);
    both_until(&mut grandma, &mut child, |a, b| left(a, 1) < 59.9 && left(b, 1) < 59.9);
    assert_eq!((left(&grandma, 0), left(&child, 0)), (60.0, 60.0));
    let board = |app: &App| app.world().resource::<ScoreBoard>().clone();
    assert!(!board(&grandma).can_undo && !board(&child).can_undo, "no take-backs on the clock");

    // The child's move: the server takes its time off the child's clock, and both devices agree.
    play_moves(&mut grandma, &mut child, 1);
    both_until(&mut grandma, &mut child, |a, b| left(a, 0) < 60.0 && left(b, 0) < 60.0);
    assert!((left(&grandma, 1) - left(&child, 1)).abs() < 0.5, "{:?} {:?}", clocks(&grandma), clocks(&child));
    assert!(left(&child, 1) < 60.0);

    // A device that counts Grandma's time out claims it; the server's count says otherwise, and
    // the game goes on with the server's clocks.
    grandma.world_mut().resource_mut::<Clocks>().left.as_mut().unwrap()[0] = 0.0;
    both_until(&mut grandma, &mut child, |a, _| left(a, 0) > 50.0);
    assert!(grandma.world().resource::<Play>().game().outcome().is_none(), "no game ends on a device's word");

    // The server's word that a clock ran out ends the game as it says.
    let mut play = grandma.world_mut().resource_mut::<Play>();
    assert!(play.play_far("time_out white"));
    let outcome = play.game().outcome().expect("over");
    assert_eq!(outcome.reason, tabla::rules::EndReason::OutOfTime);
}

/// The person of the device to act does what the level-1 Robot would: asks for the dice where
/// it may double first, confirms a finished dice set, else plays its next move.
fn act_in_nard(app: &mut App) -> bool {
    use tabla::app::course::turn::GameCommand;
    use tabla::app::session::play::Choice;
    use tabla::rules::Game;
    use tabla::rules::nard::NardAction;
    let play = app.world().resource::<Play>();
    if play.person_to_move().is_none() {
        return false;
    }
    if play.draft_done() {
        common::command(app, GameCommand::Confirm);
        return true;
    }
    let game = play.of::<tabla::rules::nard::Nard>().game().clone();
    let seed = play.moves_played() as u64;
    if play.can_roll() {
        // The first time the cube may be turned, it is.
        let doubled = play.record().actions.iter().any(|a| a == "double");
        let double = NardAction::Double;
        if !doubled && game.legal_actions().contains(&double) {
            app.world_mut().resource_mut::<Play>().play_choice(Choice(Box::new(double)));
        } else {
            common::command(app, GameCommand::Roll);
        }
        return true;
    }
    match tabla::robot::choose(&game, RobotLevel::One, seed) {
        Some(action) => app.world_mut().resource_mut::<Play>().play_choice(Choice(Box::new(action))),
        None => false,
    }
}

#[test]
fn two_devices_play_crazy_nard_with_the_servers_dice_and_the_cube() {
    let (_server, data, mut white, mut black, code) = room_of("nard/three_points", "nard");
    // The opening dice were thrown by the server as the room was made.
    assert!(actions(&white).iter().take(2).all(|a| a.starts_with("roll ")), "{:?}", actions(&white));

    let started = Instant::now();
    while actions(&white).len() < 160 && white.world().resource::<Play>().game().outcome().is_none() {
        assert!(started.elapsed() < Duration::from_secs(120), "the game went on");
        let acted = act_in_nard(&mut white) || act_in_nard(&mut black);
        white.update();
        black.update();
        if !acted {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    both_until(&mut white, &mut black, |a, b| {
        actions(a) == actions(b) && far(a).sent_all() && far(b).sent_all()
    });
    let played = actions(&white);
    assert!(
        played.iter().filter(|a| a.starts_with("roll ")).count() > 10,
        "the server threw the dice: {played:?}"
    );
    assert!(played.iter().any(|a| a == "double"), "the cube was offered: {played:?}");
    let kept = std::fs::read_to_string(data.join("rooms").join(format!("{code}.ron"))).unwrap();
    let room: tabla::net::room::RoomFile = ron::from_str(&kept).unwrap();
    assert_eq!(room.record.actions, played, "the server's game is the devices' game");
}

/// The device of `name` started again on its own folder, going on with its game in progress (the
/// menu's Continue).
fn continued(name: &str) -> App {
    let folder = common::test_home(&format!("far-{name}"));
    common::launched(Launch { settings_dir: Some(folder), continue_game: true, ..default() }, 1, |app| {
        app.add_plugins(tabla::app::core_plugin);
    })
}

#[test]
fn a_device_closed_and_continued_sits_again_with_its_key_and_no_move_is_lost() {
    let (server, data, mut grandma, mut child, code) = room_of("knight_hunt/one_knight", "again");
    both_until(&mut grandma, &mut child, |a, b| far(a).others_here() && far(b).others_here());
    play_moves(&mut grandma, &mut child, 3);
    let key = far(&child).seat_key.clone().expect("the room gave the child's device its seat's key");
    let kept_key = child.world().resource::<Play>().record().room.and_then(|place| place.seat_key);
    assert_eq!(kept_key.as_deref(), Some(key.as_str()), "kept with the game in progress");

    // A third device that knows the code sits nowhere.
    let mut stranger = device("again-stranger");
    let url = format!("http://127.0.0.1:{}", server.1);
    stranger.insert_resource(FarGame::join(&url, &code, ANY_SEAT, None, "Stranger"));
    both_until(&mut grandma, &mut stranger, |_, b| far(b).over.is_some());
    assert!(!playing(&stranger));

    // The child's device is closed, started again and continued: the same seat, the same key.
    drop(child);
    let mut child = continued("again-joiner");
    both_until(&mut grandma, &mut child, |a, b| {
        playing(b) && far(b).away.is_none() && far(b).seat == Some(1) && actions(b) == actions(a)
    });
    assert_eq!(far(&child).seat_key.as_deref(), Some(key.as_str()));
    play_moves(&mut child, &mut grandma, 2);
    let kept = std::fs::read_to_string(data.join("rooms").join(format!("{code}.ron"))).unwrap();
    let room: tabla::net::room::RoomFile = ron::from_str(&kept).unwrap();
    assert_eq!(room.record.actions, actions(&grandma), "every move acknowledged was kept");
    assert_eq!(room.record.actions.len(), 5);
    assert_eq!(room.acted, vec![3, 2], "the continued device numbered its move after its first");
}

#[test]
fn the_maker_lets_another_device_sit_at_the_place_of_someone_away() {
    let (server, _data, mut grandma, mut child, code) = room_of("knight_hunt/one_knight", "free");
    let url = format!("http://127.0.0.1:{}", server.1);
    both_until(&mut grandma, &mut child, |a, b| far(a).others_here() && far(b).others_here());
    play_moves(&mut grandma, &mut child, 2);
    drop(child);
    // The child's phone is lost: Grandma's device sees the child away, and frees the place.
    let mut tablet = device("free-tablet");
    both_until(&mut grandma, &mut tablet, |a, _| far(a).waiting_for().is_some());
    grandma.world().resource::<FarGame>().free_seat_of_away();
    both_until(&mut grandma, &mut tablet, |a, _| far(a).waiting_for().is_none());
    // A new tablet joins by the code alone and sits at the child's place.
    tablet.insert_resource(FarGame::join(&url, &code, ANY_SEAT, None, "Ion"));
    both_until(&mut grandma, &mut tablet, |a, b| {
        playing(b) && far(b).seat == Some(1) && far(a).others_here()
    });
    // The lost phone, found and continued, sits nowhere: it is told its place was given away.
    let mut found = continued("free-joiner");
    both_until(&mut grandma, &mut found, |_, b| {
        b.world().get_resource::<FarGame>().is_some_and(|f| f.over.is_some())
    });
    let why = far(&found).over.clone().unwrap();
    assert!(why.contains("no seat is free"), "{why}");
    play_moves(&mut grandma, &mut tablet, 2);
    assert_eq!(actions(&grandma), actions(&tablet));
}
