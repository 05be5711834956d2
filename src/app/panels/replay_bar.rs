//! The bar under the board while a game is watched again: what the coach says about the position
//! shown, the timeline with the coach's marks (a triangle for each slip, a star for the best
//! move), and the buttons (to the start, one move back, play or pause, one move on, to the end,
//! the speed, try again from here, back to the game).

use super::panel_parts::{PanelAction, PanelButton, Part, draw_button, said_line};
use super::theme::{ACCENT, CALM, bold};
use crate::app::course::replay::{Replay, ReplayCommand};
use crate::app::platform::settings::Words;
use bevy_egui::egui::{self, Color32, RichText, vec2};

/// A slip's colour on the timeline and in the coach's words (the board's slip arrow's colour).
const SLIP: Color32 = Color32::from_rgb(226, 80, 40);
/// The better move (the board's bold arrow).
const BETTER: Color32 = Color32::from_rgb(25, 120, 240);
/// The best move's star.
const STAR: Color32 = Color32::from_rgb(230, 170, 0);

/// Draws the bar, `width` wide; its buttons' actions go into `actions`.
pub(super) fn replay_bar(
    ui: &mut egui::Ui,
    replay: &Replay,
    words: &Words,
    (width, compact, side): (f32, bool, f32),
    actions: &mut Vec<PanelAction>,
) {
    if coach_line(ui, replay, words, compact) {
        actions.push(PanelAction::SayAgain(Part::Coach));
    }
    timeline(ui, replay, width, actions);
    ui.horizontal_wrapped(|ui| {
        for button in buttons(replay) {
            if let Some(action) = draw_button(ui, button, words, true, side) {
                actions.push(action);
            }
        }
        let try_again = egui::Button::new(
            bold(format!("↻ {}", words.get("try_again_here")), if compact { 16.0 } else { 18.0 })
                .color(Color32::WHITE),
        )
        .fill(CALM)
        .min_size(vec2(0.0, side));
        let response = ui.add(try_again);
        crate::app::platform::web::tag(&response, "button.try_again_here");
        if response.clicked() {
            actions.push(PanelAction::Replay(ReplayCommand::TryAgain));
        }
        // On a small screen the way back is its sign alone, so the bar keeps to two rows.
        let close = if compact { "✖".to_string() } else { format!("✖ {}", words.get("replay_close")) };
        let response = ui
            .add(egui::Button::new(close).min_size(vec2(side, side)))
            .on_hover_text(words.get("replay_close"));
        crate::app::platform::web::tag(&response, "button.replay_close");
        if response.clicked() {
            actions.push(PanelAction::Replay(ReplayCommand::Close));
        }
    });
}

fn buttons(replay: &Replay) -> Vec<PanelButton> {
    let (at, end) = (replay.at, replay.length);
    let button = |sign, key, enabled, command| (sign, key, enabled, PanelAction::Replay(command));
    let toggle = if replay.playing {
        button("‖", "replay_pause", true, ReplayCommand::Toggle)
    } else {
        button("▶", "replay_play", true, ReplayCommand::Toggle)
    };
    let speed = ["▸", "▸▸", "▸▸▸"][replay.speed.number() - 1];
    vec![
        button("⇤", "replay_start", at > 0, ReplayCommand::Start),
        button("◂", "replay_back", at > 0, ReplayCommand::Back),
        toggle,
        button("▸", "replay_on", at < end, ReplayCommand::On),
        button("⇥", "replay_end", at < end, ReplayCommand::End),
        button(speed, "replay_speed", true, ReplayCommand::Speed),
    ]
}

