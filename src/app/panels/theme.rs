//! The look every screen shares: colours, fonts, egui's style, the pictures as egui images, and the
//! small widgets (cards, bold words, whole-window screens). Menus and the game's panels both use
//! these; nothing here knows about a game.

use crate::app::platform::art::{Art, ArtImages};
use crate::progress::Stars;
use bevy::prelude::*;
use bevy_egui::egui::{self, Color32, FontFamily, FontId, RichText, TextStyle, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, EguiTextureHandle};
use std::collections::HashMap;
use std::sync::Arc;

pub const INK: Color32 = Color32::from_rgb(60, 44, 34);
pub const CARD: Color32 = Color32::from_rgb(255, 250, 240);
pub const ACCENT: Color32 = Color32::from_rgb(232, 120, 40);
pub const CALM: Color32 = Color32::from_rgb(92, 148, 82);
/// A star earned.
pub const GOLD: Color32 = Color32::from_rgb(250, 190, 30);
/// A star not earned yet.
pub const UNEARNED: Color32 = Color32::from_rgb(214, 204, 190);

/// egui's handles for the pictures, made once the pictures are loaded.
#[derive(Resource, Default)]
pub struct EguiArt(HashMap<Art, egui::TextureId>);

impl EguiArt {
    pub fn image(&self, art: Art, side: f32) -> egui::Image<'static> {
        let id = self.0.get(&art).copied().unwrap_or_default();
        egui::Image::new(egui::load::SizedTexture::new(id, vec2(side, side)))
    }
}

/// The picture as egui blends it: each colour already multiplied by its opacity. (The board's
/// sprites take the PNG as it is; egui would lighten a picture's transparent pixels by their
/// leftover colour, a pale square behind it.)
fn premultiplied(image: &Image) -> Image {
    let mut image = image.clone();
    let rgba = matches!(
        image.texture_descriptor.format,
        bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb
            | bevy::render::render_resource::TextureFormat::Rgba8Unorm
    );
    if let Some(data) = image.data.as_mut().filter(|_| rgba) {
        for pixel in data.chunks_exact_mut(4) {
            let alpha = pixel[3] as u32;
            for channel in &mut pixel[..3] {
                *channel = (*channel as u32 * alpha / 255) as u8;
            }
        }
    }
    image
}

fn add_later_pictures(
    mut contexts: EguiContexts,
    images: Res<ArtImages>,
    mut assets: ResMut<Assets<Image>>,
    mut art: ResMut<EguiArt>,
) {
    add_pictures(&mut contexts, &images, &mut assets, &mut art);
}

/// Gives egui every loaded picture it does not have yet.
fn add_pictures(
    contexts: &mut EguiContexts,
    images: &ArtImages,
    assets: &mut Assets<Image>,
    art: &mut EguiArt,
) {
    for (picture, handle) in images.loaded() {
        if art.0.contains_key(&picture) {
            continue;
        }
        let Some(image) = assets.get(handle).map(premultiplied) else { continue };
        let id = contexts.add_image(EguiTextureHandle::Strong(assets.add(image)));
        art.0.insert(picture, id);
    }
}

/// Present once egui has the game's fonts (they take effect from the next frame on).
#[derive(Resource)]
pub struct UiReady;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EguiArt>();
    app.add_systems(EguiPrimaryContextPass, style_once.run_if(not(resource_exists::<UiReady>)));
    // A picture that came later (the browser fetches a room's animals when first shown).
    app.add_systems(
        EguiPrimaryContextPass,
        add_later_pictures.run_if(resource_exists::<UiReady>).run_if(resource_changed::<ArtImages>),
    );
    #[cfg(target_arch = "wasm32")]
    app.add_systems(Update, tell_page_ready.run_if(resource_exists::<UiReady>));
}

/// How long a finger may rest before it lifts and still tap: as long as it likes. egui reads its
/// clock once a frame, and on a loaded machine or a slow tablet the frame that sees a finger lift
/// can come seconds after the one that saw it land, so any limit (egui's own is 0.8 s; 2.5 s
/// here before) made a tap depend on the machine's speed: a press and a release with no move
/// between is a tap. Nothing in Tabla asks for a long press (the grown-ups' gate reads the
/// finger held down itself, and its button does nothing when tapped).
const TAP_WITHIN: f64 = f64::INFINITY;

