//! Giving out and bringing in the children's progress (the grown-ups' page): every child as one
//! file, and a file brought in checked whole before anything of it is kept.

use super::children::{ChildCommand, Children, ThePath, keep};
use crate::app::platform::store::Store;
use crate::app::platform::web;
use crate::progress::{self, Child, Merge, Path, Transfer};
use bevy::prelude::*;
use tracing::info;

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

/// What the last export or import did, for the grown-ups' page to say.
#[derive(Resource, Default, Debug)]
pub struct Transferred(pub Option<TransferNotice>);

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<Transferred>();
    app.add_systems(Update, obey.before(super::children::obey));
}

fn obey(
    mut orders: MessageReader<ChildCommand>,
    mut children: ResMut<Children>,
    mut said: ResMut<Transferred>,
    store: Res<Store>,
    path: Res<ThePath>,
) {
    for order in orders.read() {
        match order {
            ChildCommand::Export => {
                let all: Vec<Child> = children.each().map(|(_, c)| c.clone()).collect();
                said.0 = Some(
                    match store.export_to(PROGRESS, &progress_file_name(), &Transfer::new(all).to_ron()) {
                        Ok(place) => TransferNotice::Exported(place),
                        Err(e) => TransferNotice::Failed(e),
                    },
                );
            }
            ChildCommand::Import(text) => said.0 = Some(import(text, &mut children, &store, &path)),
            _ => {}
        }
    }
}

/// Where the progress given out goes (on the desktop, a folder of the data folder).
pub const PROGRESS: &str = "progress";

/// A progress file's name, dated by the local day, so one given out later does not replace it.
fn progress_file_name() -> String {
    format!("tabla-progress-{}-{}.ron", web::today(), web::seconds_today())
}

/// Brings in an exported file, checked whole first: new children take free places, the same
/// child (by identity) is merged with this device's, nothing earned here taken away. An import
/// that could not be written says so.
fn import(text: &str, children: &mut Children, store: &Store, path: &Path) -> TransferNotice {
    let transfer = match Transfer::from_ron(text, path) {
        Ok(transfer) => transfer,
        Err(why) => {
            return TransferNotice::Failed(why.to_string());
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
    if not_written > 0 {
        let why = store.not_saved().into_iter().next().map(|(_, why)| why).unwrap_or_default();
        TransferNotice::Failed(format!("{not_written} could not be kept: {why}"))
    } else {
        TransferNotice::Imported { added, merged, no_room }
    }
}
