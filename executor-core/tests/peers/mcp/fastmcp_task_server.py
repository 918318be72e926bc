"""A FastMCP server (fastmcp 4.1.4 with `fastmcp-tasks` 4.1.4, in-memory docket) with tools that
run as MCP tasks (the 2026-07-28 `io.modelcontextprotocol/tasks` extension), for
`McpToolExecutor` against a task server nobody here wrote (tests/mcp_fastmcp_tasks.rs).

    python fastmcp_task_server.py            # stdio
    python fastmcp_task_server.py http PORT  # stateless streamable HTTP on 127.0.0.1:PORT/mcp

`EXECUTOR_FIXTURE_MARKS` names a directory where the server records each `tasks/cancel` it
answers (a file `cancel-<taskId>`; docket's in-memory backend does not interrupt a running
call, so the request itself is what shows the client cancelled) and where `forever` writes
`started` once it runs.
"""

from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path

import anyio
from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.utilities.tasks import TaskConfig
from fastmcp_tasks import TasksExtension

MARKS = os.environ.get("EXECUTOR_FIXTURE_MARKS")


class RecordingTasks(TasksExtension):
    """The extension, recording each `tasks/cancel` before answering it."""

    async def _handle_cancel(self, ctx, params):
        if MARKS:
            Path(MARKS, f"cancel-{params.task_id}").write_text("cancel")
        return await super()._handle_cancel(ctx, params)


mcp = FastMCP("fastmcp-tasks-fixture")
mcp.add_extension(RecordingTasks(url="memory://"))

POLL = TaskConfig(mode="optional", poll_interval=timedelta(milliseconds=50))


@mcp.tool(task=POLL)
async def tally(n: int, ctx: Context) -> int:
    """Adds 1..n, one number every 20 ms, reporting each as progress."""
    total = 0
    for i in range(1, n + 1):
        await anyio.sleep(0.02)
        total += i
        await ctx.report_progress(i, n, f"added {i} of {n}")
    return total


@mcp.tool(task=TaskConfig(mode="required", poll_interval=timedelta(milliseconds=50)))
async def summary(topic: str) -> dict:
    """A structured summary; runs only as a task."""
    await anyio.sleep(0.1)
    return {"topic": topic, "words": len(topic.split())}


@mcp.tool(task=POLL)
async def refuse(why: str) -> str:
    """Always fails with `why` (a tool error: the task completes with `isError`)."""
    await anyio.sleep(0.05)
    raise ToolError(f"refused: {why}")


@mcp.tool(task=POLL)
async def forever() -> str:
    """Runs until the process ends; says so in `started`."""
    if MARKS:
        Path(MARKS, "started").write_text("started")
    while True:
        await anyio.sleep(0.05)


@mcp.tool
def add(a: int, b: int) -> int:
    """Adds two integers (never a task)."""
    return a + b


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "http":
        mcp.run(
            transport="http",
            host="127.0.0.1",
            port=int(sys.argv[2]),
            stateless_http=True,
            show_banner=False,
        )
    else:
        mcp.run(show_banner=False)
