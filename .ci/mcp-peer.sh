#!/usr/bin/env bash
# MCP interop against peers nobody here wrote: the official MCP Python SDK.
#
#   1. the official Python client against `examples/mcp_server`, on stdio and on streamable
#      HTTP, stateful and `--stateless` (tests/peers/mcp/official_client.py);
#   1a. the same client with a small tasks extension (tests/peers/mcp/tasks_client.py) running
#      the demo's `report` as an MCP task (2026-07-28 tasks extension) on stdio and on
#      stateless HTTP: -32021 without the extension, polling, status messages, cancellation;
#   1c. the official Python client against `examples/conformance_server` (prompts, resources,
#      templates, completion, rich results, logging, sampling), on stdio and streamable HTTP, on
#      2025-11-25 and 2026-07-28 (tests/peers/mcp/catalog_client.py);
#   1b. the official Python client against `examples/composed_server` on stdio: a transformed
#      set (a renamed tool, a hidden one, a guardrail hook, list_changed on a subscription;
#      tests/peers/mcp/composed_client.py);
#   2. our `McpToolExecutor` against a server written with that SDK
#      (tests/fixtures/mcp/py_server.py), via the `--ignored` tests in mcp_python_fixture.rs;
#   3. and, closing the circle, against `examples/mcp_server` on stdio (mcp_stdio_demo.rs),
#      including the server's lifetime behind a `sh -c` wrapper;
#   4. the MCP Inspector CLI (pinned, on Node 22 from the npm package `node@22`) against
#      `examples/mcp_server` on stdio and on streamable HTTP: `tools/list --strict`, and
#      `tools/call` of every demo tool, exit 0 for a success and exit 5 (`tool_is_error`) for
#      an `isError` result.
#
# The venv lives in target/venv-mcp, Node and the Inspector in target/mcp-inspector (with
# HOME there too); both are created on first use.
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

cargo build --quiet -p examples --example mcp_server --example composed_server --all-features
server_bin="$root/target/debug/examples/mcp_server"
client="$root/executor-core/tests/peers/mcp/official_client.py"

echo "mcp-peer: official client over stdio"
# A panicking demo tool prints its panic to the server's stderr; that is expected.
RUST_BACKTRACE=0 "$python" "$client" stdio "$server_bin"

tasks_client="$root/executor-core/tests/peers/mcp/tasks_client.py"
echo "mcp-peer: official client with a tasks extension over stdio"
timeout 120 "$python" "$tasks_client" stdio "$server_bin"

echo "mcp-peer: official client against the composed (transformed) server over stdio"
timeout 120 "$python" "$root/executor-core/tests/peers/mcp/composed_client.py" \
    "$root/target/debug/examples/composed_server"

# start_http_server [FLAGS...]: starts `mcp_server --http 127.0.0.1:0 FLAGS` (or `$http_bin`
# instead of `mcp_server`) and sets `url`.
log="$root/target/mcp-peer-http.log"
start_http_server() {
    RUST_BACKTRACE=0 "${http_bin:-$server_bin}" --http 127.0.0.1:0 "$@" 2>"$log" &
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
}
stop_http_server() {
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    trap - EXIT
}

echo "mcp-peer: official client: prompts, resources, rich results, logging (conformance_server)"
cargo build --quiet -p examples --example conformance_server
catalog_client="$root/executor-core/tests/peers/mcp/catalog_client.py"
catalog_bin="$root/target/debug/examples/conformance_server"
http_bin=$catalog_bin start_http_server
for mode in legacy 2026-07-28; do
    timeout 120 "$python" "$catalog_client" stdio "$catalog_bin" "$mode"
    timeout 120 "$python" "$catalog_client" http "$url" "$mode"
done
stop_http_server

echo "mcp-peer: official client over streamable HTTP"
start_http_server
"$python" "$client" http "$url"
stop_http_server

echo "mcp-peer: official client over stateless streamable HTTP"
start_http_server --stateless
"$python" "$client" http "$url"
echo "mcp-peer: official client with a tasks extension over stateless streamable HTTP"
timeout 120 "$python" "$tasks_client" http "$url"
stop_http_server

