//! A game's diploma, earned when every stage of its trail has a star: the child's picture and
//! name, the game's picture, the stars and the date, in the child's language, on a page shaped
//! like a sheet of paper. "Save" keeps it as a PNG to print: on the desktop in the data folder's
//! `diplomas/` (the path is shown), in the browser as a download.

use crate::app::child::children::name_of;
use crate::app::child::children::{Children, ThePath};
use crate::app::child::stages::DiplomaFor;
use crate::app::course::catalog::PlayableGames;
use crate::app::panels::theme::{ACCENT, EguiArt, INK, UiReady, bold, bold_size_on_one_line};
use crate::app::platform::art::Art;
use crate::app::platform::settings::Words;
use crate::app::platform::store::Store;
use crate::app::platform::web;
use crate::app::session::screen::Screen;
use crate::i18n::Language;
use crate::progress::Child;
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use bevy_egui::egui::{self, Align2, Color32, FontFamily, FontId, Pos2, Rect, Stroke, pos2, vec2};
use bevy_egui::{EguiContexts, EguiPrimaryContextPass};

/// Where the last diploma saved went, or why it could not be.
#[derive(Resource, Default)]
struct Saved(Option<String>);

/// The diploma is to be saved: the frames left before its picture is taken (the buttons are
/// hidden for them).
#[derive(Resource, Default)]
pub struct SaveDiploma(pub Option<u8>);

const PAPER: Color32 = Color32::from_rgb(255, 251, 238);
/// The diploma's thin frame, its corner stars and its count: an older gold than the stars'.
const OLD_GOLD: Color32 = Color32::from_rgb(214, 160, 30);
const BAR: f32 = 64.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Saved>().init_resource::<SaveDiploma>();
    app.add_systems(OnEnter(Screen::Diploma), |mut saved: ResMut<Saved>| saved.0 = None);
    app.add_systems(
        EguiPrimaryContextPass,
        diploma_screen.run_if(resource_exists::<UiReady>).run_if(in_state(Screen::Diploma)),
    );
}

#[allow(clippy::too_many_arguments)]
fn diploma_screen(
    mut contexts: EguiContexts,
    art: Res<EguiArt>,
    words: Res<Words>,
    children: Res<Children>,
    path: Res<ThePath>,
    store: Res<Store>,
    shown: Option<Res<DiplomaFor>>,
    (saved, playable): (Res<Saved>, Res<PlayableGames>),
    mut capture: ResMut<SaveDiploma>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (Some(shown), Some(child)) = (shown.as_deref(), shown.as_deref().and_then(|d| children.get(d.slot)))
    else {
        next.set(Screen::Map);
        return Ok(());
    };
    let Some(day) = child.diplomas.get(&shown.game) else {
        next.set(Screen::Map);
        return Ok(());
    };
    let screen = ctx.content_rect();
    let room = Rect::from_min_max(screen.min + vec2(12.0, 12.0), screen.max - vec2(12.0, BAR + 8.0));
    // A landscape sheet of paper (A4's sides), as big as the window allows.
    let width = room.width().min(room.height() * 1.414);
    let paper = Rect::from_center_size(room.center(), vec2(width, width / 1.414));
    let total = path.trail(shown.game).map_or(0, |t| t.stages.len() as u32 * 3);
    let stars = path.trail(shown.game).map_or(0, |t| child.trail_stars(t));
    let mut ui = egui::Ui::new(
        ctx.clone(),
        "diploma".into(),
        egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()),
    );
    ui.painter().rect_filled(ctx.viewport_rect(), 0.0, Color32::from_rgb(236, 226, 206));
    let picture = playable.get(shown.game).map_or(Art::Trophy, |entry| entry.picture);
    draw_diploma(&ui, &art, &words, child, (shown.game, picture), (stars, total), day, paper);
    if capture.0.is_none() {
        let bar = Rect::from_min_max(pos2(screen.left(), screen.bottom() - BAR), screen.max);
        ui.scope_builder(egui::UiBuilder::new().max_rect(bar.shrink(10.0)), |ui| {
            ui.horizontal_centered(|ui| {
                let (save, map) =
                    (format!("↓ {}", words.get("diploma_save")), format!("◂ {}", words.get("map")));
                // Both buttons on a phone's width: smaller words rather than one off the screen.
                let room = ui.available_width() - 40.0;
                let size = bold_size_on_one_line(ui, &format!("{save} {map}"), (22.0, 14.0), room);
                let save = ui.button(bold(save, size));
                web::tag(&save, "diploma.save");
                if save.clicked() {
                    capture.0 = Some(2);
                }
                if ui.button(bold(map, size)).clicked() {
                    next.set(Screen::Map);
                }
            });
        });
        // Where the picture went, over the buttons: its folder, then its name, each on its line.
        if let Some(place) = &saved.0 {
            let above =
                Rect::from_min_max(pos2(screen.left(), bar.top() - 44.0), pos2(screen.right(), bar.top()));
            let place =
                place.rsplit_once('/').map_or(place.clone(), |(folder, name)| format!("{folder}/\n{name}"));
            ui.scope_builder(egui::UiBuilder::new().max_rect(above.shrink2(vec2(10.0, 0.0))), |ui| {
                ui.vertical_centered(|ui| ui.label(egui::RichText::new(place).size(13.0).color(INK)));
            });
        }
    }
    // Two frames without the buttons, then the picture of the paper alone.
    if let Some(frames) = capture.0 {
        if frames == 0 {
            capture.0 = None;
            let scale = ctx.pixels_per_point();
            let crop =
                [paper.left() * scale, paper.top() * scale, paper.width() * scale, paper.height() * scale]
                    .map(|v| v.round().max(0.0) as u32);
            let name = format!(
                "diploma-{}-{}-{}.png",
                shown.slot + 1,
                file_safe(&name_of(&words, child)),
                shown.game
            );
            let store = store.clone();
            commands.spawn(Screenshot::primary_window()).observe(
                move |captured: On<ScreenshotCaptured>, mut saved: ResMut<Saved>| {
                    saved.0 = Some(match save_png(&captured.image, crop, &store, &name) {
                        Ok(place) => format!("✔ {place}"),
                        Err(e) => format!("✖ {e}"),
                    });
                },
            );
        } else {
            capture.0 = Some(frames - 1);
            ctx.request_repaint();
        }
    }
    Ok(())
}

