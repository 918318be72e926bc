"""The official A2A Python SDK (`a2a-sdk`) client answering `input-required` from our tools.

    python asking_peer.py URL        (URL of `examples/a2a_agent --agent asking`)

A tool's question parks its task `input-required`; this client reads the question as any A2A
client would (a text part, and for a form a data part holding the `elicitation/create`
params, tagged `urn:executor:a2a:elicitation:v1`; for an approval the approval extension's
`ApprovalRequest` in the message metadata) and answers with a message on the same task
(`taskId`, `contextId`): a data part holding `{"action", "content"}`, or an
`ApprovalDecision`. Checked on the blocking and the streaming path: accept and decline; a
message that does not answer keeps the question and says why; an approval carrying the digest
of other arguments is refused and the tool does not run; the right decision runs it. Prints
`asking peer: N passed` and exits non-zero on the first failed check.
"""

import asyncio
import sys
import uuid

from a2a.client import ClientConfig, create_client
from a2a.types import Message, Part, Role, SendMessageRequest, TaskState
from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict, ParseDict

TIMEOUT = 30.0
EXTENSION = "urn:executor:a2a:elicitation:v1"
APPROVAL_URI = "https://a2a-rust.com/extensions/approval/v1"
APPROVAL_KEY = "a2a-rust.com/approval"
PASSED: list[str] = []


def check(name: str, condition: bool, detail: object = "") -> None:
    if not condition:
        raise AssertionError(f"{name}: {detail}")


def message(parts: list, task=None, metadata: dict | None = None) -> SendMessageRequest:
    msg = Message(message_id=str(uuid.uuid4()), role=Role.ROLE_USER, parts=parts)
    if task is not None:
        msg.task_id = task.id
        msg.context_id = task.context_id
    if metadata is not None:
        msg.metadata.CopyFrom(ParseDict(metadata, struct_pb2.Struct()))
        msg.extensions.append(APPROVAL_URI)
    return SendMessageRequest(message=msg)


def data(value) -> Part:
    return Part(data=ParseDict(value, struct_pb2.Value()))


def call(tool: str, arguments: dict) -> SendMessageRequest:
    return message([data({"tool": tool, "arguments": arguments})])


async def send(client, request):
    """The task of a blocking send, or the last state a stream reached (with the task)."""
    events = [event async for event in client.send_message(request)]
    task = next(e.task for e in events if e.HasField("task"))
    statuses = [e.status_update.status for e in events if e.HasField("status_update")]
    status = statuses[-1] if statuses else task.status
    artifacts = [e.artifact_update.artifact for e in events if e.HasField("artifact_update")]
    return task, status, artifacts or list(task.artifacts)


def result_of(artifacts) -> object:
    results = [a for a in artifacts if a.artifact_id == "result"]
    check("a result artifact", len(results) == 1, artifacts)
    return MessageToDict(results[0].parts[0].data)


def form_of(status) -> dict:
    """The question's params, from the data part our extension tags."""
    tagged = [
        MessageToDict(p.data)
        for p in status.message.parts
        if p.HasField("data") and EXTENSION in MessageToDict(p.metadata)
    ]
    check("one tagged data part", len(tagged) == 1, status.message)
    check("the extension is named", EXTENSION in status.message.extensions, status.message)
    return tagged[0]


