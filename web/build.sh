#!/usr/bin/env bash
# Builds Tabla for the browser into web/dist/: index.html, tabla.js, tabla_bg.wasm, the icon, the
# manifest and the service worker that keeps them for playing offline (the pictures, sounds and
# fonts are inside the wasm). Installs what is missing.
#
# The wasm32 standard library: rustup's wasm32-unknown-unknown target when it is installed;
# otherwise (rustup cannot download it on every machine) Debian's rustc-web, which builds std
# from source with -Zbuild-std. The build folder is $TABLA_WASM_TARGET_DIR, by default
# ~/.cache/tabla-wasm-target, outside the clone like the native one. The tools (wasm-bindgen at
# Cargo.lock's version, the wasm-opt cache) live in ~/.cache/tabla-web-tools.
#
# Knobs for measuring: TABLA_WEB_PROFILE (a Cargo profile, default "web"), TABLA_WASM_OPT
# (wasm-opt's level, default "-Oz"; "none" skips it), TABLA_CARGO_TIMINGS (any value: Cargo's
# --timings report of the build, under the build folder's cargo-timings/).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

wasm_target_dir="${TABLA_WASM_TARGET_DIR:-$HOME/.cache/tabla-wasm-target}"
tools="${TABLA_WEB_TOOLS:-$HOME/.cache/tabla-web-tools}"
profile="${TABLA_WEB_PROFILE:-web}"
wasm_opt_level="${TABLA_WASM_OPT:--Oz}"
dist=web/dist
started=$SECONDS
# The most the whole bundle may weigh gzipped: a child on a slow network waits for all of it.
# 3.48 MB now (README says what it holds); the gate is that and 50 kB, so the next screen that
# needs more says so here first.
GATE_BYTES=3526000

step() { echo "== web: $*"; }
# What the page fetches only when it is wanted goes beside it last, so it never weighs on the
# first download, which the gate counts: voice packs (assets/voice/<lang>/, where a family or a
# translator recorded one), fetched when their language is chosen, and the animals of a room's
# code, fetched when a room is played (a room needs the network anyway).
copy_fetched_later() {
    if [ -d assets/voice ]; then cp -r assets/voice "$dist/voice"; fi
    mkdir -p "$dist/pictures"
    cp assets/images/room_animals.png "$dist/pictures/"
}
took() { echo "   ($(( SECONDS - $1 )) s)"; }
gz() { gzip -9 -c "$1" | wc -c; }
mb() { awk -v b="$1" 'BEGIN { printf "%.2f MB", b / 1e6 }'; }

need_web_packages
need_rust

# wasm-bindgen's command line must be the very version of the wasm-bindgen crate in Cargo.lock.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
bindgen="$tools/bin/wasm-bindgen"

# wasm-opt comes from npm's binaryen (Debian's binaryen 108 breaks Bevy's bundle), with the
# browser test's playwright-core.
if ! (cd web && npm ls --silent >/dev/null 2>&1); then
    step "installing web/node_modules (npm ci)"
    (cd web && npm ci --no-audit --no-fund --loglevel=error)
fi

# A bundle built before from the very same sources is taken as it is: a fresh clone (as CI makes)
# would otherwise rebuild the crate and link it again for some ten minutes.
inputs=$( (git ls-files -z -- src assets i18n ron_configs web/index.html web/sw.js web/manifest.webmanifest \
        web/icons web/patches Cargo.toml Cargo.lock web/build.sh | xargs -0 sha256sum; echo "$profile $wasm_opt_level") |
    sha256sum | cut -c1-24)
