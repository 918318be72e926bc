#!/usr/bin/env bash
# Provider definitions checked by the providers' own Python SDKs (no network beyond pip):
#
#   - google-genai: every Gemini definition (`parameters` and `parametersJsonSchema`) validates
#     as `types.Tool`, whose pydantic models forbid unknown fields;
#   - anthropic: every strict Anthropic tool is a fixed point of the SDK's `transform_schema`
#     (up to descriptions, redundant `type`s and what the API keeps beyond the SDK).
#
# The definitions are the quickstart and demo sets (examples/tool_definitions) and the corpus of
# hard types (executor-core/tests/provider_dialects.rs). The venv lives in target/venv-provider.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
venv="$root/target/venv-provider"
python="$venv/bin/python"
# Pinned so a new SDK release cannot turn CI red overnight; bump deliberately.
requirements=("google-genai==3.6.1" "anthropic==2.14.0")

if ! "$python" -c 'import google.genai, anthropic' 2>/dev/null; then
    echo "provider-peer: creating $venv"
    python3 -m venv "$venv"
    timeout 600 "$python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
fi

out="$root/target/provider-defs"
rm -rf "$out"
mkdir -p "$out"
cargo build --quiet -p examples --example tool_definitions --all-features
bin="$root/target/debug/examples/tool_definitions"
for provider in gemini gemini-json-schema anthropic-strict; do
    for set in quickstart demo; do
        "$bin" "$provider" --set "$set" > "$out/${set}_${provider}.json" 2>/dev/null
    done
done
EXECUTOR_PROVIDER_DEFS="$out" cargo test --quiet -p tool-executor --all-features --test provider_dialects \
    definitions_report_losses_per_tool_and_pass_every_provider_rule
timeout 120 "$python" "$root/executor-core/tests/peers/providers/check.py" "$out"
