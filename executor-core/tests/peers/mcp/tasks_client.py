"""The official MCP Python SDK client (mcp 2.3.0) running `examples/mcp_server`'s `report`
tool as a task, through a small test extension for `io.modelcontextprotocol/tasks`
(2026-07-28; the SDK has no tasks support of its own, only the `ClientExtension` seam).

    python tasks_client.py stdio PATH/TO/mcp_server
    python tasks_client.py http http://127.0.0.1:PORT/mcp
    python tasks_client.py start URL            # a 60 s report; prints its task id
    python tasks_client.py await-failed URL ID SECONDS   # until the task is failed (replica_lost)

Checks: without the extension a `task = "required"` tool is JSON-RPC -32021 naming the
extension; with it the call comes back as a task the extension polls at `pollIntervalMs`
(`tasks/get`, with `Mcp-Name` set by the SDK) until `completed`, its status messages on the
way; a task is cancelled with `tasks/cancel` and reads `cancelled` after; an unknown task id is
-32602. Exits non-zero on the first failed check.
"""

from __future__ import annotations

import sys
from typing import Any, Literal

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, Result
from mcp_types._types import Request, RequestParams
from pydantic import ConfigDict, Field

TASKS = "io.modelcontextprotocol/tasks"

checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


class CreatedTask(Result):
    """`CreateTaskResult`: the task a call became."""

    model_config = ConfigDict(extra="allow")
    result_type: Literal["task"] = Field(alias="resultType")
    task_id: str = Field(alias="taskId")
    status: str
    ttl_ms: int | None = Field(alias="ttlMs")
    poll_interval_ms: int | None = Field(alias="pollIntervalMs", default=None)


class DetailedTask(Result):
    """`tasks/get`'s answer."""

    model_config = ConfigDict(extra="allow")
    task_id: str = Field(alias="taskId")
    status: str
    status_message: str | None = Field(alias="statusMessage", default=None)
    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None


class Ack(Result):
    model_config = ConfigDict(extra="allow")


class TaskParams(RequestParams):
    task_id: str = Field(alias="taskId")


class GetTask(Request[TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    name_param = "taskId"


class CancelTask(Request[TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    name_param = "taskId"


class TasksExtension(ClientExtension):
    """Declares the extension and resolves a task by polling it to its end."""

    identifier = TASKS

    def __init__(self) -> None:
        self.created: list[CreatedTask] = []
        self.messages: list[str] = []

    def claims(self):
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self.resolve)]

    async def resolve(self, created: CreatedTask, ctx: ClaimContext) -> CallToolResult:
        self.created.append(created)
        while True:
            await anyio.sleep((created.poll_interval_ms or 1000) / 1000)
            task = await get(ctx.session, created.task_id)
            if task.status_message and task.status_message not in self.messages:
                self.messages.append(task.status_message)
            if task.status == "completed":
                return CallToolResult.model_validate(task.result)
            if task.status in ("failed", "cancelled", "input_required"):
                raise RuntimeError(f"task {created.task_id} ended {task.status}: {task.error}")


async def get(session, task_id: str) -> DetailedTask:
    request = GetTask(params=TaskParams(taskId=task_id))
    return await session.send_request(request, DetailedTask)


async def cancel(session, task_id: str) -> None:
    await session.send_request(CancelTask(params=TaskParams(taskId=task_id)), Ack)


async def expect_error(coro, code: int, what: str) -> MCPError:
    try:
        await coro
    except MCPError as e:
        check(e.code == code, f"{what}: expected JSON-RPC {code}, got {e.code} {e.message!r}")
        return e
    raise AssertionError(f"{what}: expected JSON-RPC error {code}, got a result")


async def without_extension(server) -> None:
    async with Client(server) as client:
        error = await expect_error(
            client.call_tool("report", {"topic": "q3", "seconds": 1}), -32021, "no extension"
        )
        required = (error.data or {}).get("requiredCapabilities", {})
        check(TASKS in required.get("extensions", {}), f"-32021 names the extension: {error.data}")


async def with_extension(server) -> None:
    tasks = TasksExtension()
    async with Client(server, extensions=[tasks]) as client:
        result = await client.call_tool("report", {"topic": "q3", "seconds": 2})
        check(not result.is_error, f"report: {result}")
        check(result.structured_content == {"result": "report on q3: 2 sections"}, f"{result}")
        check(len(tasks.created) == 1, f"the call became a task: {tasks.created}")
        created = tasks.created[0]
        check(len(created.task_id) == 32 and created.ttl_ms == 600_000, f"{created}")
        check(created.poll_interval_ms == 1000, f"the tool's poll interval: {created}")
        check(
            any(m.startswith("writing section ") for m in tasks.messages),
            f"status messages while it ran: {tasks.messages}",
        )

        # The claimed shape itself, then cancelled.
        created = await client.session.call_tool(
            "report", {"topic": "long", "seconds": 60}, allow_claimed=True
        )
        check(isinstance(created, CreatedTask), f"a task: {created}")
        task_id = created.task_id
        check((await get(client.session, task_id)).status == "working", "durable before return")
        await cancel(client.session, task_id)
        status = "working"
        with anyio.fail_after(10):
            while status == "working":
                await anyio.sleep(0.05)
                status = (await get(client.session, task_id)).status
        check(status == "cancelled", f"cancelled: {status}")
        await cancel(client.session, task_id)
        check((await get(client.session, task_id)).status == "cancelled", "cancelled is final")
        await expect_error(get(client.session, "0" * 32), -32602, "an unknown task")


async def start(url: str) -> None:
    """Starts a 60 s report as a task and prints its id (for a replica to be killed)."""
    async with Client(url, extensions=[TasksExtension()]) as client:
        created = await client.session.call_tool(
            "report", {"topic": "orphan", "seconds": 60}, allow_claimed=True
        )
        check(isinstance(created, CreatedTask), f"a task: {created}")
        print(created.task_id)


async def await_failed(url: str, task_id: str, seconds: float) -> None:
    """Polls the task until it is failed because its replica died."""
    async with Client(url, extensions=[TasksExtension()]) as client:
        with anyio.fail_after(seconds):
            while (task := await get(client.session, task_id)).status == "working":
                await anyio.sleep(0.1)
        check(task.status == "failed", f"failed: {task}")
        data = (task.error or {}).get("data") or {}
        check(data.get("code") == "replica_lost", f"replica_lost: {task.error}")
        print(f"task {task_id} failed: {task.error['message']}")


async def main() -> None:
    if sys.argv[1] == "start":
        return await start(sys.argv[2])
    if sys.argv[1] == "await-failed":
        return await await_failed(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    transport, target = sys.argv[1], sys.argv[2]
    if transport == "stdio":
        server = StdioServerParameters(command=target, args=[])
    elif transport == "http":
        server = target
    else:
        raise SystemExit(f"unknown transport {transport!r}")
    await without_extension(server)
    await with_extension(server)
    print(f"official MCP client with a tasks extension over {transport}: {checks} checks passed")


if __name__ == "__main__":
    anyio.run(main)
