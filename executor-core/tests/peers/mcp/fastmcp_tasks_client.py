"""The FastMCP client (fastmcp 4.1.4 with `fastmcp-tasks` 4.1.4) running `examples/mcp_server`'s
`report` tool as an MCP task (the 2026-07-28 `io.modelcontextprotocol/tasks` extension, which is
the only form `fastmcp-tasks` speaks: its client extension is registered on every FastMCP
`Client` when `fastmcp_tasks` is imported, and is inert on a 2025-11-25 connection).

    python fastmcp_tasks_client.py stdio PATH/TO/mcp_server
    python fastmcp_tasks_client.py http http://127.0.0.1:PORT/mcp

Checks: before `fastmcp_tasks` is imported a FastMCP client does not declare the extension and
the `task = "required"` tool is JSON-RPC -32021 naming it; after, `call_tool` comes back with
the report as a plain call would (FastMCP polled `tasks/get` under the hood); `call_tool_task`
gives a handle whose `status()` is `working` with the section being written as its status
message, whose `result()` is the report; a long one is cancelled with `tasks/cancel` and
`wait()` sees `cancelled`, and its `result()` raises. Exits non-zero on the first failed check.
"""

from __future__ import annotations

import sys

import anyio
from fastmcp import Client
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError
from mcp.shared.exceptions import MCPError

TASKS = "io.modelcontextprotocol/tasks"

checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def connect(transport: str, target: str) -> Client:
    if transport == "stdio":
        return Client(StdioTransport(command=target, args=[], keep_alive=False))
    return Client(target)


async def without_extension(transport: str, target: str) -> None:
    """A FastMCP client before `fastmcp_tasks` is imported declares no tasks extension."""
    async with connect(transport, target) as client:
        try:
            await client.call_tool("report", {"topic": "q3", "seconds": 1})
        except MCPError as e:
            check(e.code == -32021, f"expected -32021, got {e.code} {e.message!r}")
            required = (e.data or {}).get("requiredCapabilities", {})
            check(TASKS in required.get("extensions", {}), f"-32021 names the extension: {e.data}")
            return
        except ToolError as e:
            raise AssertionError(f"expected JSON-RPC -32021, got a tool error: {e}") from e
        raise AssertionError("expected JSON-RPC -32021 without the tasks extension")


async def with_extension(transport: str, target: str) -> None:
    import fastmcp_tasks  # registers the client extension on every `Client` from here on
    from fastmcp_tasks import call_tool_task

    check(fastmcp_tasks.__version__ == "4.1.4", f"fastmcp-tasks {fastmcp_tasks.__version__}")
    async with connect(transport, target) as client:
        # Transparent: FastMCP declares the extension, gets a task, polls it to the end.
        result = await client.call_tool("report", {"topic": "q3", "seconds": 2})
        check(not result.is_error, f"report: {result}")
        check(
            result.content[0].text == "report on q3: 2 sections",
            f"the report as a plain call: {result}",
        )
        check(
            result.structured_content == {"result": "report on q3: 2 sections"},
            f"structured content: {result.structured_content}",
        )

        # The explicit handle: status while it runs, then the result.
        task = await call_tool_task(client, "report", {"topic": "q4", "seconds": 3})
        created = task.create_result
        check(len(task.task_id) == 32, f"an unguessable id: {task.task_id}")
        check(created.ttl_ms == 600_000 and created.poll_interval_ms == 1000, f"{created}")
        check(created.status == "working", f"created working: {created}")
        message = None
        with anyio.fail_after(10):
            while message is None:
                status = await task.status()
                check(status.status == "working", f"still working: {status}")
                message = status.status_message
                if message is None:
                    await anyio.sleep(0.05)
        check(message.startswith("writing section "), f"the status message: {message!r}")
        done = await task.result()
        check(
            done.structured_content == {"result": "report on q4: 3 sections"},
            f"the handle's result: {done}",
        )
        final = await task.status()
        check(final.status == "completed", f"completed: {final}")
        check(
            final.result["structuredContent"] == {"result": "report on q4: 3 sections"},
            f"tasks/get inlines the result: {final.result}",
        )

        # Cancelled: `tasks/cancel`, then `wait()` sees `cancelled` and `result()` raises.
        task = await call_tool_task(client, "report", {"topic": "long", "seconds": 60})
        check((await task.status()).status == "working", "durable before return")
        await task.cancel()
        final = await task.wait(timeout=10)
        check(final.status == "cancelled", f"cancelled: {final}")
        try:
            await task.result()
        except ToolError as e:
            check("cancelled" in str(e), f"a cancelled task's result: {e}")
        else:
            raise AssertionError("the result of a cancelled task must raise")
        await task.cancel()
        check((await task.status()).status == "cancelled", "cancelled is final")

        # A tool that is not a task still answers directly.
        plain = await client.call_tool("add", {"a": 2, "b": 40})
        check(plain.structured_content == {"result": 42}, f"a plain call: {plain}")


async def main() -> None:
    transport, target = sys.argv[1], sys.argv[2]
    if transport not in ("stdio", "http"):
        raise SystemExit(f"unknown transport {transport!r}")
    await without_extension(transport, target)
    await with_extension(transport, target)
    print(f"FastMCP client with fastmcp-tasks over {transport}: {checks} checks passed")


if __name__ == "__main__":
    anyio.run(main)
