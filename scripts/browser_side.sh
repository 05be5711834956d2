#!/usr/bin/env bash
# test.sh's browser side, run in the background beside the native tests: builds the bundle (as
# `./web.sh build` does, without wasm-opt: on this bundle it saves 0.5% gzipped for some 11
# minutes of one core, which CI cannot spare on every run), then, once the text interface is built
# too (the browser test compares a seeded game with its `tabla text`, and holds rooms in its
# `tabla serve`), plays the bundle by touch in headless Chromium (web/test.mjs): its two parts side
# by side (most of each is waiting on a page; 10 minutes one after the other), then a first visit
# alone.
# Arguments: the binary with the text interface and the server (the build without Bevy does), the
# file that appears once it is built, and the file that appears once the native tests are over
# (the test then measures a first visit undisturbed), and the file its CPU time is written to as it
# ends, pass or fail (test.sh shows it apart from its own stages).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
bin=$1
text_ready=$2
native_done=$3
trap 'write_cpu_ticks "$4"' EXIT

stage "the browser build"
env -u RUSTC_WORKSPACE_WRAPPER -u CLIPPY_ARGS TABLA_WASM_OPT=none web/build.sh
stage "the browser build is done; the browser test waits for the text interface"
while [ ! -e "$text_ready" ]; do sleep 2; done
stage "the browser build, played by touch in Chromium: its two parts side by side"
web_test() { TABLA_BIN="$bin" TABLA_QUIET_WHEN="$native_done" timeout 1800 env "$@" node web/test.mjs; }
web_test TABLA_WEB_PART=one &
part_one=$!
part_two_status=0
web_test TABLA_WEB_PART=two || part_two_status=$?
part_one_status=0
wait "$part_one" || part_one_status=$?
if [ "$part_one_status" -ne 0 ] || [ "$part_two_status" -ne 0 ]; then
    echo "the browser test failed (its parts one and two: $part_one_status, $part_two_status)" >&2
    exit 1
fi
stage "the browser test's first visit, alone once the native tests are over"
web_test TABLA_WEB_ONLY=first
stage "the browser side passed"
stages_spent
