//! The in-game settings window (⚙): the language, the sound, reading aloud and the tutor (the
//! child's own), the clock of the next game, the game given out as a file, and watching it again from the start.
//! While it is open it covers the board (`board::covered`).

use super::panel_parts::{hold_under, window};
use super::scoreboard::ScoreBoard;
use super::theme::bold;
use crate::app::board::covered::Covers;
use crate::app::child::children::ChildCommand;
use crate::app::course::replay::ReplayCommand;
use crate::app::course::turn::GameCommand;
use crate::app::course::tutor::Tutoring;
use crate::app::platform::settings::{Settings, Words};
use crate::app::platform::speech::{Reading, ReadingNow};
use crate::app::platform::store::Store;
use bevy::prelude::*;
use bevy_egui::EguiContexts;
use bevy_egui::egui::{self, RichText};

#[allow(clippy::too_many_arguments)]
pub(super) fn settings_dialog(
    mut contexts: EguiContexts,
    board: Res<ScoreBoard>,
    words: Res<Words>,
    mut settings: ResMut<Settings>,
    mut covers: ResMut<Covers>,
    mut commands: MessageWriter<GameCommand>,
    mut replay_orders: MessageWriter<ReplayCommand>,
    (reading, store, mut child_orders): (Res<ReadingNow>, Res<Store>, MessageWriter<ChildCommand>),
    tutoring: Res<Tutoring>,
) -> Result {
    if !covers.settings {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let (mut aloud, mut tutor) = (reading.0.aloud, tutoring.on);
    let (watch, changed) =
        settings_window(ctx, (&board, &words), &settings, (&mut open, &mut aloud, &mut tutor), &mut commands);
    if aloud != reading.0.aloud || tutor != tutoring.on {
        // The child's own reading and tutor, or the device's when no child plays.
        let chosen = if tutor != tutoring.on { Some(tutor) } else { reading.0.tutor };
        let reading = Reading { aloud, tutor: chosen, ..reading.0 };
        match store.child() {
            Some(slot) => {
                child_orders.write(ChildCommand::SetReading(slot, reading));
            }
            None => settings.reading = reading,
        }
    }
    if let Some(watch) = watch {
        replay_orders.write(watch);
    }
    if let Some(changed) = changed {
        *settings = changed;
    }
    if !open {
        covers.settings = false;
    }
    Ok(())
}

/// The in-game settings: language, sound, and the clock of the next game. Returns the replay's
/// order when one was given, and the settings when one of them was changed (only then are they
/// written).
fn settings_window(
    ctx: &egui::Context,
    (board, words): (&ScoreBoard, &Words),
    now: &Settings,
    (open, aloud, tutor): (&mut bool, &mut bool, &mut bool),
    commands: &mut MessageWriter<GameCommand>,
) -> (Option<ReplayCommand>, Option<Settings>) {
    let mut watch = None;
    let mut settings = now.clone();
    let mut still_open = *open;
    hold_under(ctx, "settings");
    window("settings", words.get("settings")).open(&mut still_open).show(ctx, |ui| {
        // On a small screen the choices scroll; Close stays in sight under them.
        let room = (ctx.content_rect().height() - 130.0).max(120.0);
        egui::ScrollArea::vertical().max_height(room).show(ui, |ui| {
            ui.label(bold(words.get("language"), 18.0));
            ui.horizontal_wrapped(|ui| {
                for language in crate::i18n::Language::ALL {
                    let choice = ui.selectable_label(settings.language == language, language.native_name());
                    crate::app::platform::web::tag(
                        &choice,
                        &format!("settings.language.{}", language.code()),
                    );
                    if choice.clicked() && settings.language != language {
                        settings.language = language;
                    }
                }
            });
            // Each switch on one line with its name, so the window fits a phone's screen.
            on_off_row(ui, words, ("sound", "settings.sound"), &mut settings.sound);
            on_off_row(ui, words, ("read_aloud", "settings.read_aloud"), aloud);
            on_off_row(ui, words, ("tutor_setting", "settings.tutor"), tutor);
            if !board.clock_choices.is_empty() {
                ui.label(bold(words.get("setup_clock"), 18.0));
                ui.horizontal_wrapped(|ui| {
                    let choices = std::iter::once(0).chain(board.clock_choices.iter().copied());
                    for minutes in choices {
                        let label = if minutes == 0 {
                            words.get("clock_off").to_string()
                        } else {
                            words.fill("clock_minutes", &[("n", &minutes.to_string())])
                        };
                        if ui.selectable_label(board.next_clock == minutes, label).clicked() {
                            commands.write(GameCommand::SetClock(minutes));
                        }
                    }
                });
                ui.label(RichText::new(words.get("clock_at_restart")).italics().size(15.0));
            }
            ui.add_space(6.0);
            if ui.button(format!("↓ {}", words.get("export_game"))).clicked() {
                commands.write(GameCommand::Export);
            }
            if board.moves > 0 && ui.button(format!("▶ {}", words.get("watch_from_start"))).clicked() {
                watch = Some(ReplayCommand::Open);
                *open = false;
            }
        });
        ui.vertical_centered(|ui| {
            let close = ui.button(words.get("close"));
            crate::app::platform::web::tag(&close, "settings.close");
            if close.clicked() {
                *open = false;
            }
        });
    });
    if !still_open {
        *open = false;
    }
    (watch, (settings != *now).then_some(settings))
}

/// A switch's name and its two choices (on, off) on one line, wrapped where the words are long;
/// each choice tagged `<tag>.true` / `<tag>.false` for the browser test.
fn on_off_row(ui: &mut egui::Ui, words: &Words, (name, tag): (&str, &str), value: &mut bool) {
    ui.horizontal_wrapped(|ui| {
        ui.label(bold(words.get(name), 18.0));
        for (on, key) in [(true, "switch_on"), (false, "switch_off")] {
            let choice = ui.selectable_label(*value == on, words.get(key));
            crate::app::platform::web::tag(&choice, &format!("{tag}.{on}"));
            if choice.clicked() {
                *value = on;
            }
        }
    });
}
