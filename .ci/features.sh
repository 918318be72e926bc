#!/usr/bin/env bash
# Clippy on `tool-executor` with no features and with each feature alone (CI also runs the
# workspace with default and with all features): a cfg mistake that only one combination
# shows fails here. Every run shares the one target dir; features change few dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
features=$(python3 - <<'PY'
import tomllib
with open("executor-core/Cargo.toml", "rb") as f:
    print(" ".join(k for k in tomllib.load(f)["features"] if k != "default"))
PY
)
for feature in "" $features; do
    echo "--- clippy -p tool-executor --features '${feature}'"
    cargo clippy --quiet -p tool-executor --all-targets --no-default-features --features "$feature" -- -D warnings
done
