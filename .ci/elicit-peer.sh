#!/usr/bin/env bash
# Asking the user, against peers nobody here wrote: the official MCP Python SDK's
# `elicitation_callback` against `examples/asking` (tests/peers/mcp/elicit_client.py):
#
#   1. stdio, on a legacy (2025-11-25) session: `elicitation/create` requests;
#   2. stdio on 2026-07-28: `input_required` rounds the SDK answers and retries;
#   3. stateful streamable HTTP (legacy) and stateless streamable HTTP (2026-07-28);
#   4. two stateless replicas sharing the sealing key behind nginx (round robin): every retry
#      lands on the other replica than the question it answers, and the call completes.
#
# The venv is .ci/mcp-peer.sh's (target/venv-mcp, the same pins); nginx comes from Debian when
# missing, as in .ci/fleet-peer.sh.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
target_dir="${CARGO_TARGET_DIR:-$root/target}"
venv="$target_dir/venv-mcp"
python="$venv/bin/python"
requirements=("mcp==2.3.0" "jsonschema==4.26.0")
say() { echo "elicit-peer: $*"; }

if ! "$python" -c 'import mcp, jsonschema' 2>/dev/null; then
    say "creating $venv"
    python3 -m venv "$venv"
    "$python" -m pip install --quiet --disable-pip-version-check "${requirements[@]}"
fi

cargo build --quiet -p examples --example asking --all-features
bin="$target_dir/debug/examples/asking"
client="$root/executor-core/tests/peers/mcp/elicit_client.py"
work="$target_dir/elicit-peer"
rm -rf "$work"
mkdir -p "$work"

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap cleanup EXIT

# start N FLAGS...: replica N of `asking --http 127.0.0.1:0 FLAGS`; sets url_N (bounded wait).
start() {
    local n=$1 log="$work/replica-$1.log"
    shift
    : >"$log" # before the child opens it: the wait below reads it at once
    RUST_BACKTRACE=0 "$bin" --http 127.0.0.1:0 "$@" 2>"$log" &
    pids+=("$!")
    for _ in $(seq 1 100); do
        local url
        url=$(sed -n 's/^listening on //p' "$log" | head -n 1)
        if [ -n "$url" ]; then
            printf -v "url_$n" '%s' "$url"
            return 0
        fi
        sleep 0.1
    done
    echo "elicit-peer: replica $n did not start" >&2
    cat "$log" >&2
    return 1
}

say "stdio, legacy session"
timeout 120 "$python" "$client" stdio "$bin" legacy
say "stdio, 2026-07-28"
timeout 120 "$python" "$client" stdio "$bin" 2026-07-28

say "stateful HTTP, legacy session"
start 1
timeout 120 "$python" "$client" http "$url_1" legacy
say "stateless HTTP, 2026-07-28"
start 2 --stateless
timeout 120 "$python" "$client" http "$url_2" 2026-07-28

if [ ! -x /usr/sbin/nginx ]; then
    say "installing nginx"
    # shellcheck source=apt-install.sh
    source .ci/apt-install.sh
    apt_install nginx
fi

say "two stateless replicas behind nginx, 2026-07-28"
start 3 --stateless
start 4 --stateless
lb=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
port_of() { sed -E 's|.*:([0-9]+)/mcp$|\1|' <<<"$1"; }
sed -e "s|@DIR@|$work|g" -e "s|@LB@|$lb|g" -e "s|@R1@|$(port_of "$url_3")|g" -e "s|@R2@|$(port_of "$url_4")|g" \
    .ci/elicit/nginx.conf.in >"$work/nginx.conf"
/usr/sbin/nginx -t -q -e "$work/nginx-error.log" -p "$work" -c "$work/nginx.conf"
/usr/sbin/nginx -e "$work/nginx-error.log" -p "$work" -c "$work/nginx.conf" &
pids+=("$!")
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$lb") 2>/dev/null && break
    sleep 0.1
done
timeout 120 "$python" "$client" http "http://127.0.0.1:$lb/mcp" 2026-07-28
# A retry (a tools/call carrying a requestState) served by the other replica than the
# tools/call before it: a question asked on one replica, continued on the other. (Round robin
# alternates per request, and the SDK may send other requests in between, so not every retry
# crosses over; at least one must, and every call completed above.)
timeout 30 python3 - "$work/access.log" <<'PY'
import json, sys

calls = []
for line in open(sys.argv[1], encoding="utf-8"):
    upstream, _, body = line.strip().partition(" ")
    try:
        # `escape=json`: the body is logged as the inside of a JSON string.
        request = json.loads(json.loads(f'"{body}"'))
    except ValueError:
        continue
    if isinstance(request, dict) and request.get("method") == "tools/call":
        calls.append((upstream, "requestState" in request.get("params", {})))
retries = [(prev[0], cur[0]) for prev, cur in zip(calls, calls[1:]) if cur[1]]
if not retries:
    sys.exit("elicit-peer: no retry reached the balancer")
crossed = [pair for pair in retries if pair[0] != pair[1]]
if not crossed:
    sys.exit(f"elicit-peer: no retry crossed replicas: {retries}")
print(f"elicit-peer: {len(crossed)} of {len(retries)} retries continued on the other replica")
PY
say "done"
