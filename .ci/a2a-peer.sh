#!/usr/bin/env bash
# A2A interop with peers nobody here wrote, over loopback:
#
#   1. the official A2A Python SDK client (a2a-sdk from PyPI) against examples/a2a_agent: it
#      fetches each agent's card, sends, streams, gets, and cancels a slow task (and a streamed
#      one), and runs tools through the tool-set agent, whose failures keep their code, class,
#      data and retry hint on both the blocking and the streaming path (tests/peers/a2a/test_peer.py);
#   2. our A2aToolExecutor against examples/a2a_agent --agent tools (every quickstart tool, the
#      `--ignored` test in a2a_client.rs) and against an agent written with the Python SDK's
#      server (tests/peers/a2a/py_agent.py, the `--ignored` tests in a2a_python_fixture.rs);
#   3. the round trip our tools -> ToolAgent -> A2aToolExecutor -> McpServer -> the official MCP
#      Python client, against the same tools served straight over MCP (examples/bridges.rs,
#      tests/peers/a2a/mcp_round_trip.py);
#   4. one W3C trace the official MCP Python client starts, through our MCP server and an
#      A2aToolExecutor hop to the tool (`bridges --traced`, tests/peers/a2a/trace_round_trip.py);
#   5. tools that ask (examples/asking.rs): the official A2A Python client answers their
#      `input-required` tasks, forms and approvals, blocking and streaming (`a2a_agent --agent
#      asking`, tests/peers/a2a/asking_peer.py); and the official MCP Python client's
#      `elicitation_callback` answers the same questions through our MCP server and an
#      A2aToolExecutor hop, on a 2025-11-25 session and on 2026-07-28 (`bridges --asking`,
#      executor-core/tests/peers/mcp/elicit_client.py).
#
# Fails loudly on any mismatch; the agents are killed by PID on exit whatever happens.
#
# Usage: bash .ci/a2a-peer.sh        (from anywhere; needs python3 and network access to PyPI
#                                    the first time, for the venvs under target/venv-a2a and
#                                    target/venv-mcp, the latter shared with .ci/mcp-peer.sh)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$(date +%s)

target_dir="${CARGO_TARGET_DIR:-$root/target}"
venv="$target_dir/venv-a2a"
# Pinned so a new release cannot turn CI red overnight; bump deliberately. The server extra and
# uvicorn serve the Python SDK agent.
a2a_requirements=("a2a-sdk[http-server]==1.3.0" "httpx>=0.28" "uvicorn==0.38.0")
marker="$venv/.installed-a2a-sdk-1.3.0-http-server-uvicorn-0.38.0"
if [ ! -f "$marker" ]; then
    echo "a2a-peer: creating $venv with ${a2a_requirements[*]}"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "${a2a_requirements[@]}"
    touch "$marker"
fi
# The MCP client venv of .ci/mcp-peer.sh, with its pins.
mcp_venv="$target_dir/venv-mcp"
if ! "$mcp_venv/bin/python" -c 'import mcp, jsonschema' 2>/dev/null; then
    echo "a2a-peer: creating $mcp_venv"
    python3 -m venv "$mcp_venv"
    "$mcp_venv/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==2.3.0" "jsonschema==4.26.0"
fi

echo "a2a-peer: building examples/a2a_agent and examples/bridges"
cargo build --quiet -p examples --all-features --example a2a_agent --example bridges
agent_bin="$target_dir/debug/examples/a2a_agent"
bridges_bin="$target_dir/debug/examples/bridges"

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

# start_agent NAME COMMAND...: starts one agent on a free loopback port; sets `url` once it
# says `listening on URL`. Not run in a subshell, so `pids` (and the trap) see it.
start_agent() {
    local kind="$1" log="$logs/$1.log"
    shift
    "$@" >"$log" 2>&1 &
    pids+=("$!")
    url=""
    # 30 s: the Python agent's imports alone take seconds on a loaded machine.
    for _ in $(seq 1 600); do
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
    echo "a2a-peer: the $kind agent did not start within 30 s:" >&2
    cat "$log" >&2
    return 1
}

start_agent echo "$agent_bin" --addr 127.0.0.1:0 --agent echo
echo_url="$url"
start_agent slow "$agent_bin" --addr 127.0.0.1:0 --agent slow
slow_url="$url"
start_agent tools "$agent_bin" --addr 127.0.0.1:0 --agent tools
tools_url="$url"
start_agent asking "$agent_bin" --addr 127.0.0.1:0 --agent asking
asking_url="$url"
start_agent python "$venv/bin/python" tests/peers/a2a/py_agent.py
python_url="$url"
echo "a2a-peer: echo at $echo_url, slow at $slow_url, tools at $tools_url, Python SDK agent at $python_url"

# fail STATUS: prints the agents' logs and exits.
fail() {
    for kind in echo slow tools asking python; do
        echo "--- $kind agent log" >&2
        cat "$logs/$kind.log" >&2 || true
    done
    echo "a2a-peer: FAILED (exit $1) after $(($(date +%s) - started)) s" >&2
    exit "$1"
}

status=0
echo "a2a-peer: the official Python client against our agents"
timeout 180 "$venv/bin/python" tests/peers/a2a/test_peer.py \
    --echo "$echo_url" --slow "$slow_url" --tools "$tools_url" | tee "$logs/peer.log" || status=$?
[ "$status" -eq 0 ] || fail "$status"

echo "a2a-peer: A2aToolExecutor against examples/a2a_agent --agent tools"
EXECUTOR_A2A_TOOLS_URL="$tools_url" timeout 300 cargo test --quiet -p tool-executor --all-features \
    --test a2a_client -- --ignored || fail $?

echo "a2a-peer: A2aToolExecutor against the Python SDK agent"
EXECUTOR_A2A_PYTHON_URL="$python_url" timeout 300 cargo test --quiet -p tool-executor --all-features \
    --test a2a_python_fixture -- --ignored || fail $?

echo "a2a-peer: our tools through A2A and MCP to the official MCP Python client"
timeout 180 "$mcp_venv/bin/python" tests/peers/a2a/mcp_round_trip.py "$bridges_bin" \
    | tee "$logs/round-trip.log" || fail $?

echo "a2a-peer: a trace the official MCP Python client starts, through MCP and A2A to the tool"
timeout 120 "$mcp_venv/bin/python" tests/peers/a2a/trace_round_trip.py "$bridges_bin" \
    | tee "$logs/trace.log" || fail $?

echo "a2a-peer: the official A2A Python client answering our tools' questions"
timeout 120 "$venv/bin/python" tests/peers/a2a/asking_peer.py "$asking_url" \
    | tee "$logs/asking.log" || fail $?

echo "a2a-peer: the official MCP Python client answering questions asked behind an A2A hop"
for era in legacy 2026-07-28; do
    timeout 120 "$mcp_venv/bin/python" executor-core/tests/peers/mcp/elicit_client.py \
        stdio "$bridges_bin" "$era" --asking | tee -a "$logs/asking-mcp.log" || fail $?
done

echo "a2a-peer: passed in $(($(date +%s) - started)) s (venvs, builds, agents and checks)"
# The summaries last, where CI reads them.
tail -n 1 "$logs/peer.log"
tail -n 1 "$logs/round-trip.log"
tail -n 1 "$logs/trace.log"
tail -n 1 "$logs/asking.log"
tail -n 2 "$logs/asking-mcp.log"
