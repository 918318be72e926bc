"""Reads the balancer's MCP access log after the official client's run (`.ci/fleet-peer.sh`):
every request, in the order the balancer received them, landed on the other replica than the
one before, both replicas served `tools/call`s, the abandoned call's stream was closed through
the balancer, and nothing else was refused.

    python3 mcp_log.py ACCESS_LOG

Each line is `$msec $request_time $upstream_addr $status $request_method "$http_mcp_method"`,
written when the response ends; a request's arrival is `$msec - $request_time`.
"""

import collections
import sys


def main() -> None:
    rows = []
    with open(sys.argv[1], encoding="utf-8") as log:
        for number, line in enumerate(log):
            ended, took, upstream, status, verb, method = line.split(maxsplit=5)
            rows.append((round(float(ended) - float(took), 3), number, upstream, int(status), verb, method.strip().strip('"')))
    rows.sort()
    if len(rows) < 10:
        raise SystemExit(f"mcp-log: only {len(rows)} requests logged")
    # Expected: the client's deliberate unknown method (404), and the one `slow` call it
    # abandons, whose stream it closes (nginx logs 499, client closed).
    abandoned = [r for r in rows if r[3] == 499 and r[5] == "tools/call"]
    if len(abandoned) != 1:
        raise SystemExit(f"mcp-log: expected one abandoned tools/call (499), got {abandoned}")
    refused = [r for r in rows if r[3] >= 400 and r not in abandoned and r[5] != "no/such_method"]
    if refused:
        raise SystemExit(f"mcp-log: refused requests (a stateless replica must not answer 4xx/5xx): {refused}")
    repeats = [(a, b) for a, b in zip(rows, rows[1:]) if a[2] == b[2]]
    if repeats:
        raise SystemExit(f"mcp-log: consecutive requests on one replica: {repeats}")
    calls = collections.Counter(r[2] for r in rows if r[5] == "tools/call")
    if len(calls) != 2 or min(calls.values()) < 5:
        raise SystemExit(f"mcp-log: tools/call per replica: {dict(calls)}")
    methods = collections.Counter(r[5] for r in rows)
    print(f"mcp-log: {len(rows)} requests alternating between 2 replicas; tools/call per replica {dict(calls)}; methods {dict(methods)}")


if __name__ == "__main__":
    main()
