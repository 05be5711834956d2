//! A game played in a room, with someone far away (`tabla serve`): the room's link (`net::link`: on
//! a thread of its own on the desktop, the page's WebSocket in the browser), the room's record
//! opening the game screen, the other seats' actions and the dice coming in as the server numbers
//! them and played as a Robot's are, this device's moves going out as they are played, a refused
//! one taken back with the server's reason, and who is connected. Undo asks the others (their
//! device asks its player, who agrees or not) and the game goes back when the room does. The game
//! itself is the same `Play` as any: the far seats are `Control::Far`, whose turns nothing here
//! plays.

use crate::app::course::turn::GameCommand;
use crate::app::launch::{Control, MatchSetup};
use crate::app::platform::wake::{WakeWithin, stir, waker};
use crate::app::session::feedback::{Feedback, Question};
use crate::app::session::play::{Opened, Play, Resume, change_if};
use crate::app::session::screen::Screen;
use crate::net::link::{FromRoom, Link, Want};
use crate::net::room::control_name;
use crate::net::{Asking, Event, Person, RoomClock, ToServer};
use crate::record::{Record, RoomPlace};
use bevy::prelude::*;

/// The room this device plays in, while it is open.
#[derive(Resource)]
pub struct FarGame {
    link: Link,
    pub server: String,
    pub code: Option<String>,
    /// The four pictures of the code, as `net::code::Picture` writes them ("blue fox").
    pub pictures: Vec<String>,
    /// What ends the room, for its maker.
    pub token: Option<String>,
    /// This device made the room: its game opens once someone else is seated.
    pub maker: bool,
    pub seat: Option<u8>,
    /// This device's key to its seat, once the room gave it (kept with the game in progress).
    pub seat_key: Option<String>,
    pub people: Vec<Person>,
    /// The connection is lost (why), and the link is trying again.
    pub away: Option<String>,
    /// The room cannot be played any more (why).
    pub over: Option<String>,
    /// A seat's asking to take back, until it is answered (or a move is played).
    pub asking: Option<Asking>,
    /// This device's player answered someone's asking: the question stays until the room's word.
    answered: bool,
    /// The room's clocks as its server last said, until they are set on the game's.
    clock: Option<RoomClock>,
    /// When this device last claimed a clock run out (the app's seconds).
    claimed_at: Option<f64>,
    /// The room's record, until the game screen opens with it.
    welcome: Option<Record>,
    /// Events that came before the game screen opened.
    waiting: Vec<Event>,
    /// The room's events played here.
    at: u64,
    /// This device's actions sent (counted over the whole record).
    sent: usize,
}

impl FarGame {
    fn open(server: &str, want: Want, name: &str, maker: bool) -> FarGame {
        FarGame {
            link: Link::open(server, want, name, 0, waker()),
            server: server.to_string(),
            code: None,
            pictures: Vec::new(),
            token: None,
            maker,
            seat: None,
            seat_key: None,
            people: Vec::new(),
            away: None,
            over: None,
            asking: None,
            answered: false,
            clock: None,
            claimed_at: None,
            welcome: None,
            waiting: Vec::new(),
            at: 0,
            sent: 0,
        }
    }

    /// Makes a room of the setup's game on `server`, this device at the setup's person's seat and
    /// every other person's seat far away (the Robot's seats are played by the server).
    pub fn make(server: &str, setup: &MatchSetup, name: &str) -> FarGame {
        let seats = setup.controls(setup.level.seat_count());
        let seat = seats.iter().position(|c| *c == Control::Person).unwrap_or(0) as u8;
        let names = seats
            .iter()
            .map(|control| match control {
                Control::Far => "person".to_string(),
                other => control_name(*other),
            })
            .collect();
        let want = Want::Make {
            level: setup.level.file.clone(),
            seats: names,
            seat,
            clock_minutes: setup.clock_minutes,
        };
        FarGame::open(server, want, name, true)
    }

