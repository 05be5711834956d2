//! A seat's card in the panels around the board: who plays it (a face or the Robot), its colour or
//! role, its score, its clock and the game's extras under the score (pieces left, progress).

use super::scoreboard::SeatBoard;
use super::theme::{ACCENT, CALM, CARD, EguiArt, INK, bold, card};
use crate::app::platform::art::Art;
use crate::app::session::game::Extra;
use bevy_egui::egui::{self, Color32, RichText, vec2};

fn clock_text(seconds: f32) -> String {
    let whole = seconds.ceil() as u32;
    format!("{}:{:02}", whole / 60, whole % 60)
}

/// A seat's card with `margin` inside (across, down): while it is that seat's turn, warm and
/// edged thick, a sign that does not need colour to be seen; as large either way, so nothing
/// moves when the turn passes.
fn seat_frame(seat: &SeatBoard, (across, down): (i8, i8)) -> egui::Frame {
    if !seat.to_move {
        return card(CARD).inner_margin(egui::Margin::symmetric(across, down));
    }
    let thicker = (TURN_EDGE - EDGE).ceil() as i8;
    card(Color32::from_rgb(255, 226, 170))
        .stroke(egui::Stroke::new(TURN_EDGE, ACCENT))
        .inner_margin(egui::Margin::symmetric((across - thicker).max(0), (down - thicker).max(0)))
}

/// The edge of a card, and of the card of the seat to move.
const EDGE: f32 = 1.5;
const TURN_EDGE: f32 = 3.5;

/// The time left, red in its last seconds.
fn clock_words(left: f32, size: f32) -> RichText {
    let colour = if left < 20.0 { Color32::from_rgb(200, 40, 30) } else { INK };
    bold(clock_text(left), size).color(colour)
}

fn clock_label(ui: &mut egui::Ui, art: &EguiArt, left: f32, size: f32) {
    ui.add(art.image(Art::Clock, size * 1.1));
    ui.label(clock_words(left, size));
}

/// A seat's extra lines: pictures with counts, progress bars, words.
fn extras(ui: &mut egui::Ui, seat: &SeatBoard, art: &EguiArt, icon: f32, bar_width: f32) {
    for extra in &seat.extras {
        match extra {
            Extra::Count(picture, count) => {
                for _ in 0..*count {
                    ui.add(art.image(*picture, icon));
                }
            }
            Extra::Progress { art: picture, percent, finished } => {
                ui.add(art.image(*picture, icon));
                let fill = if *finished { CALM } else { ACCENT };
                let text = if *finished { format!("{percent}% ✓") } else { format!("{percent}%") };
                // Never narrower than its words, which a phone's narrow card would cut.
                let words = ui.painter().layout_no_wrap(text.clone(), egui::FontId::proportional(14.0), INK);
                ui.add(
                    egui::ProgressBar::new(*percent as f32 / 100.0)
                        .desired_width(bar_width.max(words.size().x + 14.0))
                        .desired_height(icon * 0.8)
                        .corner_radius(6)
                        .fill(fill)
                        .text(RichText::new(text).size(14.0).color(INK)),
                );
            }
            Extra::Text(text) => {
                ui.label(RichText::new(text).size(14.0));
            }
            Extra::Dice(dice) => {
                for &(number, played) in dice {
                    let image = art.image(Art::Die(number), icon * 1.2);
                    ui.add(if played { image.tint(Color32::from_white_alpha(70)) } else { image });
                }
            }
        }
    }
}

pub(super) fn seat_card(
    ui: &mut egui::Ui,
    seat: &SeatBoard,
    art: &EguiArt,
    width: f32,
    show_score: bool,
    compact: bool,
) {
    if compact {
        return compact_seat_card(ui, seat, art, width, show_score);
    }
    seat_frame(seat, (10, 10)).show(ui, |ui| {
        ui.set_width(width);
        ui.set_min_height(64.0);
        ui.horizontal(|ui| {
            ui.add(art.image(seat.face, 34.0));
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    ui.label(bold(&seat.name, 17.0));
                    if let Some(left) = seat.clock {
                        ui.add_space(6.0);
                        clock_label(ui, art, left, 18.0);
                    }
                });
                ui.horizontal(|ui| {
                    if show_score {
                        ui.label(bold(seat.score.to_string(), 30.0).color(ACCENT));
                        ui.add_space(4.0);
                    }
                    extras(ui, seat, art, 24.0, 90.0);
                });
            });
        });
    });
}

/// One line per seat for a phone: face, score, name, extras, clock.
fn compact_seat_card(ui: &mut egui::Ui, seat: &SeatBoard, art: &EguiArt, width: f32, show_score: bool) {
    seat_frame(seat, (8, 4)).show(ui, |ui| {
        ui.set_width(width);
        ui.spacing_mut().interact_size.y = 26.0;
        ui.spacing_mut().item_spacing = vec2(6.0, 2.0);
        ui.horizontal_wrapped(|ui| {
            ui.add(art.image(seat.face, 26.0));
            if show_score {
                ui.label(bold(seat.score.to_string(), 24.0).color(ACCENT));
            }
            ui.label(RichText::new(&seat.name).size(15.0));
            if let Some(left) = seat.clock {
                clock_label(ui, art, left, 15.0);
            }
            extras(ui, seat, art, 20.0, 56.0);
        });
    });
}

/// A seat in a phone's thin strip: who plays it, its colour, score and clock, in a row (or a column beside a
/// board on its side). A tap on it opens the whole panels.
pub(super) fn tiny_seat_card(
    ui: &mut egui::Ui,
    seat: &SeatBoard,
    art: &EguiArt,
    show_score: bool,
    in_row: bool,
) -> egui::Response {
    let shown = seat_frame(seat, (4, 2)).show(ui, |ui| {
        ui.spacing_mut().item_spacing = vec2(3.0, 0.0);
        ui.spacing_mut().interact_size.y = 22.0;
        let inner = |ui: &mut egui::Ui| {
            ui.add(art.image(seat.face, 22.0));
            if let Some(colour) = seat.art {
                ui.add(art.image(colour, 20.0));
            }
            if show_score {
                ui.label(bold(seat.score.to_string(), 18.0).color(ACCENT));
            }
            if let Some(left) = seat.clock {
                let size = if in_row { 13.0 } else { 11.0 };
                ui.add(egui::Label::new(clock_words(left, size)).extend());
            }
        };
        if in_row {
            ui.horizontal(inner);
        } else {
            ui.vertical_centered(inner);
        }
    });
    let response = shown.response.interact(egui::Sense::click());
    crate::app::platform::web::tag(&response, &format!("seat.{}", seat.seat.index()));
    response
}

/// The words among a seat's extras (its pips, its checkers off, a chain's steps), in one line.
pub(super) fn extras_in_words(seat: &SeatBoard) -> String {
    let words: Vec<&str> = seat
        .extras
        .iter()
        .filter_map(|extra| match extra {
            Extra::Text(text) => Some(text.as_str()),
            _ => None,
        })
        .collect();
    words.join(" · ")
}
