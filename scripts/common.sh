# Shared by play.sh, test.sh and web.sh: the build folder and installing what is missing.

# The build lives outside the clone, so a fresh clone (as CI makes) reuses the last build.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/tabla-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

# Installs the Debian packages in "$@" that are not installed yet.
need_packages() {
    local missing=()
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
}

need_rust() {
    if ! command -v cargo >/dev/null 2>&1; then
        [ -f "$HOME/.cargo/env" ] && . "$HOME/.cargo/env"
    fi
    command -v cargo >/dev/null 2>&1 || {
        echo "Rust is needed: install it from https://rustup.rs and run this again." >&2
        exit 1
    }
}

# What building and running the window needs on Debian or Ubuntu (espeak-ng: Tabla's voice).
APP_PACKAGES=(pkg-config libasound2-dev libudev-dev libx11-dev libxkbcommon-x11-0 libxcursor1 libxrandr2 libxi6 libvulkan1 mesa-vulkan-drivers espeak-ng)

# Whether rustup has the wasm32 standard library (else web/build.sh builds it with Debian's rustc-web).
has_rustup_wasm() {
    command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown
}

# What web/build.sh needs: node and npm, gzip, and without rustup's wasm32 target Debian's rustc-web.
need_web_packages() {
    need_packages nodejs gzip
    command -v npm >/dev/null 2>&1 || need_packages npm
    has_rustup_wasm || need_packages rustc-web cargo-web rust-web-src rust-web-llvm lld-22
}

# Prints a stage's name with the minutes since the run began (TABLA_STARTED, set by the first
# script of the run), so every run shows where its time went; `stages_spent` then lists each
# stage's wall time and the CPU-seconds spent in it (the script's own and its children's, as they
# end), so a slow machine's figures compare with a fast one's.
export TABLA_STARTED="${TABLA_STARTED:-$(date +%s)}"
STAGE_NAME=""
STAGE_FROM=0
STAGE_CPU_FROM=0
STAGES_SPENT=()
# This shell's CPU time and its ended children's, in clock ticks (/proc/PID/stat's utime, stime,
# cutime and cstime), less a part run beside the stages (BESIDE_PID, a child that writes its own
# total to BESIDE_TICKS as it ends): its time counts once it has ended, in whichever stage it ends,
# so it is kept out of the stages and shown on a line of its own.
cpu_ticks() {
    local ticks
    ticks=$(all_cpu_ticks)
    if [ -n "${BESIDE_PID:-}" ] && [ -s "${BESIDE_TICKS:-}" ] && ! kill -0 "$BESIDE_PID" 2>/dev/null; then
        ticks=$(( ticks - $(cat "$BESIDE_TICKS") ))
    fi
    echo "$ticks"
}
all_cpu_ticks() {
    local stat
    read -r stat </proc/$$/stat
    set -- ${stat##*) }
    echo $(( ${12} + ${13} + ${14} + ${15} ))
}
stage_end() {
    [ -n "$STAGE_NAME" ] || return 0
    local wall=$(( $(date +%s) - STAGE_FROM )) ticks=$(( $(cpu_ticks) - STAGE_CPU_FROM ))
    local hz
    hz=$(getconf CLK_TCK)
    STAGES_SPENT+=("$(printf '%3d:%02d %8d  %s' $(( wall / 60 )) $(( wall % 60 )) $(( ticks / hz )) "$STAGE_NAME")")
    STAGE_NAME=""
}
stage() {
    stage_end
    local elapsed=$(( $(date +%s) - TABLA_STARTED ))
    printf '== [%d:%02d] %s\n' $(( elapsed / 60 )) $(( elapsed % 60 )) "$*"
    STAGE_NAME="$*"
    STAGE_FROM=$(date +%s)
    STAGE_CPU_FROM=$(cpu_ticks)
}
stages_spent() {
    stage_end
    echo "== where the time went ($(basename "$0")): wall, CPU-seconds, stage"
    printf '%s\n' "${STAGES_SPENT[@]}"
    local elapsed=$(( $(date +%s) - TABLA_STARTED )) hz
    hz=$(getconf CLK_TCK)
    if [ -n "${BESIDE_PID:-}" ] && [ -s "${BESIDE_TICKS:-}" ]; then
        printf '   beside %5d  %s\n' $(( $(cat "$BESIDE_TICKS") / hz )) "$BESIDE_NAME"
    fi
    printf '%3d:%02d %8d  %s\n' $(( elapsed / 60 )) $(( elapsed % 60 )) $(( $(all_cpu_ticks) / hz )) "in all"
}
# Writes this shell's CPU ticks (its own and its ended children's) to "$1", for the script that
# started it (as BESIDE_TICKS).
write_cpu_ticks() {
    all_cpu_ticks >"$1.tmp" && mv "$1.tmp" "$1"
}

# Lints Tabla's own code while it is built: clippy's driver compiles the workspace's crates (the
# dependencies are built as usual), so no separate `cargo clippy` run checks Bevy a second time.
lint_while_building() {
    if ! command -v clippy-driver >/dev/null 2>&1; then
        command -v rustup >/dev/null 2>&1 && rustup component add clippy >/dev/null 2>&1
    fi
    command -v clippy-driver >/dev/null 2>&1 || {
        echo "clippy is needed for the lints: rustup component add clippy" >&2
        exit 1
    }
    export RUSTC_WORKSPACE_WRAPPER
    RUSTC_WORKSPACE_WRAPPER=$(command -v clippy-driver)
    export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
}
