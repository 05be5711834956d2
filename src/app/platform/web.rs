//! What only the browser build needs: a panic shown on the page (not a frozen canvas), words to
//! the page (`call_page`: the first frames are drawn), and console lines the browser test reads
//! (where the main buttons are, in CSS pixels; the board's own lines are `board::view`'s). On the
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
    {
        browser::show_panics();
        keeping::save_when_hidden();
        _app.add_systems(PreUpdate, browser::report_touches);
        _app.add_systems(bevy_egui::EguiPrimaryContextPass, browser::report_presses);
    }
}

/// Keeps `text` to be written again as `name` when the page is hidden or closed: the frames stop
/// then, so it is written from the page's own event. Nothing on the desktop (closing the window
/// runs the app's last frame).
pub fn keep_for_closing(name: &str, text: &str) {
    #[cfg(target_arch = "wasm32")]
    keeping::keep(name, text.to_string());
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (name, text);
}

/// Nothing more to write when the page is hidden (what was kept is saved already).
pub fn forget_for_closing() {
    #[cfg(target_arch = "wasm32")]
    keeping::forget();
}

/// The page's address options (`?game=nard&variant=crazy&robot-level=2`, `?continue`) as the
/// command line's `--name value` pairs; none on the desktop.
pub fn address_flags() -> Vec<(String, String)> {
    #[cfg(target_arch = "wasm32")]
    return address::flags();
    #[cfg(not(target_arch = "wasm32"))]
    Vec::new()
}

/// Offers `text` as a file to download, named `file_name` (the browser's way to export).
pub fn download(file_name: &str, text: &str) -> Result<(), String> {
    #[cfg(target_arch = "wasm32")]
    return files::download(file_name, text);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (file_name, text);
        Err("downloads are the browser's".into())
    }
}

/// Offers a picture (RGBA pixels, row by row) to download as a PNG named `file_name`: the page
/// encodes it (`tablaSavePicture`), so no encoder weighs on the download.
#[cfg(target_arch = "wasm32")]
pub fn download_picture(file_name: &str, width: u32, height: u32, rgba: &[u8]) -> Result<(), String> {
    use wasm_bindgen::{JsCast, JsValue};
    let window = web_sys::window().ok_or("no page")?;
    let function = js_sys::Reflect::get(&window, &JsValue::from_str("tablaSavePicture"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .ok_or("the page cannot save pictures")?;
    let arguments = js_sys::Array::of4(
        &JsValue::from_str(file_name),
        &JsValue::from(width),
        &JsValue::from(height),
        &js_sys::Uint8Array::from(rgba).into(),
    );
    function
        .apply(&JsValue::NULL, &arguments)
        .map(|_| ())
        .map_err(|_| "the picture could not be offered".into())
}

/// Milliseconds since 1970 by the device's clock.
pub fn now_ms() -> f64 {
    #[cfg(target_arch = "wasm32")]
    return js_sys::Date::now();
    #[cfg(not(target_arch = "wasm32"))]
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_millis() as f64)
}

/// Whether the browser's page is hidden (a tab behind another, a phone's screen off); never on
/// the desktop.
pub fn page_hidden() -> bool {
    #[cfg(target_arch = "wasm32")]
    return web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.visibility_state() == web_sys::VisibilityState::Hidden);
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// Today, as YYYY-MM-DD (the figures' last day played, a diploma's date, a file's name): the
/// local day of the device, in the browser and on the desktop alike.
pub fn today() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let now = js_sys::Date::new_0();
        format!("{:04}-{:02}-{:02}", now.get_full_year(), now.get_month() + 1, now.get_date())
    }
    #[cfg(not(target_arch = "wasm32"))]
    crate::progress::day_text(local_day(now_ms() / 1000.0))
}

/// Seconds since midnight by the device's local clock (for a file's name).
pub fn seconds_today() -> u32 {
    #[cfg(target_arch = "wasm32")]
    {
        let now = js_sys::Date::new_0();
        now.get_hours() * 3600 + now.get_minutes() * 60 + now.get_seconds()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let seconds = now_ms() / 1000.0;
        (seconds + local_offset(seconds) as f64).rem_euclid(86_400.0) as u32
    }
}

/// The local day (days since 1970-01-01) at `seconds` since 1970 UTC.
#[cfg(not(target_arch = "wasm32"))]
pub fn local_day(seconds: f64) -> i64 {
    ((seconds + local_offset(seconds) as f64) / 86_400.0).floor() as i64
}

