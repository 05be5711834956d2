//! A room as the server keeps it, without a server: its code, the referee's checks of every
//! action, the dice from the room's seed, the Robot's seats, numbered events, an action sent again
//! never played twice, a move taken back only when the other side agrees, and a room kept as text
//! and read back.

use tabla::net::code::{ANIMALS, COLOURS, Picture, RoomCode};
use tabla::net::room::{Acted, Answered, Room};
use tabla::net::{Asking, Event, RoomClock, ToClient, ToServer, clean_name};

fn room(level: &str, seats: &[&str], seed: u64) -> Room {
    let seats: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
    Room::make(level, &seats, seed, RoomCode::from_bits(seed), "token".into(), 1_000).unwrap()
}

fn played(acted: Result<Acted, String>) -> Vec<Event> {
    match acted {
        Ok(Acted::Played(events)) => events,
        other => panic!("expected the action played, not {other:?}"),
    }
}

#[test]
fn a_code_is_six_characters_without_look_alikes_and_four_pictures() {
    for bits in [0u64, 1, 0x3FFF_FFFF, 0x1234_5678, u64::MAX] {
        let code = RoomCode::from_bits(bits);
        let typed = code.to_string();
        assert_eq!(typed.len(), 6);
        assert!(!typed.contains(['I', 'L', 'O', 'U']), "{typed}");
        assert_eq!(RoomCode::parse(&typed), Ok(code));
        assert_eq!(RoomCode::parse(&typed.to_lowercase()), Ok(code), "any case");
        let pictures = code.pictures();
        assert_eq!(RoomCode::from_pictures(&pictures), Some(code), "the pictures show the code");
    }
    let code = RoomCode::parse("1O2-3l4").unwrap();
    assert_eq!(code, RoomCode::parse("102314").unwrap(), "O read as 0, I and L as 1, dashes skipped");
    assert!(RoomCode::parse("ABC").is_err());
    assert!(RoomCode::parse("ABCDEFG").is_err());
    assert!(RoomCode::parse("AB?DEF").is_err());
    assert_eq!(ANIMALS.len() * COLOURS.len(), 192);
    assert_eq!(RoomCode::from_pictures(&[Picture { animal: "unicorn", colour: "red" }; 4]), None);
    // 30 bits: two codes from different bits differ.
    assert_ne!(RoomCode::from_bits(1 << 29), RoomCode::from_bits(0));
}

#[test]
fn the_referee_refuses_out_of_turn_illegal_and_robot_seats_and_changes_nothing() {
    let mut room = room("ron_configs/knight_hunt/one_knight.ron", &["person", "person"], 5);
    assert_eq!(room.at(), 0);
    let before = room.to_ron();
    let out_of_turn = room.act(1, 1, 0, "g8f6", 2_000).unwrap_err();
    assert!(out_of_turn.contains("white's turn"), "{out_of_turn}");
    assert!(room.act(0, 1, 0, "g1g3", 2_000).is_err(), "illegal");
    assert!(room.act(0, 1, 0, "nonsense", 2_000).is_err(), "unreadable");
    assert!(room.act(2, 1, 0, "g1f3", 2_000).is_err(), "no such seat");
    assert_eq!(room.to_ron(), before, "a refused action changes nothing");
    let events = played(room.act(0, 1, 0, "g1f3", 2_000));
    assert_eq!(events, vec![Event { n: 1, action: "g1f3".into() }]);
    assert_eq!(room.file.last_action, 2_000);

    let mut robot = self::room("ron_configs/knight_hunt/one_knight.ron", &["person", "robot1"], 5);
    let events = played(robot.act(0, 1, 0, "g1f3", 2_000));
    assert_eq!(events.len(), 2, "the Robot's seat answers at once: {events:?}");
    assert_eq!(events[1].n, 2);
    assert!(robot.act(1, 1, 2, "g8f6", 2_000).is_err(), "nobody acts for the Robot");
}

