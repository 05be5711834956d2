//! The grown-ups' page, behind its gate (a button held three seconds, then a sum in digits): for
//! each child and each game, the stars of every stage and the figures (games played, won, lost and
//! drawn, hints and take-backs, time played, the day last played); a child renamed or removed; a
//! game's stars cleared; every child's progress exported to a file and imported on another device,
//! where the same child is merged (nothing earned is taken away); the copies of files set aside,
//! counted and cleared; what could not be saved.

use crate::app::child::children::name_of;
use crate::app::child::children::{ChildCommand, Children, ThePath};
use crate::app::child::transfer::{PROGRESS, TransferNotice, Transferred};
use crate::app::panels::layout_check;
use crate::app::panels::theme::{
    ACCENT, CARD, EguiArt, INK, UiReady, bold, bold_size_on_one_line, card, full_screen, not_saved_note,
};
use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::platform::speech::Speaker;
use crate::app::platform::store::Store;
use crate::app::platform::web;
use crate::app::session::screen::Screen;
use crate::progress::Child;
use crate::progress::gate::Gate;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// The gate, and what is being typed or confirmed on the page.
#[derive(Resource)]
pub(crate) struct Page {
    gate: Gate,
    /// Each child's name as being typed, by slot.
    names: Vec<Option<String>>,
    /// A removal or a clearing waiting for "yes".
    confirm: Option<ChildCommand>,
    /// The desktop's list of exported files is open.
    importing: bool,
    /// Why the file picked to bring in was not even read (too large).
    refused: Option<String>,
}

/// The tour passes the gate as a grown-up does: the button held three seconds, the sum answered.
#[cfg(feature = "tour")]
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn pass_gate(page: Option<ResMut<Page>>) {
    if let Some(mut page) = page {
        page.gate.pass();
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnEnter(Screen::Grownups), |mut commands: Commands| {
        commands.insert_resource(Page {
            gate: Gate::new(web::now_ms() as u64),
            names: Vec::new(),
            confirm: None,
            importing: false,
            refused: None,
        });
    });
    app.add_systems(
        EguiPrimaryContextPass,
        grownups_screen
            .run_if(resource_exists::<UiReady>)
            .run_if(in_state(Screen::Grownups))
            .run_if(resource_exists::<Page>),
    );
}

#[allow(clippy::too_many_arguments)]
fn grownups_screen(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    children: Res<Children>,
    transferred: Res<Transferred>,
    path: Res<ThePath>,
    store: Res<Store>,
    speaker: Res<Speaker>,
    mut page: ResMut<Page>,
    mut orders: MessageWriter<ChildCommand>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let dt = ctx.input(|i| i.stable_dt);
    let back_to = if store.child().is_some() { Screen::Map } else { Screen::Children };
    full_screen(ctx, "grownups", |ui| {
        ui.horizontal(|ui| {
            let back = ui.button(bold(format!("◂ {}", words.get("back")), 20.0));
            web::tag(&back, "grownups.back");
            if back.clicked() {
                next.set(back_to);
            }
            let title = words.get("grownups");
            let size = bold_size_on_one_line(ui, title, (30.0, 18.0), ui.available_width() - 8.0);
            ui.label(bold(title, size).color(ACCENT));
        });
        ui.add_space(10.0);
        if !page.gate.is_open() {
            gate(ui, &words, &mut page.gate, dt);
            return;
        }
        match web::picked_file() {
            Some(Ok(text)) => {
                page.refused = None;
                orders.write(ChildCommand::Import(text));
            }
            Some(Err(why)) => page.refused = Some(why),
            None => {}
        }
        not_saved_note(ui, &words, &store);
        // A language this device has no voice for is said once, here: Tabla stays silent in it.
        for language in &speaker.no_voice {
            let name = language.native_name();
            ui.label(RichText::new(words.fill("no_voice", &[("language", name)])).size(16.0));
        }
        transfer_bar(ui, &words, &transferred, &store, &mut page, &mut orders);
        set_aside_bar(ui, &words, &store, &mut page, &mut orders);
        if children.each().next().is_none() {
            ui.label(RichText::new(words.get("grownups_nobody")).size(17.0));
        }
        for (slot, child) in children.each() {
            child_card(ui, &art, &words, &path, slot, child, &mut page, &mut orders);
            ui.add_space(8.0);
        }
    });
    Ok(())
}

