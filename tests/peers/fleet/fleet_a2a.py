"""The official A2A Python SDK (`a2a-sdk`) against two `a2a_agent --agent slow` replicas on one
PostgreSQL database, through one round-robin address only. Run by `.ci/fleet-peer.sh`:

    python fleet_a2a.py URL checks              # send/get/list, cancel, subscribe
    python fleet_a2a.py URL start-orphan        # prints "orphan TASK_ID REPLICA_ADDR"
    python fleet_a2a.py URL await-failed TASK_ID SECONDS
    python fleet_a2a.py URL after-restart TASK_ID REPLICA_ADDR

The balancer names the replica that served each response in `X-Upstream`; every response's
replica is recorded through an httpx event hook, so each check asserts where it landed. The
`slow` agent completes after N seconds when the text is a number, and otherwise works (one
status a second) until cancelled. Every wait is bounded; exits non-zero on the first failure.
"""

import asyncio
import json
import sys
import time
import uuid

import httpx
from a2a.client import ClientConfig, create_client
from a2a.types import (
    CancelTaskRequest,
    GetTaskRequest,
    ListTasksRequest,
    Message,
    Part,
    Role,
    SendMessageConfiguration,
    SendMessageRequest,
    SubscribeToTaskRequest,
    TaskState,
)
from google.protobuf.json_format import MessageToDict

TIMEOUT = 30.0
PASSED: list[str] = []


def check(name: str, condition: bool, detail: object = "") -> None:
    if not condition:
        raise AssertionError(f"{name}: {detail}")


