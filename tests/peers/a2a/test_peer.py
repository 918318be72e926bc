"""The official A2A Python SDK (`a2a-sdk`) against `examples/a2a_agent`.

Run by `.ci/a2a-peer.sh`, which starts the three agents and passes their base URLs:

    python test_peer.py --echo URL --slow URL --tools URL

Every check that fails raises; the script exits non-zero on the first failure and prints
`a2a peer: N passed, 0 failed` when all pass.
"""

import argparse
import asyncio
import sys
import time
import uuid

import httpx
from a2a.client import A2ACardResolver, ClientConfig, create_client
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    Message,
    Part,
    Role,
    SendMessageRequest,
    TaskState,
)
from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict, ParseDict

TIMEOUT = 30.0
PASSED: list[str] = []


def check(name: str, condition: bool, detail: object = "") -> None:
    if not condition:
        raise AssertionError(f"{name}: {detail}")


def text_message(text: str) -> SendMessageRequest:
    return SendMessageRequest(
        message=Message(message_id=str(uuid.uuid4()), role=Role.ROLE_USER, parts=[Part(text=text)])
    )


def data_message(data: dict) -> SendMessageRequest:
    return SendMessageRequest(
        message=Message(message_id=str(uuid.uuid4()), role=Role.ROLE_USER, parts=[Part(data=ParseDict(data, struct_pb2.Value()))])
    )


def state_name(state: int) -> str:
    return TaskState.Name(state)


def artifact_texts(task) -> list[str]:
    return [p.text for a in task.artifacts for p in a.parts if p.HasField("text")]


async def collect(client, request) -> list:
    events = []
    async for event in client.send_message(request):
        events.append(event)
    return events


def final_task_of(events):
    """The task a non-streaming send answered with."""
    check("one response", len(events) == 1, events)
    check("a task response", events[0].HasField("task"), events[0])
    return events[0].task


async def test_card(url: str, name: str, skill_ids: list[str]) -> None:
    async with httpx.AsyncClient(timeout=TIMEOUT) as http:
        card = await A2ACardResolver(http, url).get_agent_card()
    check("card name", card.name == name, card.name)
    check("card skills", [s.id for s in card.skills] == skill_ids, [s.id for s in card.skills])
    bindings = sorted(i.protocol_binding for i in card.supported_interfaces)
    check("card interfaces", bindings == ["HTTP+JSON", "JSONRPC"], bindings)
    check("card urls", all(i.url == url for i in card.supported_interfaces), card.supported_interfaces)
    check("card streaming", card.capabilities.streaming, card.capabilities)
    PASSED.append(f"card {name}")


async def test_echo(url: str) -> None:
    await test_card(url, "Echo", ["echo"])

    # Send (blocking), then get.
    client = await create_client(url, client_config=ClientConfig(streaming=False))
    try:
        task = final_task_of(await collect(client, text_message("hello from python")))
        check("send: completed", task.status.state == TaskState.TASK_STATE_COMPLETED, task)
        check("send: artifact", artifact_texts(task) == ["hello from python"], task)
        PASSED.append("send")

        got = await client.get_task(GetTaskRequest(id=task.id))
        check("get: same task", got.id == task.id, got)
        check("get: completed", got.status.state == TaskState.TASK_STATE_COMPLETED, got)
        check("get: artifact", artifact_texts(got) == ["hello from python"], got)
        PASSED.append("get")

        try:
            await client.get_task(GetTaskRequest(id="no-such-task"))
        except Exception as error:  # the SDK's TaskNotFoundError
            check("get unknown: task not found", "not found" in str(error).lower(), repr(error))
        else:
            raise AssertionError("get unknown: no error")
        PASSED.append("get unknown task")
    finally:
        await client.close()

    # Stream.
    client = await create_client(url, client_config=ClientConfig(streaming=True))
    try:
        events = await collect(client, text_message("streamed"))
        kinds = [e.WhichOneof("payload") for e in events]
        check("stream: starts with the task", kinds[0] == "task", kinds)
        artifacts = [e.artifact_update for e in events if e.HasField("artifact_update")]
        check("stream: artifact", [a.artifact.parts[0].text for a in artifacts] == ["streamed"], kinds)
        statuses = [state_name(e.status_update.status.state) for e in events if e.HasField("status_update")]
        check("stream: ends completed", statuses[-1:] == ["TASK_STATE_COMPLETED"], statuses)
        PASSED.append("stream")
    finally:
        await client.close()