    /// Joins the room of `code` on `server`, at `seat` (`net::ANY_SEAT`: the first free one), with
    /// the seat's key when this device sat there before.
    pub fn join(server: &str, code: &str, seat: u8, seat_key: Option<String>, name: &str) -> FarGame {
        let want = Want::Join { code: code.to_string(), seat, seat_key: seat_key.clone() };
        FarGame { seat_key, ..FarGame::open(server, want, name, false) }
    }

    /// Frees the seat of someone away for another device (this device made the room): the device
    /// that sat there is let go, and the next to come by the room's code sits there.
    pub fn free_seat_of_away(&self) {
        let away = self.people.iter().find(|p| Some(p.seat) != self.seat && !p.here);
        if let (Some(token), Some(away)) = (&self.token, away) {
            self.link.say(ToServer::Free { token: token.clone(), seat: away.seat });
        }
    }

    /// Ends the room, when this device made it (its maker let go before anyone came).
    pub fn end_if_maker(&self) {
        if let (true, Some(token)) = (self.maker, &self.token) {
            self.link.end(token);
        }
    }

    /// Every action of this device's was sent, and the room's events played here reach them.
    pub fn sent_all(&self) -> bool {
        self.at as usize >= self.sent
    }

    /// Someone else is seated and connected.
    pub fn others_here(&self) -> bool {
        self.people.iter().any(|p| Some(p.seat) != self.seat && p.here)
    }

    /// The first thing that stands in the way of playing, if any: a words key and its arguments.
    pub fn trouble(&self) -> Option<(String, Vec<(&'static str, String)>)> {
        if let Some(why) = &self.over {
            Some(("far_over".into(), vec![("why", why.clone())]))
        } else if self.away.is_some() {
            Some(("far_lost".into(), Vec::new()))
        } else if self.asked_by_me() {
            Some(("far_asked_back".into(), vec![("name", self.other_name().to_string())]))
        } else {
            self.waiting_for().map(|name| ("far_waiting_for".into(), vec![("name", name.to_string())]))
        }
    }

    /// The first name of the first other person seated (empty before anyone is).
    pub fn other_name(&self) -> &str {
        self.people.iter().find(|p| Some(p.seat) != self.seat).map_or("", |p| p.name.as_str())
    }

    /// The first name given at a seat (empty before anyone sat there).
    fn name_at(&self, seat: u8) -> String {
        self.people.iter().find(|p| p.seat == seat).map(|p| p.name.clone()).unwrap_or_default()
    }

    /// Someone else asks to take back, and this device's player is to answer.
    pub fn asked_here(&self) -> bool {
        self.asking.is_some_and(|asking| Some(asking.seat) != self.seat)
    }

    /// This device's player asked to take back, and the others are to answer.
    fn asked_by_me(&self) -> bool {
        self.asking.is_some_and(|asking| Some(asking.seat) == self.seat)
    }

    /// The first name of someone seated who is not connected now.
    pub fn waiting_for(&self) -> Option<&str> {
        self.people.iter().find(|p| Some(p.seat) != self.seat && !p.here).map(|p| p.name.as_str())
    }

    /// The room's record as this device plays it: its seat a person's, every other far away,
    /// and the room's place.
    fn local_record(&self, mut record: Record, seat: u8) -> Record {
        for (index, control) in record.seats.iter_mut().enumerate() {
            *control = if index == seat as usize { Control::Person } else { Control::Far };
        }
        record.room = Some(RoomPlace {
            server: self.server.clone(),
            code: self.code.clone().unwrap_or_default(),
            seat,
            seat_key: self.seat_key.clone(),
            token: self.token.clone(),
        });
        record
    }
}

pub(in crate::app) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            listen,
            open_game,
            send_moves.after(crate::app::session::play::TurnSet),
            take_back_question.after(listen),
            room_clocks.after(listen),
        )
            .run_if(resource_exists::<FarGame>),
    );
    app.add_systems(OnEnter(Screen::Playing), rejoin.after(crate::app::course::turn::StartSet));
    // The game screen left: the link lets go (the room lives on, and the menu's Continue joins it
    // again).
    app.add_systems(OnExit(Screen::Playing), |mut commands: Commands| commands.remove_resource::<FarGame>());
}