async def run(url: str, streaming: bool) -> None:
    mode = "streaming" if streaming else "blocking"
    client = await create_client(url, client_config=ClientConfig(streaming=streaming))
    try:
        # A form question, answered.
        task, status, _ = await send(client, call("book", {"show": "Hamlet"}))
        check(f"{mode} book: input-required", status.state == TaskState.TASK_STATE_INPUT_REQUIRED, status)
        check(f"{mode} book: the question's text", status.message.parts[0].text == "Seats for Hamlet?", status)
        form = form_of(status)
        schema = form["requestedSchema"]
        check(f"{mode} book: form mode", form["mode"] == "form" and form["message"] == "Seats for Hamlet?", form)
        check(f"{mode} book: the bounds and default", schema["properties"]["count"] == {
            "type": "integer", "description": "How many seats.", "minimum": 1.0, "maximum": 8.0, "default": 2.0,
        }, schema)
        check(f"{mode} book: titled choices", schema["properties"]["seat"]["oneOf"] == [
            {"const": "Window", "title": "By the window"}, {"const": "Aisle", "title": "On the aisle"},
        ], schema)

        # Not an answer: the question stays, with the reason first.
        _, status, _ = await send(client, message([Part(text="three on the aisle")], task))
        check(f"{mode} book: still input-required", status.state == TaskState.TASK_STATE_INPUT_REQUIRED, status)
        check(f"{mode} book: says why", status.message.parts[0].text.startswith(
            "Not answered: the message has no data part"), status.message.parts[0].text)
        form_of(status)

        answer = {"action": "accept", "content": {"count": 3, "seat": "Aisle"}}
        _, status, artifacts = await send(client, message([data(answer)], task))
        check(f"{mode} book: completed", status.state == TaskState.TASK_STATE_COMPLETED, status)
        check(f"{mode} book: the answer reached the tool", result_of(artifacts) == "3 Aisle seats for Hamlet", artifacts)
        PASSED.append(f"{mode}: a form question answered on the same task")

        task, status, _ = await send(client, call("book", {"show": "Lear"}))
        _, status, artifacts = await send(client, message([data({"action": "decline"})], task))
        check(f"{mode} decline: reached the tool", result_of(artifacts) == "declined", artifacts)
        PASSED.append(f"{mode}: a declined question")

        # An approval: the approval extension's request, bound to the exact arguments.
        task, status, _ = await send(client, call("delete_note", {"id": 4}))
        check(f"{mode} approval: input-required", status.state == TaskState.TASK_STATE_INPUT_REQUIRED, status)
        check(f"{mode} approval: the extension", APPROVAL_URI in status.message.extensions, status.message)
        request = MessageToDict(status.message.metadata)[APPROVAL_KEY]
        check(f"{mode} approval: summary", request["summary"] == "Run delete_note with id = 4?", request)
        check(f"{mode} approval: digest", request["digest"].startswith("sha256:") and len(request["digest"]) == 71, request)

        # The digest of another call (note 5, from a second task) does not approve this one.
        other, other_status, _ = await send(client, call("delete_note", {"id": 5}))
        other_request = MessageToDict(other_status.message.metadata)[APPROVAL_KEY]
        check(f"{mode} approval: digests differ", other_request["digest"] != request["digest"], other_request)
        forged = {APPROVAL_KEY: {"requestId": request["requestId"], "decision": "approve", "digest": other_request["digest"]}}
        _, status, _ = await send(client, message([Part(text="yes")], task, forged))
        check(f"{mode} approval: refused", status.state == TaskState.TASK_STATE_INPUT_REQUIRED, status)
        check(f"{mode} approval: says why", status.message.parts[0].text ==
              "Not answered: the decision's digest does not match the pending request: the approver was shown a different action",
              status.message.parts[0].text)
        PASSED.append(f"{mode}: an approval for other arguments is refused")

        decision = {APPROVAL_KEY: {"requestId": request["requestId"], "decision": "approve", "digest": request["digest"]}}
        _, status, artifacts = await send(client, message([Part(text="yes")], task, decision))
        check(f"{mode} approval: completed", status.state == TaskState.TASK_STATE_COMPLETED, status)
        check(f"{mode} approval: the tool ran", result_of(artifacts) == "deleted note 4", artifacts)
        deny = {APPROVAL_KEY: {"requestId": other_request["requestId"], "decision": "deny", "digest": other_request["digest"]}}
        _, status, _ = await send(client, message([Part(text="no")], other, deny))
        check(f"{mode} deny: failed", status.state == TaskState.TASK_STATE_FAILED, status)
        check(f"{mode} deny: not_approved", MessageToDict(status.message.metadata).get("code") == "not_approved", status)
        PASSED.append(f"{mode}: an approval, approved and denied")
    finally:
        await client.close()


async def main() -> None:
    url = sys.argv[1]
    for streaming in (False, True):
        await asyncio.wait_for(run(url, streaming), TIMEOUT)
    print(f"asking peer: {len(PASSED)} passed")


asyncio.run(main())
