//! The game kept as it is played, told what happened and never guessing. The game being played
//! reports each thing that happens to it (`Happened`: opened, played, undone, redone, begun again,
//! finished, left) with its record, and one keeper turns those into saves in the playing child's
//! place:
//! - each game keeps its own game in progress (`game-<game>.ron`), so starting another game never
//!   touches it; `recent.ron` says which was played last (the menu's large card);
//! - a game continued from its place is written there at every change; a new game, a record file,
//!   the last game watched and a game tried again from a position write nothing until a move is
//!   made in them, and then take their game's place, asking first when it holds another game
//!   with moves (keep playing that one, or start this one);
//! - a game that ends is the last game (`last_game.ron`, a finished game only) and leaves its place;
//! - a game of a newer Tabla in the place is never written over (nothing of this game is kept then,
//!   and the screens say so), and a write that fails is said (the store remembers it).
//!
//! A line `record <game>/<variant> <actions> <last action>` is logged for every save, which the
//! browser test reads.

use crate::app::course::clocks::Clocks;
use crate::app::course::turn::GameCommand;
use crate::app::launch::MatchSetup;
use crate::app::platform::settings::Words;
use crate::app::platform::store::{LAST_GAME, OLD_GAME, RECENT, Store, game_slot};
use crate::app::platform::web;
use crate::app::session::feedback::{AskFirst, Notice, Notices, Question};
use crate::app::session::play::TurnSet;
use crate::app::session::play::{Happened, Opened, Play, Resume};
use crate::app::session::screen::Screen;
use crate::record::{Record, RecordError, Summary};
use crate::rules::{GameKind, Outcome, Seat};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};
use tracing::{info, warn};

/// One thing that happened, with the game's record as it stands after it.
#[derive(Message, Clone, Debug)]
pub struct Keep {
    pub happened: Happened,
    pub record: Record,
    /// How the game ended, once it has.
    pub outcome: Option<Outcome>,
}

/// The games in progress the menu and the map offer to continue, the latest first, each read and
/// checked when the screen opens; the last game to watch; or why a kept game could not be used
/// (it was set aside).
#[derive(Resource, Clone, Debug, Default)]
pub struct SavedGame {
    pub cards: Vec<(Record, Summary)>,
    /// The last game played to its end, to watch again.
    pub last: Option<Record>,
    pub problem: Option<String>,
    /// Games kept by a newer Tabla: shown, never written over.
    pub newer: Vec<String>,
}

impl SavedGame {
    /// The game in progress played last.
    pub fn latest(&self) -> Option<&(Record, Summary)> {
        self.cards.first()
    }

    /// `game`'s game in progress.
    pub fn of(&self, game: GameKind) -> Option<&(Record, Summary)> {
        self.cards.iter().find(|(record, _)| record.game == game)
    }
}

/// The game on the screen as the keeper knows it.
#[derive(Resource, Default, Debug)]
pub struct Keeper {
    now: Option<OnScreen>,
}

#[derive(Debug)]
struct OnScreen {
    /// The place it is kept in (the child who plays it).
    place: Store,
    game: GameKind,
    claim: Claim,
    /// The identity of the game in progress this one was continued from, or wrote itself: its
    /// place is this game's to take without asking (tried again from one of its positions).
    from: Option<String>,
    /// The record last told, while the keeper waits for an answer.
    waiting: Option<Record>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Claim {
    /// Every change is written to its game's place.
    Kept,
    /// Nothing written yet: the first move takes the place (`agreed`: the person answered that
    /// this game may take it).
    Unkept { agreed: bool },
    /// The place holds what must not be written over (a newer Tabla's game).
    Refused(String),
}

/// The keeper's system, in `Last`: after every frame's changes (and after the game told it was
/// left, on closing).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeepSet;

/// The system that tells the keeper what happened this frame (`Keep` messages), in `Update`.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeepTold;

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<SavedGame>().init_resource::<Keeper>().add_message::<Keep>();
    app.add_systems(OnEnter(Screen::Menu), look_for_saved_games);
    app.add_systems(OnEnter(Screen::Map), look_for_saved_games);
    app.add_systems(Last, keep.in_set(KeepSet));
    // While the game is watched again it is not changed: what the replay shows is not kept.
    let playing = || resource_exists::<Play>.and_then(not(crate::app::session::play::watching));
    app.add_systems(Update, tell_keeper.in_set(KeepTold).after(TurnSet).run_if(playing()));
    app.add_systems(OnExit(Screen::Playing), left.run_if(not(crate::app::session::play::watching)));
    app.add_systems(
        Last,
        left.before(KeepSet).run_if(on_message::<AppExit>.and_then(not(crate::app::session::play::watching))),
    );
    app.add_systems(Update, export.in_set(TurnSet).run_if(playing()));
}

