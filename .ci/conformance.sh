#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# conformance-setup.sh) against `examples/conformance_server` on streamable HTTP: the whole
# active server suite, every fixture declared with our macros and public API. Fails on any
# failed check; no expected-failures file.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD
# shellcheck source=conformance-setup.sh
source .ci/conformance-setup.sh
target="${CARGO_TARGET_DIR:-$root/target}"

# The active server suite of 0.1.16 has 30 scenarios; a different count means the pin moved or
# the run broke early, and is a failure too.
expected_scenarios=30

cargo build --quiet -p examples --example conformance_server
log="$target/conformance/server-run.log"
server_log="$target/conformance/server.log"
"$target/debug/examples/conformance_server" --http 127.0.0.1:0 2>"$server_log" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
url=""
for _ in $(seq 1 300); do
    url=$(sed -n 's/^listening on //p' "$server_log" | head -n 1)
    [ -n "$url" ] && break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "conformance: the server did not start" >&2
    cat "$server_log" >&2
    exit 1
fi

echo "conformance: active server suite against $url"
# The CLI's own exit code counts warnings too; the summary below decides, on failures only.
conformance server --url "$url" >"$log" 2>&1 || true

python3 - "$log" "$expected_scenarios" <<'PY'
import re, sys
log, expected = sys.argv[1], int(sys.argv[2])
lines = re.findall(r"^([✓✗]) (\S+): (\d+) passed, (\d+) failed", open(log).read(), re.M)
if len(lines) != expected:
    sys.exit(f"conformance: expected {expected} scenario results, got {len(lines)} (see {log})")
failed = [name for mark, name, ok, bad in lines if int(bad) > 0]
passed_checks = sum(int(ok) for _, _, ok, _ in lines)
total_checks = sum(int(ok) + int(bad) for _, _, ok, bad in lines)
print(f"conformance: {len(lines) - len(failed)}/{len(lines)} scenarios, {passed_checks}/{total_checks} checks passed")
if failed:
    sys.exit(f"conformance: failed scenarios: {', '.join(failed)} (see {log})")
PY
