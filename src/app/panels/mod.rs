//! The egui side of the game screen: what the panels show (`scoreboard`), the panels and dialogs
//! around the board (`hud`), a phone's thin strips (`hud_slim`), the replay's bar, the seats' cards, a stage's
//! stars at its end (`stage_end`), the parts they share, the help window, and the look every screen shares (`theme`).

pub mod help_window;
pub mod hud;
pub mod hud_slim;
pub mod panel_parts;
pub mod replay_bar;
pub mod scoreboard;
pub mod seat_cards;
pub mod stage_end;
pub mod theme;

use bevy::prelude::*;

/// The panels and the look (they need a window).
pub fn plugin(app: &mut App) {
    app.add_plugins((theme::plugin, hud::plugin));
}

/// What the panels show of the game (the headless tests read it too).
pub fn scoreboard_plugin(app: &mut App) {
    app.add_plugins(scoreboard::plugin);
}
