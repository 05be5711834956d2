//! The first screen: big picture buttons, one per game, the language and the sound.

use super::{Screen, SetupFor, games, menu_picture};
use crate::app::hud::{ACCENT, EguiArt, UiReady, bold, card};
use crate::app::settings::{Settings, Words};
use crate::i18n::Language;
use bevy::prelude::*;
use bevy_egui::egui::{self, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        menu.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Menu)),
    );
}

fn menu(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    mut settings: ResMut<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let tile = ((screen.width() - 80.0) / 3.0).clamp(120.0, 220.0);
    egui::Area::new("menu".into()).anchor(egui::Align2::CENTER_CENTER, vec2(0.0, 0.0)).show(ctx, |ui| {
        ui.set_max_width(screen.width() - 24.0);
        ui.vertical_centered(|ui| {
            ui.label(bold(words.get("app_title"), 56.0).color(ACCENT));
            ui.label(bold(words.get("menu_title"), 26.0));
            ui.add_space(12.0);
            ui.horizontal_wrapped(|ui| {
                for game in games() {
                    let button = egui::Button::image_and_text(
                        art.image(menu_picture(game), tile),
                        bold(words.get(&format!("game_{game}")), 22.0),
                    )
                    .min_size(vec2(tile + 20.0, tile + 40.0));
                    let response = ui.add(button).on_hover_text(words.get(&format!("blurb_{game}")));
                    if response.clicked() {
                        commands.insert_resource(SetupFor(game.to_string()));
                        next.set(Screen::Setup);
                    }
                }
            });
            ui.add_space(16.0);
            card(egui::Color32::from_rgb(255, 250, 240)).show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    ui.label(bold(words.get("language"), 18.0));
                    for language in Language::ALL {
                        let chosen = settings.language == language;
                        if ui.selectable_label(chosen, language.native_name()).clicked() && !chosen {
                            settings.language = language;
                        }
                    }
                    ui.separator();
                    let label = words.get(if settings.sound { "sound_on" } else { "sound_off" });
                    let sign = if settings.sound { "♪" } else { "×" };
                    if ui.button(format!("{sign} {label}")).clicked() {
                        settings.sound = !settings.sound;
                    }
                });
            });
        });
    });
    Ok(())
}
