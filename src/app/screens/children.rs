//! "Who is playing?": each child's picture, big, to tap; a new child by tapping a free animal.
//! The first start shows the animals at once, so one tap makes a child and opens their map. A
//! child who cannot read finds their own picture; the grown-ups' page waits behind a small lock.

use crate::app::child::children::{ChildCommand, Children, name_of};
use crate::app::panels::theme::{
    ACCENT, CARD, EguiArt, INK, UiReady, bold, bold_size_fitting, card, card_tapped, full_screen,
    not_saved_note, problem_note,
};
use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::platform::store::Store;
use crate::app::platform::web;
use crate::app::session::screen::Screen;
use crate::progress::Child;
use crate::progress::child::ANIMALS;
use bevy::prelude::*;
use bevy_egui::egui::{self, RichText};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        children_screen.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Children)),
    );
}

#[allow(clippy::too_many_arguments)]
fn children_screen(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    mut children: ResMut<Children>,
    store: Res<Store>,
    mut orders: MessageWriter<ChildCommand>,
    mut adding: Local<bool>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let nobody = children.each().next().is_none();
    let side = ((screen.width() - 80.0) / 4.0 - 30.0).clamp(84.0, 150.0);
    full_screen(ctx, "children", |ui| {
        ui.add_space((screen.height() * 0.05).min(40.0));
        ui.label(bold(words.get("app_title"), 48.0).color(ACCENT));
        not_saved_note(ui, &words, &store);
        if let Some(problem) = children.problems.first()
            && problem_note(ui, words.get("child_problem"), problem)
        {
            children.problems.remove(0);
        }
        if nobody || *adding {
            ui.label(bold(words.get("children_pick_animal"), 26.0));
            ui.add_space(10.0);
            let taken: Vec<u8> = children.each().map(|(_, c)| c.animal).collect();
            let free: Vec<u8> = (0..ANIMALS as u8).filter(|a| !taken.contains(a)).collect();
            if let Some(animal) = picture_rows(ui, &art, side, &free, |animal| (Art::Animal(*animal), None)) {
                orders.write(ChildCommand::Add { animal: *animal });
                *adding = false;
            }
            if !nobody && ui.button(bold(format!("◂ {}", words.get("back")), 20.0)).clicked() {
                *adding = false;
            }
        } else {
            ui.label(bold(words.get("children_who"), 26.0));
            ui.add_space(10.0);
            let each: Vec<(usize, Child)> = children.each().map(|(slot, c)| (slot, c.clone())).collect();
            if let Some((slot, _)) = picture_rows(ui, &art, side, &each, |(_, child)| {
                (Art::Animal(child.animal), Some(name_of(&words, child)))
            }) {
                orders.write(ChildCommand::Choose(*slot));
            }
            held_children(ui, &art, &words, &children);
            if !children.is_full() {
                ui.add_space(6.0);
                let add = ui.button(bold(format!("+ {}", words.get("children_add")), 22.0));
                web::tag(&add, "children.add");
                if add.clicked() {
                    *adding = true;
                }
            }
        }
        ui.add_space(24.0);
        let grownups = ui.button(RichText::new(format!("⚙ {}", words.get("grownups"))).size(15.0));
        web::tag(&grownups, "grownups");
        if grownups.clicked() {
            next.set(Screen::Grownups);
        }
    });
    Ok(())
}

/// The children whose files this Tabla leaves as they are (made by a newer Tabla, or not readable
/// now): their pictures, greyed, with why; they cannot be chosen here.
fn held_children(ui: &mut egui::Ui, art: &EguiArt, words: &Words, children: &Children) {
    for (_, held) in children.each_held() {
        ui.horizontal(|ui| {
            ui.add_space(((ui.available_width() - 560.0) / 2.0).max(0.0));
            if let Some((animal, _)) = held.face {
                ui.add(art.image(Art::Animal(animal), 48.0).tint(egui::Color32::from_gray(170)));
            }
            let name = held.face.as_ref().map(|(_, name)| name.clone()).unwrap_or_default();
            let key = if held.face.is_some() { "made_by_newer" } else { "child_unreadable" };
            let text = format!("{name} – {}", words.get(key));
            ui.label(RichText::new(text).size(16.0).color(INK)).on_hover_text(&held.why);
        });
    }
}

/// Big picture cards in centred rows; returns the item tapped. Each item gives its picture and
/// the name under it.
fn picture_rows<'a, T>(
    ui: &mut egui::Ui,
    art: &EguiArt,
    side: f32,
    items: &'a [T],
    show: impl Fn(&T) -> (Art, Option<String>),
) -> Option<&'a T> {
    let per_row = (((ui.available_width() - 16.0) / (side + 30.0)) as usize).clamp(1, 4);
    let mut tapped = None;
    for (row_index, row) in items.chunks(per_row).enumerate() {
        let width = row.len() as f32 * (side + 30.0);
        ui.horizontal(|ui| {
            ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
            for (i, item) in row.iter().enumerate() {
                let (picture, name) = show(item);
                let inner = card(CARD).show(ui, |ui| {
                    ui.set_width(side + 4.0);
                    ui.vertical_centered(|ui| {
                        ui.add(art.image(picture, side));
                        if let Some(name) = &name {
                            ui.label(bold(name, bold_size_fitting(ui, name, 20.0, side + 4.0)));
                        }
                    });
                });
                let index = row_index * per_row + i;
                let id = egui::Id::new(("picture", index));
                if card_tapped(ui, inner.response.rect, id, &format!("picture.{index}")) {
                    tapped = Some(item);
                }
            }
        });
    }
    tapped
}