#[test]
fn an_action_sent_again_is_never_played_twice_and_a_stale_one_is_refused() {
    let mut room = room("ron_configs/knight_hunt/one_knight.ron", &["person", "person"], 9);
    played(room.act(0, 1, 0, "g1f3", 2_000));
    assert_eq!(room.act(0, 1, 0, "g1f3", 2_000), Ok(Acted::Already), "the same number again");
    assert_eq!(room.at(), 1);
    played(room.act(1, 1, 1, "g8f6", 2_000));
    let stale = room.act(0, 2, 1, "f3e5", 2_000).unwrap_err();
    assert!(stale.contains("event 2"), "an action sent from an old event: {stale}");
    assert_eq!(room.events_after(0).len(), 2);
    assert_eq!(room.events_after(1), vec![Event { n: 2, action: "g8f6".into() }]);
}

#[test]
fn a_move_is_taken_back_only_when_another_person_agrees() {
    let mut room = room("ron_configs/knight_hunt/one_knight.ron", &["person", "person"], 9);
    played(room.act(0, 1, 0, "g1f3", 2_000));
    played(room.act(1, 1, 1, "g8f6", 2_000));
    let mut revisions = vec![room.revision()];
    let black_move = room.ask_take_back(0, 1, 3_000).unwrap_err();
    assert!(black_move.contains("no move of seat 0"), "event 2 is Black's: {black_move}");
    assert!(room.ask_take_back(0, 2, 3_000).is_err(), "no event 3 yet");
    assert!(room.answer(1, true, 3_000).is_err(), "nobody asked");

    // White asks to take back its move (and Black's answer with it); Black says no.
    assert_eq!(room.ask_take_back(0, 0, 3_000), Ok(None), "asked, not taken back yet");
    assert_eq!(room.file.asking, Some(Asking { seat: 0, to: 0 }));
    revisions.push(room.revision());
    assert!(room.ask_take_back(0, 0, 3_000).is_err(), "one asking at a time");
    assert!(room.answer(0, true, 3_000).is_err(), "the asker does not answer itself");
    assert_eq!(room.answer(1, false, 3_000), Ok(Answered::Declined));
    assert_eq!((room.at(), room.file.asking, room.file.era), (2, None, 0), "declined: nothing goes back");
    revisions.push(room.revision());

    // A move played instead of an answer ends the asking.
    room.ask_take_back(0, 0, 3_000).unwrap();
    played(room.act(0, 2, 2, "f3e5", 3_000));
    assert_eq!(room.file.asking, None, "a move played answers the asking");
    revisions.push(room.revision());

    // Asked again and agreed: the room is back before White's last move, in a new era.
    room.ask_take_back(0, 2, 4_000).unwrap();
    assert_eq!(room.answer(1, true, 4_000), Ok(Answered::TakenBack { to: 2, events: Vec::new() }));
    assert_eq!((room.at(), room.file.era, room.file.asking), (2, 1, None));
    assert_eq!(room.file.record.actions, ["g1f3", "g8f6"]);
    assert_eq!(room.file.last_action, 4_000);
    revisions.push(room.revision());
    assert!(revisions.windows(2).all(|w| w[0] < w[1]), "every change raises the revision: {revisions:?}");
    // White plays from there; a client still at the old event 3 is refused.
    assert!(room.act(0, 3, 3, "f3d4", 4_000).is_err());
    assert_eq!(played(room.act(0, 3, 2, "f3d4", 4_000)), vec![Event { n: 3, action: "f3d4".into() }]);
    let again = Room::from_ron(&room.to_ron()).unwrap();
    assert_eq!((again.at(), again.file.era, again.revision()), (3, 1, room.revision()), "kept as text");
}

#[test]
fn against_the_robot_alone_a_move_is_taken_back_at_once() {
    let mut room = room("ron_configs/knight_hunt/one_knight.ron", &["person", "robot1"], 5);
    assert_eq!(played(room.act(0, 1, 0, "g1f3", 2_000)).len(), 2, "the Robot answered");
    // Read back, the room is at the revision it was written at (which Redis compares), though
    // one action brought two events.
    assert_eq!(Room::from_ron(&room.to_ron()).unwrap().revision(), room.revision());
    let robot_move = room.ask_take_back(0, 1, 3_000);
    assert!(robot_move.is_err(), "the Robot's move is not the person's to take back: {robot_move:?}");
    // Nobody else to ask: back at once, with the Robot's answer.
    assert_eq!(room.ask_take_back(0, 0, 3_000), Ok(Some(Answered::TakenBack { to: 0, events: Vec::new() })));
    assert_eq!((room.at(), room.file.era, room.file.asking), (0, 1, None));
    assert_eq!(played(room.act(0, 2, 0, "g1h3", 3_000)).len(), 2, "played on from the start");
}

