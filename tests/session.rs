//! An app's connection to a room, without the network (`net::session`, which the desktop's link
//! and the browser's both carry): what it says on each new connection, the room's events passed on
//! in order, every action kept until the server answers it and sent again on the next connection,
//! a lost connection said once, a take-back asked and agreed, and a room that cannot be played.
//! The server's side is a real `Room`.

use tabla::net::code::RoomCode;
use tabla::net::room::{Acted, Answered, Room};
use tabla::net::session::{FromRoom, LetGo, Session, Want, socket_url};
use tabla::net::{Asking, Event, ToClient, ToServer};

const LEVEL: &str = "ron_configs/knight_hunt/one_knight.ron";

fn room() -> Room {
    let seats = ["person".to_string(), "person".to_string()];
    Room::make(LEVEL, &seats, 3, RoomCode::from_bits(3), "token".into(), 1_000).unwrap()
}

/// The server's welcome, as `tabla serve` writes it: the record for a client with no events,
/// else the events after its last.
fn welcome(room: &Room, seat: u8, last: u64) -> ToClient {
    let (record, events) = match last {
        0 => (Some(room.file.record.to_ron()), Vec::new()),
        last => (None, room.events_after(last)),
    };
    ToClient::Welcome {
        room: room.file.code.clone(),
        seat,
        level: LEVEL.into(),
        seats: room.seat_names(),
        record,
        events,
        people: Vec::new(),
        era: room.file.era,
        asking: room.file.asking,
        clock: None,
        seat_key: format!("key of seat {seat}"),
        last_id: room.last_id(seat),
    }
}

/// The hello a session sent, with the last event it named.
fn last_of(said: &[ToServer]) -> u64 {
    era_of(said).0
}

/// The hello a session sent: the last event and the era it named.
fn era_of(said: &[ToServer]) -> (u64, u64) {
    match said {
        [ToServer::Hello { last, era, .. }] => (*last, *era),
        other => panic!("expected one hello, not {other:?}"),
    }
}

fn act(id: u64, after: u64, action: &str) -> ToServer {
    ToServer::Act { id, after, action: action.into() }
}

#[test]
fn a_room_is_made_then_greeted_and_its_events_pass_on_in_order() {
    let mut room = room();
    let want = Want::Make {
        level: LEVEL.into(),
        seats: vec!["person".into(), "person".into()],
        seat: 0,
        clock_minutes: 0,
    };
    let mut session = Session::new(want, "Ana", 2);
    assert_eq!(
        session.opened(),
        vec![ToServer::New { level: LEVEL.into(), seats: vec!["person".into(); 2], clock_minutes: 0 }]
    );
    let made =
        ToClient::Made { room: room.file.code.clone(), pictures: vec!["red fox".into()], token: "t".into() };
    let hello = session.heard(made).unwrap();
    assert_eq!(last_of(&hello), 0);
    assert!(!session.seated(), "seated only once welcomed");
    assert_eq!(session.heard(welcome(&room, 0, 0)), Ok(Vec::new()));
    assert!(session.seated());
    let heard = session.take();
    assert!(matches!(&heard[0], FromRoom::Made { code, .. } if *code == room.file.code), "{heard:?}");
    assert!(matches!(&heard[1], FromRoom::Welcome { seat: 0, .. }), "{heard:?}");

    // This seat's move, answered; the other seat's, passed on; an event said twice, once.
    assert_eq!(session.act(act(1, 0, "g1f3")), Some(act(1, 0, "g1f3")));
    let Ok(Acted::Played(events)) = room.act(0, 1, 0, "g1f3", 2_000) else { panic!("played") };
    session.heard(ToClient::Event(events[0].clone())).unwrap();
    session.heard(ToClient::Ack { id: 1, at: 1 }).unwrap();
    let Ok(Acted::Played(events)) = room.act(1, 1, 1, "g8f6", 2_000) else { panic!("played") };
    session.heard(ToClient::Event(events[0].clone())).unwrap();
    session.heard(ToClient::Event(events[0].clone())).unwrap();
    assert_eq!(
        session.take(),
        vec![
            FromRoom::Event(Event { n: 1, action: "g1f3".into() }),
            FromRoom::Acked { id: 1, at: 1 },
            FromRoom::Event(Event { n: 2, action: "g8f6".into() }),
        ]
    );
}

