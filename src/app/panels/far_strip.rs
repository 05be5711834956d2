//! A game played with someone far away shows its room above the message under the board: its
//! code and who is there, in orange while the other side (or this device's connection) is away. What
//! stands in the way of playing is said by the line under the board (`FarGame::trouble`), the only word of
//! the room a phone has room for. To the room's maker, while someone seated is away, it offers to
//! let another device sit at their place (a lost phone, a new tablet).

use crate::app::far::FarGame;
use crate::app::panels::theme::{CALM, CARD, bold};
use crate::app::platform::settings::Words;
use crate::app::platform::web;
use bevy_egui::egui::{self, Color32};

/// The strip's colour while someone (or the connection) is away.
const WAITING: Color32 = Color32::from_rgb(200, 110, 20);

/// What the strip says: the room, and who is there when nothing stands in the way of playing
/// (whatever does is the line under the board); whether something does.
fn strip_text(far: &FarGame, words: &Words) -> (String, bool) {
    let room = words.fill("far_room", &[("code", far.code.as_deref().unwrap_or(""))]);
    if far.trouble().is_some() {
        return (room, true);
    }
    let names: Vec<&str> =
        far.people.iter().filter(|p| Some(p.seat) != far.seat && p.here).map(|p| p.name.as_str()).collect();
    (format!("{room} · {}", words.fill("far_here", &[("name", &names.join(", "))])), false)
}

/// The strip, in the panel under the board (the plain layout's), above its message: its room is
/// the panel's, never the board's or a button's. A phone's slim or sideways panels have no room
/// for it: the line under the board says what stands in the way of playing.
pub(super) fn strip(ui: &mut egui::Ui, far: &FarGame, words: &Words) {
    let (text, waiting) = strip_text(far, words);
    egui::Frame::new()
        .fill(CARD)
        .stroke(egui::Stroke::new(2.0, if waiting { WAITING } else { CALM }))
        .corner_radius(10.0)
        .inner_margin(egui::Margin::symmetric(12, 4))
        .show(ui, |ui| {
            // One row where it fits, never broken inside a word.
            ui.horizontal_wrapped(|ui| {
                let colour = if waiting { WAITING } else { CALM };
                let label = ui.add(egui::Label::new(bold(text, 16.0).color(colour)).extend());
                web::tag(&label, if waiting { "far.waiting" } else { "far.here" });
                // Only while this device is connected: the freeing is the room's to do now.
                let offer = far.maker && far.token.is_some() && far.away.is_none();
                let away = far.waiting_for().filter(|_| offer);
                if let Some(name) = away {
                    let free = words.fill("far_free_seat", &[("name", name)]);
                    let button = egui::Button::new(bold(free, 15.0))
                        .wrap_mode(egui::TextWrapMode::Extend)
                        .min_size(egui::vec2(48.0, 40.0));
                    let button = ui.add(button);
                    web::tag(&button, "far.free");
                    if button.clicked() {
                        far.free_seat_of_away();
                    }
                }
            });
        });
}
