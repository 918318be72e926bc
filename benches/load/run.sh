#!/usr/bin/env bash
# Load figures for issue 13, point 7 (run by hand; BENCHMARKS.md §10.2 has the numbers it printed):
# MCP `tools/call` over streamable HTTP at 1, 10 and 100 concurrent keep-alive clients, for our
# server (stateful and stateless) and rmcp's own (stateless, and stateful as the ratio's peer),
# one replica and two behind nginx round-robin; A2A `SendMessage` on the echo agent, memory
# store and, with `--postgres`, the PostgreSQL stores (`a2a_agent --postgres`, feature
# `a2a-postgres`) on a throwaway cluster this script starts on 127.0.0.1 (Debian's
# PostgreSQL, as `.ci/fleet-peer.sh` installs it; run as root, for `runuser -u postgres`).
#
#   bash benches/load/run.sh [--seconds N] [--postgres] [--only mcp|a2a] [--no-build]
#
# Release builds (`CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1`, as the other benchmarks), 127.0.0.1
# only, everything it starts stopped by PID; each run is bounded (`timeout`). nginx comes from
# Debian (`apt-get install -y nginx` if missing); its config and logs live under
# target/load/. The machine is shared: `uptime` is recorded beside every row.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds=5
postgres=""
only=""
no_build=""
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --postgres) postgres=1; shift ;;
        --only) only="$2"; shift 2 ;;
        --no-build) no_build=1; shift ;;
        *) echo "usage: run.sh [--seconds N] [--postgres] [--only mcp|a2a] [--no-build]" >&2; exit 2 ;;
    esac
done

target="${CARGO_TARGET_DIR:-$root/target}"
work="$root/target/load"
mkdir -p "$work/nginx-tmp"
results="$work/results.md"
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1

command -v nginx >/dev/null || apt-get install -y nginx >/dev/null
[ -n "$no_build" ] || (cd "$root" && cargo build --quiet --release -p benches --example load_server --example load_client)
a2a_features=()
[ -n "$postgres" ] && a2a_features=(--features postgres)
if [ "$only" != mcp ] && [ -z "$no_build" ]; then
    (cd "$root" && cargo build --quiet --release -p examples --example a2a_agent "${a2a_features[@]}")
fi
server_bin="$target/release/examples/load_server"
client_bin="$target/release/examples/load_client"
agent_bin="$target/release/examples/a2a_agent"

