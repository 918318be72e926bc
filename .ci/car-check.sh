#!/usr/bin/env bash
# The car bridge against the real car-engine 0.60: integration/car runs our #[tools] inside
# car's own Runtime (success, retries and the attempt our tool sees, terminal stop, built-in
# fall-through, timeout, expected effects, a cancelled stream in the handle registry).
#
# A manual step, not part of .ci/run: car-engine resolves to about 440 crates with native
# build scripts; measured times are in README.md ("The car bridge"). .ci/run covers the
# macro's expansion against car-engine's exact trait (executor-core/tests/car_bridge.rs) and
# this script checks that the trait copy there is still car-engine's text.
#
# Installs what car-engine's build scripts need from Debian packages (cmake and a C++
# compiler for whisper.cpp, libclang for bindgen, pkg-config and libdbus-1-dev for dbus),
# skips candle's CUDA build (--cfg car_skip_cuda: no nvcc), builds under target/car
# (CAR_TARGET_DIR overrides it). Bounded: CAR_CHECK_TIMEOUT seconds per cargo step (5400).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)
step() { printf '\n=== %s (%ss)\n' "$*" "$(( $(date +%s) - start ))"; }
limit="${CAR_CHECK_TIMEOUT:-5400}"
manifest="$root/integration/car/Cargo.toml"

step "Debian packages"
packages=(cmake g++ libclang-dev pkg-config libdbus-1-dev)
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

mkdir -p "$CARGO_TARGET_DIR"
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

step "cargo check (integration/car)"
timeout "$limit" cargo check --manifest-path "$manifest" --tests

step "cargo test (integration/car, car's real Runtime)"
timeout "$limit" cargo test --manifest-path "$manifest"

step "done"
