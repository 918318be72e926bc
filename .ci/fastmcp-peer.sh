#!/usr/bin/env bash
# MCP tasks (the 2026-07-28 `io.modelcontextprotocol/tasks` extension) against FastMCP, whose
# `fastmcp-tasks` package is the other implementation of the extension (it speaks only that
# form, not 2025-11-25's `params.task`):
#
#   1. the FastMCP client with `fastmcp-tasks` (tests/peers/mcp/fastmcp_tasks_client.py)
#      running the demo's `report` (`task = "required"`) in `examples/mcp_server` on stdio and
#      on stateless streamable HTTP: -32021 before the extension is registered, then the
#      transparent `call_tool`, a `call_tool_task` handle polled to its result, one cancelled;
#   2. our `McpToolExecutor` against a FastMCP server with `task=…` tools
#      (tests/peers/mcp/fastmcp_task_server.py), on stdio and stateless HTTP, via the
#      `--ignored` tests in mcp_fastmcp_tasks.rs: results as plain calls, status messages as
#      progress, `tasks/cancel` when the call is dropped.
#
# The venv lives in target/venv-fastmcp, created on first use.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
venv="$root/target/venv-fastmcp"
python="$venv/bin/python"
# Pinned so a new release cannot turn CI red overnight; bump deliberately. `fastmcp-tasks`
# 4.1.4 pins fastmcp-slim 4.1.4 and pulls in mcp 2.3.0, pydocket and its in-memory backend.
requirements=("fastmcp-tasks==4.1.4")

if ! "$python" -c 'import fastmcp_tasks; assert fastmcp_tasks.__version__ == "4.1.4"' 2>/dev/null; then
    echo "fastmcp-peer: creating $venv"
    python3 -m venv "$venv"
    "$python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
fi

cargo build --quiet -p examples --example mcp_server --all-features
server_bin="$root/target/debug/examples/mcp_server"
client="$root/executor-core/tests/peers/mcp/fastmcp_tasks_client.py"

echo "fastmcp-peer: FastMCP client with fastmcp-tasks over stdio"
timeout 120 "$python" "$client" stdio "$server_bin"

echo "fastmcp-peer: FastMCP client with fastmcp-tasks over stateless streamable HTTP"
log="$root/target/fastmcp-peer-http.log"
RUST_BACKTRACE=0 "$server_bin" --http 127.0.0.1:0 --stateless 2>"$log" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 100); do
    url=$(sed -n 's/^listening on //p' "$log" | head -n 1)
    [ -n "$url" ] && break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "fastmcp-peer: the HTTP server did not start" >&2
    cat "$log" >&2
    exit 1
fi
timeout 120 "$python" "$client" http "$url"
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
trap - EXIT

echo "fastmcp-peer: McpToolExecutor against a FastMCP task server (stdio, stateless HTTP)"
EXECUTOR_FASTMCP_PYTHON="$python" cargo test --quiet -p tool-executor --all-features \
    --test mcp_fastmcp_tasks -- --ignored

echo "fastmcp-peer: all peers passed"
