#!/usr/bin/env bash
# MCP interop against peers nobody here wrote: the official MCP Python SDK.
#
#   1. the official Python client against `examples/mcp_server`, on stdio and on streamable
#      HTTP (tests/peers/mcp/official_client.py);
#   2. our `McpToolExecutor` against a server written with that SDK
#      (tests/fixtures/mcp/py_server.py), via the `--ignored` tests in mcp_python_fixture.rs;
#   3. and, closing the circle, against `examples/mcp_server` on stdio (mcp_stdio_demo.rs),
#      including the server's lifetime behind a `sh -c` wrapper.
#
# The venv lives in target/venv-mcp and is created on first use.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
venv="$root/target/venv-mcp"
python="$venv/bin/python"
# Pinned so a new SDK release cannot turn CI red overnight; bump deliberately.
requirements=("mcp==2.3.0" "jsonschema==4.26.0")

if ! "$python" -c 'import mcp, jsonschema' 2>/dev/null; then
    echo "mcp-peer: creating $venv"
    python3 -m venv "$venv"
    "$python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
fi

cargo build --quiet -p examples --example mcp_server --all-features
server_bin="$root/target/debug/examples/mcp_server"
client="$root/executor-core/tests/peers/mcp/official_client.py"

echo "mcp-peer: official client over stdio"
# A panicking demo tool prints its panic to the server's stderr; that is expected.
RUST_BACKTRACE=0 "$python" "$client" stdio "$server_bin"

echo "mcp-peer: official client over streamable HTTP"
log="$root/target/mcp-peer-http.log"
RUST_BACKTRACE=0 "$server_bin" --http 127.0.0.1:0 2>"$log" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 100); do
    url=$(sed -n 's/^listening on //p' "$log" | head -n 1)
    [ -n "$url" ] && break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "mcp-peer: the HTTP server did not start" >&2
    cat "$log" >&2
    exit 1
fi
"$python" "$client" http "$url"
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
trap - EXIT

echo "mcp-peer: McpToolExecutor against examples/mcp_server on stdio"
EXECUTOR_MCP_DEMO_BIN="$server_bin" cargo test --quiet -p executor-core --all-features --test mcp_stdio_demo -- --ignored

echo "mcp-peer: McpToolExecutor against the Python SDK server"
EXECUTOR_MCP_PYTHON="$python" cargo test --quiet -p executor-core --all-features --test mcp_python_fixture -- --ignored

echo "mcp-peer: all peers passed"
