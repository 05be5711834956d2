//! The children who play on this device, and their path: each child's file is read at the start
//! (one that cannot be used is set aside with a message, and the others still load), the child
//! who taps their picture keeps their own games, a stage tapped on the map starts its game, and a
//! finished game is counted in the child's figures and, on a stage, earns its stars, opens the
//! next stage and may bring a diploma. The grown-ups' page asks through `ChildCommand` too, so the
//! tests send what a finger sends.

use super::catalog::Screen;
use super::game::AppGame;
use super::keeping::record_of;
use super::play::{NowPlaying, Play, watching};
use super::turn::Clocks;
use crate::app::launch::{MatchSetup, Opponent};
use crate::app::platform::store::{CHILD, GAME, LAST_GAME, Store};
use crate::app::platform::web;
use crate::progress::child::MOST_CHILDREN;
use crate::progress::{self, Child, GameEnd, Merge, Path, StageResult, Stars, Transfer};
use crate::record::Record;
use crate::rules::{Outcome, Seat};
use bevy::prelude::*;
use tracing::{info, warn};

/// The path every child follows.
#[derive(Resource, Deref)]
pub struct ThePath(pub Path);

/// The children of this device, by slot, and what the grown-ups' page has to tell or ask.
#[derive(Resource, Default, Debug)]
pub struct Children {
    pub slots: Vec<Option<Child>>,
    /// Files that could not be used (each set aside), told until tapped away.
    pub problems: Vec<String>,
    /// Children an imported file has that this device has too: which to keep, asked one by one.
    pub questions: Vec<Merge>,
    /// What the last export or import did.
    pub notice: Option<TransferNotice>,
}

impl Children {
    /// The child in `slot`, if there is one.
    pub fn get(&self, slot: usize) -> Option<&Child> {
        self.slots.get(slot).and_then(Option::as_ref)
    }

    /// Every child, with their slot.
    pub fn each(&self) -> impl Iterator<Item = (usize, &Child)> {
        self.slots.iter().enumerate().filter_map(|(slot, child)| child.as_ref().map(|c| (slot, c)))
    }

    pub fn is_full(&self) -> bool {
        self.slots.iter().all(Option::is_some)
    }

    /// The child playing now, with their slot.
    pub fn playing(&self, store: &Store) -> Option<(usize, &Child)> {
        store.child().and_then(|slot| self.get(slot).map(|child| (slot, child)))
    }

    fn playing_mut(&mut self, store: &Store) -> Option<(usize, &mut Child)> {
        let slot = store.child()?;
        self.slots.get_mut(slot).and_then(Option::as_mut).map(|child| (slot, child))
    }
}

/// What giving out or bringing in progress did, for the grown-ups' page to say.
#[derive(Clone, Debug, PartialEq)]
pub enum TransferNotice {
    /// Given out: where it went.
    Exported(String),
    /// Brought in: the children added, and those with no place left.
    Imported { added: usize, no_room: usize },
    /// Why it could not be done.
    Failed(String),
}

#[derive(Message, Clone, Debug, PartialEq)]
pub enum ChildCommand {
    /// A new child, chosen by their picture; they play at once.
    Add {
        animal: u8,
    },
    /// The child in the slot plays now: their map opens.
    Choose(usize),
    /// The playing child plays a stage (if it is open for them).
    PlayStage(String),
    Rename(usize, String),
    /// The child's file is set aside (never deleted), their games put away.
    Remove(usize),
    /// One game's stars (and diploma) forgotten.
    ClearStars(usize, String),
    /// Every child's progress given out as one file.
    Export,
    /// An exported file's text, brought in.
    Import(String),
    /// The answer to the first question: keep the file's child (`true`) or this device's.
    Answer {
        take_file: bool,
    },
}

/// Whose diploma of which game the diploma screen shows.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct DiplomaFor {
    pub slot: usize,
    pub game: String,
}

/// What the last game played on a stage earned, for the result dialog and the map.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub struct StageNews {
    /// The child who played it.
    pub slot: usize,
    pub stage: String,
    /// The stars this game added (the stage's stars are the child's).
    pub new: Stars,
    /// The stage this game opened.
    pub opened: Option<String>,
    /// Diplomas this game brought, by game.
    pub diplomas: Vec<String>,
    /// The map has shown it (its stars flew in).
    pub shown: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ThePath(Path::builtin()));
    app.init_resource::<Children>().init_resource::<PendingTime>().add_message::<ChildCommand>();
    app.add_systems(Startup, load);
    app.add_systems(OnEnter(Screen::Map), tell_map);
    app.add_message::<GameFinished>();
    app.add_systems(Update, (obey, count_finished));
    app.add_systems(Update, time_played.run_if(in_state(Screen::Playing).and_then(not(watching))));
    app.add_systems(OnExit(Screen::Playing), keep_time);
    // Now and then too: a browser tab closed keeps what was written last.
    app.add_systems(Update, keep_time.run_if(|pending: Res<PendingTime>| pending.0 >= 30.0));
    app.add_systems(Last, keep_time.run_if(on_message::<AppExit>));
}