#[test]
fn a_rooms_clocks_are_the_servers_and_run_out_only_when_they_have() {
    const KNIGHTS: &str = "ron_configs/knight_hunt/one_knight.ron";
    let start = 1_000_000;
    assert!(room(KNIGHTS, &["person", "person"], 9).with_clock(2, start).is_err(), "not the level's choice");
    let mut room = room(KNIGHTS, &["person", "person"], 9).with_clock(1, start).unwrap();
    let waiting = RoomClock { left_ms: vec![60_000, 60_000], running_ms: 0, running: false };
    assert_eq!(room.clock(start + 5_000), Some(waiting), "the clocks wait for a person's first action");
    // White's first move starts them; Black takes 20 s, which come off Black's clock.
    played(room.act_on_clock(0, 1, 0, "g1f3", start + 5_000));
    played(room.act_on_clock(1, 1, 1, "g8f6", start + 25_000));
    let running = room.clock(start + 30_000).unwrap();
    assert_eq!(running, RoomClock { left_ms: vec![60_000, 40_000], running_ms: 5_000, running: true });
    assert!(
        room.ask_take_back(1, 1, start + 30_000).unwrap_err().contains("clocks"),
        "no take-backs on the clock"
    );

    // White thinks 59 s: a claim is refused, with what is left; at 60 s White may no longer move,
    // and the claim ends the game.
    let early = room.time_out(start + 84_000).unwrap_err();
    assert!(early.contains("1000 ms"), "{early}");
    let timed_out = vec![Event { n: 3, action: "time_out white".into() }];
    assert_eq!(room.time_out(start + 85_000), Ok(timed_out.clone()), "claimed");
    assert!(room.is_over());
    let over = room.clock(start + 90_000).unwrap();
    assert_eq!((over.left_ms, over.running), (vec![0, 40_000], false));
    assert!(room.time_out(start + 90_000).is_err(), "claimed once");
    let again = Room::from_ron(&room.to_ron()).unwrap();
    assert!(again.is_over(), "the clock's end is kept and replayed");
}

#[test]
fn a_move_sent_after_its_clock_ran_out_ends_the_game_instead() {
    let start = 1_000_000;
    let mut room = room("ron_configs/knight_hunt/one_knight.ron", &["person", "person"], 9)
        .with_clock(1, start)
        .unwrap();
    played(room.act_on_clock(0, 1, 0, "g1f3", start));
    let late = room.act_on_clock(1, 1, 1, "g8f6", start + 60_000);
    assert_eq!(late, Ok(Acted::OutOfTime(vec![Event { n: 2, action: "time_out black".into() }])));
    assert!(room.is_over());
    assert_eq!(room.file.record.actions, ["g1f3", "time_out black"], "the late move is not played");
}

#[test]
fn the_dice_are_the_servers_and_follow_the_rooms_seed() {
    let mut room = room("ron_configs/nard/crazy.ron", &["person", "person"], 11);
    // The opening dice are thrown as the room is made: nobody chooses them.
    assert!(room.at() >= 2, "opening dice thrown: {:?}", room.events_after(0));
    assert!(room.events_after(0).iter().all(|e| e.action.starts_with("roll ")));
    let same = self::room("ron_configs/nard/crazy.ron", &["person", "person"], 11);
    assert_eq!(room.events_after(0), same.events_after(0), "the same seed, the same dice");
    // Whoever moves cannot name a roll.
    let seat = (0..2).find(|&s| room.act(s, 1, room.at(), "roll 6 6", 2_000).is_ok());
    assert_eq!(seat, None, "a roll named by a seat is refused");
}