/// A room's game continued from the menu: its room is joined again.
fn rejoin(
    mut commands: Commands,
    play: Option<Res<Play>>,
    far: Option<Res<FarGame>>,
    settings: Res<crate::app::platform::settings::Settings>,
) {
    let Some(play) = play.filter(|_| far.is_none()) else { return };
    let Some(place) = play.record().room else { return };
    let mut far = FarGame::join(&place.server, &place.code, place.seat, place.seat_key, &settings.far_name);
    far.code = Some(place.code);
    far.seat = Some(place.seat);
    far.token = place.token;
    far.maker = far.token.is_some();
    far.at = play.moves_played() as u64;
    far.sent = play.moves_played();
    commands.insert_resource(far);
}

/// Takes what the room said.
fn listen(mut far: ResMut<FarGame>, mut play: Option<ResMut<Play>>, mut feedback: Feedback) {
    let heard = far.link.take();
    if !heard.is_empty() {
        stir();
    }
    for heard in heard {
        match heard {
            FromRoom::Made { code, pictures, token } => {
                far.code = Some(code);
                far.pictures = pictures;
                far.token = Some(token);
            }
            FromRoom::Welcome { code, seat, record, people, asking, clock, seat_key } => {
                far.clock = clock;
                far.code = Some(code);
                far.seat = Some(seat);
                far.seat_key = Some(seat_key);
                far.people = people;
                heard_asking(&mut far, asking, &mut feedback);
                match Record::from_ron(&record) {
                    Ok(record) => welcomed(&mut far, play.as_mut(), record, seat, &mut feedback),
                    Err(e) => far.over = Some(e.to_string()),
                }
            }
            FromRoom::Event(event) => {
                // A move played answers any asking to take back.
                heard_asking(&mut far, None, &mut feedback);
                far.waiting.push(event);
            }
            FromRoom::Asked(asking) => heard_asking(&mut far, asking, &mut feedback),
            FromRoom::Clock(clock) => far.clock = Some(clock),
            FromRoom::Declined { seat } => {
                let mine = far.asked_by_me();
                heard_asking(&mut far, None, &mut feedback);
                if mine {
                    let words = feedback.words.fill("far_declined", &[("name", &far.name_at(seat))]);
                    feedback.tell_words(words);
                }
            }
            FromRoom::TakenBack { to } => {
                crate::app::platform::web::report(&format!("tabla far taken back to {to}"));
                heard_asking(&mut far, None, &mut feedback);
                taken_back(&mut far, play.as_mut(), to, &mut feedback);
            }
            FromRoom::Acked { .. } => {}
            FromRoom::Strange(why) => {
                tracing::warn!("tabla far: {why}");
                feedback.tell("far_refused".into());
            }
            FromRoom::Refused { action, error } => {
                // The server's reason is for the log; the child is told in their own words.
                tracing::info!("tabla far refused: {error}");
                let roll = action.as_deref() == Some(crate::net::referee::ROLL);
                match (action, play.as_mut()) {
                    // A move: it goes back to where the room is.
                    (Some(_), Some(play)) if !roll => {
                        let at = far.at as usize;
                        change_if(play, |play| {
                            play.take_back_to(at);
                            feedback.tell("far_move_refused".into());
                            feedback.report(play);
                        });
                        far.sent = at;
                    }
                    // A request for the dice comes too late when the server threw them by
                    // itself: nothing to tell.
                    (Some(_), _) if roll => {}
                    // An asking or an answer: nothing here changes.
                    _ => {
                        if far.asked_by_me() {
                            far.asking = None;
                        }
                        feedback.tell("far_refused".into());
                    }
                }
            }
            FromRoom::Presence(person) => {
                far.people.retain(|p| p.seat != person.seat);
                far.people.push(person);
            }
            // Nobody sits there until the next device comes.
            FromRoom::Freed { seat } => far.people.retain(|p| p.seat != seat),
            FromRoom::Away(why) => {
                crate::app::platform::web::report(&format!("tabla far away {why}"));
                far.away = Some(why);
            }
            FromRoom::Back => {
                crate::app::platform::web::report("tabla far back");
                far.away = None;
            }
            FromRoom::Over(why) => far.over = Some(why),
        }
    }
    if let Some(play) = play.as_mut().filter(|_| far.welcome.is_none()) {
        play_events(&mut far, play, &mut feedback);
    }
}

