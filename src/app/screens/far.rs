//! Playing with someone far away, through `tabla serve` (on the desktop and in the browser alike).
//! Making a room is a grown-up's thing: the setup's Start with a seat far away opens the grown-ups'
//! gate first, then the server's address and the first name the other side will see, then the
//! room's code, big: four animals on coloured discs, the code typed out and its link, until someone
//! joins and the game opens. Joining needs no gate: the menu's "Join a game far away" (or `tabla
//! --join CODE`) takes the code and the name, and the game opens as soon as the room lets this
//! device sit.

use super::grownups::gate;
use crate::app::far::FarGame;
use crate::app::launch::MatchSetup;
use crate::app::panels::theme::{ACCENT, CALM, CARD, EguiArt, UiReady, bold, card, full_screen};
use crate::app::platform::art::{self, Art, room_animal};
use crate::app::platform::settings::{Settings, Words};
use crate::app::platform::web;
use crate::app::session::screen::Screen;
use crate::net::code::{ANIMALS, COLOURS};
use crate::progress::gate::Gate;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, RichText, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// What the page is for, and what is typed on it.
#[derive(Resource)]
pub struct FarPage {
    /// Making a room for this game (behind the gate), or joining one.
    pub make: Option<MatchSetup>,
    gate: Gate,
    pub server: String,
    pub code: String,
    pub name: String,
    /// Join at once (the command line gave the code).
    pub join_now: bool,
}

impl FarPage {
    pub fn to_make(setup: MatchSetup, server: &str, name: &str) -> FarPage {
        FarPage::new(Some(setup), server, "", name)
    }

    pub fn to_join(server: &str, code: &str, name: &str) -> FarPage {
        FarPage { join_now: !code.is_empty(), ..FarPage::new(None, server, code, name) }
    }

    /// The tour passes the gate as a grown-up does: the button held, the sum answered.
    #[cfg(feature = "tour")]
    pub fn pass_gate(&mut self) {
        self.gate.pass();
    }

    fn new(make: Option<MatchSetup>, server: &str, code: &str, name: &str) -> FarPage {
        FarPage {
            make,
            gate: Gate::new(web::now_ms() as u64),
            server: server.to_string(),
            code: code.to_string(),
            name: name.to_string(),
            join_now: false,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, join_from_launch.after(super::start_from_launch));
    app.add_systems(
        EguiPrimaryContextPass,
        page.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Far)),
    );
    app.add_systems(OnExit(Screen::Far), |mut commands: Commands| commands.remove_resource::<FarPage>());
}

/// `tabla --join CODE [--server URL]`: the room is joined at once.
fn join_from_launch(
    launch: Res<crate::app::launch::Launch>,
    settings: Res<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    if let Some(code) = &launch.join {
        // A link's room is on the server that gave the page, unless the link names another.
        let page = web::page_address().map(|(origin, _)| origin);
        let server = launch.server.clone().or(page).unwrap_or_else(|| settings.server.clone());
        commands.insert_resource(FarPage::to_join(&server, code, &settings.far_name));
        next.set(Screen::Far);
    }
}

/// The colour of a code's picture, by its name in `net::code::COLOURS`.
fn colour_of(name: &str) -> Color32 {
    match COLOURS.iter().position(|c| *c == name) {
        Some(0) => Color32::from_rgb(226, 70, 60),
        Some(1) => Color32::from_rgb(246, 150, 40),
        Some(2) => Color32::from_rgb(240, 206, 40),
        Some(3) => Color32::from_rgb(86, 170, 80),
        Some(4) => Color32::from_rgb(64, 126, 222),
        _ => Color32::from_rgb(150, 86, 204),
    }
}

/// The four pictures of a room's code, each an animal on a disc of its colour.
fn code_pictures(ui: &mut egui::Ui, art: &EguiArt, pictures: &[String]) {
    art::want(Art::RoomAnimals);
    // Four discs with a little room between them, as large as the card's width lets them be.
    const GAP: f32 = 6.0;
    let side = ((ui.available_width() - 4.0 * (12.0 + GAP)) / 4.0).clamp(48.0, 120.0);
    ui.horizontal(|ui| {
        ui.spacing_mut().item_spacing.x = GAP;
        ui.add_space(((ui.available_width() - 4.0 * (side + 12.0 + GAP)) / 2.0).max(0.0));
        for picture in pictures {
            let (colour, animal) = picture.split_once(' ').unwrap_or(("", picture));
            let index = ANIMALS.iter().position(|a| *a == animal).unwrap_or(0);
            let (rect, _) = ui.allocate_exact_size(vec2(side + 12.0, side + 12.0), egui::Sense::hover());
            ui.painter().circle_filled(rect.center(), side / 2.0 + 4.0, colour_of(colour));
            let inner = egui::Rect::from_center_size(rect.center(), vec2(side * 0.7, side * 0.7));
            art.image(Art::RoomAnimals, side * 0.7).uv(room_animal(index)).paint_at(ui, inner);
        }
    });
}

/// The address that joins a room: the page's own in the browser (naming the server when it is
/// another), the server's page on the desktop (`tabla serve --web` serves the browser build).
fn join_link(server: &str, code: &str) -> String {
    let server = server.trim().trim_end_matches('/');
    match web::page_address() {
        Some((origin, page)) if origin == server => format!("{page}?join={code}"),
        Some((_, page)) => format!("{page}?join={code}&server={server}"),
        None => format!("{server}/?join={code}"),
    }
}