/// A name as a file may carry it.
fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_alphanumeric() { c } else { '_' }).collect()
}

/// Cuts the paper out of the window's picture and keeps it as a PNG.
fn save_png(image: &Image, [x, y, w, h]: [u32; 4], store: &Store, name: &str) -> Result<String, String> {
    let data = image.data.as_deref().ok_or("the window's picture is empty")?;
    let full_w = image.texture_descriptor.size.width as usize;
    let full_h = image.texture_descriptor.size.height as usize;
    // The window's picture is BGRA on most desktops, RGBA elsewhere; one byte per channel.
    let bgra = match image.texture_descriptor.format {
        TextureFormat::Bgra8Unorm | TextureFormat::Bgra8UnormSrgb => true,
        TextureFormat::Rgba8Unorm | TextureFormat::Rgba8UnormSrgb => false,
        other => return Err(format!("the window's picture is {other:?}, not 8-bit colour")),
    };
    let (x, y) = (x as usize, y as usize);
    let (w, h) = ((w as usize).min(full_w.saturating_sub(x)), (h as usize).min(full_h.saturating_sub(y)));
    if data.len() < full_w * full_h * 4 || w == 0 || h == 0 {
        return Err("the window's picture is not as expected".into());
    }
    let mut pixels = Vec::with_capacity(w * h * 4);
    for row in y..y + h {
        let start = (row * full_w + x) * 4;
        for pixel in data[start..start + w * 4].chunks_exact(4) {
            let [r, g, b] =
                if bgra { [pixel[2], pixel[1], pixel[0]] } else { [pixel[0], pixel[1], pixel[2]] };
            pixels.extend_from_slice(&[r, g, b, 255]);
        }
    }
    store.export_picture(name, w as u32, h as u32, &pixels)
}

/// The size of bold `text` at most `size`, small enough to fit `width`.
fn fitting(ui: &egui::Ui, text: &str, size: f32, width: f32) -> f32 {
    let font = FontId::new(size, FontFamily::Name("bold".into()));
    let wide = ui.fonts_mut(|f| f.layout_no_wrap(text.to_string(), font, INK).size().x);
    if wide > width { size * width / wide } else { size }
}

