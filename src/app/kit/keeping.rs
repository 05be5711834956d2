//! The game kept as it is played: after every change that reaches its history (an action, an
//! undo, a redo, a restart) its record is saved in the store and a line
//! `record <game>/<variant> <actions> <last action>` is logged; on leaving the game screen and on
//! closing it is saved again with the clocks as they stand. A game that ends is kept as the last
//! game instead. `Resume` carries a record into the game screen, where `Play::of_record` replays it.

use super::catalog::Screen;
use super::game::AppGame;
use super::play::{Play, Resume};
use super::turn::{Clocks, GameCommand, Notice, Notices, TurnSet};
use crate::app::launch::MatchSetup;
use crate::app::platform::settings::Words;
use crate::app::platform::store::{GAME, LAST_GAME, Store};
use crate::app::platform::web;
use crate::record::{Record, RecordError, Summary};
use bevy::prelude::*;
use tracing::{info, warn};

/// The game in progress the menu offers to continue, read when the menu opens; or why the saved
/// game could not be used (it was set aside).
#[derive(Resource, Clone, Debug, Default)]
pub struct SavedGame {
    pub card: Option<(Record, Summary)>,
    /// The last game played to its end, to watch again.
    pub last: Option<Record>,
    pub problem: Option<String>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SavedGame>();
    app.add_systems(OnEnter(Screen::Menu), look_for_saved_game);
    app.add_systems(OnEnter(Screen::Map), look_for_saved_game);
}

pub(super) fn add_game<G: AppGame>(app: &mut App) {
    // While the game is watched again it is not changed: what the replay shows is not saved.
    let playing = || resource_exists::<Play<G>>.and_then(not(super::play::watching));
    app.add_systems(Update, keep_record::<G>.after(TurnSet).run_if(playing()));
    app.add_systems(OnExit(Screen::Playing), save_now::<G>.run_if(not(super::play::watching)));
    app.add_systems(
        Last,
        save_on_exit::<G>.run_if(on_message::<AppExit>.and_then(not(super::play::watching))),
    );
    app.add_systems(Update, export::<G>.in_set(TurnSet).run_if(playing()));
}

/// Gives the game out as a file of its own, and says where it went.
fn export<G: AppGame>(
    mut commands: MessageReader<GameCommand>,
    play: Res<Play<G>>,
    setup: Res<MatchSetup>,
    clocks: Res<Clocks>,
    store: Res<Store>,
    words: Res<Words>,
    mut notices: ResMut<Notices>,
) {
    if !commands.read().any(|c| *c == GameCommand::Export) {
        return;
    }
    let record = record_of(&*play, &setup, &clocks);
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

/// The game as a record: its level, seats, clocks, actions and what was asked for.
pub fn record_of<G: AppGame>(play: &Play<G>, setup: &MatchSetup, clocks: &Clocks) -> Record {
    let history = play.history();
    let asked = play.asked();
    Record {
        clock_minutes: clocks.minutes,
        clock_left_ms: clocks.left_ms(),
        hinted: Record::hinted_in(history, |note| note.hinted),
        hints_asked: asked.hints,
        takebacks: asked.takebacks,
        stage: setup.stage.clone(),
        ..Record::of_history(&setup.level, history, play.controls().to_vec())
    }
}

/// Makes ready to go on from `record`: the setup it was played with and the record to replay;
/// the game screen is to open next.
pub fn begin(commands: &mut Commands, record: Record) -> Result<MatchSetup, RecordError> {
    let setup = MatchSetup::of_record(&record)?;
    commands.insert_resource(setup.clone());
    commands.insert_resource(Resume(record));
    Ok(setup)
}

/// The game in progress in the store, checked against the rules: `Err` with the message when it
/// could not be used (then it is set aside); `Ok(None)` when there is none (or it is over).
pub fn read_saved_game(store: &Store) -> Result<Option<(Record, Summary)>, String> {
    Ok(read_kept(&store.games(), GAME)?.filter(|(_, summary)| !summary.over))
}

/// A record the app keeps (`name` in the store), checked against the rules; one that cannot be
/// used is set aside, and `Err` says so.
fn read_kept(store: &Store, name: &str) -> Result<Option<(Record, Summary)>, String> {
    let Some(text) = store.read(name) else { return Ok(None) };
    match Record::from_ron(&text).and_then(|record| Ok((record.check()?, record))) {
        Ok((summary, record)) => Ok(Some((record, summary))),
        Err(why) => Err(store.set_aside(name, &why.to_string())),
    }
}

/// A record file the person chose (on the command line or on the menu): it is their own file,
/// read and never moved.
pub fn read_record_file(file: &std::path::Path) -> Result<Record, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    read_record_text(&text).map_err(|e| format!("{}: {e}", file.display()))
}