#[test]
fn after_a_lost_connection_the_missed_events_are_asked_for_and_unanswered_actions_sent_again() {
    let mut room = room();
    let mut session =
        Session::new(Want::Join { code: room.file.code.clone(), seat: 1, seat_key: None }, "Ion", 0);
    assert_eq!(last_of(&session.opened()), 0);
    session.heard(welcome(&room, 1, 0)).unwrap();
    let Ok(Acted::Played(events)) = room.act(0, 1, 0, "g1f3", 2_000) else { panic!("played") };
    session.heard(ToClient::Event(events[0].clone())).unwrap();
    session.take();

    // Black's answer goes out, then the connection drops before the server's word.
    assert!(session.act(act(1, 1, "g8f6")).is_some());
    session.lost("the connection closed (1006)");
    session.lost("the connection closed (1006)");
    assert!(session.act(act(2, 1, "f6e4")).is_none(), "nothing is sent while away");
    assert_eq!(session.take(), vec![FromRoom::Away("the connection closed (1006)".into())], "said once");

    // The server played the first; meanwhile White moved too.
    room.act(1, 1, 1, "g8f6", 2_000).unwrap();
    room.act(0, 2, 2, "f3e5", 2_000).unwrap();
    assert_eq!(last_of(&session.opened()), 1, "the last event it has");
    let again = session.heard(welcome(&room, 1, 1)).unwrap();
    assert_eq!(
        again,
        vec![act(1, 1, "g8f6"), act(2, 1, "f6e4")],
        "both unanswered actions, under their numbers"
    );
    assert_eq!(room.act(1, 1, 1, "g8f6", 2_000), Ok(Acted::Already), "never played twice");
    assert_eq!(
        session.take(),
        vec![
            FromRoom::Event(Event { n: 2, action: "g8f6".into() }),
            FromRoom::Event(Event { n: 3, action: "f3e5".into() }),
            FromRoom::Asked(None),
            FromRoom::Back,
        ]
    );
    session.heard(ToClient::Ack { id: 1, at: 3 }).unwrap();
    session.heard(ToClient::Refused { id: Some(2), error: "stale".into() }).unwrap();
    session.lost("again");
    session.opened();
    assert_eq!(session.heard(welcome(&room, 1, 3)), Ok(Vec::new()), "answered actions are not sent again");
}

#[test]
fn a_gap_in_the_events_reconnects_and_a_room_that_cannot_be_played_ends_the_link() {
    let mut room = room();
    let mut session =
        Session::new(Want::Join { code: room.file.code.clone(), seat: 1, seat_key: None }, "Ion", 0);
    session.opened();
    session.heard(welcome(&room, 1, 0)).unwrap();
    room.act(0, 1, 0, "g1f3", 2_000).unwrap();
    room.act(1, 1, 1, "g8f6", 2_000).unwrap();
    let second = room.events_after(1).remove(0);
    assert!(matches!(session.heard(ToClient::Event(second)), Err(LetGo::Retry(_))), "event 2 before 1");

    let mut refused = Session::new(Want::Join { code: "ZZZZZZ".into(), seat: 0, seat_key: None }, "Ion", 0);
    refused.opened();
    let unknown = ToClient::Refused { id: None, error: "no room ZZZZZZ".into() };
    assert_eq!(refused.heard(unknown), Err(LetGo::End("no room ZZZZZZ".into())));
    let ended = ToClient::Ended { reason: "its maker ended it".into() };
    assert_eq!(session.heard(ended), Err(LetGo::End("its maker ended it".into())));
}