pub(super) fn add_game<G: AppGame>(app: &mut App) {
    let playing = resource_exists::<Play<G>>.and_then(not(watching));
    app.add_systems(
        Update,
        tell_finished::<G>.after(super::turn::TurnSet).before(count_finished).run_if(playing),
    );
}

/// Reads every child's file; one that cannot be used is set aside and named.
fn load(store: Res<Store>, mut children: ResMut<Children>) {
    children.slots = vec![None; MOST_CHILDREN];
    for slot in 0..MOST_CHILDREN {
        let place = store.of_child(slot);
        let Some(text) = place.read(CHILD) else { continue };
        match Child::from_ron(&text) {
            Ok(child) => children.slots[slot] = Some(child),
            Err(why) => {
                // The child's games go aside with it, so a new child there starts afresh.
                let problem = put_aside(&place, &why.to_string());
                children.problems.push(problem);
            }
        }
    }
}

/// For the browser test: whose map opened, and their stars.
fn tell_map(store: Res<Store>, children: Res<Children>, path: Res<ThePath>) {
    let Some((slot, child)) = children.playing(&store) else { return };
    let stars = child.total_stars(&path);
    web::report(&format!("tabla map child-{} animal {} stars {stars}", slot + 1, child.animal));
}

/// Sets a child's files aside (never deleted), saying why; the message names the child's file.
fn put_aside(place: &Store, why: &str) -> String {
    for name in [GAME, LAST_GAME] {
        if place.read(name).is_some() {
            place.set_aside(name, why);
        }
    }
    place.set_aside(CHILD, why)
}