inspector_version=2.12.0
inspector_dir="$root/target/mcp-inspector"
inspector_pkg="$inspector_dir/node_modules/@modelcontextprotocol/inspector/package.json"
installed=$("$python" -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$inspector_pkg" 2>/dev/null || true)
if [ "$installed" != "$inspector_version" ]; then
    echo "mcp-peer: installing Node 22 and the MCP Inspector $inspector_version in $inspector_dir"
    command -v npm >/dev/null || { apt-get update -qq && apt-get install -y -qq npm; }
    mkdir -p "$inspector_dir/home"
    HOME="$inspector_dir/home" timeout 900 npm install --prefix "$inspector_dir" --no-audit \
        --no-fund --loglevel=error "node@22" "@modelcontextprotocol/inspector@$inspector_version"
fi
# The Inspector needs Node >= 22.19; `node@22` puts that Node first on PATH.
PATH="$inspector_dir/node_modules/.bin:$PATH" node -e '
    const [major, minor] = process.versions.node.split(".").map(Number);
    if (major < 22 || (major === 22 && minor < 19)) { console.error(`Node ${process.version} < 22.19`); process.exit(1); }'

# inspector EXIT EXPECTED TARGET... -- ARGS...: runs the Inspector CLI once (bounded), checks
# its exit code and that its output contains EXPECTED.
inspector() {
    local want=$1 expected=$2
    shift 2
    local out="$inspector_dir/last.out" status=0
    (cd "$inspector_dir" && HOME="$inspector_dir/home" PATH="$inspector_dir/node_modules/.bin:$PATH" \
        RUST_BACKTRACE=0 timeout 120 npx --no-install mcp-inspector --cli "$@") >"$out" 2>&1 || status=$?
    if [ "$status" != "$want" ] || ! grep -qF -- "$expected" "$out"; then
        echo "mcp-peer: Inspector $*: exit $status (want $want), output must contain $expected:" >&2
        cat "$out" >&2
        exit 1
    fi
}

# inspector_tools TARGET...: every demo tool through the Inspector against one server.
inspector_tools() {
    inspector 0 '"name": "get_weather"' "$@" --method tools/list --strict
    inspector 0 '"result": 42' "$@" --method tools/call --tool-name add --tool-arg a=2 b=40
    inspector 0 '"result": "hello"' "$@" --method tools/call --tool-name echo --tool-arg text=hello
    inspector 0 '"result": 0.25' "$@" --method tools/call --tool-name divide --tool-arg a=1 b=4
    inspector 0 '"result": "waited 1s"' "$@" --method tools/call --tool-name slow --tool-arg seconds=1
    inspector 0 '"temperature": 65.3' "$@" --method tools/call --tool-name get_weather \
        --tool-arg city=Paris unit=fahrenheit
    inspector 5 'division by zero' "$@" --method tools/call --tool-name divide --tool-arg a=1 b=0
    # The Inspector coerces `two` by the schema (integer) and sends null.
    inspector 5 'a: expected an integer, got null' "$@" --method tools/call --tool-name add --tool-arg a=two b=1
    inspector 5 'tool_is_error' "$@" --method tools/call --tool-name echo --tool-arg text=x loud=true
    inspector 5 'b: missing required argument' "$@" --method tools/call --tool-name add --tool-arg a=1
    inspector 5 'tool `boom` panicked' "$@" --method tools/call --tool-name boom
}

echo "mcp-peer: MCP Inspector CLI $inspector_version over stdio"
inspector_tools "$server_bin"

echo "mcp-peer: MCP Inspector CLI $inspector_version over streamable HTTP"
start_http_server
inspector_tools --transport http "$url"
stop_http_server

echo "mcp-peer: McpToolExecutor against examples/mcp_server on stdio"
EXECUTOR_MCP_DEMO_BIN="$server_bin" cargo test --quiet -p tool-executor --all-features --test mcp_stdio_demo -- --ignored

echo "mcp-peer: McpToolExecutor negotiates 2026-07-28 with examples/mcp_server (stdio, HTTP, --stateless)"
EXECUTOR_MCP_DEMO_BIN="$server_bin" cargo test --quiet -p tool-executor --all-features --test mcp_client_protocol -- --ignored

echo "mcp-peer: McpToolExecutor against the Python SDK server"
EXECUTOR_MCP_PYTHON="$python" cargo test --quiet -p tool-executor --all-features --test mcp_python_fixture -- --ignored

echo "mcp-peer: all peers passed"
