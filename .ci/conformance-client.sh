#!/usr/bin/env bash
# The official MCP conformance suite's client scenarios against our client:
# examples/conformance_client (McpToolExecutor, with AuthorizationCode, ClientCredentials and
# CrossAppAccess for the auth scenarios). The suite (pinned in conformance-setup.sh) starts
# each scenario's server and authorization server and judges what the client sent; any failed
# check fails CI.
#
# Every client scenario of the pinned suite runs except `elicitation-sep1034-client-defaults`,
# which needs the client to answer the server's elicitation requests (issue 24).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
source .ci/conformance-setup.sh

cargo build --quiet -p examples --example conformance_client
client="${CARGO_TARGET_DIR:-$root/target}/debug/examples/conformance_client"

failed=()
run() {
    local out="$conformance_dir/client-${*//[^a-zA-Z0-9]/_}.out"
    if conformance client --command "$client" "$@" >"$out" 2>&1; then
        echo "conformance-client: $* $(grep -E '^(Total|Passed):' "$out" | tail -n 1)"
    else
        echo "conformance-client: $* FAILED:" >&2
        cat "$out" >&2
        failed+=("$*")
    fi
}

# The suite's own auth suite (the 14 scenarios of the 2025-11-25 authorization spec).
run --suite auth
for scenario in initialize tools_call sse-retry \
    auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback \
    auth/resource-mismatch auth/offline-access-scope auth/offline-access-not-supported \
    auth/client-credentials-jwt auth/client-credentials-basic \
    auth/cross-app-access-complete-flow; do
    run --scenario "$scenario"
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "conformance-client: failed: ${failed[*]}" >&2
    exit 1
fi
echo "conformance-client: every scenario passed"