bundles="$wasm_target_dir/bundles"
if [ -f "$bundles/$inputs/summary" ]; then
    step "the sources are those of a bundle built before: taking $bundles/$inputs"
    rm -rf "$dist"
    mkdir -p "$dist"
    cp "$bundles/$inputs"/dist/* "$dist/"
    copy_fetched_later
    cat "$bundles/$inputs/summary"
    exit 0
fi

# The compiler for wasm32. Both paths build for wasm's 128-bit SIMD (Chrome and Firefox have it
# since 2021, Safari since 16.4; the page says where it is missing): egui draws its letters
# through vello_cpu, whose scalar stand-in for SIMD weighed 0.17 MB gzipped more.
simd=-Ctarget-feature=+simd128
build_std=()
if has_rustup_wasm; then
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$simd"
    # RUSTC_BOOTSTRAP for -Zlockfile-path (the patched crates' lock file, below).
    cargo=(env RUSTC_BOOTSTRAP=1 cargo)
    toolchain="rustup's $(rustc --version)"
else
    cargo=(env PATH="/usr/bin:$PATH" RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 /usr/bin/cargo)
    build_std=(-Zbuild-std=std,panic_abort -Zbuild-std-features=optimize_for_size)
    # Size levers that need the unstable compiler switches this path has anyway: no file names
    # and lines kept for panics, Debug output reduced to type names (not none: the log's messages
    # are written through Debug, and the browser test reads them), panics that stop at once
    # (the page shows its message when the module traps).
    export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Zlocation-detail=none -Zfmt-debug=shallow -Zunstable-options -Cpanic=immediate-abort $simd"
    toolchain="Debian's $(/usr/bin/rustc --version) with -Zbuild-std"
fi

# Bevy crates trimmed for the browser (web/patches/<crate>-<version>.diff, each saying why): plugins
# and readers a 2D game never runs, but whose code a plugin's build reaches, so that the linker
# cannot leave it out. Each is a copy of the registry's source with its diff applied, made once per
# diff (a fresh copy would make Cargo build every crate above it again); the lock file Cargo
# rewrites for them is a copy too, so the clone's Cargo.lock stays as it is. (Cargo warns that the
# patches are not used: it means the standard library's graph, which -Zbuild-std resolves apart.)
patched="$wasm_target_dir/patched"
patch_args=(-Zlockfile-path --config "resolver.lockfile-path=\"$patched/Cargo.lock\"")
mkdir -p "$patched"
cp Cargo.lock "$patched/Cargo.lock"
for diff in web/patches/*.diff; do
    crate=$(basename "$diff" .diff)
    copy="$patched/$crate"
    want=$(sha256sum "$diff" | cut -c1-64)
    if [ "$(cat "$copy.applied" 2>/dev/null)" != "$want" ]; then
        # On a fresh machine the registry holds no sources yet: Cargo fetches them first.
        registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
        source=$( (ls -d "$registry"/*/"$crate" 2>/dev/null || true) | head -n 1)
        if [ -z "$source" ]; then
            "${cargo[@]}" fetch --quiet
            source=$( (ls -d "$registry"/*/"$crate" 2>/dev/null || true) | head -n 1)
            [ -n "$source" ] || { echo "web: $crate is not in $registry after cargo fetch" >&2; exit 1; }
        fi
        rm -rf "$copy" "$copy.applied"
        cp -r "$source" "$copy"
        (cd "$copy" && git apply -p1 "$OLDPWD/$diff")
        echo "$want" >"$copy.applied"
    fi
    patch_args+=(--config "patch.crates-io.${crate%-*}.path=\"$copy\"")
done

# Installed beside the build on a fresh machine, as it is needed only once the module is built.
bindgen_install=""
if [ "$("$bindgen" --version 2>/dev/null | awk '{ print $2 }')" != "$bindgen_version" ]; then
    step "installing wasm-bindgen-cli $bindgen_version beside the build (a few minutes, once)"
    (
        t=$SECONDS
        # Without --locked: the CLI's own lock file pins crates the registry may no longer serve.
        # Only the wasm-bindgen program, without the test runner's TLS (ureq with rustls) and
        # unoptimised: 90 CPU-seconds to build, not 196 at opt-level 1 (the whole CLI took 18
        # minutes beside the native build), and the very same output in 8 seconds, not 3.
        env -u CARGO_TARGET_DIR CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
            CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_LTO=false \
            cargo install --quiet --force wasm-bindgen-cli --version "$bindgen_version" --root "$tools" \
            --no-default-features --bin wasm-bindgen
        step "wasm-bindgen-cli installed ($(( SECONDS - t )) s)"
    ) &
    bindgen_install=$!
fi

step "building wasm32 with $toolchain, profile $profile"
t=$SECONDS
# RUSTFLAGS from the environment would make every crate build again: leave them out.
# BEVY_REFLECT_AUTO_REGISTER_STATIC would bring back reflection's auto-registration (Cargo.toml).
env -u RUSTFLAGS -u CARGO_BUILD_RUSTFLAGS -u BEVY_REFLECT_AUTO_REGISTER_STATIC CARGO_TARGET_DIR="$wasm_target_dir" \
    "${cargo[@]}" build --profile "$profile" --target wasm32-unknown-unknown "${build_std[@]}" "${patch_args[@]}" --bin tabla ${TABLA_CARGO_TIMINGS:+--timings}
build_seconds=$(( SECONDS - t ))
took $t
wasm="$wasm_target_dir/wasm32-unknown-unknown/$profile/tabla.wasm"

if [ -n "$bindgen_install" ] && ! wait "$bindgen_install"; then
    echo "web: installing wasm-bindgen-cli $bindgen_version failed" >&2
    exit 1
fi
step "wasm-bindgen"
t=$SECONDS
stage="$wasm_target_dir/web-stage"
rm -rf "$stage"
mkdir -p "$stage"
"$bindgen" --target web --no-typescript --remove-name-section --out-dir "$stage" --out-name tabla "$wasm"
took $t
bound="$stage/tabla_bg.wasm"

final="$bound"
if [ "$wasm_opt_level" != "none" ]; then
    # wasm-opt is slow on a module this size: its result is kept by the hash of what went in.
    wasm_opt="web/node_modules/.bin/wasm-opt"
    flags=("$wasm_opt_level" --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext
        --enable-mutable-globals --enable-reference-types --enable-multivalue --enable-simd)
    key=$( (sha256sum "$bound" | cut -c1-64; "$wasm_opt" --version; echo "${flags[*]}") | sha256sum | cut -c1-24)
    cached="$tools/wasm-opt-cache/$key.wasm"
    if [ -f "$cached" ]; then
        step "wasm-opt ${flags[0]}: unchanged input, result taken from $cached"
    else
        step "wasm-opt ${flags[*]} (minutes)"
        t=$SECONDS
        mkdir -p "$tools/wasm-opt-cache"
        "$wasm_opt" "${flags[@]}" "$bound" -o "$cached.tmp"
        mv "$cached.tmp" "$cached"
        # Keep the few latest results only.
        ls -t "$tools"/wasm-opt-cache/*.wasm | tail -n +4 | xargs -r rm -f
        took $t
    fi
    final="$cached"
fi

step "writing $dist"
rm -rf "$dist"
mkdir -p "$dist"
cp "$final" "$dist/tabla_bg.wasm"
cp "$stage/tabla.js" "$dist/tabla.js"
cp assets/images/white_knight.png "$dist/icon.png"
cp web/manifest.webmanifest web/icons/*.png "$dist/"
wasm_bytes=$(wc -c <"$dist/tabla_bg.wasm")
# The version names the service worker's cache: it changes with any file the worker keeps.
icons=$(cd web/icons && ls *.png)
version=$( (cd "$dist" && sha256sum tabla_bg.wasm tabla.js icon.png manifest.webmanifest $icons) |
    cat - web/index.html | sha256sum | cut -c1-12)
voice_packs=$( (ls assets/voice 2>/dev/null || true) | tr '\n' ' ')
sed -e "s/@VERSION@/$version/" -e "s/@WASM_BYTES@/$wasm_bytes/" -e "s/@VOICE_PACKS@/$voice_packs/" web/index.html \
    >"$dist/index.html"
# Each file the service worker keeps, with its SHA-256: it keeps a build only when all came whole.
kept_file() { printf '["%s", "%s"]' "$1" "$(sha256sum "$2" | cut -c1-64)"; }
kept_files="[$(kept_file ./ "$dist/index.html"), $(kept_file ./index.html "$dist/index.html"), \
$(kept_file "./tabla.js?v=$version" "$dist/tabla.js"), $(kept_file "./tabla_bg.wasm?v=$version" "$dist/tabla_bg.wasm"), \
$(kept_file ./icon.png "$dist/icon.png"), $(kept_file ./manifest.webmanifest "$dist/manifest.webmanifest")\
$(for icon in $icons; do printf ', '; kept_file "./$icon" "$dist/$icon"; done)]"
sed -e "s/@VERSION@/$version/" -e "s|@FILES@|$kept_files|" web/sw.js >"$dist/sw.js"

raw_rust=$(wc -c <"$wasm")
raw_bound=$(wc -c <"$bound")
gz_bound=$(gz "$bound")
gz_wasm=$(gz "$dist/tabla_bg.wasm")
bundle_raw=0
bundle_gz=0
for file in "$dist"/*; do
    bundle_raw=$(( bundle_raw + $(wc -c <"$file") ))
    bundle_gz=$(( bundle_gz + $(gz "$file") ))
done
summary="profile=$profile wasm-opt=$wasm_opt_level rustc=$(mb "$raw_rust") bindgen=$(mb "$raw_bound")/gz $(mb "$gz_bound") final=$(mb "$wasm_bytes")/gz $(mb "$gz_wasm") bundle=$(mb "$bundle_raw")/gz $(mb "$bundle_gz") cargo=${build_seconds}s total=$(( SECONDS - started ))s"
sizes_log="$wasm_target_dir/web-sizes.log"
previous=$(tail -n 1 "$sizes_log" 2>/dev/null || true)
echo "$(date -u +%FT%TZ) $summary" >>"$sizes_log"
report="web size: tabla_bg.wasm $(mb "$wasm_bytes") raw, $(mb "$gz_wasm") gzipped
web size: whole bundle $(mb "$bundle_raw") raw, $(mb "$bundle_gz") gzipped (gate: at most $(mb "$GATE_BYTES") gzipped)
web: $summary"
echo "$report"
# The gate: a download over it fails the build, saying what grew against the last build.
if [ "$bundle_gz" -gt "$GATE_BYTES" ]; then
    echo "web: the bundle is $(mb "$bundle_gz") gzipped, over the gate of $(mb "$GATE_BYTES"). What it holds:" >&2
    for file in "$dist"/*; do
        printf '   %-22s %10d bytes, %10d gzipped\n' "$(basename "$file")" "$(wc -c <"$file")" "$(gz "$file")" >&2
    done
    echo "   the build before: ${previous:-none recorded}" >&2
    echo "   this build:       $summary" >&2
    exit 1
fi
# Keep this bundle for the next build of the same sources, and the last few only.
mkdir -p "$bundles/$inputs/dist"
cp "$dist"/* "$bundles/$inputs/dist/"
echo "$report" >"$bundles/$inputs/summary"
ls -td "$bundles"/*/ 2>/dev/null | tail -n +4 | xargs -r rm -rf
copy_fetched_later
