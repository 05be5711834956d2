//! The children who play on this device, and their path: each child's file is read at the start
//! (one that cannot be used is set aside with a message, and the others still load; one of a
//! newer Tabla, or one that cannot be read now, keeps its place and is shown as it is), the child
//! who taps their picture keeps their own games, a stage tapped on the map starts its game, and a
//! game the keeper was told finished is counted in the child's figures (once per game) and, on a
//! stage, earns its stars, opens the next stage and may bring a diploma. The grown-ups' page asks
//! through `ChildCommand` too, so the tests send what a finger sends.

use super::keeping::{Keep, person_of};
use super::play::Happened;
use super::play::{NowPlaying, watching};
use super::screen::Screen;
use crate::app::launch::{MatchSetup, Opponent};
use crate::app::platform::settings::Settings;
use crate::app::platform::store::{CHILD, LAST_GAME, OLD_GAME, RECENT, Store, game_slot};
use crate::app::platform::web;
use crate::progress::child::MOST_CHILDREN;
use crate::progress::{self, Child, GameEnd, Merge, Path, ProgressError, StageResult, Stars, Transfer};
use crate::rules::GameKind;
use bevy::prelude::*;
use tracing::{info, warn};

/// The path every child follows.
#[derive(Resource, Deref)]
pub struct ThePath(pub Path);

/// The children of this device, by slot, and what the grown-ups' page has to tell.
#[derive(Resource, Default, Debug)]
pub struct Children {
    pub slots: Vec<Option<Child>>,
    /// Places whose file is there but cannot be used now (a newer Tabla's, or one that cannot be
    /// read): never given to a new child.
    pub held: Vec<Option<Held>>,
    /// Files that could not be used (each set aside), told until tapped away.
    pub problems: Vec<String>,
    /// What the last export or import did.
    pub notice: Option<TransferNotice>,
}

/// A child's place whose file this Tabla leaves as it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Held {
    /// The picture and name, when the file still tells them.
    pub face: Option<(u8, String)>,
    pub why: String,
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

    /// Every place held by a file that cannot be used now, with its slot.
    pub fn each_held(&self) -> impl Iterator<Item = (usize, &Held)> {
        self.held.iter().enumerate().filter_map(|(slot, held)| held.as_ref().map(|h| (slot, h)))
    }

    /// The first place neither a child nor a held file takes.
    pub fn free_slot(&self) -> Option<usize> {
        (0..MOST_CHILDREN)
            .find(|&slot| self.get(slot).is_none() && self.held.get(slot).is_none_or(Option::is_none))
    }

    pub fn is_full(&self) -> bool {
        self.free_slot().is_none()
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
    /// Brought in: the children added, those merged with the same child here, and those with no
    /// place left.
    Imported { added: usize, merged: usize, no_room: usize },
    /// Why it could not be done (nothing of the file was taken).
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
    ClearStars(usize, GameKind),
    /// Every child's progress given out as one file.
    Export,
    /// An exported file's text, brought in.
    Import(String),
    /// The files set aside, deleted (the grown-ups' page asks first).
    ClearSetAside,
}

/// Whose diploma of which game the diploma screen shows.
#[derive(Resource, Clone, Debug, PartialEq, Eq)]
pub struct DiplomaFor {
    pub slot: usize,
    pub game: GameKind,
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
    pub diplomas: Vec<GameKind>,
    /// The map has shown it (its stars flew in).
    pub shown: bool,
}

/// The children are to be read afresh (this window took the data over from another).
#[derive(Message, Clone, Copy, Debug)]
pub struct ReadChildrenAgain;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ThePath(Path::builtin()));
    app.init_resource::<Children>().init_resource::<PendingTime>().add_message::<ChildCommand>();
    app.add_message::<ReadChildrenAgain>();
    app.add_systems(Startup, load);
    app.add_systems(Update, load.run_if(on_message::<ReadChildrenAgain>));
    app.add_systems(OnEnter(Screen::Map), tell_map);
    app.add_systems(Update, obey);
    // After the keeper has written the game (Last), so a finished game is counted once it is kept.
    app.add_systems(Last, count_finished.after(super::keeping::KeepSet));
    app.add_systems(Update, time_played.run_if(in_state(Screen::Playing).and_then(not(watching))));
    app.add_systems(OnExit(Screen::Playing), keep_time);
    // Now and then too: a browser tab closed keeps what was written last.
    app.add_systems(Update, keep_time.run_if(|pending: Res<PendingTime>| pending.0 >= 30.0));
    app.add_systems(Last, keep_time.run_if(on_message::<AppExit>));
}