/// The room's asking to take back, as it stands now; once nobody asks, the question to this
/// device's player goes (`take_back_question` puts it up).
fn heard_asking(far: &mut FarGame, asking: Option<Asking>, feedback: &mut Feedback) {
    far.asking = asking;
    if asking.is_none() {
        far.answered = false;
    }
    if !far.asked_here() && matches!(feedback.ask.0, Some(Question::TakeBack { .. })) {
        feedback.ask.0 = None;
    }
}

/// The room went back to `to` actions: the events that came before it are played first, then the
/// game goes back with the room.
fn taken_back(far: &mut FarGame, play: Option<&mut ResMut<Play>>, to: u64, feedback: &mut Feedback) {
    match play {
        Some(play) if far.welcome.is_none() => {
            play_events(far, play, feedback);
            change_if(play, |play| {
                play.take_back_to(to as usize);
                feedback.report(play);
            });
        }
        _ => {
            far.waiting.retain(|event| event.n <= to);
            if let Some(record) = far.welcome.as_mut() {
                record.actions.truncate(to as usize);
            }
        }
    }
    far.at = far.at.min(to);
    far.sent = far.sent.min(to as usize);
}

/// The room's clocks, as its server said, on the game's once its events are played here: the
/// seat to move's less the time its turn has run. A clock at zero is claimed from the server
/// (again each second, until its word that the game is over comes).
fn room_clocks(
    mut far: ResMut<FarGame>,
    play: Option<Res<Play>>,
    mut clocks: ResMut<crate::app::course::clocks::Clocks>,
    time: Res<Time<Real>>,
    mut wake: ResMut<WakeWithin>,
) {
    let Some(play) = play.filter(|play| play.afar() && far.welcome.is_none()) else { return };
    if far.waiting.is_empty()
        && let Some(clock) = far.clock.take()
    {
        let to_move = play.game().to_move().map(|seat| seat.index());
        let left = clock.left_ms.iter().enumerate().map(|(seat, &ms)| {
            let ran = if Some(seat) == to_move { clock.running_ms } else { 0 };
            ms.saturating_sub(ran) as f32 / 1000.0
        });
        clocks.left = Some(left.collect());
        clocks.held = !clock.running;
    }
    let Some(seat) = play.game().to_move().filter(|_| !clocks.held && play.game().outcome().is_none()) else {
        return;
    };
    let out = clocks.left.as_ref().and_then(|left| left.get(seat.index())).is_some_and(|&left| left <= 0.0);
    let now = time.elapsed_secs_f64();
    if out && far.claimed_at.is_none_or(|at| now - at >= 1.0) {
        far.claimed_at = Some(now);
        far.link.say(ToServer::TimeOut);
    }
    if out {
        wake.within(1.0);
    }
}

/// Someone else asks to take back: the question to this device's player, once no other
/// question is up (the tutor's waits for its own answer). Its answer goes to the room once; the
/// question stays until the room goes back or on.
fn take_back_question(
    mut far: ResMut<FarGame>,
    mut commands: MessageReader<GameCommand>,
    mut feedback: Feedback,
) {
    if let Some(asking) = far.asking.filter(|_| far.asked_here())
        && feedback.ask.0.is_none()
    {
        feedback.ask.0 = Some(Question::TakeBack { name: far.name_at(asking.seat) });
    }
    for command in commands.read() {
        let yes = match command {
            GameCommand::AllowTakeBack => true,
            GameCommand::DeclineTakeBack => false,
            _ => continue,
        };
        if far.asked_here() && !far.answered {
            far.answered = true;
            far.link.say(ToServer::Answer { yes });
        }
    }
}

