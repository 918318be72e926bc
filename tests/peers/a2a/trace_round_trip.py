"""One W3C trace from the official MCP Python client through our MCP server and an A2A hop.

    python trace_round_trip.py PATH/TO/bridges

Starts `bridges --traced` (`whose_trace` served by a ToolAgent, reached through
A2aToolExecutor, re-served over MCP on stdio), starts a trace here (a fresh trace id and span
id), calls the tool with `_meta.traceparent`, `tracestate` and `baggage` (SEP-414), and checks
what the tool saw behind the A2A hop: the same trace id, a parent that is not our span (each
hop is a span of its own), the same state and baggage. A call without a trace sees none.
"""

from __future__ import annotations

import secrets
import sys

import anyio
from mcp import Client, StdioServerParameters


async def main(bridges: str) -> None:
    trace_id = secrets.token_hex(16)
    our_span = secrets.token_hex(8)
    meta = {
        "traceparent": f"00-{trace_id}-{our_span}-01",
        "tracestate": "python=1",
        "baggage": "user=py",
    }
    checks = 0
    server = StdioServerParameters(command=bridges, args=["--traced"])
    async with Client(server) as client:
        names = [t.name for t in (await client.list_tools()).tools]
        assert names == ["whose_trace"], names
        result = await client.call_tool("whose_trace", {}, meta=meta)
        assert not result.is_error, result
        seen = result.structured_content["result"]
        assert seen["trace_id"] == trace_id, (seen, trace_id)
        checks += 1
        assert seen["parent_id"] != our_span, ("the hops are spans of their own", seen)
        assert len(seen["parent_id"]) == 16, seen
        checks += 1
        assert seen["tracestate"] == "python=1" and seen["baggage"] == "user=py", seen
        checks += 1
        untraced = await client.call_tool("whose_trace", {})
        assert untraced.structured_content["result"] is None, untraced
        checks += 1
    print(f"trace round trip (Python client -> MCP -> A2A -> tool): {checks} checks passed")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
