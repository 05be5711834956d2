//! The children who play on this device and the path they follow: each child's file is read at
//! the start (one that cannot be used is set aside with a message, and the others still load; one
//! of a newer Tabla, or one that cannot be read now, keeps its place and is shown as it is); a
//! child is added, chosen (and then keeps their own games), renamed, removed or has a game's
//! stars cleared. The grown-ups' page asks through `ChildCommand` too, so the tests send what a
//! finger sends; a stage played is `stages`', the progress given out and brought in `transfer`'s,
//! the time played `time_played`'s.

use crate::app::platform::settings::{Settings, Words};
use crate::app::platform::speech::ReadingNow;
use crate::app::platform::store::{CHILD, LAST_GAME, OLD_GAME, RECENT, Store, game_slot};
use crate::app::platform::web;
use crate::app::session::screen::Screen;
use crate::progress::child::MOST_CHILDREN;
use crate::progress::{Child, Path, ProgressError, Reading};
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

    pub(in crate::app) fn playing_mut(&mut self, store: &Store) -> Option<(usize, &mut Child)> {
        let slot = store.child()?;
        self.slots.get_mut(slot).and_then(Option::as_mut).map(|child| (slot, child))
    }
}

/// A child's name as shown: the name a grown-up typed, or their animal's.
pub fn name_of(words: &Words, child: &Child) -> String {
    if child.name.trim().is_empty() {
        words.get(&format!("animal_{}", child.animal)).to_string()
    } else {
        child.name.clone()
    }
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
    /// How Tabla reads aloud to the child.
    SetReading(usize, Reading),
    /// Every child's progress given out as one file.
    Export,
    /// An exported file's text, brought in.
    Import(String),
    /// The files set aside, deleted (the grown-ups' page asks first).
    ClearSetAside,
}

/// The children are to be read afresh (this window took the data over from another).
#[derive(Message, Clone, Copy, Debug)]
pub struct ReadChildrenAgain;

pub(in crate::app) fn plugin(app: &mut App) {
    app.insert_resource(ThePath(Path::builtin()));
    app.init_resource::<Children>().add_message::<ChildCommand>();
    app.add_message::<ReadChildrenAgain>();
    app.add_systems(Startup, load);
    app.add_systems(Update, load.run_if(on_message::<ReadChildrenAgain>));
    app.add_systems(OnEnter(Screen::Map), tell_map);
    app.add_systems(Update, (obey, follow_reading).chain());
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
pub(in crate::app) fn games_of(path: &Path) -> Vec<String> {
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
pub(in crate::app) fn obey(
    mut orders: MessageReader<ChildCommand>,
    mut children: ResMut<Children>,
    mut store: ResMut<Store>,
    mut settings: ResMut<Settings>,
    path: Res<ThePath>,
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
            ChildCommand::SetReading(slot, reading) => {
                if let Some(child) = children.slots.get_mut(slot).and_then(Option::as_mut)
                    && child.reading != reading
                {
                    child.reading = reading;
                    keep(&store, slot, child);
                }
            }
            ChildCommand::ClearStars(slot, game) => {
                if let Some(child) = children.slots.get_mut(slot).and_then(Option::as_mut) {
                    child.clear_stars(&path, game);
                    keep(&store, slot, child);
                }
            }
            ChildCommand::ClearSetAside => {
                let cleared = store.clear_set_aside();
                info!("{cleared} files set aside were deleted");
            }
            ChildCommand::PlayStage(_) | ChildCommand::Export | ChildCommand::Import(_) => {}
        }
    }
}

/// Reading aloud follows the child who plays (the device's setting when none does).
fn follow_reading(
    store: Res<Store>,
    children: Res<Children>,
    settings: Res<Settings>,
    mut now: ResMut<ReadingNow>,
) {
    let reading = children.playing(&store).map_or(settings.reading, |(_, child)| child.reading);
    now.set_if_neq(ReadingNow(reading));
}

/// The child in `slot` plays now; the device remembers them as the child who played last.
fn choose(store: &mut Store, settings: &mut ResMut<Settings>, slot: usize) {
    store.choose_child(Some(slot));
    if settings.last_child != Some(slot as u8) {
        settings.last_child = Some(slot as u8);
    }
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