#[test]
fn a_whole_nard_game_through_the_referee_asks_for_roll_and_takes_the_cube() {
    let mut room = room("ron_configs/nard/three_points.ron", &["person", "robot1"], 3);
    let mut id = 0;
    let mut doubled = false;
    for _ in 0..2_000 {
        if room.is_over() {
            break;
        }
        id += 1;
        let at = room.at();
        // The person's seat: double once when it may, roll when asked, else the first legal move.
        let tries: &[&str] = if doubled { &["roll"] } else { &["double", "roll"] };
        let mut acted = tries.iter().find_map(|t| room.act(0, id, at, t, 2_000).ok());
        if acted.is_some() && !doubled && room.file.record.actions.iter().any(|a| a == "double") {
            doubled = true;
        }
        if acted.is_none() {
            let record = room.file.record.clone();
            let level = record.level().unwrap();
            let console = tabla::text::session_from_record(&level, &record).unwrap();
            let mut console = console;
            let legal = console.handle("legal")["legal"].as_array().unwrap().clone();
            let first = legal.first().and_then(|v| v.as_str()).expect("a person's move").to_string();
            acted = room.act(0, id, at, &first, 2_000).ok();
        }
        assert!(acted.is_some(), "the person's seat could act at event {at}");
    }
    assert!(room.is_over(), "the match ended");
    assert!(doubled, "the cube was offered");
    let actions = &room.file.record.actions;
    let offer = actions.iter().position(|a| a == "double").unwrap();
    assert!(["take", "drop"].contains(&actions[offer + 1].as_str()), "the Robot answered the cube");
    let again = Room::from_ron(&room.to_ron()).unwrap();
    assert_eq!(again.at(), room.at(), "kept as text and read back, replayed through the rules");
    assert!(again.is_over());
}

#[test]
fn a_broken_or_foreign_room_file_is_refused_with_a_reason() {
    assert!(Room::from_ron("not a room").is_err());
    let room = room("ron_configs/knight_hunt/one_knight.ron", &["person", "person"], 2);
    let changed = room.to_ron().replace("version:1", "version:9");
    assert!(Room::from_ron(&changed).err().unwrap().contains("version 9"));
    let mut file = room.file.clone();
    file.record.actions.push("a1a8".into());
    assert!(Room::from_file(file).is_err(), "an action the rules refuse");
    let seats: Vec<String> = vec!["person".into()];
    assert!(
        Room::make(
            "ron_configs/knight_hunt/one_knight.ron",
            &seats,
            1,
            RoomCode::from_bits(1),
            "t".into(),
            0
        )
        .is_err()
    );
    let robots: Vec<String> = vec!["robot1".into(), "robot4".into()];
    assert!(
        Room::make(
            "ron_configs/knight_hunt/one_knight.ron",
            &robots,
            1,
            RoomCode::from_bits(1),
            "t".into(),
            0
        )
        .is_err()
    );
}

#[test]
fn a_room_ends_a_day_after_its_last_action() {
    let mut room = room("ron_configs/knight_hunt/one_knight.ron", &["person", "person"], 4);
    assert!(!room.expired(1_000 + 23 * 3600));
    assert!(room.expired(1_000 + 24 * 3600));
    played(room.act(0, 1, 0, "g1f3", 50_000));
    assert!(!room.expired(1_000 + 24 * 3600), "an action keeps it a day more");
}

