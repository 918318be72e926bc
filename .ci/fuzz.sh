#!/usr/bin/env bash
# Fuzzing, bounded: every cargo-fuzz target in fuzz/ runs for FUZZ_SECONDS (45 by default:
# four targets, about three minutes of fuzzing in CI, plus one build of all targets);
# a crash, a panic or a hang (10 s per input) fails the step and leaves the input under
# target/fuzz-artifacts/. Installs what it needs itself: the nightly toolchain when missing
# (minimal profile) and cargo-fuzz under target/tools. Corpora live under target/ too.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds="${FUZZ_SECONDS:-45}"
tools="$root/target/tools"

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal
fi
if [ ! -x "$tools/bin/cargo-fuzz" ]; then
    # Pinned so a new release cannot turn CI red overnight; bump deliberately.
    CARGO_TARGET_DIR="$root/target/tools-build" \
        cargo +nightly install --locked cargo-fuzz --version 0.13.2 --root "$tools"
fi
export PATH="$tools/bin:$PATH"

cd fuzz
# One build of every target (they share the instrumented dependencies), then one run each.
cargo +nightly fuzz build --target-dir "$root/target/fuzz"
for target in $(cargo +nightly fuzz list); do
    corpus="$root/target/fuzz-corpus/$target"
    artifacts="$root/target/fuzz-artifacts/$target"
    mkdir -p "$corpus" "$artifacts"
    echo "fuzz: $target for ${seconds}s"
    # New inputs go to the corpus under target/; seeds/ is read, never written.
    seeds=()
    [ -d "seeds/$target" ] && seeds=("seeds/$target")
    cargo +nightly fuzz run --target-dir "$root/target/fuzz" "$target" \
        "$corpus" "${seeds[@]}" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts/" -print_final_stats=1
done