/// Tells the keeper what happened to the game this frame, with its record after it; while a
/// clock runs, a `Ticked` once a second of real time, so a hidden page's clocks are kept.
fn tell_keeper(
    mut play: ResMut<Play>,
    clocks: Res<Clocks>,
    time: Res<Time<Real>>,
    mut since_tick: Local<f32>,
    mut keep: MessageWriter<Keep>,
) {
    let mut happened = play.bypass_change_detection().take_happened();
    // In the browser the frames stop when the page is hidden: what the clocks show is kept ready
    // for that moment, once a second.
    *since_tick += time.delta_secs();
    if clocks.left.is_some() && play.moves_played() > 0 && *since_tick >= 1.0 {
        *since_tick = 0.0;
        happened.push(Happened::Ticked);
    }
    if happened.is_empty() {
        return;
    }
    let record = clocks.stamp(play.record());
    let outcome = play.game().outcome();
    for happened in happened {
        keep.write(Keep { happened, record: record.clone(), outcome });
    }
}

/// The game screen is left (or the app closes): the keeper keeps the clocks as they stand.
fn left(play: Option<Res<Play>>, clocks: Res<Clocks>, mut keep: MessageWriter<Keep>) {
    let Some(play) = play else { return };
    let record = clocks.stamp(play.record());
    keep.write(Keep { happened: Happened::Left, record, outcome: play.game().outcome() });
}

