//! Tabla builds nothing before its code. The script is here for its build-dependency in
//! Cargo.toml: syn with the features Bevy's proc-macros turn on, so that the build without Bevy and
//! the app's build (test.sh makes both) resolve the same syn and share every crate built on it.
fn main() {
    println!("cargo::rerun-if-changed=build.rs");
}
