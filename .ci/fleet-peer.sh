#!/usr/bin/env bash
# Replicas behind a real load balancer, with the official Python SDK clients through it only:
#
#   - PostgreSQL and nginx from Debian packages (installed once: `apt-get update`, `apt-get
#     install`, no service started); a throwaway PostgreSQL cluster under target/fleet on
#     127.0.0.1, run as the `postgres` user;
#   - two `a2a_agent --agent slow --postgres URL` replicas behind one round-robin address, and
#     two `mcp_server --http ADDR --stateless` replicas behind another (nginx, one worker, the
#     replica named in each response's `X-Upstream` header and in the access log);
#   - A2A (tests/peers/fleet/fleet_a2a.py): send -> get -> list on alternating replicas; a slow
#     task cancelled through the balancer on the replica that does not run it ends canceled
#     and its executor stops (the halt store's NOTIFY reaches the replica running it); a
#     subscriber on the other replica sees the task's later events; a replica killed (SIGKILL)
#     mid-task: the survivor fails the task (`replica_lost`) within the replica timeout
#     (REPLICA_TIMEOUT_MS, 3000 here) plus a beat, and the restarted replica serves again;
#   - MCP: the official `mcp.Client` (executor-core/tests/peers/mcp/official_client.py) lists
#     and calls every demo tool, progress and cancellation included, every request on the
#     other replica than the one before (tests/peers/fleet/mcp_log.py reads nginx's log), and
#     no "session not found" anywhere; the same client with a tasks extension
#     (tasks_client.py) runs `report` as a task through the balancer, the replicas sharing
#     their tasks in PostgreSQL (`--tasks-postgres`): created on one, polled and cancelled on
#     the other; a replica killed (SIGKILL) mid-task has its task failed (`replica_lost`) by
#     the survivor within the replica timeout plus a beat, seen on the survivor and through
#     the balancer; and the PostgreSQL tests of mcp_tasks.rs and task_store.rs.
#
# All traffic is on 127.0.0.1; every wait is bounded; everything started is stopped by PID on
# exit. Usage: bash .ci/fleet-peer.sh (as root, for apt-get and runuser).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
started=$(date +%s)
say() { printf 'fleet-peer: %s (%ss)\n' "$*" "$(($(date +%s) - started))"; }

target_dir="${CARGO_TARGET_DIR:-$root/target}"
fleet="$target_dir/fleet"
replica_timeout_ms="${REPLICA_TIMEOUT_MS:-3000}"

# --- Packages: PostgreSQL and nginx, from Debian, only when missing.
pg_bin() { find /usr/lib/postgresql -maxdepth 3 -path '*/bin/initdb' 2>/dev/null | sort -V | tail -n 1 | xargs -r dirname; }
missing=()
[ -n "$(pg_bin)" ] || missing+=(postgresql)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
if [ "${#missing[@]}" -gt 0 ]; then
    say "installing ${missing[*]}"
    # No service may start on install (nginx would listen on 0.0.0.0:80): policy-rc.d says
    # no for the length of the install, if the machine does not already say so.
    own_policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
        chmod +x /usr/sbin/policy-rc.d
        own_policy=1
    fi
    timeout 300 apt-get update -qq
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
    [ -z "$own_policy" ] || rm -f /usr/sbin/policy-rc.d
fi
pg="$(pg_bin)"
[ -n "$pg" ] || { echo "fleet-peer: no PostgreSQL server binaries after install" >&2; exit 1; }

# --- Python venvs: the same pins and directories as .ci/a2a-peer.sh and .ci/mcp-peer.sh.
a2a_venv="$target_dir/venv-a2a"
a2a_sdk="a2a-sdk==1.3.0"
if [ ! -f "$a2a_venv/.installed-$a2a_sdk" ]; then
    say "creating $a2a_venv with $a2a_sdk"
    rm -rf "$a2a_venv"
    python3 -m venv "$a2a_venv"
    timeout 600 "$a2a_venv/bin/pip" install --quiet --disable-pip-version-check "$a2a_sdk" "httpx>=0.28"
    touch "$a2a_venv/.installed-$a2a_sdk"
fi
mcp_python="$target_dir/venv-mcp/bin/python"
if ! "$mcp_python" -c 'import mcp, jsonschema' 2>/dev/null; then
    say "creating $target_dir/venv-mcp"
    python3 -m venv "$target_dir/venv-mcp"
    timeout 600 "$mcp_python" -m pip install --quiet --disable-pip-version-check "mcp==2.3.0" "jsonschema==4.26.0"
fi

say "building the examples"
cargo build --quiet -p examples --example a2a_agent --example mcp_server --all-features
agent_bin="$target_dir/debug/examples/a2a_agent"
mcp_bin="$target_dir/debug/examples/mcp_server"

