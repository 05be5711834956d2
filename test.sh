#!/usr/bin/env bash
# Every test of Tabla: the rules, the Robot, the level files, the text interface, the headless app
# tests, a rendered tour of every screen under Xvfb whose pictures are checked, and the browser
# build played by touch in headless Chromium (web/test.mjs). Tabla's own code is linted by clippy
# (warnings are errors) as it is built. Each stage prints the minutes since the start.
set -euo pipefail
cd "$(dirname "$0")"
. scripts/common.sh
stage "installing what is missing"
need_packages "${APP_PACKAGES[@]}" xvfb xauth chromium
need_web_packages
need_rust
lint_while_building

# The browser bundle builds in the background beside the native tests, at the same priority: its
# single-threaded link then overlaps the tour instead of waiting for it. Without wasm-opt here:
# on this bundle it saves 0.5% gzipped (13% raw) for some 11 minutes of one core, which CI
# cannot spare on every run; ./web.sh still runs it (its result is cached).
web_log="${TMPDIR:-/tmp}/tabla-web-build.$$.log"
stage "the browser build starts beside the native tests (its log: $web_log)"
env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS TABLA_WASM_OPT=none web/build.sh >"$web_log" 2>&1 &
web_build=$!
trap 'kill "$web_build" 2>/dev/null || true' EXIT

# The tests that need no window run once, without Bevy (which also proves the rules, the Robot,
# the levels and the text interface build without it); then the app's own tests with Bevy.
stage "the rules, the Robot, the levels, the text interface, the words (without Bevy)"
cargo test --release --no-default-features --all-targets
stage "the app without a window: whole games, the screen kit, a storm of input"
cargo test --profile ci --test app --test kit --test storm --test halma_app --test nard_app --test hint_app --test help_app --test keeping_app
cargo build --profile ci --bin tabla

stage "the rendered tour under Xvfb"
tour="$CARGO_TARGET_DIR/tour"
rm -rf "$tour"
mkdir -p "$tour"
TABLA_HOME="$tour/home" timeout 900 xvfb-run -a -s "-screen 0 1280x800x24" "$CARGO_TARGET_DIR/ci/tabla" --tour "$tour"
expected=$(grep -c 'Shot("' src/app/tour.rs)
found=$(ls "$tour"/*.png 2>/dev/null | wc -l)
if [ "$found" -lt "$expected" ]; then
    echo "the tour saved $found pictures of $expected" >&2
    exit 1
fi
echo "tour: $found pictures in $tour"

stage "the app in a window, killed at random moments and continued"
timeout 900 xvfb-run -a -s "-screen 0 1280x800x24" cargo test --profile ci --test continue_after_kill

stage "waiting for the browser build"
if ! wait "$web_build"; then
    cat "$web_log" >&2
    echo "the browser build failed" >&2
    exit 1
fi
trap - EXIT
grep -E '^(web size|web:|== web)' "$web_log" || true
stage "the browser build, played by touch in Chromium"
TABLA_BIN="$CARGO_TARGET_DIR/ci/tabla" timeout 1200 node web/test.mjs
stage "all tests passed"