/// The day written the language's way.
fn date_text(day: &str, language: Language) -> String {
    let parts: Vec<&str> = day.split('-').collect();
    let [year, month, date] = parts[..] else { return day.to_string() };
    let date = date.trim_start_matches('0');
    match language {
        Language::En => {
            const MONTHS: [&str; 12] = [
                "January",
                "February",
                "March",
                "April",
                "May",
                "June",
                "July",
                "August",
                "September",
                "October",
                "November",
                "December",
            ];
            let name = month.parse::<usize>().ok().and_then(|m| MONTHS.get(m.wrapping_sub(1))).unwrap_or(&"");
            format!("{date} {name} {year}")
        }
        Language::Ro | Language::El => format!("{date}.{month}.{year}"),
        Language::It => format!("{date}/{month}/{year}"),
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_diploma(
    ui: &egui::Ui,
    art: &EguiArt,
    words: &Words,
    child: &Child,
    (game, game_picture): (crate::rules::GameKind, Art),
    (stars, total): (u32, u32),
    day: &str,
    paper: Rect,
) {
    let painter = ui.painter();
    let k = paper.width() / 1000.0;
    let bold_font = |size: f32| FontId::new(size * k, FontFamily::Name("bold".into()));
    painter.rect_filled(paper.translate(vec2(6.0, 8.0) * k), 8.0 * k, Color32::from_black_alpha(40));
    painter.rect_filled(paper, 8.0 * k, PAPER);
    painter.rect_stroke(
        paper.shrink(18.0 * k),
        6.0 * k,
        Stroke::new(10.0 * k, ACCENT),
        egui::StrokeKind::Middle,
    );
    painter.rect_stroke(
        paper.shrink(34.0 * k),
        4.0 * k,
        Stroke::new(3.0 * k, OLD_GOLD),
        egui::StrokeKind::Middle,
    );
    for corner in [paper.left_top(), paper.right_top(), paper.left_bottom(), paper.right_bottom()] {
        let inward =
            vec2((paper.center().x - corner.x).signum(), (paper.center().y - corner.y).signum()) * 72.0 * k;
        painter.text(corner + inward, Align2::CENTER_CENTER, "★", bold_font(40.0), OLD_GOLD);
    }
    let at = |x: f32, y: f32| pos2(paper.left() + x * k, paper.top() + y * k);
    painter.text(
        at(500.0, 115.0),
        Align2::CENTER_CENTER,
        words.get("diploma_title"),
        bold_font(72.0),
        ACCENT,
    );
    let side = 180.0 * k;
    let picture = |art_kind: Art, centre: Pos2| {
        art.image(art_kind, side).paint_at(ui, Rect::from_center_size(centre, vec2(side, side)));
    };
    picture(Art::Animal(child.animal), at(185.0, 390.0));
    picture(game_picture, at(815.0, 390.0));
    let name = name_of(words, child);
    let name_font = FontId::new(fitting(ui, &name, 60.0 * k, 580.0 * k), FontFamily::Name("bold".into()));
    painter.text(at(500.0, 215.0), Align2::CENTER_CENTER, &name, name_font, INK);
    // The words wrapped between the two pictures, each line centred.
    let walked = words.fill("diploma_walked", &[("game", words.get(&format!("game_{game}")))]);
    let lines = ui.fonts_mut(|f| f.layout(walked, FontId::proportional(30.0 * k), INK, 430.0 * k));
    for row in &lines.rows {
        let y = paper.top() + 290.0 * k + row.pos.y + row.height() / 2.0;
        let font = FontId::proportional(30.0 * k);
        painter.text(pos2(paper.center().x, y), Align2::CENTER_CENTER, row.text(), font, INK);
    }
    painter.text(
        at(500.0, 480.0),
        Align2::CENTER_CENTER,
        format!("★ {stars} / {total}"),
        bold_font(52.0),
        OLD_GOLD,
    );
    let date_font = FontId::proportional(28.0 * k);
    painter.text(at(500.0, 585.0), Align2::CENTER_CENTER, date_text(day, words.language), date_font, INK);
    painter.line_segment([at(380.0, 625.0), at(620.0, 625.0)], Stroke::new(2.0 * k, OLD_GOLD));
    painter.text(at(500.0, 652.0), Align2::CENTER_CENTER, "Tabla", bold_font(26.0), ACCENT);
}
