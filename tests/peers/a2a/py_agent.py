"""An A2A agent written with the official Python SDK (`a2a-sdk` 1.3 server, Starlette, uvicorn),
for `A2aToolExecutor` to call. Run by `.ci/a2a-peer.sh`:

    python py_agent.py

Listens on a free loopback port and prints `listening on http://127.0.0.1:PORT` once it does.

Skills:
- `sum` and `divide` publish their JSON Schemas in the card (the tool-schemas extension), so a
  caller sends a data part `{"tool": ..., "arguments": {...}}`; both answer in a `result`
  artifact, `sum` after a progress update, `divide` by zero fails with a code in the status
  message's metadata (no failure class: this is not one of our agents);
- `shout` takes text and answers it upper-cased; `please fail` fails (no code, no class),
  `please wait` works until cancelled (30 s at most), and `cancels?` answers how many tasks were
  cancelled so far.
"""

import asyncio
import socket

import uvicorn
from a2a.helpers.proto_helpers import new_task_from_user_message
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore, TaskUpdater
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentExtension,
    AgentInterface,
    AgentSkill,
    Part,
    TaskState,
)
from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict, ParseDict
from starlette.applications import Starlette

TOOL_SCHEMAS_EXTENSION = "urn:executor:a2a:tool-schemas:v1"
NUMBERS = {
    "type": "object",
    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
    "required": ["a", "b"],
}


def card(url: str) -> AgentCard:
    schemas = {
        "sum": {"inputSchema": NUMBERS, "outputSchema": {"type": "number"}},
        "divide": {"inputSchema": NUMBERS, "outputSchema": {"type": "number"}},
    }
    return AgentCard(
        name="Python SDK agent",
        description="An a2a-sdk agent: two skills with published schemas, one text skill.",
        version="1.0.0",
        supported_interfaces=[AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0")],
        capabilities=AgentCapabilities(
            streaming=True,
            extensions=[
                AgentExtension(
                    uri=TOOL_SCHEMAS_EXTENSION,
                    required=False,
                    params=ParseDict({"skills": schemas}, struct_pb2.Struct()),
                )
            ],
        ),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        skills=[
            AgentSkill(id="sum", name="Sum", description="Adds a and b.", tags=["math", "read-only"]),
            AgentSkill(id="divide", name="divide", description="Divides a by b.", tags=["math"]),
            AgentSkill(id="shout", name="Shout", description="Answers in capitals.", tags=["text"], examples=["hello"]),
        ],
    )


def value(data) -> struct_pb2.Value:
    return ParseDict(data, struct_pb2.Value())


class Fixture(AgentExecutor):
    def __init__(self) -> None:
        self.cancels = 0

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        task = context.current_task or new_task_from_user_message(context.message)
        await event_queue.enqueue_event(task)
        updater = TaskUpdater(event_queue, task.id, task.context_id)
        calls = [MessageToDict(p.data) for p in context.message.parts if p.HasField("data")]
        if calls:
            await self.tool(updater, calls[0])
        else:
            await self.text(updater, context.get_user_input())

    async def tool(self, updater: TaskUpdater, call: dict) -> None:
        tool, args = call.get("tool"), call.get("arguments", {})
        a, b = args.get("a"), args.get("b")
        if tool == "sum":
            note = updater.new_agent_message([Part(text="adding")])
            await updater.update_status(TaskState.TASK_STATE_WORKING, message=note, metadata={"progress": 0.5})
            await updater.add_artifact([Part(data=value(a + b))], artifact_id="result")
            await updater.complete()
        elif tool == "divide" and b == 0:
            note = updater.new_agent_message([Part(text="cannot divide by zero")])
            note.metadata.update({"code": "division_by_zero", "data": {"a": a}})
            await updater.failed(note)
        elif tool == "divide":
            await updater.add_artifact([Part(data=value(a / b))], artifact_id="result")
            await updater.complete()
        else:
            await updater.failed(updater.new_agent_message([Part(text=f"no tool {tool!r}")]))

    async def text(self, updater: TaskUpdater, text: str) -> None:
        if text == "please fail":
            await updater.failed(updater.new_agent_message([Part(text="refused: please fail")]))
        elif text == "please wait":
            for _ in range(300):
                await updater.update_status(TaskState.TASK_STATE_WORKING)
                await asyncio.sleep(0.1)
            await updater.complete(updater.new_agent_message([Part(text="waited")]))
        elif text == "cancels?":
            await updater.add_artifact([Part(text=str(self.cancels))], artifact_id="answer")
            await updater.complete()
        else:
            await updater.add_artifact([Part(text=text.upper())], artifact_id="answer")
            await updater.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        self.cancels += 1
        await TaskUpdater(event_queue, context.task_id, context.context_id).cancel()


def main() -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    agent_card = card(url)
    handler = DefaultRequestHandler(agent_executor=Fixture(), task_store=InMemoryTaskStore(), agent_card=agent_card)
    app = Starlette(routes=create_agent_card_routes(agent_card) + create_jsonrpc_routes(handler, rpc_url="/"))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    print(f"listening on {url}", flush=True)
    asyncio.run(server.serve(sockets=[sock]))


if __name__ == "__main__":
    main()
