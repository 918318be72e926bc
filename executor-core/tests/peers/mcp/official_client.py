"""The official MCP Python SDK client against `examples/mcp_server`.

    python official_client.py stdio PATH/TO/mcp_server
    python official_client.py http http://127.0.0.1:PORT/mcp

Connects in the client's default mode (it probes `server/discover` and negotiates protocol
2026-07-28: no `initialize`, `_meta` on every request), lists the tools, validates every schema as JSON Schema 2020-12 with an object
root, and calls every demo tool: success, `isError`, invalid arguments, a panicking tool,
progress, cancellation, an unknown tool and an unknown method. Exits non-zero on the first
failed check.
"""

from __future__ import annotations

import json
import math
import sys
import time

import anyio
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import MCP_METHOD_HEADER, MCP_PROTOCOL_VERSION_HEADER

EXPECTED_TOOLS = ["add", "echo", "divide", "slow", "report", "get_weather", "boom"]

checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def text_of(result) -> str:
    """The first text block: a result's text, or a failure's message (the details follow)."""
    texts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
    return texts[0] if texts else ""


def failure_of(result) -> dict:
    """A failed call's details: `_meta["executor/failure"]`."""
    return (result.meta or {})["executor/failure"]


async def expect_error(coro, code: int, what: str) -> None:
    try:
        await coro
    except MCPError as e:
        check(e.code == code, f"{what}: expected JSON-RPC {code}, got {e.code} {e.message!r}")
        return
    raise AssertionError(f"{what}: expected JSON-RPC error {code}, got a result")


