#!/usr/bin/env bash
# examples/car_host.rs against the test daemon peer (examples/car_peer.rs): the peer prints its
# URL, the host registers and serves one session, the peer calls every path (success, ordinary
# failure and retry, terminal failure, timeout with tools.cancel, state change) and checks the
# answers, then closes. Bounded: 60 s for each side. Part of .ci/run's examples step.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target"
peer_out="$target/car-peer.out"
: > "$peer_out"
timeout 60 cargo run --quiet --example car_peer -- --token ci-token > "$peer_out" &
peer=$!
for _ in $(seq 600); do
    [ -s "$peer_out" ] && break
    kill -0 "$peer" 2>/dev/null || break
    sleep 0.1
done
url=$(head -n 1 "$peer_out")
case "$url" in ws://*) ;; *) echo "car_peer printed no URL" >&2; cat "$peer_out" >&2; exit 1 ;; esac
timeout 60 cargo run --quiet --example car_host -- --url "$url" --token ci-token --once
wait "$peer"
cat "$peer_out"