/// The device's offset from UTC at `seconds` since 1970, in seconds (as the system's time zone
/// says, summer time included); 0 where the system cannot tell.
#[cfg(not(target_arch = "wasm32"))]
fn local_offset(seconds: f64) -> i64 {
    #[cfg(unix)]
    {
        let time = seconds.floor() as libc::time_t;
        // SAFETY: localtime_r only writes the given struct (zeroed, plain data) and reads `time`.
        let mut local: libc::tm = unsafe { std::mem::zeroed() };
        if unsafe { libc::localtime_r(&time, &mut local) }.is_null() {
            return 0;
        }
        local.tm_gmtoff
    }
    #[cfg(not(unix))]
    {
        let _ = seconds;
        0
    }
}

/// A new random identity, 16 hexadecimal digits (a child's).
pub fn fresh_id() -> String {
    #[cfg(target_arch = "wasm32")]
    let noise = (js_sys::Math::random() * 4_294_967_296.0) as u64
        ^ ((js_sys::Math::random() * 4_294_967_296.0) as u64) << 32;
    #[cfg(not(target_arch = "wasm32"))]
    let noise = {
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u32(std::process::id());
        hasher.finish()
    };
    // SplitMix64's finish, so close starts give far apart identities.
    let mut z = (noise ^ (now_ms() * 1000.0) as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    format!("{:016x}", z ^ (z >> 31))
}

/// Asks the browser to keep Tabla's storage when space runs short (once a child is made); nothing
/// on the desktop.
pub fn keep_storage() {
    #[cfg(target_arch = "wasm32")]
    browser::persist_storage();
}

/// What a failed `localStorage` write says, in words: full, or turned off.
#[cfg(target_arch = "wasm32")]
pub fn storage_error(error: &wasm_bindgen::JsValue) -> String {
    let name = js_sys::Reflect::get(error, &wasm_bindgen::JsValue::from_str("name"))
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default();
    match name.as_str() {
        "QuotaExceededError" | "NS_ERROR_DOM_QUOTA_REACHED" => "the browser's storage is full".into(),
        "SecurityError" => "the browser's storage is turned off".into(),
        other => format!("the browser did not keep it ({other})"),
    }
}

/// Opens the browser's file picker; the chosen file's text comes with `picked_file` later.
pub fn pick_file() {
    #[cfg(target_arch = "wasm32")]
    files::pick();
}

/// The text of the file the person picked, once it has been read; `Err` for a file too large to
/// be read (over `record::MOST_BYTES`, refused before it is read).
pub fn picked_file() -> Option<Result<String, String>> {
    #[cfg(target_arch = "wasm32")]
    return files::picked();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// The `localStorage` key a kept file has: `settings.ron` is kept under `tabla.settings`, and
/// so on.
pub fn storage_key(name: &str) -> String {
    format!("tabla.{}", name.trim_end_matches(".ron"))
}

/// The window's first size, in logical pixels: the page's own in the browser (the first picture
/// is then laid out and drawn once, at the size it is shown), a desktop window's otherwise.
pub fn first_window_size() -> (u32, u32) {
    #[cfg(target_arch = "wasm32")]
    if let Some(size) = browser::page_size() {
        return size;
    }
    (1280, 800)
}

/// Calls `window.<name>(text)` if the page defines it; nothing on the desktop.
pub fn call_page(name: &str, text: &str) {
    #[cfg(target_arch = "wasm32")]
    browser::call_page(name, text);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (name, text);
}

/// The page's own address without its options (`https://host:port/path/`), where
/// `tabla serve --web` serves its rooms too; none on the desktop.
pub fn page_address() -> Option<(String, String)> {
    #[cfg(target_arch = "wasm32")]
    return browser::page_address();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

/// Whether the browser offers its share sheet (never on the desktop).
pub fn can_share() -> bool {
    #[cfg(target_arch = "wasm32")]
    return browser::can_share();
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// Opens the browser's share sheet with a title and a link; nothing on the desktop.
pub fn share(title: &str, link: &str) {
    #[cfg(target_arch = "wasm32")]
    browser::share(title, link);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (title, link);
}

/// Names a widget for the browser test: in the browser, logs `tabla target <name> x y w h` (its
/// visible rectangle in CSS pixels) whenever it moves. Nothing on the desktop.
pub fn tag(response: &egui::Response, name: &str) {
    #[cfg(target_arch = "wasm32")]
    browser::tag(response, name);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (response, name);
}

/// A line outside checks read on every platform (`tabla say <lang> <text>`): standard error on
/// the desktop, the console in the browser.
pub fn say_line(line: &str) {
    #[cfg(target_arch = "wasm32")]
    tracing::info!("{line}");
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("{line}");
}

/// A line for the browser test to read (`tabla gate 12 7`, `tabla map …`); nothing on the desktop.
pub fn report(line: &str) {
    #[cfg(target_arch = "wasm32")]
    tracing::info!("{line}");
    #[cfg(not(target_arch = "wasm32"))]
    let _ = line;
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

    /// The page's inner size in CSS pixels.
    pub fn page_size() -> Option<(u32, u32)> {
        let window = web_sys::window()?;
        let width = window.inner_width().ok()?.as_f64()?;
        let height = window.inner_height().ok()?.as_f64()?;
        (width >= 1.0 && height >= 1.0).then_some((width as u32, height as u32))
    }

    /// Calls `window.<name>(text)` if the page defines it.
    pub fn call_page(name: &str, text: &str) {
        let Some(window) = web_sys::window() else { return };
        let Ok(function) = js_sys::Reflect::get(&window, &JsValue::from_str(name)) else { return };
        if let Some(function) = function.dyn_ref::<js_sys::Function>() {
            let _ = function.call1(&JsValue::NULL, &JsValue::from_str(text));
        }
    }

    /// The page's origin (`https://host:port`) and its address without options.
    pub fn page_address() -> Option<(String, String)> {
        let location = web_sys::window()?.location();
        let origin = location.origin().ok().filter(|o| o.starts_with("http"))?;
        let path = location.pathname().unwrap_or_default();
        Some((origin.clone(), format!("{origin}{path}")))
    }

    pub fn can_share() -> bool {
        web_sys::window().is_some_and(|w| {
            js_sys::Reflect::has(&w.navigator(), &JsValue::from_str("share")).unwrap_or(false)
        })
    }

    pub fn share(title: &str, link: &str) {
        let Some(window) = web_sys::window() else { return };
        let data = web_sys::ShareData::new();
        data.set_title(title);
        data.set_url(link);
        // The sheet answers later; a closed sheet is no error to tell.
        let _ = window.navigator().share_with_data(&data);
        info!("tabla share {link}");
    }

    /// `navigator.storage.persist()`, where the browser has it.
    pub fn persist_storage() {
        let Some(window) = web_sys::window() else { return };
        let navigator = window.navigator();
        let Ok(storage) = js_sys::Reflect::get(&navigator, &JsValue::from_str("storage")) else { return };
        let Ok(persist) = js_sys::Reflect::get(&storage, &JsValue::from_str("persist")) else { return };
        if let Some(persist) = persist.dyn_ref::<js_sys::Function>() {
            let _ = persist.call0(&storage);
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

    /// Every finger's touch as the app gets it (`tabla touch <phase> <id> x y`), for the browser
    /// test to tell a tap the app never got from one it got and did nothing with.
    pub fn report_touches(mut touches: bevy::prelude::MessageReader<bevy::input::touch::TouchInput>) {
        for touch in touches.read() {
            info!(
                "tabla touch {:?} {} {:.0} {:.0}",
                touch.phase, touch.id, touch.position.x, touch.position.y
            );
        }
    }

    /// A press or a release as egui sees it in its pass (`tabla press …`, `tabla release click|no-click …`).
    pub fn report_presses(mut contexts: bevy_egui::EguiContexts) {
        let Ok(ctx) = contexts.ctx_mut() else { return };
        let (pressed, released, click, at) = ctx.input(|i| {
            (
                i.pointer.any_pressed(),
                i.pointer.any_released(),
                i.pointer.any_click(),
                i.pointer.interact_pos(),
            )
        });
        let at = at.map_or("nowhere".to_string(), |at| format!("{:.0} {:.0}", at.x, at.y));
        if pressed {
            info!("tabla press {at} pass {}", ctx.cumulative_pass_nr());
        }
        if released {
            let click = if click { "click" } else { "no-click" };
            info!("tabla release {click} {at} pass {}", ctx.cumulative_pass_nr());
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

/// What is written when the page goes away: the page's `pagehide`, and `visibilitychange` to
/// hidden (a tablet's screen going off, the tab put away), which a closing browser may not follow
/// with anything else.
#[cfg(target_arch = "wasm32")]
mod keeping {
    use std::cell::RefCell;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    thread_local! {
        static PENDING: RefCell<Option<(String, String)>> = const { RefCell::new(None) };
    }

    pub fn keep(name: &str, text: String) {
        PENDING.with(|pending| *pending.borrow_mut() = Some((name.to_string(), text)));
    }

    pub fn forget() {
        PENDING.with(|pending| *pending.borrow_mut() = None);
    }

    fn write_pending() {
        // Another tab holds the data now: it writes, this one does not.
        if !super::super::holder::page_holds() {
            return;
        }
        let Some((name, text)) = PENDING.with(|pending| pending.borrow().clone()) else { return };
        let key = super::storage_key(&name);
        if let Some(storage) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
            let _ = storage.set_item(&key, &text);
        }
    }

    pub fn save_when_hidden() {
        let Some(window) = web_sys::window() else { return };
        let on_hide = Closure::<dyn Fn()>::new(write_pending);
        let _ = window.add_event_listener_with_callback("pagehide", on_hide.as_ref().unchecked_ref());
        on_hide.forget();
        let Some(document) = window.document() else { return };
        let on_change = Closure::<dyn Fn()>::new(|| {
            let hidden = web_sys::window()
                .and_then(|w| w.document())
                .is_some_and(|d| d.visibility_state() == web_sys::VisibilityState::Hidden);
            if hidden {
                write_pending();
            }
        });
        let _ =
            document.add_event_listener_with_callback("visibilitychange", on_change.as_ref().unchecked_ref());
        on_change.forget();
    }
}

/// The page's address as options: `?game=nard&players=robot` → `--game nard --players robot`;
/// a name alone (`?continue`) has an empty value.
#[cfg(target_arch = "wasm32")]
mod address {
    pub fn flags() -> Vec<(String, String)> {
        let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
        let decode = |text: &str| {
            js_sys::decode_uri_component(&text.replace('+', " "))
                .ok()
                .and_then(|decoded| decoded.as_string())
                .unwrap_or_else(|| text.to_string())
        };
        search
            .trim_start_matches('?')
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| {
                let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
                (decode(name), decode(value))
            })
            .collect()
    }
}

/// A record out as a download, and in from the file picker.
#[cfg(target_arch = "wasm32")]
mod files {
    use std::cell::RefCell;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};

    thread_local! {
        static PICKED: RefCell<Option<Result<String, String>>> = const { RefCell::new(None) };
    }

    pub fn download(file_name: &str, text: &str) -> Result<(), String> {
        let fail = |what: &str| format!("the file could not be offered: {what}");
        let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| fail("no page"))?;
        let parts = js_sys::Array::of1(&JsValue::from_str(text));
        let options = web_sys::BlobPropertyBag::new();
        options.set_type("text/plain");
        let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
            .map_err(|_| fail("no blob"))?;
        let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("no address"))?;
        let link: web_sys::HtmlAnchorElement =
            document.create_element("a").map_err(|_| fail("no link"))?.unchecked_into();
        link.set_href(&url);
        link.set_download(file_name);
        link.click();
        let _ = web_sys::Url::revoke_object_url(&url);
        Ok(())
    }

    pub fn pick() {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
        let Ok(input) = document.create_element("input") else { return };
        let input: web_sys::HtmlInputElement = input.unchecked_into();
        input.set_type("file");
        input.set_accept(".ron,text/plain");
        let chosen = input.clone();
        let on_change = Closure::<dyn Fn()>::new(move || {
            let Some(file) = chosen.files().and_then(|files| files.get(0)) else { return };
            let most = crate::record::MOST_BYTES as f64;
            if file.size() > most {
                let refused =
                    format!("{}: it is {} bytes long; at most {most} are read", file.name(), file.size());
                PICKED.with(|picked| *picked.borrow_mut() = Some(Err(refused)));
                crate::app::platform::wake::stir_window();
                return;
            }
            let read = file.text();
            wasm_bindgen_futures::spawn_local(async move {
                if let Ok(text) = wasm_bindgen_futures::JsFuture::from(read).await
                    && let Some(text) = text.as_string()
                {
                    PICKED.with(|picked| *picked.borrow_mut() = Some(Ok(text)));
                    crate::app::platform::wake::stir_window();
                }
            });
        });
        input.set_onchange(Some(on_change.as_ref().unchecked_ref()));
        on_change.forget();
        input.click();
    }

    pub fn picked() -> Option<Result<String, String>> {
        PICKED.with(|picked| picked.borrow_mut().take())
    }
}
