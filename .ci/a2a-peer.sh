#!/usr/bin/env bash
# The official A2A Python SDK (a2a-sdk from PyPI) against examples/a2a_agent over loopback:
# it fetches each agent's card, sends, streams, gets, and cancels a slow task (and a streamed
# one), and runs tools through the tool-set agent. Fails loudly on any mismatch; the agents
# are killed on exit whatever happens.
#
# Usage: bash .ci/a2a-peer.sh        (from anywhere; needs python3 and network access to PyPI
#                                    the first time, for the venv under target/venv-a2a)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$(date +%s)

target_dir="${CARGO_TARGET_DIR:-$root/target}"
venv="$target_dir/venv-a2a"
sdk="a2a-sdk==1.3.0"
if [ ! -f "$venv/.installed-$sdk" ]; then
    echo "a2a-peer: creating $venv with $sdk"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$sdk" "httpx>=0.28"
    touch "$venv/.installed-$sdk"
fi

echo "a2a-peer: building examples/a2a_agent"
cargo build --quiet -p examples --example a2a_agent
agent_bin="$target_dir/debug/examples/a2a_agent"

logs="$(mktemp -d)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    rm -rf "$logs"
}
trap cleanup EXIT

# Starts one agent on a free loopback port; sets `url` once it listens. Not run in a
# subshell, so `pids` (and the trap) see it.
start_agent() {
    local kind="$1" log="$logs/$1.log"
    "$agent_bin" --addr 127.0.0.1:0 --agent "$kind" >"$log" 2>&1 &
    pids+=("$!")
    url=""
    for _ in $(seq 1 200); do
        url="$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$log")"
        if [ -n "$url" ]; then
            return 0
        fi
        if ! kill -0 "${pids[-1]}" 2>/dev/null; then
            echo "a2a-peer: the $kind agent exited:" >&2
            cat "$log" >&2
            return 1
        fi
        sleep 0.05
    done
    echo "a2a-peer: the $kind agent did not start within 10 s:" >&2
    cat "$log" >&2
    return 1
}

start_agent echo
echo_url="$url"
start_agent slow
slow_url="$url"
start_agent tools
tools_url="$url"
echo "a2a-peer: echo at $echo_url, slow at $slow_url, tools at $tools_url"

status=0
timeout 180 "$venv/bin/python" tests/peers/a2a/test_peer.py \
    --echo "$echo_url" --slow "$slow_url" --tools "$tools_url" | tee "$logs/peer.log" || status=$?

if [ "$status" -ne 0 ]; then
    for kind in echo slow tools; do
        echo "--- $kind agent log" >&2
        cat "$logs/$kind.log" >&2 || true
    done
    echo "a2a-peer: FAILED (exit $status) after $(($(date +%s) - started)) s" >&2
    exit "$status"
fi
echo "a2a-peer: passed in $(($(date +%s) - started)) s (venv, build, agents and checks)"
# The summary last, where CI reads it.
tail -n 1 "$logs/peer.log"
