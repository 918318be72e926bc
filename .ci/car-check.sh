#!/usr/bin/env bash
# The car bridge against the real car-engine 0.60: integration/car runs our #[tools] inside
# car's own Runtime (success, retries and the attempt our tool sees, terminal stop, built-in
# fall-through, timeout, expected effects, a cancelled stream in the handle registry), and
# hosts them for car-server-core 0.60's own daemon dispatcher over its WebSocket protocol
# (tests/daemon.rs, feature `car-ws`: registration, retries, terminal stop and halt, timeout
# with tools.cancel, state changes against expected effects).
#
# A manual step, not part of .ci/run: car-engine resolves to about 430 crates with native
# build scripts; measured times are in README.md ("The car bridge", "The car daemon host"). .ci/run covers the
# macro's expansion against car-engine's exact trait (executor-core/tests/car_bridge.rs) and
# this script checks that the trait copy there is still car-engine's text, and that the daemon
# protocol fixtures of executor-core/tests/car_host/ are still car-proto's and
# car-server-core's text (.ci/car-fixtures.sh).
#
# Installs what car's build scripts need from Debian packages (cmake and a C++ compiler for
# whisper.cpp, libclang for bindgen, pkg-config and libdbus-1-dev for dbus; for
# car-server-core also libasound2-dev for alsa and libssl-dev for openssl), skips candle's CUDA
# build (--cfg car_skip_cuda: no nvcc), keeps onnxruntime from being downloaded (ort's
# `load-dynamic` with ORT_LIB_LOCATION: no test runs a model), keeps car's state under the
# target directory (CAR_HOME), builds under target/car (CAR_TARGET_DIR overrides it). Bounded: CAR_CHECK_TIMEOUT seconds per cargo step (5400).
# `bash .ci/car-check.sh check` stops after `cargo check` (what .ci/run would run, should the
# cold check prove short enough on CI's machine).
set -euo pipefail
mode="${1:-all}"
case "$mode" in all | check) ;; *) echo "usage: $0 [check]" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)
step() { printf '\n=== %s (%ss)\n' "$*" "$(( $(date +%s) - start ))"; }
limit="${CAR_CHECK_TIMEOUT:-5400}"
manifest="$root/integration/car/Cargo.toml"

step "Debian packages"
packages=(cmake g++ libclang-dev pkg-config libdbus-1-dev libasound2-dev libssl-dev)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
        missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

export RUSTFLAGS="--cfg car_skip_cuda"
export CARGO_TARGET_DIR="${CAR_TARGET_DIR:-$root/target/car}"
export CARGO_TERM_COLOR=never

mkdir -p "$CARGO_TARGET_DIR" "$CARGO_TARGET_DIR/no-onnxruntime" "$CARGO_TARGET_DIR/car-home"
export ORT_LIB_LOCATION="$CARGO_TARGET_DIR/no-onnxruntime"
export CAR_HOME="$CARGO_TARGET_DIR/car-home"
step "fetch"
timeout "$limit" cargo fetch --manifest-path "$manifest"

step "the trait copy is car-engine's text"
engine=$(cargo metadata --format-version 1 --manifest-path "$manifest" |
    grep -o '"manifest_path":"[^"]*/car-engine-0\.60\.[0-9]*/Cargo.toml"' | head -n 1 |
    sed 's/^"manifest_path":"//; s/Cargo.toml"$//')
[ -n "$engine" ] || { echo "car-engine 0.60 not found in cargo metadata" >&2; exit 1; }
# From the trait's doc comment to the end of `impl ToolExecution`.
awk '/^\/\/\/ Trait for tool execution\./ { on = 1 }
     on { print }
     on && /^impl ToolExecution \{/ { body = 1 }
     body && /^\}$/ { exit }' "$engine/src/executor.rs" > "$CARGO_TARGET_DIR/car-trait.rs"
diff -u "$CARGO_TARGET_DIR/car-trait.rs" executor-core/tests/car_stand_in/executor.rs
signature='    pub async fn register_tool_schema(&self, schema: ToolSchema) {'
grep -qxF "$signature" "$engine/src/executor.rs"
grep -qxF "$signature" executor-core/tests/car_stand_in/mod.rs
echo "same text as $engine"

step "the daemon protocol fixtures are car-proto's and car-server-core's text"
crate_dir() {
    cargo metadata --format-version 1 --manifest-path "$manifest" |
        grep -o "\"manifest_path\":\"[^\"]*/$1-0\.60\.[0-9]*/Cargo.toml\"" | head -n 1 |
        sed 's/^"manifest_path":"//; s/\/Cargo.toml"$//'
}
proto=$(crate_dir car-proto)
server=$(crate_dir car-server-core)
[ -n "$proto" ] && [ -n "$server" ] || { echo "car-proto/car-server-core 0.60 not found" >&2; exit 1; }
bash .ci/car-fixtures.sh check "$proto" "$server"
echo "same text as $proto and $server"

step "cargo check (integration/car)"
timeout "$limit" cargo check --manifest-path "$manifest" --tests
[ "$mode" = check ] && { step "done (check only)"; exit 0; }

step "cargo test (integration/car, car's real Runtime)"
timeout "$limit" cargo test --manifest-path "$manifest"

step "done"