/// The gate: hold the button, then answer the sum on the digit buttons.
pub(super) fn gate(ui: &mut egui::Ui, words: &Words, gate: &mut Gate, dt: f32) {
    card(CARD).show(ui, |ui| {
        ui.set_width((ui.available_width() - 24.0).min(520.0));
        // The browser test answers the sum as a grown-up would: each sum is told once.
        let told = egui::Id::new("tabla gate told");
        ui.vertical_centered(|ui| match gate.sum() {
            None => {
                ui.ctx().data_mut(|d| d.remove::<(u32, u32)>(told));
                ui.label(RichText::new(words.get("gate_hold")).size(18.0));
                let button =
                    ui.add_sized(vec2(220.0, 70.0), egui::Button::new(bold(words.get("gate_button"), 22.0)));
                web::tag(&button, "gate.hold");
                // From the pointer itself: egui turns a finger held still into a long-touch click
                // and lets go of the button after half a second.
                let held = ui.input(|i| {
                    i.pointer.primary_down()
                        && i.pointer.press_origin().is_some_and(|at| button.rect.contains(at))
                });
                gate.hold(held, dt);
                let (rect, _) = ui.allocate_exact_size(vec2(220.0, 10.0), egui::Sense::hover());
                ui.painter().rect_filled(rect, 5.0, Color32::from_rgb(230, 220, 204));
                let mut done = rect;
                done.set_width(rect.width() * gate.held());
                ui.painter().rect_filled(done, 5.0, ACCENT);
                if gate.held() > 0.0 {
                    ui.ctx().request_repaint();
                }
            }
            Some((a, b)) => {
                if ui.ctx().data(|d| d.get_temp::<(u32, u32)>(told)) != Some((a, b)) {
                    ui.ctx().data_mut(|d| d.insert_temp(told, (a, b)));
                    web::report(&format!("tabla gate {a} {b}"));
                }
                ui.label(RichText::new(words.get("gate_sum")).size(18.0));
                ui.label(bold(format!("{a} + {b} = {}", gate.typed()), 40.0));
                for row in [[1, 2, 3, 4, 5], [6, 7, 8, 9, 0]] {
                    ui.horizontal(|ui| {
                        ui.add_space(((ui.available_width() - 5.0 * 64.0) / 2.0).max(0.0));
                        for digit in row {
                            let key = ui.add_sized(
                                vec2(56.0, 56.0),
                                egui::Button::new(bold(digit.to_string(), 28.0)),
                            );
                            web::tag(&key, &format!("gate.{digit}"));
                            if key.clicked() {
                                gate.digit(digit);
                            }
                        }
                    });
                }
            }
        });
    });
}

/// Export and import, with what the last one did.
fn transfer_bar(
    ui: &mut egui::Ui,
    words: &Words,
    transferred: &Transferred,
    store: &Store,
    page: &mut Page,
    orders: &mut MessageWriter<ChildCommand>,
) {
    ui.horizontal_wrapped(|ui| {
        let export = ui.button(bold(format!("↓ {}", words.get("progress_export")), 18.0));
        web::tag(&export, "progress.export");
        if export.clicked() {
            orders.write(ChildCommand::Export);
        }
        let import = ui.button(bold(format!("↑ {}", words.get("progress_import")), 18.0));
        web::tag(&import, "progress.import");
        if import.clicked() {
            if cfg!(target_arch = "wasm32") {
                web::pick_file();
            } else {
                page.importing = !page.importing;
            }
        }
        let said = match &transferred.0 {
            _ if page.refused.is_some() => format!("✖ {}", page.refused.as_deref().unwrap_or_default()),
            Some(TransferNotice::Exported(place)) => words.fill("progress_exported", &[("place", place)]),
            Some(TransferNotice::Imported { added, merged, no_room }) => {
                let (added, merged, no_room) = (added.to_string(), merged.to_string(), no_room.to_string());
                words.fill(
                    "progress_imported",
                    &[("added", &added), ("merged", &merged), ("no_room", &no_room)],
                )
            }
            Some(TransferNotice::Failed(why)) => format!("✖ {why}"),
            None => String::new(),
        };
        ui.label(RichText::new(said).size(15.0).color(INK));
    });
    if page.importing {
        let files = store.files_in(PROGRESS);
        if files.is_empty() {
            ui.label(RichText::new(words.get("no_records")).size(15.0));
        }
        for file in files.into_iter().take(8) {
            let name = file.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            if ui.button(RichText::new(name).size(16.0)).clicked() {
                page.importing = false;
                // A file over a megabyte is refused before it is read.
                match crate::record::read_small_file(&file) {
                    Ok(text) => {
                        page.refused = None;
                        orders.write(ChildCommand::Import(text));
                    }
                    Err(e) => page.refused = Some(format!("{}: {e}", file.display())),
                }
            }
        }
    }
}

/// The copies of files that could not be used, kept aside: how many, and a way to delete them.
fn set_aside_bar(
    ui: &mut egui::Ui,
    words: &Words,
    store: &Store,
    page: &mut Page,
    orders: &mut MessageWriter<ChildCommand>,
) {
    let count = store.set_aside_files().len();
    if count == 0 {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(words.fill("set_aside_count", &[("n", &count.to_string())])).size(15.0).color(INK),
        );
        confirm_button(
            ui,
            words,
            page,
            ChildCommand::ClearSetAside,
            &format!("✖ {}", words.get("set_aside_clear")),
            orders,
        );
    });
}

