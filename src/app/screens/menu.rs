//! The first screen: big picture buttons, one per game, the language and the sound.

use super::setup::SetupFor;
use crate::app::kit::catalog::{GameEntry, Levels, PlayableGames, Screen};
use crate::app::panels::theme::{ACCENT, CARD, EguiArt, UiReady, bold, card, full_screen};
use crate::app::platform::settings::{Settings, Words};
use crate::i18n::Language;
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        menu.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Menu)),
    );
}

#[allow(clippy::too_many_arguments)]
fn menu(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    mut settings: ResMut<Settings>,
    playable: Res<PlayableGames>,
    levels: Res<Levels>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let list = playable.in_menu_order(&levels);
    // Every card in one row where the screen is wide enough (a card is its picture and 34 more).
    let tile = ((screen.width() - 60.0) / list.len().max(2) as f32 - 36.0).clamp(110.0, 220.0);
    full_screen(ctx, "menu", |ui| {
        ui.add_space((screen.height() * 0.08).min(60.0));
        ui.label(bold(words.get("app_title"), 56.0).color(ACCENT));
        ui.label(bold(words.get("menu_title"), 26.0));
        ui.add_space(12.0);
        // One row of picture cards, centred; it wraps on a narrow screen.
        let per_row = (((screen.width() - 24.0) / (tile + 34.0)) as usize).clamp(1, list.len().max(1));
        for row in list.chunks(per_row) {
            let width = row.len() as f32 * (tile + 34.0);
            ui.horizontal(|ui| {
                ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
                for game in row {
                    if game_tile(ui, &art, &words, game, tile) {
                        commands.insert_resource(SetupFor(game.name.to_string()));
                        next.set(Screen::Setup);
                    }
                }
            });
        }
        ui.add_space(16.0);
        ui.horizontal(|ui| {
            // The language card is about 740 points wide: centre it when there is room.
            ui.add_space(((ui.available_width() - 740.0) / 2.0).max(0.0));
            if let Some(changed) = language_card(ui, &words, &settings) {
                *settings = changed;
            }
        });
    });
    Ok(())
}

/// The language and sound choices; returns the new settings when one was changed.
fn language_card(ui: &mut egui::Ui, words: &Words, settings: &Settings) -> Option<Settings> {
    let mut changed = None;
    card(CARD).show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label(bold(words.get("language"), 18.0));
            for language in Language::ALL {
                let chosen = settings.language == language;
                if ui.selectable_label(chosen, language.native_name()).clicked() && !chosen {
                    changed = Some(Settings { language, ..settings.clone() });
                }
            }
            ui.separator();
            let label = words.get(if settings.sound { "sound_on" } else { "sound_off" });
            let sign = if settings.sound { "♪" } else { "×" };
            if ui.button(format!("{sign} {label}")).clicked() {
                changed = Some(Settings { sound: !settings.sound, ..settings.clone() });
            }
        });
    });
    changed
}

/// A game's card: its picture with its name below; a tap anywhere on it opens the game.
fn game_tile(ui: &mut egui::Ui, art: &EguiArt, words: &Words, game: &GameEntry, tile: f32) -> bool {
    let name = game.name;
    let inner = card(CARD).show(ui, |ui| {
        ui.set_width(tile + 8.0);
        ui.vertical_centered(|ui| {
            ui.add(art.image(game.picture, tile));
            ui.label(bold(words.get(&format!("game_{name}")), 22.0));
            ui.label(egui::RichText::new(words.get(&format!("blurb_{name}"))).size(15.0));
        });
    });
    let response = ui.interact(inner.response.rect, egui::Id::new(("game", name)), egui::Sense::click());
    crate::app::platform::web::tag(&response, &format!("game.{name}"));
    if response.hovered() {
        ui.painter().rect_stroke(
            inner.response.rect,
            16,
            egui::Stroke::new(3.0, ACCENT),
            egui::StrokeKind::Inside,
        );
    }
    response.clicked()
}