/// Turns what happened into saves.
#[allow(clippy::too_many_arguments)]
fn keep(
    mut told: MessageReader<Keep>,
    mut answers: MessageReader<GameCommand>,
    mut keeper: ResMut<Keeper>,
    mut saved: ResMut<SavedGame>,
    store: Res<Store>,
    mut ask: ResMut<AskFirst>,
    mut notices: ResMut<Notices>,
    words: Option<Res<Words>>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    for Keep { happened, record, outcome } in told.read() {
        match happened {
            Happened::Opened(from) => {
                let before = keeper.now.take();
                keeper.now = Some(opened(&store, record, *from, before, &mut ask));
                if *from == Opened::Continued {
                    // As it stands in its place (the line the browser test and the kill test read).
                    tell_kept(record);
                }
            }
            Happened::Left => {
                if let Some(now) = keeper.now.take()
                    && now.claim == Claim::Kept
                    && outcome.is_none()
                {
                    write_slot(&now.place, record);
                    // The menu or map opened already: its card goes on with the clocks as they stood.
                    if let Some(card) = saved.cards.iter_mut().find(|(card, _)| card.game == record.game) {
                        card.0 = record.clone();
                    }
                }
                web::forget_for_closing();
            }
            Happened::Ticked => {
                if let Some(now) = keeper.now.as_ref().filter(|now| now.claim == Claim::Kept) {
                    web::keep_for_closing(&now.place.scoped(&game_slot(now.game)), &record.to_ron());
                }
            }
            Happened::BegunAgain => {
                // The game left behind stays in its place until the new one has a move.
                if let Some(now) = keeper.now.as_mut() {
                    if matches!(now.claim, Claim::Kept | Claim::Unkept { .. }) {
                        now.claim = Claim::Unkept { agreed: true };
                    }
                    web::forget_for_closing();
                }
            }
            Happened::Finished => {
                let Some(now) = keeper.now.as_mut() else { continue };
                write_last_game(&now.place, record);
                if now.claim == Claim::Kept {
                    now.place.remove(&game_slot(now.game));
                    web::forget_for_closing();
                }
            }
            Happened::Played | Happened::Undone | Happened::Redone | Happened::Seated => {
                let Some(now) = keeper.now.as_mut() else { continue };
                // A game over is the last game (told as finished): a place holds games that go on.
                if outcome.is_none() {
                    changed(now, record, &mut ask, &mut notices, words.as_deref());
                }
            }
        }
    }
    for answer in answers.read() {
        let Some(Question::TakePlace { .. }) = &ask.0 else { continue };
        let Some(now) = keeper.now.as_mut() else { continue };
        match answer {
            GameCommand::StartAgain => {
                ask.0 = None;
                now.claim = Claim::Unkept { agreed: true };
                if let Some(record) = now.waiting.take() {
                    changed(now, &record, &mut ask, &mut notices, words.as_deref());
                }
            }
            GameCommand::KeepPlaying => {
                ask.0 = None;
                let kept = read_kept(&now.place, &game_slot(now.game)).ok().flatten();
                match kept
                    .map(|(record, _)| record)
                    .map(|record| begin(&mut commands, record, Opened::Continued))
                {
                    Some(Ok(_)) => next.set(Screen::Playing),
                    Some(Err(e)) => warn!("the game in progress could not be continued: {e}"),
                    // It is gone meanwhile (set aside): this game takes its place.
                    None => {
                        now.claim = Claim::Unkept { agreed: true };
                        if let Some(record) = now.waiting.take() {
                            changed(now, &record, &mut ask, &mut notices, words.as_deref());
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The keeper's view of a game just opened; asks at once whether a new game or a file may take
/// the place of the game in progress of the same game.
fn opened(
    store: &Store,
    record: &Record,
    from: Opened,
    before: Option<OnScreen>,
    ask: &mut AskFirst,
) -> OnScreen {
    let place = store.games();
    let game = record.game;
    let claim = match from {
        Opened::Continued => Claim::Kept,
        _ => Claim::Unkept { agreed: false },
    };
    let own = match from {
        Opened::Continued => Some(record.identity()),
        // Tried again from a position of the game that was kept: it goes on in its place.
        Opened::TryAgain => before.filter(|b| b.claim == Claim::Kept).and_then(|b| b.from),
        _ => None,
    };
    let mut now = OnScreen { place, game, claim, from: own, waiting: None };
    match in_place(&now) {
        InPlace::Newer(why) => now.claim = Claim::Refused(why),
        InPlace::Game { moves, identity }
            if matches!(from, Opened::New | Opened::File)
                && now.from.as_deref() != Some(identity.as_str()) =>
        {
            ask.0 = Some(Question::TakePlace { game: now.game, moves });
        }
        _ => {}
    }
    now
}

/// What a game's place holds.
enum InPlace {
    /// Nothing (or a game without a move, or one that could not be used and was set aside).
    Free,
    /// A game in progress with `moves` moves.
    Game { moves: usize, identity: String },
    /// What this Tabla must not write over.
    Newer(String),
}

fn in_place(now: &OnScreen) -> InPlace {
    let slot = game_slot(now.game);
    match now.place.read(&slot) {
        Ok(None) => InPlace::Free,
        Err(why) => InPlace::Newer(why),
        Ok(Some(text)) => match Record::from_ron(&text) {
            Ok(record) if record.actions.is_empty() => InPlace::Free,
            Ok(record) => InPlace::Game { moves: record.actions.len(), identity: record.identity() },
            Err(RecordError::UnknownVersion(v)) if v > crate::record::VERSION => {
                InPlace::Newer(format!("{} was made by a newer Tabla", now.place.scoped(&slot)))
            }
            // One that cannot be used is set aside (and said) when the menu reads it.
            Err(_) => InPlace::Free,
        },
    }
}

/// The game changed: written where it is kept, or, at its first move, into its game's place
/// (asking first when that holds another game with moves).
fn changed(
    now: &mut OnScreen,
    record: &Record,
    ask: &mut AskFirst,
    notices: &mut Notices,
    words: Option<&Words>,
) {
    match &now.claim {
        Claim::Kept => write_slot(&now.place, record),
        Claim::Refused(why) => {
            let why = why.clone();
            if now.waiting.replace(record.clone()).is_none() {
                not_kept(&now.place, now.game, &why, notices, words);
            }
        }
        Claim::Unkept { agreed } if record.actions.is_empty() && record.undone.is_empty() => {
            // Nothing played yet: nothing to keep (the seats alone changed).
            let _ = agreed;
        }
        Claim::Unkept { agreed } => {
            let free = match in_place(now) {
                InPlace::Free => true,
                InPlace::Game { identity, .. } => *agreed || now.from.as_deref() == Some(identity.as_str()),
                InPlace::Newer(why) => {
                    now.claim = Claim::Refused(why);
                    return changed(now, record, ask, notices, words);
                }
            };
            if free {
                now.claim = Claim::Kept;
                now.from = Some(record.identity());
                now.waiting = None;
                write_slot(&now.place, record);
                note_recent(&now.place, now.game);
            } else {
                if let InPlace::Game { moves, .. } = in_place(now) {
                    ask.0 = Some(Question::TakePlace { game: now.game, moves });
                }
                now.waiting = Some(record.clone());
            }
        }
    }
}

/// Says (once) that this game is not kept, and why.
fn not_kept(place: &Store, game: GameKind, why: &str, notices: &mut Notices, words: Option<&Words>) {
    place.note_not_saved(&game_slot(game), why);
    if let Some(words) = words {
        let key = words.get("not_kept_newer").to_string();
        notices.0 = Some(Notice { key, seat: None, seconds_left: 6.0, big: false, ready: true });
    }
}

/// Writes the game in progress to its place; the browser keeps it ready for the page's closing.
fn write_slot(place: &Store, record: &Record) {
    let name = game_slot(record.game);
    let text = record.to_ron();
    if place.write(&name, &text).is_ok() {
        web::keep_for_closing(&place.scoped(&name), &text);
        tell_kept(record);
    }
}

fn write_last_game(place: &Store, record: &Record) {
    if place.write(LAST_GAME, &record.to_ron()).is_ok() {
        tell_kept(record);
    }
}

/// `record <game>/<variant> <actions> <last action>`: the game as it is kept now.
fn tell_kept(record: &Record) {
    let last_action = record.actions.last().map_or("-", String::as_str);
    info!("record {}/{} {} {last_action}", record.game, record.variant, record.actions.len());
}

/// The games of a place, the one played last first.
#[derive(Serialize, Deserialize, Default, Debug, PartialEq)]
#[serde(default)]
struct Recent {
    version: u32,
    games: Vec<GameKind>,
}

fn read_recent(place: &Store) -> Vec<GameKind> {
    let text = place.read(RECENT).ok().flatten().unwrap_or_default();
    ron::from_str::<Recent>(&text).map(|recent| recent.games).unwrap_or_default()
}

/// Puts `game` first among the games played in this place (written only when it changes).
fn note_recent(place: &Store, game: GameKind) {
    let mut games = read_recent(place);
    if games.first() == Some(&game) {
        return;
    }
    games.retain(|g| *g != game);
    games.insert(0, game);
    let recent = Recent { version: 1, games };
    if let Ok(text) = ron::ser::to_string_pretty(&recent, ron::ser::PrettyConfig::default()) {
        let _ = place.write(RECENT, &text);
    }
}

/// Gives the game out as a file of its own, and says where it went.
fn export(
    mut commands: MessageReader<GameCommand>,
    play: Res<Play>,
    clocks: Res<Clocks>,
    store: Res<Store>,
    words: Res<Words>,
    mut notices: ResMut<Notices>,
) {
    if !commands.read().any(|c| *c == GameCommand::Export) {
        return;
    }
    let record = clocks.stamp(play.record());
    let name = format!("{}-{}-{}.ron", record.game, record.variant, record.seed % 1_000_000);
    let text = match store.export(&name, &record.to_ron()) {
        Ok(place) => {
            info!("record exported to {place}");
            words.fill("exported", &[("place", &place)])
        }
        Err(e) => {
            warn!("the game could not be saved to a file: {e}");
            e
        }
    };
    notices.0 = Some(Notice { key: text, seat: None, seconds_left: 6.0, big: false, ready: true });
}

/// Makes ready to go on from `record`, opened `from` where it came from: the setup it was played
/// with and the record to replay; the game screen is to open next.
pub fn begin(commands: &mut Commands, record: Record, from: Opened) -> Result<MatchSetup, RecordError> {
    let setup = MatchSetup::of_record(&record)?;
    commands.insert_resource(setup.clone());
    commands.insert_resource(Resume { record, from });
    Ok(setup)
}

/// The games in progress of a place, the one played last first, each checked against the rules;
/// and the problems of those that could not be used (each set aside), and the games a newer
/// Tabla kept (left as they are). A place's one game of an older Tabla (`game.ron`) goes to its
/// game's own place first.
pub fn read_games_in_progress(
    place: &Store,
    games: &[GameKind],
) -> (Vec<(Record, Summary)>, Vec<String>, Vec<String>) {
    move_old_game(place);
    let (mut cards, mut problems, mut newer) = (Vec::new(), Vec::new(), Vec::new());
    for game in games {
        match read_kept(place, &game_slot(*game)) {
            Ok(Some((record, summary))) if !summary.over && record.game == *game => {
                cards.push((record, summary))
            }
            Ok(_) => {}
            Err(Kept::Newer(why)) => newer.push(why),
            Err(Kept::Problem(why)) => problems.push(why),
        }
    }
    let recent = read_recent(place);
    let rank = |game: GameKind| recent.iter().position(|g| *g == game).unwrap_or(usize::MAX);
    cards.sort_by_key(|(record, _)| rank(record.game));
    (cards, problems, newer)
}

/// The single game in progress a Tabla before this one kept goes to its own game's place (unless
/// that holds one already: then it stays where it is).
fn move_old_game(place: &Store) {
    let Ok(Some(text)) = place.read(OLD_GAME) else { return };
    let Ok(record) = Record::from_ron(&text) else { return };
    let slot = game_slot(record.game);
    if record.level().is_ok() && matches!(place.read(&slot), Ok(None)) && place.write(&slot, &text).is_ok() {
        place.remove(OLD_GAME);
        note_recent(place, record.game);
    }
}

/// Why a kept record could not be used.
pub enum Kept {
    /// It was set aside: the message says where.
    Problem(String),
    /// A newer Tabla's: left where it is.
    Newer(String),
}

/// A record the app keeps (`name` in `place`), checked against the rules; one that cannot be
/// used is set aside, one of a newer Tabla is left as it is.
fn read_kept(place: &Store, name: &str) -> Result<Option<(Record, Summary)>, Kept> {
    let text = match place.read(name) {
        Ok(Some(text)) => text,
        Ok(None) => return Ok(None),
        Err(why) => return Err(Kept::Problem(why)),
    };
    match Record::from_ron(&text).and_then(|record| Ok((record.check()?, record))) {
        Ok((summary, record)) => Ok(Some((record, summary))),
        Err(RecordError::UnknownVersion(v)) if v > crate::record::VERSION => {
            Err(Kept::Newer(format!("{} was made by a newer Tabla (version {v})", place.scoped(name))))
        }
        Err(why) => Err(Kept::Problem(place.set_aside(name, &why.to_string()))),
    }
}

/// A record file the person chose (on the command line or on the menu): it is their own file,
/// read and never moved.
pub fn read_record_file(file: &std::path::Path) -> Result<Record, String> {
    let record = Record::read_file(file)?;
    record.check().map_err(|e| format!("{}: {e}", file.display()))?;
    Ok(record)
}

/// A record's text, checked against the rules.
pub fn read_record_text(text: &str) -> Result<Record, String> {
    let record = Record::from_ron(text).map_err(|e| e.to_string())?;
    record.check().map_err(|e| e.to_string())?;
    Ok(record)
}

/// The last game played to its end, checked against the rules: `Err` with the message when it
/// could not be used (then it is set aside).
pub fn read_last_game(place: &Store) -> Result<Option<Record>, String> {
    match read_kept(place, LAST_GAME) {
        Ok(found) => Ok(found.and_then(|(record, summary)| summary.over.then_some(record))),
        Err(Kept::Problem(why) | Kept::Newer(why)) => Err(why),
    }
}

fn look_for_saved_games(
    store: Res<Store>,
    playable: Res<crate::app::course::catalog::PlayableGames>,
    mut saved: ResMut<SavedGame>,
) {
    // A problem found before (at the start) is still told until it is tapped away.
    let before = saved.problem.take();
    let place = store.games();
    let games: Vec<GameKind> = playable.0.iter().map(|entry| entry.kind).collect();
    let (cards, problems, newer) = read_games_in_progress(&place, &games);
    let (last, last_problem) = match read_last_game(&place) {
        Ok(last) => (last, None),
        Err(problem) => (None, Some(problem)),
    };
    let problem = before.or(problems.into_iter().next()).or(last_problem);
    *saved = SavedGame { cards, last, problem, newer };
}

/// The person's seat when one person plays against Robots, as a record names its players.
pub fn person_of(record: &Record) -> Option<Seat> {
    use crate::record::Control;
    let has_robot = record.seats.iter().any(|c| matches!(c, Control::Robot(_)));
    let people: Vec<usize> =
        record.seats.iter().enumerate().filter(|(_, c)| **c == Control::Person).map(|(i, _)| i).collect();
    match people[..] {
        [seat] if has_robot => Some(Seat(seat as u8)),
        _ => None,
    }
}
