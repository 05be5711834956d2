//! Tabla: five board games for children. The rules, the Robot, the level files, the game records,
//! the text interface and the benchmark are plain Rust; everything Bevy lives under `app` (the
//! default `app` feature).

pub mod bench;
pub mod chance;
pub mod demo;
pub mod history;
pub mod i18n;
pub mod levels;
pub mod net;
pub mod palette;
pub mod progress;
pub mod quote;
pub mod record;
pub mod robot;
pub mod rules;
#[cfg(not(target_arch = "wasm32"))]
pub mod serve;
pub mod text;

#[cfg(feature = "app")]
pub mod app;