/// Keeps the child's file; `false` (and a warning) when it could not be written.
pub fn keep(store: &Store, slot: usize, child: &Child) -> bool {
    match store.of_child(slot).write(CHILD, &child.to_ron()) {
        Ok(()) => true,
        Err(e) => {
            warn!("a child's progress could not be kept: {e}");
            false
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn obey(
    mut orders: MessageReader<ChildCommand>,
    mut children: ResMut<Children>,
    mut store: ResMut<Store>,
    path: Res<ThePath>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    for order in orders.read() {
        match order.clone() {
            ChildCommand::Add { animal } => {
                let Some(slot) = children.slots.iter().position(Option::is_none) else { continue };
                let child = Child::new(animal);
                keep(&store, slot, &child);
                if children.each().next().is_none() {
                    take_over_device_games(&store, slot);
                }
                children.slots[slot] = Some(child);
                store.choose_child(Some(slot));
                next.set(Screen::Map);
            }
            ChildCommand::Choose(slot) => {
                if children.get(slot).is_some() {
                    store.choose_child(Some(slot));
                    next.set(Screen::Map);
                }
            }
            ChildCommand::PlayStage(id) => {
                let Some((_, child)) = children.playing(&store) else { continue };
                let Some((trail, index)) =
                    path.trails.iter().find_map(|t| t.stages.iter().position(|s| s.id == id).map(|i| (t, i)))
                else {
                    continue;
                };
                if !trail.can_play(index, |id| child.star_count(id)) {
                    continue;
                }
                let stage = &trail.stages[index];
                commands.insert_resource(MatchSetup {
                    level: stage.level.clone(),
                    opponent: Opponent::Robot,
                    person_seat: stage.seat,
                    robot_level: stage.robot,
                    clock_minutes: 0,
                    seats: Vec::new(),
                    stage: Some(stage.id.clone()),
                });
                commands.remove_resource::<StageNews>();
                next.set(Screen::Playing);
            }
            ChildCommand::Rename(slot, name) => {
                if let Some(child) = children.slots.get_mut(slot).and_then(Option::as_mut) {
                    child.name = Child::tidy_name(&name);
                    keep(&store, slot, child);
                }
            }
            ChildCommand::Remove(slot) => {
                if children.get(slot).is_none() {
                    continue;
                }
                put_aside(&store.of_child(slot), "removed on the grown-ups' page");
                web::forget_for_closing();
                children.slots[slot] = None;
                if store.child() == Some(slot) {
                    store.choose_child(None);
                }
            }
            ChildCommand::ClearStars(slot, game) => {
                if let Some(child) = children.slots.get_mut(slot).and_then(Option::as_mut) {
                    child.clear_stars(&path, &game);
                    keep(&store, slot, child);
                }
            }
            ChildCommand::Export => {
                let all: Vec<Child> = children.each().map(|(_, c)| c.clone()).collect();
                children.notice = Some(
                    match store.export_to(PROGRESS, &progress_file_name(), &Transfer::new(all).to_ron()) {
                        Ok(place) => TransferNotice::Exported(place),
                        Err(e) => TransferNotice::Failed(e),
                    },
                );
            }
            ChildCommand::Import(text) => import(&text, &mut children, &store, &path),
            ChildCommand::Answer { take_file } => {
                if children.questions.is_empty() {
                    continue;
                }
                // Only over the child it asked about (not one played or replaced since).
                if let Merge::Choose { slot, here, mut file } = children.questions.remove(0)
                    && take_file
                    && children.get(slot) == Some(&here)
                {
                    file.award_diplomas(&path, &web::today());
                    keep(&store, slot, &file);
                    children.slots[slot] = Some(file);
                }
            }
        }
    }
}

/// Where the progress given out goes (on the desktop, a folder of the data folder).
pub const PROGRESS: &str = "progress";

/// A progress file's name, dated, so one given out later does not replace it.
fn progress_file_name() -> String {
    format!("tabla-progress-{}-{}.ron", web::today(), (web::now_ms() as u64 / 1000) % 86_400)
}

/// The device's games from before there were children (`game.ron`, `last_game.ron`) become the
/// first child's, so nothing played before is left behind.
fn take_over_device_games(store: &Store, slot: usize) {
    let place = store.of_child(slot);
    for name in [GAME, LAST_GAME] {
        if let Some(text) = store.read(name)
            && place.write(name, &text).is_ok()
        {
            store.remove(name);
        }
    }
}

/// Brings in an exported file: new children take free places, the same child is asked about.
fn import(text: &str, children: &mut Children, store: &Store, path: &Path) {
    let transfer = match Transfer::from_ron(text) {
        Ok(transfer) => transfer,
        Err(why) => {
            children.notice = Some(TransferNotice::Failed(why.to_string()));
            return;
        }
    };
    let (mut added, mut no_room) = (0, 0);
    for merge in progress::plan_merge(&children.slots, transfer) {
        match merge {
            Merge::Add(mut child) => {
                child.award_diplomas(path, &web::today());
                if let Some(slot) = children.slots.iter().position(Option::is_none) {
                    keep(store, slot, &child);
                    children.slots[slot] = Some(child);
                    added += 1;
                }
            }
            Merge::Choose { .. } => children.questions.push(merge),
            Merge::NoRoom(_) => no_room += 1,
            Merge::Same => {}
        }
    }
    info!(
        "progress imported: {added} children added, {} to ask about, {no_room} without room",
        children.questions.len()
    );
    children.notice = Some(TransferNotice::Imported { added, no_room });
}

/// A game that just ended, as its record, for the child who played it.
#[derive(Message, Clone, Debug)]
struct GameFinished {
    record: Record,
    outcome: Outcome,
    /// The person's seat against the Robot.
    person: Option<Seat>,
}

/// Tells of `G`'s game when it ends (once: undone and played again to the same end, or only
/// looked at again, it is not told twice).
fn tell_finished<G: AppGame>(
    play: Res<Play<G>>,
    setup: Res<MatchSetup>,
    clocks: Res<Clocks>,
    mut finished: MessageWriter<GameFinished>,
    mut told: Local<Option<(u64, Vec<String>)>>,
) {
    if !play.is_changed() {
        return;
    }
    let Some(outcome) = play.game().outcome() else { return };
    let record = record_of(&*play, &setup, &clocks);
    let key = Some((record.seed, record.actions.clone()));
    // A game opened already over (a record file, the last game) was counted when it was played.
    let opened_over = play.is_added();
    if *told != key {
        *told = key;
        if !opened_over {
            finished.write(GameFinished { record, outcome, person: play.person_against_robot() });
        }
    }
}

/// A game that ended is counted for the child who played it; on a stage it earns stars.
fn count_finished(
    mut finished: MessageReader<GameFinished>,
    store: Res<Store>,
    path: Res<ThePath>,
    mut children: ResMut<Children>,
    mut commands: Commands,
) {
    for GameFinished { record, outcome, person } in finished.read() {
        let Some((slot, child)) = children.playing_mut(&store) else { continue };
        let end = GameEnd::of(record, *outcome, *person, &web::today());
        match child.finish(&path, record, &end) {
            Ok(Some(result)) => {
                info!("stage {} earned {} new stars", result.stage, result.new.count());
                let StageResult { stage, new, opened, diplomas } = result;
                commands.insert_resource(StageNews { slot, stage, new, opened, diplomas, shown: false });
            }
            Ok(None) => {}
            Err(e) => warn!("the stage's game could not be judged: {e}"),
        }
        keep(&store, slot, child);
    }
}

/// Seconds played at the game on screen, not yet kept.
#[derive(Default)]
struct Unkept(f32);

fn time_played(
    time: Res<Time>,
    now: Res<NowPlaying>,
    mut unkept: Local<Unkept>,
    mut pending: ResMut<PendingTime>,
) {
    if now.outcome.is_none() {
        unkept.0 += time.delta_secs();
    }
    if unkept.0 >= 1.0 {
        pending.0 += unkept.0;
        unkept.0 = 0.0;
    }
}

/// Time played and not yet written to the child's file (it is written on leaving the game).
#[derive(Resource, Default)]
pub struct PendingTime(pub f32);

fn keep_time(
    now: Res<NowPlaying>,
    store: Res<Store>,
    mut pending: ResMut<PendingTime>,
    mut children: ResMut<Children>,
) {
    let seconds = pending.0.floor();
    pending.0 -= seconds;
    if seconds < 1.0 || now.game.is_empty() {
        return;
    }
    if let Some((slot, child)) = children.playing_mut(&store) {
        child.add_time(now.game, seconds as u64, &web::today());
        keep(&store, slot, child);
    }
}