/// Reads every child's file; one that cannot be used is set aside and named, one this Tabla
/// must leave as it is keeps its place.
pub(crate) fn load(store: Res<Store>, path: Res<ThePath>, mut children: ResMut<Children>) {
    children.slots = vec![None; MOST_CHILDREN];
    children.held = vec![None; MOST_CHILDREN];
    for slot in 0..MOST_CHILDREN {
        let place = store.of_child(slot);
        let text = match place.read(CHILD) {
            Ok(Some(text)) => text,
            Ok(None) => continue,
            Err(why) => {
                warn!("{why}");
                children.held[slot] = Some(Held { face: None, why });
                continue;
            }
        };
        match Child::from_ron(&text) {
            Ok(child) if child.id.is_empty() => {
                // A child of an older Tabla gets their identity now.
                let child = child.with_id(web::fresh_id());
                keep(&store, slot, &child);
                children.slots[slot] = Some(child);
            }
            Ok(child) => children.slots[slot] = Some(child),
            Err(why @ ProgressError::Newer(_)) => {
                let why = format!("{}: {why}", place.scoped(CHILD));
                warn!("{why}");
                children.held[slot] = Some(Held { face: Child::peek(&text), why });
            }
            Err(why) => {
                // The child's games go aside with it, so a new child there starts afresh.
                let problem = put_aside(&place, &path, &why.to_string());
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

/// The names of a place's games: each game's game in progress, the last game, the place's order.
fn games_of(path: &Path) -> Vec<String> {
    let slots = path.trails.iter().map(|trail| game_slot(trail.game));
    slots.chain([LAST_GAME, OLD_GAME, RECENT].map(str::to_string)).collect()
}

/// Sets a child's files aside (never deleted), saying why; the message names the child's file.
fn put_aside(place: &Store, path: &Path, why: &str) -> String {
    for name in games_of(path) {
        if matches!(place.read(&name), Ok(Some(_))) {
            place.set_aside(&name, why);
        }
    }
    place.set_aside(CHILD, why)
}

/// Keeps the child's file; `false` when it could not be written (the store says why).
pub fn keep(store: &Store, slot: usize, child: &Child) -> bool {
    store.of_child(slot).write(CHILD, &child.to_ron()).is_ok()
}

#[allow(clippy::too_many_arguments)]
fn obey(
    mut orders: MessageReader<ChildCommand>,
    mut children: ResMut<Children>,
    mut store: ResMut<Store>,
    mut settings: ResMut<Settings>,
    path: Res<ThePath>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    for order in orders.read() {
        match order.clone() {
            ChildCommand::Add { animal } => {
                let Some(slot) = children.free_slot() else { continue };
                let child = Child::new(animal).with_id(web::fresh_id());
                if !keep(&store, slot, &child) {
                    // Nothing is made that would be gone after a reload: the screens say why.
                    continue;
                }
                if children.each().next().is_none() {
                    take_over_device_games(&store, &path, slot);
                    web::keep_storage();
                }
                children.slots[slot] = Some(child);
                choose(&mut store, &mut settings, slot);
                next.set(Screen::Map);
            }
            ChildCommand::Choose(slot) => {
                if children.get(slot).is_some() {
                    choose(&mut store, &mut settings, slot);
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
                put_aside(&store.of_child(slot), &path, "removed on the grown-ups' page");
                web::forget_for_closing();
                children.slots[slot] = None;
                if store.child() == Some(slot) {
                    store.choose_child(None);
                }
            }
            ChildCommand::ClearStars(slot, game) => {
                if let Some(child) = children.slots.get_mut(slot).and_then(Option::as_mut) {
                    child.clear_stars(&path, game);
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
            ChildCommand::ClearSetAside => {
                let cleared = store.clear_set_aside();
                info!("{cleared} files set aside were deleted");
            }
        }
    }
}

/// The child in `slot` plays now; the device remembers them as the child who played last.
fn choose(store: &mut Store, settings: &mut ResMut<Settings>, slot: usize) {
    store.choose_child(Some(slot));
    if settings.last_child != Some(slot as u8) {
        settings.last_child = Some(slot as u8);
    }
}

/// Where the progress given out goes (on the desktop, a folder of the data folder).
pub const PROGRESS: &str = "progress";

/// A progress file's name, dated by the local day, so one given out later does not replace it.
fn progress_file_name() -> String {
    format!("tabla-progress-{}-{}.ron", web::today(), web::seconds_today())
}

/// The device's games from before there were children (each game's game in progress, the last
/// game) become the first child's, so nothing played before is left behind.
fn take_over_device_games(store: &Store, path: &Path, slot: usize) {
    let place = store.of_child(slot);
    let device = store.games_of_device();
    for name in games_of(path) {
        if let Ok(Some(text)) = device.read(&name)
            && place.write(&name, &text).is_ok()
        {
            device.remove(&name);
        }
    }
}

/// Brings in an exported file, checked whole first: new children take free places, the same
/// child (by identity) is merged with this device's, nothing earned here taken away. An import
/// that could not be written says so.
fn import(text: &str, children: &mut Children, store: &Store, path: &Path) {
    let transfer = match Transfer::from_ron(text, path) {
        Ok(transfer) => transfer,
        Err(why) => {
            children.notice = Some(TransferNotice::Failed(why.to_string()));
            return;
        }
    };
    let (mut added, mut merged, mut no_room, mut not_written) = (0, 0, 0, 0);
    for merge in progress::plan_merge(&children.slots, transfer) {
        let (slot, mut child) = match merge {
            Merge::Add(child) => match children.free_slot() {
                Some(slot) => (slot, child),
                None => {
                    no_room += 1;
                    continue;
                }
            },
            Merge::Merged { slot, merged: child } => (slot, child),
            Merge::NoRoom(_) => {
                no_room += 1;
                continue;
            }
            Merge::Same => continue,
        };
        let new = children.get(slot).is_none();
        if child.id.is_empty() {
            child.id = web::fresh_id();
        }
        child.award_diplomas(path, &web::today());
        if !keep(store, slot, &child) {
            not_written += 1;
            continue;
        }
        children.slots[slot] = Some(child);
        if new { added += 1 } else { merged += 1 }
    }
    info!(
        "progress imported: {added} children added, {merged} merged, {no_room} without room, {not_written} not written"
    );
    children.notice = Some(if not_written > 0 {
        let why = store.not_saved().into_iter().next().map(|(_, why)| why).unwrap_or_default();
        TransferNotice::Failed(format!("{not_written} could not be kept: {why}"))
    } else {
        TransferNotice::Imported { added, merged, no_room }
    });
}

/// A game the keeper was told finished is counted for the child who played it; on a stage it
/// earns stars.
fn count_finished(
    mut told: MessageReader<Keep>,
    store: Res<Store>,
    path: Res<ThePath>,
    mut children: ResMut<Children>,
    mut commands: Commands,
) {
    for Keep { happened, record, outcome } in told.read() {
        let (Happened::Finished, Some(outcome)) = (happened, outcome) else { continue };
        let Some((slot, child)) = children.playing_mut(&store) else { continue };
        let end = GameEnd::of(record, *outcome, person_of(record), &web::today());
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
    let Some(game) = now.game.filter(|_| seconds >= 1.0) else { return };
    if let Some((slot, child)) = children.playing_mut(&store) {
        child.add_time(game, seconds as u64, &web::today());
        keep(&store, slot, child);
    }
}