pids=()
pg_data=""
stop_postgres() {
    if [ -n "$pg_data" ]; then
        runuser -u postgres -- "$pg_bin/pg_ctl" stop -D "$pg_data" -m fast -w -t 60 >/dev/null || true
        pg_data=""
    fi
}
stop_all() {
    if [ ${#pids[@]} -gt 0 ]; then
        kill "${pids[@]}" 2>/dev/null || true
        wait "${pids[@]}" 2>/dev/null || true
    fi
    pids=()
}
trap 'stop_all; stop_postgres' EXIT

# Waits (bounded) until $1 accepts TCP connections.
wait_port() {
    for _ in $(seq 1 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    echo "nothing listens on 127.0.0.1:$1" >&2
    exit 1
}

# start_replica IMPL MODE PORT
start_replica() {
    "$server_bin" "$1" "$2" "127.0.0.1:$3" 2>"$work/replica-$3.log" &
    pids+=("$!")
    wait_port "$3"
}

# start_nginx PORT UPSTREAM_PORT...: round-robin over the upstreams, keep-alive both sides.
start_nginx() {
    local port="$1"
    shift
    local upstreams=""
    for p in "$@"; do
        upstreams+="        server 127.0.0.1:$p;"$'\n'
    done
    cat >"$work/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $work/nginx-tmp/body;
    proxy_temp_path $work/nginx-tmp/proxy;
    fastcgi_temp_path $work/nginx-tmp/fastcgi;
    uwsgi_temp_path $work/nginx-tmp/uwsgi;
    scgi_temp_path $work/nginx-tmp/scgi;
    keepalive_requests 1000000;
    keepalive_timeout 60s;
    upstream replicas {
$upstreams        keepalive 256;
        keepalive_requests 1000000;
    }
    server {
        listen 127.0.0.1:$port;
        location / {
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$http_host;
            proxy_buffering off;
        }
    }
}
EOF
    nginx -c "$work/nginx.conf" -p "$work" &
    pids+=("$!")
    wait_port "$port"
}

load() {
    uptime | sed 's/.*load average: //'
}

# row LABEL KIND URL CLIENTS [FLAGS...]: one measured run, one table row.
row() {
    local label="$1" kind="$2" url="$3" clients="$4"
    shift 4
    local before out
    before="$(load)"
    out="$(timeout $((seconds + 60)) "$client_bin" "$kind" "$url" "$clients" --seconds "$seconds" "$@")" || {
        echo "load_client failed: $out" >&2
        exit 1
    }
    echo "$label $out" >&2
    # clients=.. calls=.. errors=.. calls_per_s=.. p50_us=.. p99_us=.. max_us=..
    local rate p50 p99 max slow protocol
    rate="$(sed -n 's/.*calls_per_s=\([0-9]*\).*/\1/p' <<<"$out")"
    p50="$(sed -n 's/.*p50_us=\([0-9]*\).*/\1/p' <<<"$out")"
    p99="$(sed -n 's/.*p99_us=\([0-9]*\).*/\1/p' <<<"$out")"
    max="$(sed -n 's/.*max_us=\([0-9]*\).*/\1/p' <<<"$out")"
    slow="$(sed -n 's/.*over_40ms=\([0-9]*\).*/\1/p' <<<"$out")"
    protocol="$(sed -n 's/.*protocol=\([0-9-]*\).*/\1/p' <<<"$out")"
    echo "| $label | ${protocol:--} | $clients | $rate | $p50 | $p99 | $max | $slow | $before |" >>"$results"
}

# mcp_set LABEL IMPL MODE: 1, 10, 100 clients on one replica, then two behind nginx.
mcp_set() {
    local label="$1" impl="$2" mode="$3"
    start_replica "$impl" "$mode" 18101
    for n in 1 10 100; do
        row "$label, 1 replica" mcp "http://127.0.0.1:18101/mcp" "$n"
    done
    start_replica "$impl" "$mode" 18102
    start_nginx 18100 18101 18102
    for n in 1 10 100; do
        row "$label, 2 replicas + nginx" mcp "http://127.0.0.1:18100/mcp" "$n"
    done
    stop_all
}

{
    echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, ${seconds} s per row after 1 s warm-up."
    echo
    echo "| server | protocol | clients | calls/s | p50 µs | p99 µs | max µs | calls ≥ 40 ms | load average before (1, 5, 15 min) |"
    echo "|---|---|---|---|---|---|---|---|---|"
} >"$results"

if [ "$only" != a2a ]; then
mcp_set "ours stateful" ours stateful
mcp_set "rmcp stateful" rmcp stateful
mcp_set "ours stateless" ours stateless
mcp_set "rmcp stateless" rmcp stateless

# The 2025-11-25 handshake (a session per client) on one replica: round-robin would need
# sticky sessions for the stateful server, so no balancer here.
for impl in ours rmcp; do
    start_replica "$impl" stateful 18101
    for n in 1 10 100; do
        row "$impl stateful, 2025-11-25 sessions, 1 replica" mcp "http://127.0.0.1:18101/mcp" "$n" --initialize
    done
    stop_all
done
fi

# A2A SendMessage on the echo agent: memory store, then PostgreSQL.
a2a_set() {
    local label="$1"
    shift
    "$agent_bin" --addr 127.0.0.1:18201 --agent echo "$@" >"$work/agent.log" 2>&1 &
    pids+=("$!")
    wait_port 18201
    for n in 1 10 100; do
        row "A2A SendMessage, $label" a2a "http://127.0.0.1:18201/" "$n"
    done
    stop_all
}
if [ "$only" != mcp ]; then
a2a_set "memory store"
fi
if [ "$only" != mcp ] && [ -n "$postgres" ]; then
    # A throwaway cluster with default durability (fsync on), as a deployment would run it.
    pg_bin="$(find /usr/lib/postgresql -maxdepth 3 -path '*/bin/initdb' | sort -V | tail -n 1 | xargs dirname)"
    rm -rf "$work/pg"
    install -d -o postgres -g postgres "$work/pg"
    runuser -u postgres -- "$pg_bin/initdb" -D "$work/pg/data" -A trust -U postgres -E UTF8 >"$work/pg/initdb.out"
    pg_data="$work/pg/data"
    runuser -u postgres -- "$pg_bin/pg_ctl" start -D "$pg_data" -w -t 60 -l "$work/pg/postgres.log" \
        -o "-h 127.0.0.1 -p 18250 -k $work/pg -c max_connections=200" >/dev/null
    runuser -u postgres -- "$pg_bin/createdb" -h 127.0.0.1 -p 18250 -U postgres load
    a2a_set "PostgreSQL store" --postgres "postgres://postgres@127.0.0.1:18250/load"
    stop_postgres
fi

cat "$results"
