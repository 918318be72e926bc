#!/usr/bin/env bash
# OAuth against peers nobody here wrote: a real authorization server built with Authlib
# (executor-core/tests/peers/oauth/authorization_server.py: client credentials, RFC 8707
# resources, RFC 9068 JWT access tokens, RFC 8414 metadata) and the official MCP Python SDK's
# OAuth client (`ClientCredentialsOAuthProvider`) against `examples/secure_server`
# (tests/peers/oauth/oauth_client.py): discovery, scoped listings and calls, and refusals of
# tokens for another resource, expired, tampered and missing a scope.
#
# The venv lives in target/venv-oauth, created on first use.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
venv="$root/target/venv-oauth"
python="$venv/bin/python"
# Pinned so a new release cannot turn CI red overnight; bump deliberately.
requirements=("mcp==2.3.0" "authlib==1.6.5" "flask==3.1.2")

if ! "$python" -c 'import mcp, authlib, flask' 2>/dev/null; then
    echo "oauth-peer: creating $venv"
    python3 -m venv "$venv"
    "$python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
fi

cargo build --quiet -p examples --example secure_server --all-features
peers="$root/executor-core/tests/peers/oauth"
bin="${CARGO_TARGET_DIR:-$root/target}/debug/examples"

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

# wait_for LOG: the URL a process prints as `listening on URL`.
wait_for() {
    local found=""
    for _ in $(seq 1 100); do
        found=$(sed -n 's/^listening on //p' "$1" | head -n 1)
        [ -n "$found" ] && break
        sleep 0.1
    done
    if [ -z "$found" ]; then
        echo "oauth-peer: $1 never said where it listens" >&2
        cat "$1" >&2
        exit 1
    fi
    echo "$found"
}

as_log="$root/target/oauth-peer-as.log"
"$python" "$peers/authorization_server.py" --port 0 >"$as_log" 2>&1 &
pids+=($!)
issuer=$(wait_for "$as_log")

server_log="$root/target/oauth-peer-server.log"
# `--leeway 0`: the expired-token check waits out a one-second token.
"$bin/secure_server" --issuer "$issuer" --leeway 0 >"$server_log" 2>&1 &
pids+=($!)
url=$(wait_for "$server_log")

echo "oauth-peer: official client with OAuth, $url behind $issuer"
timeout 120 "$python" "$peers/oauth_client.py" "$url" "$issuer"