#[test]
fn a_take_back_is_asked_once_and_once_agreed_the_next_hello_names_the_new_era() {
    let mut room = room();
    let mut session =
        Session::new(Want::Join { code: room.file.code.clone(), seat: 0, seat_key: None }, "Ana", 1);
    session.opened();
    session.heard(welcome(&room, 0, 0)).unwrap();
    for (seat, action) in [(0, "g1f3"), (1, "g8f6")] {
        let Ok(Acted::Played(events)) = room.act(seat, 1, room.at(), action, 2_000) else { panic!("played") };
        session.heard(ToClient::Event(events[0].clone())).unwrap();
    }
    session.take();

    // Asked while the connection is lost: sent on the next one, and only then.
    session.lost("gone");
    let ask = ToServer::TakeBack { to: 0 };
    assert_eq!(session.act(ask.clone()), None, "not seated: kept for the next connection");
    assert_eq!(era_of(&session.opened()), (2, 0));
    assert_eq!(session.heard(welcome(&room, 0, 2)), Ok(vec![ask]));
    session.lost("gone again");
    session.opened();
    assert_eq!(session.heard(welcome(&room, 0, 2)), Ok(Vec::new()), "an asking is never sent twice");
    session.take();

    // The room hears it, the other seat agrees, and the session goes back with the room.
    assert_eq!(room.ask_take_back(0, 0, 3_000), Ok(None));
    session.heard(ToClient::Asked(Asking { seat: 0, to: 0 })).unwrap();
    let Ok(Answered::TakenBack { to, .. }) = room.answer(1, true, 3_000) else { panic!("taken back") };
    session.heard(ToClient::TakenBack { to, era: room.file.era }).unwrap();
    let Ok(Acted::Played(events)) = room.act(0, 2, 0, "g1h3", 3_000) else { panic!("played") };
    session.heard(ToClient::Event(events[0].clone())).unwrap();
    assert_eq!(
        session.take(),
        vec![
            FromRoom::Asked(Some(Asking { seat: 0, to: 0 })),
            FromRoom::TakenBack { to: 0 },
            FromRoom::Event(Event { n: 1, action: "g1h3".into() }),
        ],
        "event 1 of the new era is passed on though event 1 was passed before"
    );
    session.lost("gone");
    assert_eq!(era_of(&session.opened()), (1, 1), "the hello names the new era");
    // A welcome back says whether anyone asks now.
    session.heard(welcome(&room, 0, 1)).unwrap();
    assert!(session.take().contains(&FromRoom::Asked(None)));
}

#[test]
fn a_device_that_sits_again_numbers_its_actions_after_the_rooms_last_and_says_an_ack_it_did_not_ask() {
    let mut room = room();
    for (seat, id, action) in [(0, 1, "g1f3"), (1, 1, "g8f6"), (0, 2, "f3e5")] {
        room.act(seat, id, room.at(), action, 2_000).unwrap();
    }
    // White's device comes back with nothing but its key: a move made before the welcome waits
    // for its number, which comes after the room's last from this seat.
    let want = Want::Join { code: room.file.code.clone(), seat: 0, seat_key: Some("key of seat 0".into()) };
    let mut session = Session::new(want, "Ana", 1);
    let hello = session.opened();
    assert!(matches!(&hello[..], [ToServer::Hello { seat_key: Some(key), .. }] if key == "key of seat 0"));
    room.act(1, 2, room.at(), "f6h5", 2_000).unwrap();
    assert_eq!(session.act(act(1, 4, "e5c6")), None, "not seated yet");
    assert_eq!(session.heard(welcome(&room, 0, 0)), Ok(vec![act(3, 4, "e5c6")]), "numbered after 2");
    assert_eq!(session.act(act(1, 5, "c6e7")), Some(act(4, 5, "c6e7")));
    // The room's answer to an action this device never sent is said, not taken for one.
    session.take();
    session.heard(ToClient::Ack { id: 9, at: 5 }).unwrap();
    assert!(matches!(&session.take()[..], [FromRoom::Strange(_)]));
    session.heard(ToClient::Refused { id: Some(3), error: "no".into() }).unwrap();
    assert_eq!(session.take(), vec![FromRoom::Refused { action: Some("e5c6".into()), error: "no".into() }]);
}

#[test]
fn a_servers_address_becomes_its_rooms_socket() {
    assert_eq!(socket_url("http://127.0.0.1:8790"), "ws://127.0.0.1:8790/room");
    assert_eq!(socket_url(" 127.0.0.1:8790/ "), "ws://127.0.0.1:8790/room");
    assert_eq!(socket_url("ws://host/room"), "ws://host/room");
    assert_eq!(socket_url("https://tabla.example"), "wss://tabla.example/room");
}
