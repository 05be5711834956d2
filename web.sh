#!/usr/bin/env bash
# Tabla in the browser: builds web/dist (WebAssembly) and serves it on http://127.0.0.1:8080/
# (another port: ./web.sh 9000). `./web.sh build` only builds. Installs what is missing.
set -euo pipefail
cd "$(dirname "$0")"
web/build.sh
[ "${1:-}" = "build" ] && exit 0
exec node web/serve.mjs "${1:-${PORT:-8080}}"
