//! What only the browser build needs: a panic shown on the page (not a frozen canvas), a word to
//! the page once the first frames are drawn, and console lines the browser test reads (where the
//! board's corners and the main buttons are, in CSS pixels). On the desktop all of this is nothing.
//!
//! The sound is unlocked by the page itself (web/index.html resumes the AudioContext on the first
//! tap, since browsers keep it silent until then).

use bevy::prelude::*;
use bevy_egui::egui;

/// The libraries' chatter that is left out of the log.
pub const QUIET_LOGS: &str = "wgpu=error,naga=warn,bevy_render=warn,bevy_egui=warn";

/// Sends the log to the browser's console. Bevy's LogPlugin would do it too, but its filter
/// brings a regular-expression engine into the download; a plain target filter does the same here.
#[cfg(target_arch = "wasm32")]
pub fn log_to_console() {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::prelude::*;
    let quiet = QUIET_LOGS.split(',').filter_map(|rule| {
        let (target, level) = rule.split_once('=')?;
        Some((target, level.parse::<LevelFilter>().ok()?))
    });
    let filter = Targets::new().with_default(LevelFilter::INFO).with_targets(quiet);
    let console = tracing_wasm::WASMLayer::new(tracing_wasm::WASMLayerConfig::default());
    let _ = tracing_subscriber::registry().with(console).with(filter).try_init();
}

pub(super) fn plugin(app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    browser::plugin(app);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = app;
}

/// Names a widget for the browser test: in the browser, logs `tabla target <name> x y w h` (its
/// visible rectangle in CSS pixels) whenever it moves. Nothing on the desktop.
pub fn tag(response: &egui::Response, name: &str) {
    #[cfg(target_arch = "wasm32")]
    browser::tag(response, name);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (response, name);
}

/// Tells the browser test which places are lit, in the browser: `tabla movable <sq>…` for the
/// pieces that can move before any tap, `tabla targets <from> <sq>…` for where the picked one can
/// go. Nothing on the desktop.
pub fn report_marks(kind: &str, squares: &[crate::rules::board::Square]) {
    #[cfg(target_arch = "wasm32")]
    {
        let names: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
        tracing::info!("tabla {kind} {}", names.join(" "));
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (kind, squares);
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use crate::app::board::Cell;
    use crate::app::theme::UiReady;
    use bevy::prelude::*;
    use bevy::transform::TransformSystems;
    use bevy_egui::egui;
    use tracing::info;
    use wasm_bindgen::{JsCast, JsValue};

    pub fn plugin(app: &mut App) {
        show_panics();
        app.add_systems(Update, tell_page_ready.run_if(resource_exists::<UiReady>));
        app.add_systems(PostUpdate, report_board.after(TransformSystems::Propagate));
    }

    /// Calls `window.<name>(text)` if the page defines it.
    fn call_page(name: &str, text: &str) {
        let Some(window) = web_sys::window() else { return };
        let Ok(function) = js_sys::Reflect::get(&window, &JsValue::from_str(name)) else { return };
        if let Some(function) = function.dyn_ref::<js_sys::Function>() {
            let _ = function.call1(&JsValue::NULL, &JsValue::from_str(text));
        }
    }

    /// Bevy's hook writes the panic to the console; this one also puts it on the page.
    fn show_panics() {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            call_page("tablaFatal", &info.to_string());
        }));
    }

    /// Once the menu has been drawn for a few frames, the page takes its loading screen away.
    fn tell_page_ready(mut frames: Local<u32>) {
        *frames += 1;
        if *frames == 3 {
            info!("tabla ready");
            call_page("tablaReady", "");
        }
    }

    /// Logs `tabla board <first square> x y <last square> x y`: the centres of the board's two
    /// corner squares in CSS pixels, whenever the board is laid out anew; and `tabla places
    /// <square> x y …`, the centre of every place (a board that is no grid has its own).
    fn report_board(
        cells: Query<(&Cell, &GlobalTransform)>,
        cameras: Query<(&Camera, &GlobalTransform)>,
        mut last: Local<String>,
        mut last_places: Local<String>,
    ) {
        if let Ok((camera, eye)) = cameras.single() {
            let mut places: Vec<(Cell, Vec2)> = cells
                .iter()
                .filter_map(|(cell, at)| Some((*cell, camera.world_to_viewport(eye, at.translation()).ok()?)))
                .collect();
            places.sort_by_key(|(cell, _)| (cell.0.rank, cell.0.file));
            let line = places.iter().fold("tabla places".to_string(), |line, (cell, at)| {
                format!("{line} {} {:.1} {:.1}", cell.0, at.x, at.y)
            });
            if *last_places != line && !places.is_empty() {
                info!("{line}");
                *last_places = line;
            }
        }
        let first = cells.iter().min_by_key(|(cell, _)| (cell.0.rank, cell.0.file));
        let end = cells.iter().max_by_key(|(cell, _)| (cell.0.rank, cell.0.file));
        let (Some(first), Some(end), Ok((camera, eye))) = (first, end, cameras.single()) else {
            last.clear();
            return;
        };
        let at = |place: &GlobalTransform| camera.world_to_viewport(eye, place.translation()).ok();
        let (Some(a), Some(b)) = (at(first.1), at(end.1)) else { return };
        let line =
            format!("tabla board {} {:.1} {:.1} {} {:.1} {:.1}", first.0.0, a.x, a.y, end.0.0, b.x, b.y);
        if *last != line {
            info!("{line}");
            *last = line;
        }
    }

    /// Logs the place of a tagged button when it moves, and again when it comes back after a
    /// pass without it (a ✔ that returns where it stood before is news to the test too).
    pub fn tag(response: &egui::Response, name: &str) {
        let rect = response.interact_rect;
        let id = egui::Id::new(("tabla_tag", name));
        let pass = response.ctx.cumulative_pass_nr();
        let moved = response.ctx.data_mut(|data| {
            let before = data.get_temp::<(egui::Rect, u64)>(id);
            data.insert_temp(id, (rect, pass));
            before.is_none_or(|(was, seen)| was != rect || seen + 1 < pass)
        });
        if moved {
            info!(
                "tabla target {name} {:.1} {:.1} {:.1} {:.1}",
                rect.min.x,
                rect.min.y,
                rect.width(),
                rect.height()
            );
        }
    }
}