fn style_once(
    mut commands: Commands,
    mut contexts: EguiContexts,
    images: Res<ArtImages>,
    mut assets: ResMut<Assets<Image>>,
    mut art: ResMut<EguiArt>,
) -> Result {
    add_pictures(&mut contexts, &images, &mut assets, &mut art);
    let ctx = contexts.ctx_mut()?;
    let mut fonts = egui::FontDefinitions::empty();
    fonts.font_data.insert(
        "sans".into(),
        Arc::new(egui::FontData::from_static(include_bytes!("../../../assets/fonts/DejaVuSans.ttf"))),
    );
    fonts.font_data.insert(
        "bold".into(),
        Arc::new(egui::FontData::from_static(include_bytes!("../../../assets/fonts/DejaVuSans-Bold.ttf"))),
    );
    fonts.families.insert(FontFamily::Proportional, vec!["sans".into()]);
    fonts.families.insert(FontFamily::Monospace, vec!["sans".into()]);
    fonts.families.insert(FontFamily::Name("bold".into()), vec!["bold".into(), "sans".into()]);
    ctx.set_fonts(fonts);
    ctx.set_theme(egui::Theme::Light);
    ctx.options_mut(|options| options.input_options.max_click_duration = TAP_WITHIN);
    ctx.all_styles_mut(|style| {
        style.text_styles = [
            (TextStyle::Heading, FontId::new(30.0, FontFamily::Name("bold".into()))),
            (TextStyle::Body, FontId::proportional(19.0)),
            (TextStyle::Button, FontId::proportional(19.0)),
            (TextStyle::Small, FontId::proportional(14.0)),
            (TextStyle::Monospace, FontId::proportional(17.0)),
        ]
        .into();
        style.spacing.button_padding = vec2(14.0, 10.0);
        style.spacing.item_spacing = vec2(10.0, 10.0);
        style.spacing.interact_size.y = 48.0;
        style.visuals.override_text_color = Some(INK);
        style.visuals.window_fill = CARD;
        style.visuals.panel_fill = CARD;
        style.visuals.window_corner_radius = 18.into();
        style.visuals.widgets.inactive.corner_radius = 12.into();
        style.visuals.widgets.hovered.corner_radius = 12.into();
        style.visuals.widgets.active.corner_radius = 12.into();
        style.visuals.widgets.inactive.weak_bg_fill = Color32::from_rgb(246, 232, 208);
        style.visuals.widgets.hovered.weak_bg_fill = Color32::from_rgb(252, 220, 170);
        style.visuals.selection.bg_fill = Color32::from_rgb(255, 196, 110);
        style.visuals.selection.stroke.color = INK;
    });
    commands.insert_resource(UiReady);
    Ok(())
}

/// Draws a whole-window screen (menu, setup) that scrolls when the window is small.
pub fn full_screen(ctx: &egui::Context, name: &str, add_contents: impl FnOnce(&mut egui::Ui)) {
    let mut root = egui::Ui::new(
        ctx.clone(),
        "screen".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    egui::CentralPanel::default().frame(egui::Frame::NONE.inner_margin(egui::Margin::same(8))).show(
        &mut root,
        |ui| {
            // Each screen scrolls on its own: a menu scrolled down to its last game opens that
            // game's setup at its top.
            egui::ScrollArea::vertical().id_salt(name).auto_shrink([false, false]).show(ui, |ui| {
                ui.vertical_centered(add_contents);
            });
        },
    );
}

pub fn bold(text: impl Into<String>, size: f32) -> RichText {
    RichText::new(text).font(FontId::new(size, FontFamily::Name("bold".into())))
}

/// The size of bold words (`bold`) at most `size`, small enough that their longest word fits in
/// `width` (a narrow card wraps between words, never inside one).
pub fn bold_size_fitting(ui: &egui::Ui, text: &str, size: f32, width: f32) -> f32 {
    size_fitting(
        ui,
        text.split_whitespace(),
        FontId::new(size, FontFamily::Name("bold".into())),
        (width, 12.0),
    )
}

/// The size of bold words (`bold`) at most `size`, and at least `least`, small enough that they
/// fit in `width` on one line (a title beside its picture on a phone).
pub fn bold_size_on_one_line(ui: &egui::Ui, text: &str, (size, least): (f32, f32), width: f32) -> f32 {
    size_fitting(ui, [text], FontId::new(size, FontFamily::Name("bold".into())), (width, least))
}

/// The size, at most `font`'s and at least `least`, at which the widest of `parts` fits in
/// `width` on one line.
pub fn size_fitting<'a>(
    ui: &egui::Ui,
    parts: impl IntoIterator<Item = &'a str>,
    font: FontId,
    (width, least): (f32, f32),
) -> f32 {
    let widest = widest(ui, parts, &font);
    if widest > width { (font.size * width / widest).floor().max(least) } else { font.size }
}

