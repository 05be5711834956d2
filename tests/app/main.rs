//! Tabla's app without a window, every part in one test program: Bevy and the app are compiled
//! into one binary, not one per file (fourteen links of Bevy were some minutes of a fresh
//! build). Each module says what it tests; `common` is the headless app they share, `shared` what every test program shares.
#![cfg(feature = "app")]

mod common;
#[path = "../port/mod.rs"]
mod port;
#[path = "../shared/mod.rs"]
mod shared;

mod app;
mod colours_app;
mod far_app;
mod halma_app;
mod help_app;
mod hint_app;
mod keeping_app;
mod kit;
mod nard_app;
mod path_app;
mod replay_app;
mod speech_app;
mod storm;
mod tutor_app;
mod two_windows;
