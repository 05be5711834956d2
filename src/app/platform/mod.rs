//! The edge below everything: where things are kept (`store`, with one window writing at a time:
//! `holder`), the settings and the words (`settings`), the browser glue (`web`), sound (`sound`),
//! speech (`speech`), the sounds made as it starts (`synth`), the pictures (`art`), and waking a
//! window at rest (`wake`).

pub mod art;
pub mod holder;
pub mod settings;
pub mod sound;
pub mod speech;
pub mod store;
pub mod synth;
pub mod wake;
pub mod web;

use bevy::prelude::*;

/// What the game needs with or without a window: the settings, the words, the pictures and the
/// sound cues.
pub fn plugin(app: &mut App) {
    app.add_plugins((settings::plugin, art::plugin, sound::cues_plugin, speech::plugin, wake::plugin));
}

/// What needs a real window: the sounds played, the browser's page.
pub fn presentation_plugin(app: &mut App) {
    app.add_plugins((sound::plugin, speech::voice_plugin, web::plugin, wake::window_plugin));
}
