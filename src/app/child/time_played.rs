//! The time a child plays, added to their figures: counted while a game is on screen (not while
//! it is watched again, nor while the browser's page is hidden), written on leaving the game, every
//! half minute (a window at rest wakes for it), and when the app closes.

use super::children::{Children, keep};
use crate::app::platform::store::Store;
use crate::app::platform::wake::WakeWithin;
use crate::app::platform::web;
use crate::app::session::play::{NowPlaying, watching};
use crate::app::session::screen::Screen;
use bevy::prelude::*;

/// Seconds played between two writes of the time.
const KEEP_EVERY: f32 = 30.0;

pub(in crate::app) fn plugin(app: &mut App) {
    app.init_resource::<PendingTime>();
    app.add_systems(Update, time_played.run_if(in_state(Screen::Playing).and_then(not(watching))));
    app.add_systems(OnExit(Screen::Playing), keep_time);
    // Now and then too: a browser tab closed keeps what was written last.
    app.add_systems(Update, keep_time.run_if(|pending: Res<PendingTime>| pending.0 >= KEEP_EVERY));
    app.add_systems(Last, keep_time.run_if(on_message::<AppExit>));
}

/// Seconds played at the game on screen, not yet kept.
#[derive(Default)]
struct Unkept(f32);

fn time_played(
    time: Res<Time<Real>>,
    now: Res<NowPlaying>,
    mut unkept: Local<Unkept>,
    mut pending: ResMut<PendingTime>,
    mut wake: ResMut<WakeWithin>,
) {
    if now.outcome.is_none() && !web::page_hidden() {
        // The window at rest is woken to keep the time: a longer gap is a computer asleep.
        unkept.0 += time.delta_secs().min(KEEP_EVERY + 1.0);
        wake.within(f64::from((KEEP_EVERY - pending.0 - unkept.0).max(1.0)));
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
