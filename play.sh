#!/usr/bin/env bash
# Play Tabla: installs what is missing, builds, and opens the game window.
# Any options go to the game, for example: ./play.sh --game knight_hunt --variant two_knights
set -euo pipefail
cd "$(dirname "$0")"
. scripts/common.sh
need_packages "${APP_PACKAGES[@]}"
need_rust
cargo build --release --bin tabla
exec "$CARGO_TARGET_DIR/release/tabla" "$@"
