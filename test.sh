#!/usr/bin/env bash
# Every test of Tabla: the rules, the Robot, the level files, the text interface, the headless app
# tests, a rendered tour of every screen under Xvfb whose pictures are checked and whose layout is
# checked in four languages at three sizes (nothing cut, broken or covered), and the browser
# build played by touch in headless Chromium (web/test.mjs). Tabla's own code is linted by clippy
# (warnings are errors) as it is built. Each stage prints the minutes since the start; with
# TABLA_CARGO_TIMINGS set, each build also writes Cargo's --timings report (where a cold run's
# CPU goes, crate by crate).
set -euo pipefail
cd "$(dirname "$0")"
. scripts/common.sh

# Whatever happens, the run leaves nothing behind: everything it starts runs in a session of its
# own (`in_session`), every process of which is ended at exit, pass or fail (a browser, a server,
# an X server, Redis; `timeout` puts its command in a group of its own, but not in a session), and
# every temporary home the tests make is under one folder, removed then. Each stage's wall time
# and CPU-seconds are printed last.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/tabla-run.XXXXXX")
export TMPDIR="$run_tmp"
sessions=()
in_session() {
    setsid "$@" &
    sessions+=($!)
}
end_run() {
    local status=$?
    for session in "${sessions[@]}"; do
        pkill -KILL -s "$session" 2>/dev/null || true
    done
    if [ "$status" -ne 0 ] && [ -f "${browser_log:-}" ]; then
        echo "---- the browser side's log, its last lines" >&2
        tail -n 40 "$browser_log" >&2
    fi
    stages_spent
    rm -rf "$run_tmp"
    exit "$status"
}
trap end_run EXIT
# Stopped from outside (Ctrl-C, a CI's time-out), the run ends the same way.
trap 'exit 130' INT
trap 'exit 143' TERM

stage "installing what is missing"
need_packages "${APP_PACKAGES[@]}" xvfb xauth chromium redis-server caddy
need_web_packages
need_rust
lint_while_building
# A build folder with no build of the tests' profile yet (a fresh machine, as CI's): Tabla's own
# crates build without incremental state, which only a later build here would read and which
# makes a first build slower.
[ -d "$CARGO_TARGET_DIR/ci" ] || export CARGO_INCREMENTAL=0

# The browser side (scripts/browser_side.sh) runs in the background beside the native tests, at
# the same priority: the bundle builds while the native app does (its single-threaded link
# overlapping them), and the browser test plays it as soon as it is built, beside them. It needs
# only the text interface and the room server of the build without Bevy, built first.
browser_log="$run_tmp/browser-side.log"
text_bin="$run_tmp/tabla-text"
text_ready="$run_tmp/text-ready"
native_done="$run_tmp/native-done"
native_logs="$run_tmp/native"
mkdir -p "$native_logs"
stage "the browser side starts beside the native tests (its log: $browser_log)"
BESIDE_TICKS="$run_tmp/browser-side.ticks"
BESIDE_NAME="the browser side (its own stages are listed in its log, above)"
in_session scripts/browser_side.sh "$text_bin" "$text_ready" "$native_done" "$BESIDE_TICKS" >"$browser_log" 2>&1
browser_side=$!
BESIDE_PID=$browser_side

# The tests that need no window run once, without Bevy (which also proves the rules, the Robot,
# the levels and the text interface build without it); then the app's own tests with Bevy. Both
# in the `ci` profile, so the crates they share (the server's above all) are built once.
stage "the rules, the Robot, the levels, the text interface, the words (without Bevy)"
cargo test --profile ci --no-default-features --all-targets --no-run ${TABLA_CARGO_TIMINGS:+--timings}
# The browser test's copy of the text interface, kept apart (the app's build below writes the
# same path), ready before these tests run.
cp "$CARGO_TARGET_DIR/ci/tabla" "$text_bin"
touch "$text_ready"
cargo test --profile ci --no-default-features --all-targets
stage "the app with Bevy: the window's program and its two test programs"
# An integration test's build builds the window's program (`tabla`) too.
cargo test --profile ci --features tour --no-run --test app --test continue_after_kill ${TABLA_CARGO_TIMINGS:+--timings} 2>&1 | tee "$native_logs/build.log"
test_program() { sed -n "s|^ *Executable tests/$1 (\(.*\))\$|\1|p" "$native_logs/build.log"; }
app_tests=$(test_program app/main.rs)
kill_test=$(test_program continue_after_kill.rs)
if [ ! -x "$app_tests" ] || [ ! -x "$kill_test" ]; then
    echo "cargo named no test program for tests/app or tests/continue_after_kill" >&2
    exit 1
fi
# Starts "$@" in the background in a session of the run's, for at most $1 seconds, in an X server
# of its own numbered from $2 up, so that two start side by side.
in_xvfb() {
    local seconds=$1 from=$2
    shift 2
    in_session timeout "$seconds" xvfb-run -a -n "$from" -s "-screen 0 1280x800x24" "$@"
}

# The three parts that need the app share no file, display or port (the tests' servers take free
# ports), so they run side by side: alone, none of them keeps both cores busy. Each one's output
# is shown whole once all three are over.
stage "side by side: the app without a window, the rendered tour under Xvfb, the app in a window killed at random moments and continued"
tour="$CARGO_TARGET_DIR/tour"
rm -rf "$tour"
mkdir -p "$tour"
# Whole games, the screen kit, a storm of input.
in_session "$app_tests" >"$native_logs/app.log" 2>&1
app_run=$!
# The tour speaks through espeak-ng as a player's window does: its 'tabla say' lines are kept.
in_xvfb 1500 90 "$CARGO_TARGET_DIR/ci/tabla" --tour "$tour" >"$tour/stderr.log" 2>&1
tour_run=$!
in_xvfb 900 110 "$kill_test" >"$native_logs/kill.log" 2>&1
kill_run=$!
failed=()
wait "$app_run" || failed+=("the app without a window")
wait "$tour_run" || failed+=("the rendered tour")
wait "$kill_run" || failed+=("the app killed and continued")
for log in "$native_logs/app.log" "$tour/stderr.log" "$native_logs/kill.log"; do
    echo "---- $log"
    cat "$log"
done
if [ ${#failed[@]} -gt 0 ]; then
    printf 'failed: %s\n' "${failed[@]}" >&2
    exit 1
fi
expected=$(grep -c 'Shot("' src/app/tour.rs)
found=$(ls "$tour"/*.png 2>/dev/null | wc -l)
if [ "$found" -lt "$expected" ]; then
    echo "the tour saved $found pictures of $expected" >&2
    exit 1
fi
echo "tour: $found pictures in $tour"
said=$(grep -c '^tabla say ' "$tour/stderr.log" || true)
if [ "$said" -lt 10 ]; then
    echo "the tour said $said things aloud (tabla say lines in $tour/stderr.log)" >&2
    exit 1
fi
echo "tour: $said things said aloud, the first: $(grep -m 3 '^tabla say ' "$tour/stderr.log" | tr '\n' '|')"
touch "$native_done"

stage "waiting for the browser side"
if ! wait "$browser_side"; then
    cat "$browser_log" >&2
    echo "the browser side failed" >&2
    exit 1
fi
grep -E '^(== \[|web size|web:|== web|ok -|not ok|web test)' "$browser_log" || true
sed -n '/^== where the time went/,$p' "$browser_log"
stage "all tests passed"