/// How wide the widest of `parts` is in `font`, on one line.
pub fn widest<'a>(ui: &egui::Ui, parts: impl IntoIterator<Item = &'a str>, font: &FontId) -> f32 {
    parts
        .into_iter()
        .map(|part| {
            ui.fonts_mut(|f| f.layout_no_wrap(part.to_string(), font.clone(), Color32::BLACK).size().x)
        })
        .fold(0.0, f32::max)
}

/// What went wrong with a kept file, under its heading, in the accent colour; tapped away
/// (`true` when tapped). The file itself is kept aside, never deleted.
pub fn problem_note(ui: &mut egui::Ui, heading: &str, problem: &str) -> bool {
    let text = format!("{heading}\n{problem}");
    ui.add(egui::Label::new(RichText::new(text).color(ACCENT).size(15.0)).sense(egui::Sense::click()))
        .clicked()
}

/// What could not be saved, said lastingly for a grown-up (the map, the menu, who is playing):
/// the words in the person's language, each file with why. Nothing when all was saved.
pub fn not_saved_note(
    ui: &mut egui::Ui,
    words: &crate::app::platform::settings::Words,
    store: &crate::app::platform::store::Store,
) {
    let failed = store.not_saved();
    let Some((file, why)) = failed.first() else { return };
    card(Color32::from_rgb(255, 225, 215)).show(ui, |ui| {
        ui.set_max_width((ui.available_width() - 24.0).min(720.0));
        ui.label(bold(format!("✖ {}", words.get("not_saved_title")), 18.0).color(ACCENT));
        ui.label(RichText::new(words.get("not_saved_text")).size(15.0));
        let more = if failed.len() > 1 { format!(" (+{})", failed.len() - 1) } else { String::new() };
        let detail = ui.label(RichText::new(format!("{file}: {why}{more}")).size(13.0).color(INK));
        crate::app::platform::web::tag(&detail, "not_saved");
    });
}

/// A card's whole area as one button (`tag` names it to the browser test), outlined while the
/// pointer is over it; whether it was tapped.
pub fn card_tapped(ui: &egui::Ui, rect: egui::Rect, id: egui::Id, tag: &str) -> bool {
    let response = ui.interact(rect, id, egui::Sense::click());
    crate::app::platform::web::tag(&response, tag);
    if response.hovered() {
        ui.painter().rect_stroke(rect, 16, egui::Stroke::new(3.0, ACCENT), egui::StrokeKind::Inside);
    }
    response.clicked()
}

/// A card with rounded corners, as every panel of the game is drawn.
pub fn card(fill: Color32) -> egui::Frame {
    egui::Frame::new()
        .fill(fill)
        .corner_radius(16)
        .inner_margin(egui::Margin::same(10))
        .stroke(egui::Stroke::new(1.5, Color32::from_rgb(214, 190, 160)))
}

#[cfg(target_arch = "wasm32")]
/// The page takes its loading screen away in the frame that first draws the menu: the second, as
/// the browser compiles the render pipelines the first one asked for while rendering it, and
/// draws with them from the next.
fn tell_page_ready(mut frames: Local<u32>) {
    *frames += 1;
    if *frames == 2 {
        tracing::info!("tabla ready");
        crate::app::platform::web::call_page("tablaReady", "");
    }
}

/// Three stars in a row, gold where earned.
pub fn draw_stars(painter: &egui::Painter, row: egui::Rect, stars: Stars, size: f32) {
    for (i, star) in Stars::ALL.into_iter().enumerate() {
        let x = row.center().x + (i as f32 - 1.0) * size;
        let colour = if stars.has(star) { GOLD } else { UNEARNED };
        draw_star(painter, egui::pos2(x, row.center().y), size * 0.5, colour);
    }
}

pub fn draw_star(painter: &egui::Painter, centre: egui::Pos2, radius: f32, colour: Color32) {
    painter.text(
        centre,
        egui::Align2::CENTER_CENTER,
        "★",
        egui::FontId::new(radius * 2.2, egui::FontFamily::Name("bold".into())),
        colour,
    );
}
