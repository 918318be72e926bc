"""The round trip our tools -> ToolAgent -> A2aToolExecutor -> McpServer -> the official MCP
Python client, against the same tools served straight over MCP.

    python mcp_round_trip.py PATH/TO/bridges

Starts `bridges` (the quickstart tools through A2A, re-served over MCP on stdio) and
`bridges --direct` (the same tools, served directly), lists both, calls every tool with the
same arguments on both (successes, typed failures, bad arguments) and checks that each answer
is the same JSON: content, structured content, `isError` and the failure details. Exits
non-zero on the first difference.
"""

from __future__ import annotations

import sys

import anyio
from mcp import Client, StdioServerParameters

# (tool, arguments), in order: `bump` and `read` share the counter, so both servers see the
# same sequence.
CALLS = [
    ("get_weather", {"city": "Paris", "unit": "fahrenheit"}),
    ("get_weather", {"city": "Oslo"}),
    ("get_weather", {"city": "Atlantis"}),
    ("get_weather", {"city": "Busy"}),
    ("add", {"a": 2, "b": 40}),
    ("add", {"a": "two", "b": 1}),
    ("add", {"a": 1}),
    ("join_words", {"words": ["a", "b", "c"], "separator": "-", "upper": True}),
    ("trim", {"text": "  padded  "}),
    ("bump", {"by": 2}),
    ("bump", {}),
    ("read", {}),
]


def listed(tools) -> list[dict]:
    return [
        {
            "name": t.name,
            "description": t.description,
            "inputSchema": t.input_schema,
            "outputSchema": t.output_schema,
        }
        for t in tools
    ]


def answer(result) -> dict:
    return {
        "content": [c.model_dump(exclude_none=True) for c in result.content],
        "structuredContent": result.structured_content,
        "isError": bool(result.is_error),
        "meta": result.meta,
    }


async def answers(server: StdioServerParameters) -> tuple[list[dict], list[dict]]:
    async with Client(server) as client:
        tools = listed((await client.list_tools()).tools)
        results = []
        for tool, arguments in CALLS:
            with anyio.fail_after(20):
                results.append(answer(await client.call_tool(tool, arguments)))
    return tools, results


async def main() -> None:
    with anyio.fail_after(120):
        await compare(sys.argv[1])


async def compare(bridges: str) -> None:
    bridged_tools, bridged = await answers(StdioServerParameters(command=bridges, args=[]))
    direct_tools, direct = await answers(StdioServerParameters(command=bridges, args=["--direct"]))
    if bridged_tools != direct_tools:
        raise AssertionError(f"tools/list differs:\n through A2A {bridged_tools}\n directly {direct_tools}")
    errors = 0
    for (tool, arguments), through, straight in zip(CALLS, bridged, direct):
        if through != straight:
            raise AssertionError(f"{tool}({arguments}) differs:\n through A2A {through}\n directly {straight}")
        errors += through["isError"]
    if errors < 4:
        raise AssertionError(f"only {errors} failures among the calls: the typed-failure cases did not fail")
    print(f"mcp round trip: {len(direct_tools)} tools listed alike, {len(CALLS)} calls ({errors} failures) answered alike")


if __name__ == "__main__":
    anyio.run(main)
