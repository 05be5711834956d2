//! The help window: the game's moving demonstration (`board::help`'s `DemoFrame`) painted on a small
//! board, a line saying what its move shows, the rules in a few words, and all of them and the
//! keys folded below.

use super::panel_parts::{SAY_SIDE, hold_under, said_line, window};
use super::scoreboard::ScoreBoard;
use super::theme::{ACCENT, EguiArt, INK, bold};
use crate::app::board::help::{DemoFrame, HelpOpen};
use crate::app::platform::settings::Words;
use crate::app::platform::speech::{Speech, Utterance};
use crate::app::session::feedback::game_key;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, Color32, Pos2, RichText, Stroke, pos2, vec2};

#[allow(clippy::too_many_arguments)]
pub(super) fn help_dialog(
    mut contexts: EguiContexts,
    board: Res<ScoreBoard>,
    words: Res<Words>,
    art: Res<EguiArt>,
    frame: Res<DemoFrame>,
    mut help: ResMut<HelpOpen>,
    mut speech: MessageWriter<Speech>,
    mut said_step: Local<Option<String>>,
) -> Result {
    if !help.0 {
        *said_step = None;
        return Ok(());
    }
    // Each step of the demonstration is said as it is shown.
    if frame.say != *said_step {
        said_step.clone_from(&frame.say);
        if let Some(key) = &frame.say {
            speech.write(Speech::Say(Utterance::of(&words, key)));
        }
    }
    let again = help_window(contexts.ctx_mut()?, &board, &words, &art, &frame, &mut help);
    if again && let Some(key) = &frame.say {
        speech.write(Speech::Say(Utterance::of(&words, key)));
    }
    Ok(())
}

/// The help window: the demonstration, what its move shows, the rules in a few words, and all
/// of them and the keys folded below; `true` when the step's speaker button was tapped.
fn help_window(
    ctx: &egui::Context,
    board: &ScoreBoard,
    words: &Words,
    art: &EguiArt,
    frame: &DemoFrame,
    help: &mut HelpOpen,
) -> bool {
    let Some(game) = board.game else { return false };
    let mut again = false;
    let screen = ctx.content_rect();
    let mut open = true;
    hold_under(ctx, "help");
    window("help", words.get("help"))
        .open(&mut open)
        .max_width((screen.width() - 40.0).min(560.0))
        .min_width((screen.width() - 40.0).min(480.0))
        .show(ctx, |ui| {
            // The title above and Close below stay on the screen too.
            egui::ScrollArea::vertical().max_height((screen.height() - 140.0).max(120.0)).show(ui, |ui| {
                if frame.game == Some(game) {
                    match &frame.problem {
                        Some(problem) => {
                            ui.label(RichText::new(problem).small());
                        }
                        None => paint_demo(ui, frame, art, screen.height() * 0.36),
                    }
                    let say = frame.say.as_deref().map(|key| words.get(key)).unwrap_or_default();
                    // Two lines kept for it, so the words below stay still as it changes.
                    let line = ui.text_style_height(&egui::TextStyle::Body);
                    ui.allocate_ui(vec2(ui.available_width(), (line * 2.6).max(SAY_SIDE)), |ui| {
                        ui.vertical_centered(|ui| {
                            again = said_line(ui, bold(say, 18.0).color(ACCENT), frame.say.is_some(), words);
                        });
                    });
                }
                ui.label(words.get(&format!("help_short_{game}")));
                egui::CollapsingHeader::new(words.get("all_rules")).show(ui, |ui| {
                    ui.label(words.get(&format!("help_{game}")));
                    ui.add_space(10.0);
                    let keys = game_key(words, "help_keys", game);
                    ui.label(RichText::new(words.get(&keys)).small());
                });
            });
            ui.vertical_centered(|ui| {
                let close = ui.button(words.get("close"));
                crate::app::platform::web::tag(&close, "button.close_help");
                if close.clicked() {
                    help.0 = false;
                }
            });
        });
    if !open {
        help.0 = false;
    }
    again
}

/// Paints the demonstration's board as wide as the window allows, at most `max_height` tall.
fn paint_demo(ui: &mut egui::Ui, frame: &DemoFrame, art: &EguiArt, max_height: f32) {
    let Some(bounds) =
        frame.cells.iter().map(|(at, size, _)| Rect::from_center_size(*at, *size)).reduce(|a, b| a.union(b))
    else {
        return;
    };
    let bounds = bounds.inflate(0.12);
    let width = ui.available_width();
    let scale = (width / bounds.width()).min(max_height / bounds.height());
    let (area, _) = ui.allocate_exact_size(vec2(width, bounds.height() * scale), egui::Sense::hover());
    let centre = area.center();
    let to_screen = |at: Vec2| -> Pos2 {
        let d = (at - bounds.center()) * scale;
        pos2(centre.x + d.x, centre.y - d.y)
    };
    let rect_at =
        |at: Vec2, size: Vec2| egui::Rect::from_center_size(to_screen(at), vec2(size.x, size.y) * scale);
    let painter = ui.painter_at(area);
    let frame_rect = egui::Rect::from_center_size(centre, vec2(bounds.width(), bounds.height()) * scale);
    painter.rect_filled(frame_rect, 4.0, Color32::from_rgb(107, 69, 43));
    for (at, size, colour) in &frame.cells {
        painter.rect_filled(rect_at(*at, *size), 0.0, colour32(*colour));
    }
    for decoration in &frame.decorations {
        let image = art.image(decoration.art, 1.0).tint(colour32(decoration.colour));
        let image = match decoration.angle {
            Some(angle) => image.rotate(-angle, vec2(0.5, 0.5)),
            None => image,
        };
        image.paint_at(ui, rect_at(decoration.at, decoration.size));
    }
    let path_colour = Color32::from_rgb(255, 115, 13);
    if let Some(lit) = frame.lit {
        let mut from = to_screen(lit);
        for &at in &frame.path {
            let to = to_screen(at);
            painter.line_segment([from, to], Stroke::new(scale * 0.12, path_colour.gamma_multiply(0.7)));
            from = to;
        }
    }
    for (at, picture) in &frame.pieces {
        art.image(*picture, 1.0).paint_at(ui, rect_at(*at, Vec2::splat(0.92)));
    }
    if let Some(lit) = frame.lit {
        painter.circle_stroke(
            to_screen(lit),
            scale * 0.48,
            Stroke::new(scale * 0.08, Color32::from_rgb(255, 200, 0)),
        );
    }
    for (i, &at) in frame.path.iter().enumerate() {
        let last = i + 1 == frame.path.len();
        let stroke = Stroke::new(scale * if last { 0.08 } else { 0.05 }, path_colour);
        painter.circle_stroke(to_screen(at), scale * if last { 0.46 } else { 0.2 }, stroke);
    }
    painter.rect_stroke(frame_rect, 4.0, Stroke::new(1.0, INK.gamma_multiply(0.4)), egui::StrokeKind::Inside);
}

fn colour32(colour: Color) -> Color32 {
    let [r, g, b, a] = colour.to_srgba().to_u8_array();
    Color32::from_rgba_unmultiplied(r, g, b, a)
}