/// One child: their name (to change), removal, and each game's stars and figures.
#[allow(clippy::too_many_arguments)]
fn child_card(
    ui: &mut egui::Ui,
    art: &EguiArt,
    words: &Words,
    path: &ThePath,
    slot: usize,
    child: &Child,
    page: &mut Page,
    orders: &mut MessageWriter<ChildCommand>,
) {
    if page.names.len() <= slot {
        page.names.resize(slot + 1, None);
    }
    card(CARD).show(ui, |ui| {
        ui.set_width((ui.available_width() - 24.0).min(1100.0));
        ui.horizontal_wrapped(|ui| {
            ui.add(art.image(Art::Animal(child.animal), 56.0));
            let name = page.names[slot].get_or_insert_with(|| child.name.clone());
            let edit = ui.add(
                egui::TextEdit::singleline(name)
                    .hint_text(name_of(words, &Child { name: String::new(), ..child.clone() }))
                    .desired_width(180.0)
                    .font(egui::FontId::proportional(20.0)),
            );
            web::tag(&edit, &format!("child.{slot}.name"));
            if Child::tidy_name(name) != child.name {
                let rename = ui.button(bold(format!("✔ {}", words.get("rename")), 17.0));
                web::tag(&rename, &format!("child.{slot}.rename"));
                if rename.clicked() {
                    orders.write(ChildCommand::Rename(slot, name.clone()));
                }
            }
            confirm_button(
                ui,
                words,
                page,
                ChildCommand::Remove(slot),
                &format!("✖ {}", words.get("remove_child")),
                orders,
            );
        });
        // Reading aloud, the child's own: on for a new child, and how fast.
        ui.horizontal_wrapped(|ui| {
            let mut reading = child.reading;
            let aloud = ui.checkbox(&mut reading.aloud, RichText::new(words.get("read_aloud")).size(17.0));
            web::tag(&aloud, &format!("child.{slot}.read_aloud"));
            let slow = ui.add_enabled(
                reading.aloud,
                egui::Checkbox::new(&mut reading.slow, RichText::new(words.get("read_slowly")).size(17.0)),
            );
            web::tag(&slow, &format!("child.{slot}.read_slowly"));
            // The tutor: unset, it warns in each game's first stages of the path.
            let mut warns = reading.tutor.unwrap_or(true);
            let tutor = ui.checkbox(&mut warns, RichText::new(words.get("tutor_setting")).size(17.0));
            web::tag(&tutor, &format!("child.{slot}.tutor"));
            if tutor.changed() {
                reading.tutor = Some(warns);
            }
            if reading != child.reading {
                orders.write(ChildCommand::SetReading(slot, reading));
            }
        });
        let figures = egui::ScrollArea::horizontal().id_salt(("figures", slot)).show(ui, |ui| {
            egui::Grid::new(("figures_grid", slot)).striped(true).spacing(vec2(14.0, 6.0)).show(ui, |ui| {
                for key in [
                    "figures_game",
                    "figures_stars",
                    "figures_played",
                    "figures_won",
                    "figures_lost",
                    "figures_drawn",
                    "figures_hints",
                    "figures_takebacks",
                    "figures_time",
                    "figures_last",
                ] {
                    ui.label(bold(words.get(key), 15.0));
                }
                ui.end_row();
                for trail in &path.trails {
                    let figures = child.figures.get(&trail.game).cloned().unwrap_or_default();
                    ui.label(bold(words.get(&format!("game_{}", trail.game)), 15.0));
                    let stars: Vec<String> =
                        trail.stages.iter().map(|s| child.star_count(&s.id).to_string()).collect();
                    ui.label(format!("★ {}", stars.join(" · ")));
                    for n in [
                        figures.played,
                        figures.won,
                        figures.lost,
                        figures.drawn,
                        figures.hints,
                        figures.takebacks,
                    ] {
                        ui.label(n.to_string());
                    }
                    ui.label(format!("{}:{:02}", figures.seconds / 60, figures.seconds % 60));
                    ui.label(if figures.last_played.is_empty() {
                        "–".to_string()
                    } else {
                        figures.last_played.clone()
                    });
                    if child.trail_stars(trail) > 0 {
                        let label = format!("✖ {}", words.get("clear_stars"));
                        confirm_button(
                            ui,
                            words,
                            page,
                            ChildCommand::ClearStars(slot, trail.game),
                            &label,
                            orders,
                        );
                    }
                    ui.end_row();
                }
            });
        });
        layout_check::scrolls_sideways(ui.ctx(), figures.inner_rect);
    });
}

/// A button whose order is sent only after "yes".
fn confirm_button(
    ui: &mut egui::Ui,
    words: &Words,
    page: &mut Page,
    order: ChildCommand,
    label: &str,
    orders: &mut MessageWriter<ChildCommand>,
) {
    if page.confirm.as_ref() == Some(&order) {
        ui.label(RichText::new(words.get("are_you_sure")).color(ACCENT));
        if ui.button(bold(words.get("yes"), 16.0)).clicked() {
            if let ChildCommand::Remove(slot) = order
                && let Some(typed) = page.names.get_mut(slot)
            {
                *typed = None;
            }
            orders.write(order);
            page.confirm = None;
        }
        if ui.button(bold(words.get("no"), 16.0)).clicked() {
            page.confirm = None;
        }
    } else {
        let button = ui.button(RichText::new(label).size(15.0));
        web::tag(&button, &format!("confirm.{order:?}"));
        if button.clicked() {
            page.confirm = Some(order);
        }
    }
}