/// A record's text, checked against the rules.
pub fn read_record_text(text: &str) -> Result<Record, String> {
    let record = Record::from_ron(text).map_err(|e| e.to_string())?;
    record.check().map_err(|e| e.to_string())?;
    Ok(record)
}

fn look_for_saved_game(store: Res<Store>, mut saved: ResMut<SavedGame>) {
    // A problem found before (at the start) is still told until it is tapped away.
    let before = saved.problem.take();
    let (last, last_problem) = match read_last_game(&store) {
        Ok(last) => (last, None),
        Err(problem) => (None, Some(problem)),
    };
    *saved = match read_saved_game(&store) {
        Ok(card) => SavedGame { card, last, problem: before.or(last_problem) },
        Err(problem) => SavedGame { card: None, last, problem: Some(problem) },
    };
}

/// The last game played to its end, checked against the rules: `Err` with the message when it
/// could not be used (then it is set aside).
pub fn read_last_game(store: &Store) -> Result<Option<Record>, String> {
    Ok(read_kept(&store.games(), LAST_GAME)?.and_then(|(record, summary)| summary.over.then_some(record)))
}

/// What was saved last: the record without its clocks (an unchanged game is not written again)
/// and the text written, while it is the game in progress.
#[derive(Default)]
struct LastSaved {
    key: String,
    /// The game in progress, with the child whose it is.
    in_progress: Option<(Option<usize>, String)>,
}

/// Saves the record whenever the history changed (a draft's tries are no actions: they change
/// nothing saved).
fn keep_record<G: AppGame>(
    play: Res<Play<G>>,
    setup: Res<MatchSetup>,
    clocks: Res<Clocks>,
    store: Res<Store>,
    mut last: Local<LastSaved>,
) {
    if !play.is_changed() {
        // In the browser the frames stop when the page is hidden: what the clocks show is kept
        // ready for that moment.
        if clocks.left.is_some() && play.moves_played() > 0 {
            web::keep_for_closing_now_and_then(&store.games().scoped(GAME), || {
                record_of(&*play, &setup, &clocks).to_ron()
            });
        }
        return;
    }
    let record = record_of(&*play, &setup, &clocks);
    // The clocks are left out of the comparison: their every tick is no new action.
    let key = Record { clock_left_ms: None, ..record.clone() }.to_ron();
    if last.key == key {
        return;
    }
    last.key = key;
    if record.actions.is_empty() && record.undone.is_empty() {
        // Begun again (Restart or New game, answered yes): the game left behind is the last
        // game now, and there is none to continue until a move is made.
        let store_child = store.child();
        let store = store.games();
        // Only the same child's game left behind: another child's game stays theirs.
        let child = store_child;
        if let Some((_, left)) = last.in_progress.take().filter(|(whose, _)| *whose == child)
            && store.write(LAST_GAME, &left).is_ok()
        {
            store.remove(GAME);
            web::forget_for_closing();
        }
        return;
    }
    let over = play.game().outcome().is_some();
    if save(&store, &record, over) {
        last.in_progress = (!over).then(|| (store.child(), record.to_ron()));
        let last_action = record.actions.last().map_or("-", String::as_str);
        info!("record {}/{} {} {last_action}", record.game, record.variant, record.actions.len());
    }
}

/// Leaving the game screen: the game stays saved, with its clocks as they stand.
fn save_now<G: AppGame>(
    play: Option<Res<Play<G>>>,
    setup: Option<Res<MatchSetup>>,
    clocks: Res<Clocks>,
    store: Res<Store>,
) {
    let (Some(play), Some(setup)) = (play, setup) else { return };
    save(&store, &record_of(&*play, &setup, &clocks), play.game().outcome().is_some());
    web::forget_for_closing();
}

/// The app closes: the game is saved as it stands.
fn save_on_exit<G: AppGame>(
    play: Option<Res<Play<G>>>,
    setup: Option<Res<MatchSetup>>,
    clocks: Res<Clocks>,
    store: Res<Store>,
) {
    save_now::<G>(play, setup, clocks, store);
}

/// A game in progress is kept as the game to continue; one that ended as the last game (and
/// there is then no game in progress). A game with no move yet (just begun, or begun again)
/// leaves the one kept before in place, so Continue still brings that back. `true` when saved.
fn save(store: &Store, record: &Record, over: bool) -> bool {
    if record.actions.is_empty() && record.undone.is_empty() {
        return false;
    }
    let store = store.games();
    let text = record.to_ron();
    let name = if over { LAST_GAME } else { GAME };
    match store.write(name, &text) {
        Ok(()) => {
            if over {
                store.remove(GAME);
            }
            web::keep_for_closing(&store.scoped(name), &text);
            true
        }
        Err(e) => {
            warn!("the game could not be saved: {e}");
            false
        }
    }
}