class Fleet:
    """SDK clients through the balancer, and the replica behind each response."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.served: list[tuple[str, str]] = []  # (JSON-RPC method or path, replica)

    async def __aenter__(self):
        hooks = {"request": [self._on_request], "response": [self._on_response]}
        self.http = httpx.AsyncClient(timeout=TIMEOUT, event_hooks=hooks)
        self.blocking = await create_client(self.url, client_config=ClientConfig(streaming=False, httpx_client=self.http))
        self.streaming = await create_client(self.url, client_config=ClientConfig(streaming=True, httpx_client=self.http))
        return self

    async def __aexit__(self, *exc) -> None:
        await self.blocking.close()
        await self.streaming.close()
        await self.http.aclose()

    async def _on_request(self, request: httpx.Request) -> None:
        try:
            request.extensions["what"] = json.loads(request.content)["method"]
        except (ValueError, KeyError, TypeError):
            request.extensions["what"] = request.url.path

    async def _on_response(self, response: httpx.Response) -> None:
        replica = response.headers.get("x-upstream", "")
        check("the balancer names the replica", replica != "", dict(response.headers))
        self.served.append((response.request.extensions.get("what", "?"), replica))

    def last(self) -> str:
        return self.served[-1][1]

    async def next_not_on(self, replica: str) -> None:
        """Round robin alternates: a card fetch first if the next request would land on `replica`."""
        if self.last() != replica:
            await self.http.get(f"{self.url}/.well-known/agent-card.json")
        check("rotated", self.last() == replica, self.served[-3:])

    async def send(self, text: str, wait: bool = True):
        request = SendMessageRequest(
            message=Message(message_id=str(uuid.uuid4()), role=Role.ROLE_USER, parts=[Part(text=text)]),
            configuration=SendMessageConfiguration(return_immediately=not wait),
        )
        events = [e async for e in self.blocking.send_message(request)]
        check("one task response", len(events) == 1 and events[0].HasField("task"), events)
        return events[0].task, self.last()

    async def get(self, task_id: str):
        return await self.blocking.get_task(GetTaskRequest(id=task_id)), self.last()

    async def wait_for(self, task_id: str, states: set, seconds: float, what: str):
        deadline = time.monotonic() + seconds
        while True:
            task, _ = await self.get(task_id)
            if task.status.state in states:
                return task
            check(what, time.monotonic() < deadline, f"{task_id} is {TaskState.Name(task.status.state)} after {seconds} s")
            await asyncio.sleep(0.1)


def status_text(task) -> str:
    return " ".join(p.text for p in task.status.message.parts if p.HasField("text"))


async def send_get_list(fleet: Fleet) -> None:
    for round_ in range(2):
        task, sent_on = await fleet.send("0")
        check("send completes", task.status.state == TaskState.TASK_STATE_COMPLETED, task)
        got, got_on = await fleet.get(task.id)
        check("get on the other replica", got_on != sent_on, fleet.served[-2:])
        check("get sees the task", got.id == task.id and got.status.state == TaskState.TASK_STATE_COMPLETED, got)
        check("get sees the reply", status_text(got) == "waited 0 s", got.status)
        listed = await fleet.blocking.list_tasks(ListTasksRequest(page_size=100))
        listed_on = fleet.last()
        check("list on the other replica again", listed_on != got_on, fleet.served[-3:])
        check("list has the task", task.id in [t.id for t in listed.tasks], [t.id for t in listed.tasks])
        print(f"  send on {sent_on}, get on {got_on}, list on {listed_on}")
    PASSED.append("send -> get -> list on alternating replicas")


async def working_elsewhere(fleet: Fleet, text: str):
    """A task sent without waiting, once working, with the next request due on the other replica."""
    task, runs_on = await fleet.send(text, wait=False)
    await fleet.wait_for(task.id, {TaskState.TASK_STATE_WORKING}, TIMEOUT, f"the task {text!r} works")
    await fleet.next_not_on(runs_on)
    return task, runs_on


async def cancel_across(fleet: Fleet) -> None:
    task, runs_on = await working_elsewhere(fleet, "take your time")
    canceled = await fleet.blocking.cancel_task(CancelTaskRequest(id=task.id))
    cancel_on = fleet.last()
    check("cancel lands on the other replica", cancel_on != runs_on, fleet.served[-2:])
    check("cancel: canceled", canceled.status.state == TaskState.TASK_STATE_CANCELED, canceled)
    await asyncio.sleep(2.5)  # two more ticks of the executor, were it still running
    for _ in range(2):
        got, _ = await fleet.get(task.id)
        check("stays canceled on both replicas", got.status.state == TaskState.TASK_STATE_CANCELED, got)
    print(f"cancelled {task.id}: runs on {runs_on}, cancelled on {cancel_on}")
    PASSED.append("a slow task cancelled through the balancer ends canceled")


async def subscribe_across(fleet: Fleet) -> None:
    task, runs_on = await working_elsewhere(fleet, "4")
    notes, states = [], []
    stream = fleet.streaming.subscribe(SubscribeToTaskRequest(id=task.id))
    async for event in stream:
        if len(states) == 0:
            subscribed_on = fleet.last()
        if event.HasField("status_update"):
            status = event.status_update.status
            states.append(TaskState.Name(status.state))
            if status.HasField("message"):
                notes.append(status_text(event.status_update))
    check("subscribed on the other replica", subscribed_on != runs_on, (runs_on, subscribed_on))
    later = [n for n in notes if n.startswith("working for ") and n != "working for 0 s"]
    check("sees later working updates", len(later) >= 2, notes)
    check("sees the end", states[-1:] == ["TASK_STATE_COMPLETED"] and notes[-1] == "waited 4 s", (states, notes))
    print(f"subscribed on {subscribed_on} to {task.id} running on {runs_on}: {notes}")
    PASSED.append("a subscriber on the other replica sees later events")


async def checks(fleet: Fleet) -> None:
    await send_get_list(fleet)
    await cancel_across(fleet)
    await subscribe_across(fleet)
    replicas = {replica for _, replica in fleet.served}
    check("both replicas served", len(replicas) == 2, replicas)
    print(f"{len(fleet.served)} responses: {sorted(replicas)}")


async def start_orphan(fleet: Fleet) -> None:
    task, runs_on = await fleet.send("take your time", wait=False)
    await fleet.wait_for(task.id, {TaskState.TASK_STATE_WORKING}, TIMEOUT, "the task works")
    print(f"orphan {task.id} {runs_on}")


async def await_failed(fleet: Fleet, task_id: str, seconds: float) -> None:
    started = time.monotonic()
    terminal = {TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_CANCELED}
    task = await fleet.wait_for(task_id, terminal, seconds, "the dead replica's task ends")
    check("failed", task.status.state == TaskState.TASK_STATE_FAILED, task)
    why = status_text(task)
    check("the failure says the replica stopped", "replica running this task" in why and "no heartbeat" in why, why)
    metadata = MessageToDict(task.status.message.metadata)
    check("code replica_lost", metadata.get("code") == "replica_lost", metadata)
    print(f"failed after {time.monotonic() - started:.1f} s more: {why}")
    PASSED.append("a task whose replica died fails, saying so")


async def after_restart(fleet: Fleet, task_id: str, replica: str) -> None:
    seen = set()
    for _ in range(4):
        got, on = await fleet.get(task_id)
        seen.add(on)
        check("stays failed", got.status.state == TaskState.TASK_STATE_FAILED, got)
    check("the restarted replica serves again", replica in seen, seen)
    PASSED.append("the restarted replica serves and the task stays failed")


async def main() -> None:
    url, command, *rest = sys.argv[1:]
    async with Fleet(url) as fleet:
        if command == "checks":
            await checks(fleet)
        elif command == "start-orphan":
            await start_orphan(fleet)
        elif command == "await-failed":
            await await_failed(fleet, rest[0], float(rest[1]))
        elif command == "after-restart":
            await after_restart(fleet, rest[0], rest[1])
        else:
            raise SystemExit(f"unknown command {command!r}")


if __name__ == "__main__":
    try:
        asyncio.run(asyncio.wait_for(main(), 120))
    except BaseException as error:
        print(f"fleet-a2a: FAILED after {PASSED}: {error!r}", file=sys.stderr)
        sys.exit(1)
    for name in PASSED:
        print(f"ok: {name}")