async def run(client: Client) -> None:
    info = client.server_info
    check(info is not None and info.name == "examples", f"serverInfo names the user's crate: {info}")
    check(info.version == "0.1.0", f"serverInfo carries the user's version: {info}")
    check(client.protocol_version == "2026-07-28", f"negotiated 2026-07-28: {client.protocol_version}")

    listed = await client.list_tools()
    names = [t.name for t in listed.tools]
    check(names == EXPECTED_TOOLS, f"tools in declaration order: {names}")
    tools = {t.name: t for t in listed.tools}
    for tool in listed.tools:
        for kind, schema in (("input", tool.input_schema), ("output", tool.output_schema)):
            check(schema is not None, f"{tool.name} has an {kind} schema")
            Draft202012Validator.check_schema(schema)
            check(schema.get("type") == "object", f"{tool.name} {kind} schema root is an object: {schema}")
        check(bool(tool.description), f"{tool.name} has a description")
    check(tools["add"].annotations.read_only_hint is True, "add is read-only")
    check(tools["get_weather"].title == "Get weather", "get_weather has its title")
    check(tools["get_weather"].annotations.open_world_hint is True, "get_weather is open-world")
    check(tools["add"].input_schema["required"] == ["a", "b"], "add requires a and b")
    check(tools["get_weather"].input_schema["required"] == ["city"], "unit is optional")
    check(
        tools["add"].output_schema["properties"]["result"]["type"] == "integer",
        "a non-object output schema is wrapped as {result}",
    )

    result = await client.call_tool("add", {"a": 2, "b": 40})
    check(not result.is_error and result.structured_content == {"result": 42}, f"add: {result}")
    check(text_of(result) == "42", f"add text block: {text_of(result)!r}")

    result = await client.call_tool("echo", {"text": "héllo"})
    check(result.structured_content == {"result": "héllo"} and text_of(result) == "héllo", f"echo: {result}")

    result = await client.call_tool("divide", {"a": 1, "b": 4})
    check(result.structured_content == {"result": 0.25}, f"divide: {result}")

    result = await client.call_tool("divide", {"a": 1, "b": 0})
    check(result.is_error, f"divide by zero is isError: {result}")
    check("division by zero" in text_of(result), f"divide by zero says why: {text_of(result)!r}")
    details = failure_of(result)
    check(result.structured_content is None, f"no structuredContent on a failure: {result}")
    check(details["code"] == "division_by_zero", f"code: {details}")
    check(details["classification"] == "terminal", f"terminal: {details}")
    check(json.loads(result.content[1].text) == details, f"the details as a second text block: {result}")

    result = await client.call_tool("get_weather", {"city": "Paris", "unit": "fahrenheit"})
    weather = result.structured_content
    check(not result.is_error and weather["city"] == "Paris" and weather["unit"] == "fahrenheit", f"{result}")
    check(math.isclose(weather["temperature"], 65.3), f"temperature: {weather}")
    Draft202012Validator(tools["get_weather"].output_schema).validate(weather)
    result = await client.call_tool("get_weather", {"city": "Oslo"})
    check(result.structured_content["unit"] == "celsius", f"default unit: {result}")

    result = await client.call_tool("add", {"a": "two", "b": 1})
    check(result.is_error, f"invalid arguments are isError: {result}")
    check(text_of(result) == 'a: expected an integer, got "two"', f"invalid arguments text: {text_of(result)!r}")
    result = await client.call_tool("add", {"a": 1})
    check(result.is_error and text_of(result).startswith("b: missing required argument"), f"{text_of(result)!r}")
    result = await client.call_tool("echo", {"text": "x", "loud": True})
    check(result.is_error and "loud: unknown argument" in text_of(result), f"unknown argument: {text_of(result)!r}")

    result = await client.call_tool("boom", {})
    check(result.is_error and text_of(result) == "tool `boom` panicked", f"panic: {result}")
    check(failure_of(result)["kind"] == "internal", f"panic kind: {result}")
    check(result.structured_content is None, f"no structuredContent on a panic: {result}")

    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, total, message))

    result = await client.call_tool("slow", {"seconds": 1}, progress_callback=on_progress)
    check(result.structured_content == {"result": "waited 1s"}, f"slow: {result}")
    check(len(progress) >= 5, f"progress notifications arrived: {progress}")
    values = [p[0] for p in progress]
    check(values == sorted(values) and values[-1] == 1.0, f"progress increases to 1: {values}")
    check(progress[0][1] == 1.0 and progress[0][2] == "1/10", f"progress carries total and message: {progress[0]}")

    started = time.monotonic()
    with anyio.move_on_after(0.5) as scope:
        await client.call_tool("slow", {"seconds": 60})
    check(scope.cancelled_caught, "a 60 s call was abandoned")
    result = await client.call_tool("add", {"a": 1, "b": 1})
    check(result.structured_content == {"result": 2}, "the server answers after a cancelled call")
    check(time.monotonic() - started < 30, "cancellation did not wait for the tool")

    await expect_error(client.session.call_tool("no_such_tool", {}), -32602, "unknown tool")
    await expect_error(
        # A raw request is not stamped by the SDK: give it the `_meta` and headers 2026-07-28
        # asks of every request, so only the method is wrong.
        client.session._dispatcher.send_raw_request(  # noqa: SLF001
            "no/such_method",
            {"_meta": {
                "io.modelcontextprotocol/protocolVersion": client.protocol_version,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "peer-check", "version": "1"},
            }},
            {"headers": {MCP_PROTOCOL_VERSION_HEADER: client.protocol_version, MCP_METHOD_HEADER: "no/such_method"}},
        ),
        -32601,
        "unknown method",
    )

    result = await client.call_tool("echo", {"text": "still here"})
    check(text_of(result) == "still here", "the server still answers at the end")


async def main() -> None:
    transport, target = sys.argv[1], sys.argv[2]
    if transport == "stdio":
        server = StdioServerParameters(command=target, args=[])
    elif transport == "http":
        server = target
    else:
        raise SystemExit(f"unknown transport {transport!r}")
    async with Client(server) as client:
        await run(client)
    print(f"official MCP client over {transport}: {checks} checks passed")


if __name__ == "__main__":
    anyio.run(main)