#[test]
fn messages_are_json_with_their_kind_and_names_are_cleaned() {
    let act = ToServer::Act { id: 3, after: 7, action: "g1f3".into() };
    assert_eq!(act.to_json(), r#"{"t":"act","id":3,"after":7,"action":"g1f3"}"#);
    assert_eq!(serde_json::from_str::<ToServer>(&act.to_json()).unwrap(), act);
    assert!(serde_json::from_str::<ToServer>(r#"{"t":"act","id":1}"#).is_err());
    assert!(serde_json::from_str::<ToServer>(r#"{"t":"chat","text":"hi"}"#).is_err(), "no chat");
    let event = ToClient::Event(Event { n: 4, action: "roll 5 3".into() });
    assert_eq!(event.to_json(), r#"{"t":"event","n":4,"action":"roll 5 3"}"#);
    assert_eq!(clean_name("  Bunică\u{7}  "), "Bunică");
    assert_eq!(clean_name(&"a".repeat(100)).chars().count(), 24);
}

#[test]
fn a_seat_belongs_to_the_first_device_that_sat_there_until_the_maker_frees_it() {
    use tabla::net::ANY_SEAT;
    let mine = "0123456789abcdef0123456789abcdef";
    let other = "fedcba9876543210fedcba9876543210";
    let mut room = room("knight_hunt/one_knight", &["person", "person"], 5);
    assert_eq!(room.seat_for(1, None), Some(1), "nobody sat there yet: free to the first");
    assert_eq!(room.seat_for(1, Some(mine)), Some(1), "with a key the device made for itself too");
    // The device's own key is kept; a key that is no key (too short, not hexadecimal) is not.
    assert_eq!(room.key_of(1, Some(mine), || "made by the room".into()), mine);
    assert_eq!(room.key_of(1, Some(other), || "second".into()), mine, "a seat keeps its key");
    assert_eq!(room.seat_for(1, None), None, "taken: not without its key");
    assert_eq!(room.seat_for(1, Some(other)), None, "nor with another");
    assert_eq!(room.seat_for(1, Some(&mine[..31])), None);
    assert_eq!(room.seat_for(1, Some(mine)), Some(1), "its device sits again, its welcome lost or not");
    assert_eq!(room.seat_for(0, Some(mine)), Some(0), "a key sits at a free seat it asks for");
    assert_eq!(room.seat_for(ANY_SEAT, None), Some(0), "the first seat nobody sat at");
    assert_eq!(room.seat_for(ANY_SEAT, Some(mine)), Some(1), "the seat of the key");
    assert_eq!(room.key_of(0, Some("short"), || "made by the room".into()), "made by the room");
    assert_eq!(room.seat_for(ANY_SEAT, None), None, "every seat taken");
    assert_eq!(room.seat_for(ANY_SEAT, Some(other)), None);
    assert_eq!(room.seat_for(7, None), None, "no such seat");
    // The maker lets another device sit at seat 1: the old key sits nowhere, a new one sits.
    room.free(1).unwrap();
    assert_eq!(room.seat_for(1, Some(mine)), None, "the device let go does not sit again");
    assert_eq!(room.seat_for(ANY_SEAT, Some(mine)), None);
    assert_eq!(room.seat_for(1, Some(other)), Some(1), "free again, to the next who comes");
    assert_eq!(room.key_of(1, Some(other), String::new), other);
    assert!(!room.holds(1, mine));
    // Kept and read back.
    let again = Room::from_ron(&room.to_ron()).unwrap();
    assert!(again.holds(1, other) && again.holds(0, "made by the room"));
    assert_eq!(again.seat_for(1, Some(mine)), None, "still let go once read back");
    let robot = self::room("knight_hunt/one_knight", &["person", "robot1"], 5);
    assert_eq!(robot.seat_for(1, None), None, "a Robot's seat is nobody's to sit at");
}

#[test]
fn an_action_number_taken_with_another_action_is_refused_never_acknowledged() {
    let mut room = room("knight_hunt/one_knight", &["person", "person"], 5);
    played(room.act(0, 1, 0, "g1f3", 2_000));
    played(room.act(1, 1, 1, "g8f6", 2_000));
    assert_eq!(room.last_id(0), 1);
    assert_eq!(room.act(0, 1, 2, "g1f3", 2_000), Ok(Acted::Already), "the same action again");
    let other = room.act(0, 1, 2, "f3e5", 2_000).unwrap_err();
    assert!(other.contains("another action") && other.contains("after 1"), "{other}");
    assert_eq!(room.at(), 2, "nothing was played");
    played(room.act(0, 2, 2, "f3e5", 2_000));
    // Past what the room remembers, an old number is refused, not taken for a resend.
    let mut squares = [["e5", "f3"], ["f6", "h5"]];
    while room.last_id(0) < 70 {
        let seat = (room.at() % 2) as usize;
        let action = format!("{}{}", squares[seat][0], squares[seat][1]);
        squares[seat].swap(0, 1);
        room.act(seat as u8, room.last_id(seat as u8) + 1, room.at(), &action, 2_000).unwrap();
    }
    let old = room.act(0, 2, room.at(), "f3e5", 2_000);
    assert!(matches!(&old, Err(e) if e.contains("older")), "{old:?}");
    // A number far past the seat's last would lock the seat: refused.
    let far = room.act(0, u64::MAX, room.at(), "f3e5", 2_000);
    assert!(matches!(&far, Err(e) if e.contains("far past")), "{far:?}");
}

/// Random messages from several clients to one room (seeded): whatever comes, nothing panics and
/// the room's record, kept and read back, always replays through the rules.
#[test]
fn a_room_fed_random_messages_from_several_clients_always_replays_through_the_rules() {
    use rand::{Rng, SeedableRng};
    let levels = [
        ("knight_hunt/one_knight", vec!["person", "person"]),
        ("nard/crazy", vec!["person", "person"]),
        ("halma/three_players", vec!["person", "robot1", "person"]),
        ("bunnies/one_horse", vec!["person", "person"]),
    ];
    for (round, (level, seats)) in levels.iter().enumerate() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(round as u64 + 17);
        let mut room = room(level, seats, 40 + round as u64);
        let mut ids = vec![0u64; seats.len()];
        let mut now = 1_000u64;
        for step in 0..400 {
            now += rng.random_range(0..3_000);
            let seat = rng.random_range(0..seats.len() as u8 + 1);
            let legal = legal_actions(&room);
            match rng.random_range(0..10) {
                0..=5 => {
                    let action = match (rng.random_range(0..6), legal.is_empty()) {
                        (0, _) | (_, true) => {
                            ["roll", "g1f3", "24/18", "zz", "", "double"][rng.random_range(0..6)].to_string()
                        }
                        _ => legal[rng.random_range(0..legal.len())].clone(),
                    };
                    let id = match rng.random_range(0..5) {
                        0 => rng.random_range(0..4),
                        _ => ids.get(seat as usize).map_or(1, |id| id + 1),
                    };
                    let after = if rng.random_range(0..8) == 0 {
                        rng.random_range(0..room.at() + 2)
                    } else {
                        room.at()
                    };
                    if let Ok(Acted::Played(_)) = room.act(seat, id, after, &action, now / 1000) {
                        ids[seat as usize] = id;
                    }
                }
                6 => {
                    let to = rng.random_range(0..room.at() + 1);
                    let _ = room.ask_take_back(seat, to, now / 1000);
                }
                7 => {
                    let _ = room.answer(seat, rng.random_bool(0.5), now / 1000);
                }
                8 => {
                    let _ = room.free(seat);
                    let _ = room
                        .seat_for(seat, None)
                        .map(|seat| room.key_of(seat, None, || format!("key {step}")));
                }
                _ => {
                    let _ = room.time_out(now);
                }
            }
            let again =
                Room::from_ron(&room.to_ron()).unwrap_or_else(|e| panic!("{level}, step {step}: {e}"));
            assert_eq!(again.file, room.file, "{level}, step {step}: kept as it is");
            let level_read = tabla::levels::built_in(level).unwrap();
            tabla::text::session_from_record(&level_read, &room.file.record)
                .unwrap_or_else(|e| panic!("{level}, step {step}: the record replays: {e}"));
        }
        assert!(room.at() > 0, "{level}: some actions were played");
    }
}

/// The actions legal now in the room's game, as the text interface lists them.
fn legal_actions(room: &Room) -> Vec<String> {
    let level = tabla::levels::built_in(&room.file.record.level_file()).unwrap();
    let mut session = tabla::text::session_from_record(&level, &room.file.record).unwrap();
    let legal = session.handle("legal");
    legal["legal"].as_array().into_iter().flatten().filter_map(|a| a.as_str().map(str::to_string)).collect()
}