/// What the coach says now: while it thinks, a bar filling; at a slip, why (or that a better
/// move was there) with what the two arrows mean; at the best move, praise; else how many
/// moves it marked, or praise for a game without slips.
fn coach_line(ui: &mut egui::Ui, replay: &Replay, words: &Words, compact: bool) -> bool {
    let coach = &replay.coach;
    let size = if compact { 16.0 } else { 19.0 };
    if !coach.done {
        ui.label(RichText::new(words.get("coach_looking")).size(size));
        let done = if coach.of == 0 { 1.0 } else { coach.rated as f32 / coach.of as f32 };
        ui.add(egui::ProgressBar::new(done).desired_width(220.0).desired_height(14.0));
        return false;
    }
    let spoken = !super::spoken::coach_words(replay, words).is_empty();
    if let Some(slip) = coach.slip_at(replay.at) {
        let (why, args) = slip.why_words(words);
        let again =
            said_line(ui, bold(format!("▲ {}", words.fill(why, &args)), size).color(SLIP), spoken, words);
        // What the two arrows mean, in one centred line drawn in their colours.
        let mut legend = egui::text::LayoutJob::default();
        let mut part = |text: String, color: Color32| {
            let format = egui::TextFormat {
                font_id: egui::FontId::proportional(size - 2.0),
                color,
                ..Default::default()
            };
            legend.append(&text, 0.0, format);
        };
        part(format!("- - ◆ {}", words.get(&slip.words_key("coach_played"))), SLIP);
        part(format!("     ——▶ {}", words.get("coach_better")), BETTER);
        // A short screen keeps its height for the board: the arrows are told apart by their
        // look alone there.
        if ui.ctx().content_rect().height() >= super::panel_parts::PHONE_SIDE {
            ui.label(legend);
        }
        again
    } else if let Some(best) = coach.best_at(replay.at) {
        said_line(
            ui,
            bold(format!("★ {}", words.get(&best.words_key("coach_best"))), size).color(STAR),
            spoken,
            words,
        )
    } else if coach.slips.is_empty() {
        said_line(ui, bold(format!("★ {}", words.get("coach_no_slips")), size).color(CALM), spoken, words)
    } else {
        let n = coach.slips.len().to_string();
        ui.label(RichText::new(words.fill("coach_marked", &[("n", &n)])).size(size).color(ACCENT));
        false
    }
}

/// The timeline: the whole game as a bar, the coach's marks on it, the position shown as a knob;
/// a tap or a drag on it goes there.
fn timeline(ui: &mut egui::Ui, replay: &Replay, width: f32, actions: &mut Vec<PanelAction>) {
    let (rect, response) = ui.allocate_exact_size(vec2(width, 36.0), egui::Sense::click_and_drag());
    crate::app::platform::web::tag(&response, "replay.timeline");
    let length = replay.length.max(1) as f32;
    let line = rect.shrink2(vec2(14.0, 0.0));
    let x_of = |at: usize| line.left() + line.width() * at as f32 / length;
    let painter = ui.painter_at(rect);
    let middle = rect.center().y + 4.0;
    painter.rect_filled(
        egui::Rect::from_min_max(
            egui::pos2(line.left(), middle - 3.0),
            egui::pos2(line.right(), middle + 3.0),
        ),
        3.0,
        Color32::from_gray(200),
    );
    painter.rect_filled(
        egui::Rect::from_min_max(
            egui::pos2(line.left(), middle - 3.0),
            egui::pos2(x_of(replay.at), middle + 3.0),
        ),
        3.0,
        ACCENT,
    );
    let mark = |sign: &str, at: usize, colour: Color32| {
        painter.text(
            egui::pos2(x_of(at), middle - 14.0),
            egui::Align2::CENTER_CENTER,
            sign,
            egui::FontId::proportional(18.0),
            colour,
        );
    };
    for slip in &replay.coach.slips {
        mark("▲", slip.from, SLIP);
    }
    if let Some(best) = &replay.coach.best {
        mark("★", best.from, STAR);
    }
    painter.circle_filled(egui::pos2(x_of(replay.at), middle), 8.0, Color32::WHITE);
    painter.circle_stroke(egui::pos2(x_of(replay.at), middle), 8.0, egui::Stroke::new(2.5, ACCENT));
    if let Some(pointer) =
        response.interact_pointer_pos().filter(|_| response.clicked() || response.dragged())
    {
        let share = ((pointer.x - line.left()) / line.width()).clamp(0.0, 1.0);
        let to = (share * length).round() as usize;
        if to != replay.at {
            actions.push(PanelAction::Replay(ReplayCommand::Seek(to)));
        }
    }
}
