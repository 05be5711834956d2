//! The egui side of the game screen: what the panels show (`scoreboard`), the panels around the
//! board (`hud`), a phone's thin strips (`hud_slim`), the dialogs over the board (`dialogs`), the
//! in-game settings (`settings_window`), the help window, the replay's bar, the seats' cards, a
//! stage's stars at its end (`stage_end`), the game screen said aloud (`spoken`), the parts they
//! share (`panel_parts`), a room's strip (`far_strip`), the look every screen shares (`theme`), and the check that
//! nothing on a screen is cut, broken or covered (`layout_check`).

pub mod dialogs;
pub mod far_strip;
pub mod help_window;
pub mod hud;
pub mod hud_slim;
pub mod layout_check;
pub mod panel_parts;
pub mod replay_bar;
pub mod scoreboard;
pub mod seat_cards;
pub mod settings_window;
pub mod spoken;
pub mod stage_end;
pub mod theme;

use bevy::prelude::*;

/// The panels and the look (they need a window).
pub fn plugin(app: &mut App) {
    app.add_plugins((theme::plugin, hud::plugin));
    app.add_plugins(layout_check::plugin);
}

/// What the panels show of the game, and what is said of it (the headless tests read both).
pub fn scoreboard_plugin(app: &mut App) {
    app.add_plugins((scoreboard::plugin, spoken::plugin));
}