# --- Everything below is stopped on exit, by PID.
pids=()
# The cluster lives under target/ when the postgres user can reach it, else in a temporary
# directory (a checkout under /root, say), removed on exit.
pg_dir="$fleet/pg"
pg_tmp=""
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    if [ -f "$pg_dir/data/postmaster.pid" ]; then
        kill "$(head -n 1 "$pg_dir/data/postmaster.pid")" 2>/dev/null || true
    fi
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
    for _ in $(seq 1 100); do
        [ -f "$pg_dir/data/postmaster.pid" ] || break
        sleep 0.1
    done
    if [ "$status" -ne 0 ]; then
        for log in "$fleet"/*.log "$pg_dir/postgres.log"; do
            [ -f "$log" ] || continue
            echo "--- $log (last 40 lines)" >&2
            tail -n 40 "$log" >&2
        done
        echo "fleet-peer: FAILED (exit $status) after $(($(date +%s) - started)) s" >&2
    fi
    [ -z "$pg_tmp" ] || rm -rf "$pg_tmp"
}
trap cleanup EXIT

rm -rf "$fleet"
mkdir -p "$fleet/nginx"
install -d -o postgres -g postgres "$pg_dir"
if ! runuser -u postgres -- test -w "$pg_dir"; then
    pg_tmp="$(mktemp -d /tmp/fleet-pg.XXXXXX)"
    chown postgres:postgres "$pg_tmp"
    pg_dir="$pg_tmp"
fi

# Free loopback ports: PostgreSQL, two balancer addresses, four replicas.
read -r pg_port a2a_lb mcp_lb a2a_1 a2a_2 mcp_1 mcp_2 < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(7)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])')

say "PostgreSQL $("$pg/postgres" --version | awk '{print $3}') on 127.0.0.1:$pg_port"
# As postgres, from a directory it can read; TCP on loopback only (no Unix socket, whose path
# could outgrow the 107-byte limit under a deep checkout).
as_postgres() { (cd "$pg_dir" && runuser -u postgres -- "$@"); }
as_postgres "$pg/initdb" -D "$pg_dir/data" -A trust -U postgres -E UTF8 --no-sync >"$fleet/initdb.out"
as_postgres "$pg/pg_ctl" start -D "$pg_dir/data" -w -t 60 -l "$pg_dir/postgres.log" \
    -o "-h 127.0.0.1 -p $pg_port -c unix_socket_directories='' -c fsync=off" >/dev/null
as_postgres "$pg/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres fleet
database="postgres://postgres@127.0.0.1:$pg_port/fleet"

# wait_for_log LOG PATTERN WHAT: bounded wait (20 s) for a line in a started process's log.
wait_for_log() {
    for _ in $(seq 1 200); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        if ! kill -0 "${pids[-1]}" 2>/dev/null; then
            echo "fleet-peer: $3 exited:" >&2
            cat "$1" >&2
            return 1
        fi
        sleep 0.1
    done
    echo "fleet-peer: $3 did not start within 20 s" >&2
    return 1
}

# start_agent N PORT: A2A replica N on PORT, on the shared database, naming the balancer.
declare -A agent_pid
start_agent() {
    local log="$fleet/a2a-$1.log"
    "$agent_bin" --addr "127.0.0.1:$2" --agent slow --postgres "$database" \
        --public-url "http://127.0.0.1:$a2a_lb" --replica-timeout-ms "$replica_timeout_ms" >>"$log" 2>&1 &
    pids+=("$!")
    agent_pid[$2]=$!
    wait_for_log "$log" '^listening on' "A2A replica $1"
}
start_agent 1 "$a2a_1"
start_agent 2 "$a2a_2"
declare -A mcp_pid
for n in 1 2; do
    port_var="mcp_$n"
    RUST_BACKTRACE=0 "$mcp_bin" --http "127.0.0.1:${!port_var}" --stateless \
        --tasks-postgres "$database" --replica-timeout-ms "$replica_timeout_ms" \
        >"$fleet/mcp-$n.log" 2>&1 &
    pids+=("$!")
    mcp_pid[$n]=$!
    wait_for_log "$fleet/mcp-$n.log" '^listening on' "MCP replica $n"
done

sed -e "s|@DIR@|$fleet|g" -e "s|@A2A_LB@|$a2a_lb|g" -e "s|@MCP_LB@|$mcp_lb|g" \
    -e "s|@A2A_1@|$a2a_1|g" -e "s|@A2A_2@|$a2a_2|g" -e "s|@MCP_1@|$mcp_1|g" -e "s|@MCP_2@|$mcp_2|g" \
    .ci/fleet/nginx.conf.in >"$fleet/nginx/nginx.conf"
/usr/sbin/nginx -t -q -e "$fleet/nginx-error.log" -p "$fleet/nginx" -c "$fleet/nginx/nginx.conf"
/usr/sbin/nginx -e "$fleet/nginx-error.log" -p "$fleet/nginx" -c "$fleet/nginx/nginx.conf" &
pids+=("$!")
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$mcp_lb") 2>/dev/null && break
    sleep 0.1
done
say "nginx: A2A at 127.0.0.1:$a2a_lb -> $a2a_1, $a2a_2; MCP at 127.0.0.1:$mcp_lb -> $mcp_1, $mcp_2"

a2a_py() { timeout 150 "$a2a_venv/bin/python" tests/peers/fleet/fleet_a2a.py "http://127.0.0.1:$a2a_lb" "$@"; }

say "A2A: send, get, list, cancel and subscribe across replicas"
a2a_py checks | tee "$fleet/a2a-checks.out"
cancelled=$(sed -n 's/^cancelled \([^:]*\):.*/\1/p' "$fleet/a2a-checks.out")
stopped=$(grep -l "slow task $cancelled: cancelled after" "$fleet"/a2a-[12].log | wc -l)
if [ "$stopped" -ne 1 ]; then
    echo "fleet-peer: the cancelled task's executor did not report stopping on its replica" >&2
    exit 1