async def test_slow(url: str) -> None:
    await test_card(url, "Slow", ["wait"])
    client = await create_client(url, client_config=ClientConfig(streaming=False, polling=True))
    try:
        task = final_task_of(await collect(client, text_message("take your time")))
        check("slow: not finished", task.status.state in (TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING), task)
        deadline = time.monotonic() + TIMEOUT
        while (await client.get_task(GetTaskRequest(id=task.id))).status.state != TaskState.TASK_STATE_WORKING:
            check("slow: reaches working", time.monotonic() < deadline, task.id)
            await asyncio.sleep(0.05)
        canceled = await client.cancel_task(CancelTaskRequest(id=task.id))
        check("cancel: canceled", canceled.status.state == TaskState.TASK_STATE_CANCELED, canceled)
        await asyncio.sleep(1.5)  # one more tick of the agent: nothing it writes may land
        got = await client.get_task(GetTaskRequest(id=task.id))
        check("cancel: stays canceled", got.status.state == TaskState.TASK_STATE_CANCELED, got)
        PASSED.append("cancel")

        try:
            await client.cancel_task(CancelTaskRequest(id=task.id))
        except Exception as error:  # the SDK's TaskNotCancelableError
            check("cancel twice: not cancelable", "cancel" in str(error).lower(), repr(error))
        else:
            raise AssertionError("cancel twice: no error")
        PASSED.append("cancel a finished task")
    finally:
        await client.close()

    # A streaming client sees working updates, then the cancel ends its stream.
    streamer = await create_client(url, client_config=ClientConfig(streaming=True))
    canceller = await create_client(url, client_config=ClientConfig(streaming=False))
    try:
        states: list[str] = []
        cancelled = False
        async for event in streamer.send_message(text_message("stream then cancel")):
            if event.HasField("task"):
                task_id = event.task.id
            if event.HasField("status_update"):
                states.append(state_name(event.status_update.status.state))
                if states.count("TASK_STATE_WORKING") == 2 and not cancelled:
                    cancelled = True
                    task = await canceller.cancel_task(CancelTaskRequest(id=task_id))
                    check("stream cancel: canceled", task.status.state == TaskState.TASK_STATE_CANCELED, task)
        check("stream cancel: working first", "TASK_STATE_WORKING" in states, states)
        check("stream cancel: ends canceled", states[-1] == "TASK_STATE_CANCELED", states)
        check("stream cancel: nothing after the cancel", states == ["TASK_STATE_WORKING"] * 2 + ["TASK_STATE_CANCELED"], states)
        PASSED.append("stream then cancel")
    finally:
        await streamer.close()
        await canceller.close()


# The quickstart's tools, in the order `examples/quickstart.rs::tools()` adds them.
QUICKSTART_TOOLS = ["get_weather", "add", "join_words", "trim", "bump", "read"]


# The a2a-rust failure-class extension's metadata key.
FAILURE_CLASS_KEY = "a2a-rust.com/failure"
# What a failed `get_weather` carries in its status message's metadata (numbers are doubles
# through protobuf).
FAILURES = {
    "Atlantis": {FAILURE_CLASS_KEY: "invalid-request", "code": "unknown_city", "data": {"city": "Atlantis"}},
    "Busy": {FAILURE_CLASS_KEY: "transient", "code": "unavailable", "retry_after_ms": 200.0},
}