/// The typed form of a code, in two halves for reading aloud ("7HH-XZT").
fn spaced(code: &str) -> String {
    if code.len() == 6 { format!("{}-{}", &code[..3], &code[3..]) } else { code.to_string() }
}

/// A labelled line to type in.
fn field(ui: &mut egui::Ui, label: &str, text: &mut String, tag: &str) {
    ui.label(bold(label, 18.0));
    let edit =
        ui.add(egui::TextEdit::singleline(text).font(egui::TextStyle::Heading).desired_width(f32::INFINITY));
    // A long address scrolls sideways in its field, as typing does.
    crate::app::panels::layout_check::scrolls_sideways(ui.ctx(), edit.rect);
    web::tag(&edit, tag);
}

#[allow(clippy::too_many_arguments)]
fn page(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    time: Res<Time>,
    mut page: ResMut<FarPage>,
    far: Option<Res<FarGame>>,
    mut settings: ResMut<Settings>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let dt = time.delta_secs();
    let mut back = false;
    let mut go = std::mem::take(&mut page.join_now);
    let making = page.make.is_some();
    full_screen(ctx, "far", |ui| {
        ui.set_max_width((ctx.content_rect().width() - 16.0).min(760.0));
        ui.vertical_centered(|ui| {
            let title = if making { "far_make_title" } else { "far_join_title" };
            ui.label(bold(words.get(title), 30.0).color(ACCENT));
        });
        ui.add_space(8.0);
        let page = &mut *page;
        if making && !page.gate.is_open() {
            gate(ui, &words, &mut page.gate, dt);
        } else if let Some(far) = far.as_deref() {
            room(ui, &art, &words, far);
        } else {
            card(CARD).show(ui, |ui| {
                ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                    if !making {
                        field(ui, words.get("far_type_code"), &mut page.code, "far.code");
                    }
                    field(ui, words.get("far_name"), &mut page.name, "far.name");
                    field(ui, words.get("far_server"), &mut page.server, "far.server");
                });
            });
            ui.add_space(8.0);
            ui.vertical_centered(|ui| {
                let label = words.get(if making { "far_make" } else { "far_join" });
                let button = egui::Button::new(bold(label, 26.0).color(Color32::WHITE))
                    .fill(CALM)
                    .min_size(vec2(220.0, 64.0));
                let button = ui.add(button);
                web::tag(&button, "far.go");
                go |= button.clicked();
            });
        }
        ui.add_space(10.0);
        ui.vertical_centered(|ui| {
            let button = ui.add(
                egui::Button::new(bold(format!("‹ {}", words.get("back")), 20.0)).min_size(vec2(120.0, 56.0)),
            );
            web::tag(&button, "far.back");
            back = button.clicked();
        });
    });
    if go && far.is_none() {
        let server = page.server.trim().to_string();
        let name = crate::net::clean_name(&page.name);
        settings.server = server.clone();
        settings.far_name = name.clone();
        let opened = match &page.make {
            Some(setup) => FarGame::make(&server, setup, &name),
            None => FarGame::join(&server, page.code.trim(), crate::net::ANY_SEAT, None, &name),
        };
        commands.insert_resource(opened);
    }
    if back {
        if let Some(far) = far.as_deref() {
            far.end_if_maker();
        }
        commands.remove_resource::<FarGame>();
        next.set(Screen::Menu);
    }
    Ok(())
}

/// The room as it stands: being made or joined, its code while the other side is awaited, or why
/// it cannot be played.
fn room(ui: &mut egui::Ui, art: &EguiArt, words: &Words, far: &FarGame) {
    card(CARD).show(ui, |ui| {
        ui.vertical_centered(|ui| {
            if let Some(why) = &far.over {
                ui.label(
                    bold(words.fill("far_over", &[("why", why)]), 20.0).color(Color32::from_rgb(190, 40, 40)),
                );
                return;
            }
            if let Some(why) = &far.away {
                ui.label(RichText::new(format!("{} ({why})", words.get("far_lost"))).size(16.0));
            }
            match (&far.code, far.maker) {
                (Some(code), true) => {
                    ui.label(bold(words.get("far_code"), 22.0));
                    code_pictures(ui, art, &far.pictures);
                    let typed = ui.label(bold(spaced(code), 44.0).color(ACCENT));
                    web::tag(&typed, &format!("far.made.{code}"));
                    ui.label(RichText::new(words.get("far_tell")).size(17.0));
                    let link = join_link(&far.server, code);
                    ui.label(
                        RichText::new(words.fill("far_link", &[("link", &link)])).size(15.0).monospace(),
                    );
                    if web::can_share() {
                        let share = ui.add(
                            egui::Button::new(bold(words.get("far_share"), 20.0)).min_size(vec2(200.0, 52.0)),
                        );
                        web::tag(&share, "far.share");
                        if share.clicked() {
                            web::share(words.get("far_make_title"), &link);
                        }
                    }
                    ui.add_space(6.0);
                    ui.label(bold(words.get("far_waiting_join"), 20.0).color(CALM));
                }
                _ => {
                    let key = if far.maker { "far_making" } else { "far_joining" };
                    ui.label(bold(words.get(key), 22.0));
                }
            }
        });
    });
}
