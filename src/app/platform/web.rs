//! What only the browser build needs: a panic shown on the page (not a frozen canvas), words to
//! the page (`call_page`: the first frames are drawn), and console lines the browser test reads
//! (where the main buttons are, in CSS pixels; the board's own lines are `kit::board`'s). On the
//! desktop all of this is nothing.
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

pub(super) fn plugin(_app: &mut App) {
    #[cfg(target_arch = "wasm32")]
    browser::show_panics();
}

/// Calls `window.<name>(text)` if the page defines it; nothing on the desktop.
pub fn call_page(name: &str, text: &str) {
    #[cfg(target_arch = "wasm32")]
    browser::call_page(name, text);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (name, text);
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
    use bevy_egui::egui;
    use tracing::info;
    use wasm_bindgen::{JsCast, JsValue};

    /// Calls `window.<name>(text)` if the page defines it.
    pub fn call_page(name: &str, text: &str) {
        let Some(window) = web_sys::window() else { return };
        let Ok(function) = js_sys::Reflect::get(&window, &JsValue::from_str(name)) else { return };
        if let Some(function) = function.dyn_ref::<js_sys::Function>() {
            let _ = function.call1(&JsValue::NULL, &JsValue::from_str(text));
        }
    }

    /// Bevy's hook writes the panic to the console; this one also puts it on the page.
    pub fn show_panics() {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            call_page("tablaFatal", &info.to_string());
        }));
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
