#!/usr/bin/env bash
# How much a still Tabla costs: the desktop window under Xvfb and the web build in headless
# Chromium, each left alone for 20 s on its first screen and in a Knight Hunt game against the
# Robot once the Robot's move is played (no clock). Prints `rest.<what> value` lines: the share of
# one core spent (CPU-seconds per second, from /proc: the window's process; every process of the
# browser) and, in the browser, the frames the page asked for meanwhile.
# Usage: scripts/rest.sh [desktop|browser]   (both by default)
# It uses what ./test.sh built: the window's program (`ci` profile) and web/dist.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
need_packages xvfb xauth chromium
seconds=${TABLA_REST_SECONDS:-20}
which=${1:-both}
bin="$CARGO_TARGET_DIR/ci/tabla"

work=$(mktemp -d "${TMPDIR:-/tmp}/tabla-rest.XXXXXX")
sessions=()
end() {
    for session in "${sessions[@]}"; do pkill -KILL -s "$session" 2>/dev/null || true; done
    rm -rf "$work"
}
trap end EXIT

# CPU ticks (user + system) of a process.
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }

# Starts the window with "$@" in a fresh home, waits for a line matching $1 in its log, lets it
# settle 3 s, and prints the share of a core it spent over the next $seconds.
desktop() {
    local name=$1 wait_for=$2
    shift 2
    local home="$work/$name"
    mkdir -p "$home"
    TABLA_HOME="$home" setsid xvfb-run -a -s "-screen 0 1280x800x24" "$bin" "$@" >"$home/log" 2>&1 &
    local runner=$! pid="" tries=0
    sessions+=("$runner")
    until grep -q "$wait_for" "$home/log" 2>/dev/null; do
        tries=$((tries + 1))
        if [ "$tries" -gt 2400 ] || ! kill -0 "$runner" 2>/dev/null; then
            echo "the window never logged '$wait_for':" >&2
            tail -n 20 "$home/log" >&2
            return 1
        fi
        sleep 0.1
    done
    pid=$(pgrep -P "$runner" -x tabla | head -n 1)
    sleep 3
    local before after
    before=$(ticks "$pid")
    sleep "$seconds"
    after=$(ticks "$pid")
    echo "rest.desktop_${name}_cores $(awk -v t=$((after - before)) -v s="$seconds" 'BEGIN { printf "%.3f", t / 100 / s }')"
    { pkill -KILL -s "$runner" || true; wait "$runner" || true; } 2>/dev/null
}

if [ "$which" != browser ]; then
    [ -x "$bin" ] || { echo "no window's program at $bin: run ./test.sh first" >&2; exit 1; }
    desktop first_screen "tabla say "
    desktop knight_hunt "tabla move knight_hunt white robot" --game knight_hunt --color black
fi
if [ "$which" != desktop ]; then
    [ -f web/dist/index.html ] || { echo "no web build in web/dist: run ./test.sh or ./web.sh build first" >&2; exit 1; }
    TABLA_REST_SECONDS="$seconds" node web/rest.mjs
fi