fi
say "A2A: the cancelled task's executor stopped: $(grep -h "slow task $cancelled: cancelled" "$fleet"/a2a-[12].log)"

say "A2A: a replica killed mid-task"
read -r _ orphan victim < <(a2a_py start-orphan | grep '^orphan ') || true
if [ -z "${orphan:-}" ] || [ -z "${victim:-}" ]; then
    echo "fleet-peer: could not start the task to orphan" >&2
    exit 1
fi
victim_port="${victim##*:}"
kill -9 "${agent_pid[$victim_port]}"
wait "${agent_pid[$victim_port]}" 2>/dev/null || true
killed=$(date +%s.%N)
bound=$(( replica_timeout_ms / 1000 + 15 ))
a2a_py await-failed "$orphan" "$bound"
failover=$(python3 -c "import time; print(f'{time.time() - $killed:.1f}')")
say "A2A: task $orphan failed ${failover} s after its replica was killed (replica timeout ${replica_timeout_ms} ms)"
victim_n=1
[ "$victim_port" = "$a2a_1" ] || victim_n=2
start_agent "$victim_n" "$victim_port"
sleep 2.5 # past nginx's fail_timeout for the replica that refused connections
a2a_py after-restart "$orphan" "$victim"

say "MCP: the official client through the balancer"
RUST_BACKTRACE=0 timeout 180 "$mcp_python" executor-core/tests/peers/mcp/official_client.py http \
    "http://127.0.0.1:$mcp_lb/mcp" | tee "$fleet/mcp-client.out"
python3 tests/peers/fleet/mcp_log.py "$fleet/mcp-access.log"
if grep -qi "session not found" "$fleet"/mcp-*.log "$fleet/mcp-client.out" "$fleet/mcp-access.log"; then
    echo "fleet-peer: \"session not found\" in the MCP logs" >&2
    exit 1
fi

say "MCP: tasks through the balancer (one PostgreSQL task store)"
timeout 180 "$mcp_python" executor-core/tests/peers/mcp/tasks_client.py http \
    "http://127.0.0.1:$mcp_lb/mcp" | tee "$fleet/mcp-tasks.out"
say "MCP: a replica killed mid-task"
tasks_py() { timeout 120 "$mcp_python" executor-core/tests/peers/mcp/tasks_client.py "$@"; }
mcp_orphan=$(tasks_py start "http://127.0.0.1:$mcp_1/mcp" | tail -n 1)
kill -9 "${mcp_pid[1]}"
wait "${mcp_pid[1]}" 2>/dev/null || true
killed=$(date +%s.%N)
tasks_py await-failed "http://127.0.0.1:$mcp_2/mcp" "$mcp_orphan" "$(( replica_timeout_ms / 1000 + 15 ))"
mcp_failover=$(python3 -c "import time; print(f'{time.time() - $killed:.1f}')")
say "MCP: task $mcp_orphan failed ${mcp_failover} s after its replica was killed (replica timeout ${replica_timeout_ms} ms)"
sleep 2.5 # past nginx's fail_timeout for the replica that refused connections
tasks_py await-failed "http://127.0.0.1:$mcp_lb/mcp" "$mcp_orphan" 10

say "MCP: two servers on the database read, finish and cancel each other's tasks; a dead replica's tasks fail"
EXECUTOR_TEST_POSTGRES="$database" timeout 600 cargo test --quiet -p tool-executor \
    --features mcp-http,task-postgres --test mcp_tasks --test task_store -- --include-ignored postgres

echo "fleet-peer: passed in $(($(date +%s) - started)) s (replica failover: A2A ${failover} s, MCP ${mcp_failover} s, at a ${replica_timeout_ms} ms timeout)"
