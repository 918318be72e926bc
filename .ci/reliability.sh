#!/usr/bin/env bash
# The bounded reliability run (issue 22): the tests that hold the server's limits, each binary
# alone and its tests one at a time, so memory, thread and process figures are not disturbed
# by the rest of the suite. Reuses the test build of the step before; a few minutes at most.
set -euo pipefail
cd "$(dirname "$0")/.."
tests=(
    mcp_stdio_backpressure   # a client that stops reading: the server's memory stays bounded
    a2a_sse_backpressure     # the same for an A2A stream nobody reads
    process_orphans          # no server or subprocess call outlives its host, by any exit path
    mcp_http_limits          # sessions and requests in flight limited apart; 413 keeps the connection
    a2a_body_limits          # 413 for every oversized A2A body
    sync_deadlines           # sync tools with a progress token fail on time; one terminal chunk
    blocking_limit           # timed-out sync bodies stay under their bound
)
args=()
for t in "${tests[@]}"; do args+=(--test "$t"); done
timeout 600 cargo test --quiet -p tool-executor --all-features "${args[@]}" -- --test-threads=1
