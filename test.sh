#!/usr/bin/env bash
# Every test of Tabla: the rules, the Robot, the level files, the text interface, the headless app
# tests, a rendered tour of every screen under Xvfb whose pictures are checked, and the browser
# build played by touch in headless Chromium (web/test.mjs).
set -euo pipefail
cd "$(dirname "$0")"
. scripts/common.sh
need_packages "${APP_PACKAGES[@]}" xvfb xauth chromium
need_web_packages
need_rust

# The tests that need no window run once, without Bevy (which also proves the rules, the Robot,
# the levels and the text interface build without it); then the app's own tests with Bevy.
echo "== the rules, the Robot, the levels, the text interface, the words (without Bevy)"
cargo test --release --no-default-features --all-targets
echo "== the app without a window: whole games, the screen kit, a storm of input"
cargo test --release --test app --test kit --test storm --test halma_app --test nard_app --test hint_app --test help_app
cargo build --release --bin tabla

echo "== the rendered tour under Xvfb"
tour="$CARGO_TARGET_DIR/tour"
rm -rf "$tour"
mkdir -p "$tour"
export TABLA_HOME="$tour/home"
timeout 600 xvfb-run -a -s "-screen 0 1280x800x24" "$CARGO_TARGET_DIR/release/tabla" --tour "$tour"
expected=$(grep -c 'Shot("' src/app/tour.rs)
found=$(ls "$tour"/*.png 2>/dev/null | wc -l)
if [ "$found" -lt "$expected" ]; then
    echo "the tour saved $found pictures of $expected" >&2
    exit 1
fi
echo "tour: $found pictures in $tour"

echo "== the browser build, played by touch in Chromium"
# Without wasm-opt here: on this bundle it saves 0.5% gzipped (13% raw) for some 11 minutes of one
# core, which CI cannot spare on every run; ./web.sh still runs it (its result is cached).
TABLA_WASM_OPT=none web/build.sh
timeout 900 node web/test.mjs
echo "== all tests passed"