async def test_tools(url: str) -> None:
    await test_card(url, "Quickstart tools", QUICKSTART_TOOLS)
    client = await create_client(url, client_config=ClientConfig(streaming=False))
    try:
        task = final_task_of(await collect(client, data_message({"tool": "add", "arguments": {"a": 2, "b": 40}})))
        check("tool: completed", task.status.state == TaskState.TASK_STATE_COMPLETED, task)
        result = MessageToDict(task.artifacts[0].parts[0].data)
        check("tool: result", result == 42, task.artifacts)
        PASSED.append("tool call")

        task = final_task_of(await collect(client, text_message("add 2 and 40")))
        check("tool text: failed", task.status.state == TaskState.TASK_STATE_FAILED, task)
        reason = task.status.message.parts[0].text
        check("tool text: says what to send", "data part" in reason and ", ".join(QUICKSTART_TOOLS) in reason, reason)
        PASSED.append("tool text-only message")

        task = final_task_of(await collect(client, data_message({"tool": "get_weather", "arguments": {"city": "Atlantis"}})))
        check("tool failure: failed", task.status.state == TaskState.TASK_STATE_FAILED, task)
        check("tool failure: message", task.status.message.parts[0].text == "unknown city `Atlantis`", task.status)
        PASSED.append("tool failure")

        # Issue 15: a blocking send's task keeps the failure's code, class, data and retry hint.
        for city, want in FAILURES.items():
            task = final_task_of(await collect(client, data_message({"tool": "get_weather", "arguments": {"city": city}})))
            check(f"blocking {city}: failed", task.status.state == TaskState.TASK_STATE_FAILED, task)
            got = MessageToDict(task.status.message.metadata)
            check(f"blocking {city}: code, class, data, retry hint", got == want, got)
        PASSED.append("blocking failure keeps code, class, data and retry hint")
    finally:
        await client.close()

    client = await create_client(url, client_config=ClientConfig(streaming=True))
    try:
        events = await collect(client, data_message({"tool": "get_weather", "arguments": {"city": "Oslo"}}))
        progress = [
            MessageToDict(e.status_update.metadata).get("progress")
            for e in events
            if e.HasField("status_update") and e.status_update.HasField("metadata")
        ]
        check("tool stream: progress", progress == [0.5], progress)
        last = events[-1]
        check("tool stream: completed", last.HasField("status_update") and last.status_update.status.state == TaskState.TASK_STATE_COMPLETED, last)
        PASSED.append("tool stream")

        # Issue 15: the streamed failure keeps them too, on the event and on its status message.
        for city, want in FAILURES.items():
            events = await collect(client, data_message({"tool": "get_weather", "arguments": {"city": city}}))
            last = events[-1]
            check(f"streamed {city}: ends failed", last.HasField("status_update") and last.status_update.status.state == TaskState.TASK_STATE_FAILED, last)
            on_message = MessageToDict(last.status_update.status.message.metadata)
            check(f"streamed {city}: status message", on_message == want, on_message)
            on_event = MessageToDict(last.status_update.metadata)
            expected = {k: v for k, v in want.items() if k != FAILURE_CLASS_KEY}
            expected["error"] = last.status_update.status.message.parts[0].text
            check(f"streamed {city}: event metadata", on_event == expected, on_event)
        PASSED.append("streamed failure keeps code, class, data and retry hint")
    finally:
        await client.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--echo", required=True)
    parser.add_argument("--slow", required=True)
    parser.add_argument("--tools", required=True)
    args = parser.parse_args()
    await asyncio.wait_for(test_echo(args.echo), TIMEOUT)
    await asyncio.wait_for(test_slow(args.slow), TIMEOUT)
    await asyncio.wait_for(test_tools(args.tools), TIMEOUT)


if __name__ == "__main__":
    started = time.monotonic()
    try:
        asyncio.run(main())
    except BaseException as error:
        print(f"a2a-peer: FAILED after {PASSED}: {error!r}", file=sys.stderr)
        print(f"a2a-peer: {len(PASSED)} passed, 1 failed")
        sys.exit(1)
    for name in PASSED:
        print(f"ok: {name}")
    print(f"a2a-peer: the checks took {time.monotonic() - started:.1f} s")
    print(f"a2a-peer: {len(PASSED)} passed, 0 failed")