/// The room's record came: the game screen opens with it (for the room's maker, once someone else
/// is there), or, for a game continued from the menu, the actions it missed are played.
fn welcomed(
    far: &mut FarGame,
    play: Option<&mut ResMut<Play>>,
    record: Record,
    seat: u8,
    feedback: &mut Feedback,
) {
    let record = far.local_record(record, seat);
    let Some(play) = play.filter(|play| play.afar()) else {
        far.at = record.actions.len() as u64;
        far.sent = record.actions.len();
        far.welcome = Some(record);
        return;
    };
    // The room may have gone back meanwhile (a take-back agreed): the game goes back to where
    // the two agree, then plays what it missed.
    let here = play.record().actions;
    let common = here.iter().zip(&record.actions).take_while(|(a, b)| a == b).count();
    if common < here.len() {
        change_if(play, |play| {
            play.take_back_to(common);
            feedback.report(play);
        });
    }
    let missed =
        (common..record.actions.len()).map(|i| Event { n: i as u64 + 1, action: record.actions[i].clone() });
    far.waiting.extend(missed);
    far.at = common as u64;
    far.sent = common;
}

/// Plays the room's events that came, in order: this device's own moves (already played here)
/// are counted, every other action played as it came. Where the room played something else than
/// a move this device played (its refusal still on the way), that move goes back first.
fn play_events(far: &mut FarGame, play: &mut ResMut<Play>, feedback: &mut Feedback) {
    let events = std::mem::take(&mut far.waiting);
    for event in events {
        if event.n <= far.at {
            continue;
        }
        let index = event.n as usize - 1;
        if index < play.moves_played() {
            if play.record().actions.get(index) == Some(&event.action) {
                far.at = event.n;
                continue;
            }
            change_if(play, |play| play.take_back_to(index));
            far.sent = far.sent.min(index);
        }
        let played = change_if(play, |play| {
            let played = play.play_far(&event.action);
            feedback.report(play);
            played
        });
        if !played {
            far.over = Some(format!("the room's move '{}' does not fit this game", event.action));
            return;
        }
        far.at = event.n;
        far.sent = far.sent.max(event.n as usize);
    }
}

/// Once the room's record came (and, for its maker, someone else is there): the game screen.
fn open_game(mut far: ResMut<FarGame>, mut commands: Commands, mut next: ResMut<NextState<Screen>>) {
    if far.welcome.is_none() || (far.maker && !far.others_here()) {
        return;
    }
    let record = far.welcome.take().expect("looked at above");
    match MatchSetup::of_record(&record) {
        Ok(setup) => {
            commands.insert_resource(setup);
            commands.insert_resource(Resume { record, from: Opened::New });
            next.set(Screen::Playing);
        }
        Err(e) => far.over = Some(e.to_string()),
    }
}

/// Sends this device's moves as they are played, and its requests for the dice.
fn send_moves(mut far: ResMut<FarGame>, play: Option<ResMut<Play>>) {
    let Some(mut play) = play.filter(|play| play.afar()) else { return };
    let played = play.moves_played();
    if played < far.sent {
        far.sent = played;
    }
    if played > far.sent {
        let actions = play.record().actions;
        for (index, action) in actions.iter().enumerate().take(played).skip(far.sent) {
            far.link.act(index as u64, action);
        }
        far.sent = played;
    }
    if let Some(to) = play.bypass_change_detection().take_back_asked()
        && far.asking.is_none()
        && let Some(seat) = far.seat
    {
        far.link.say(ToServer::TakeBack { to: to as u64 });
        far.asking = Some(Asking { seat, to: to as u64 });
    }
    if play.bypass_change_detection().take_dice_asked() {
        far.link.act(far.at, crate::net::referee::ROLL);
    }
}
