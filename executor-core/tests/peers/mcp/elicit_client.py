"""The official MCP Python SDK client's `elicitation_callback` against `examples/asking`.

    python elicit_client.py stdio PATH/TO/asking legacy|2026-07-28 [SERVER ARGS…]
    python elicit_client.py http URL 2026-07-28

(`.ci/a2a-peer.sh` runs it against `bridges --asking`: the same tools behind an A2A hop.)

One tool's `ctx.elicit::<T>` as a client nobody here wrote sees it: on a legacy session the
question is an `elicitation/create` request; on 2026-07-28 it is an `input_required` round the
SDK answers with the same callback and retries. Checked: the form's schema (bounds, the
SEP-1034 default, SEP-1330 titled choices) reaches the callback; accept, a default filled in,
decline and cancel come back to the tool; `#[tool(confirm)]` asks with a summary of the
arguments and a declined approval is an `isError` result with code `not_approved`; a URL-mode
question reaches a client that declared URL mode. Exits non-zero on the first failed check.
"""

from __future__ import annotations

import sys

import anyio
from mcp import Client, StdioServerParameters, types

checks = 0
asked: list = []
answers: list = []


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


async def on_elicit(context, params):
    asked.append(params)
    action, content = answers.pop(0)
    return types.ElicitResult(action=action, content=content)


def text_of(result) -> str:
    texts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
    return texts[0] if texts else ""


async def call(client: Client, tool: str, args: dict, *replies) -> tuple:
    answers.extend(replies)
    before = len(asked)
    result = await client.call_tool(tool, args)
    check(not answers, f"{tool}: every scripted answer was asked for ({answers} left)")
    return result, asked[before:]


async def run(client: Client, era: str) -> None:
    if era != "legacy":
        check(client.protocol_version == era, f"negotiated {era}: {client.protocol_version}")
    result, questions = await call(
        client, "book", {"show": "Hamlet"}, ("accept", {"count": 3, "seat": "Aisle"})
    )
    check(text_of(result) == "3 Aisle seats for Hamlet", f"accepted: {text_of(result)!r}")
    form = questions[0]
    check(form.message == "Seats for Hamlet?", f"message: {form.message!r}")
    schema = form.requested_schema
    schema = schema if isinstance(schema, dict) else schema.model_dump(by_alias=True, exclude_none=True)
    count = schema["properties"]["count"]
    check(
        (count.get("minimum"), count.get("maximum"), count.get("default")) == (1, 8, 2),
        f"bounds and the SEP-1034 default: {count}",
    )
    seat = schema["properties"]["seat"]
    check(
        seat.get("oneOf") == [
            {"const": "Window", "title": "By the window"},
            {"const": "Aisle", "title": "On the aisle"},
        ],
        f"titled choices (SEP-1330): {seat}",
    )
    check(schema.get("required") == ["seat"], f"a defaulted field is optional: {schema}")

    result, _ = await call(client, "book", {"show": "Lear"}, ("accept", {"seat": "Window"}))
    check(text_of(result) == "2 Window seats for Lear", f"default filled in: {text_of(result)!r}")
    result, _ = await call(client, "book", {"show": "Lear"}, ("decline", None))
    check(text_of(result) == "declined", f"declined: {text_of(result)!r}")
    result, _ = await call(client, "book", {"show": "Lear"}, ("cancel", None))
    check(text_of(result) == "cancelled", f"cancelled: {text_of(result)!r}")

    result, questions = await call(client, "delete_note", {"id": 4}, ("accept", {}))
    check(text_of(result) == "deleted note 4", f"approved: {text_of(result)!r}")
    check(questions[0].message == "Run delete_note with id = 4?", f"summary: {questions[0].message!r}")
    result, _ = await call(client, "delete_note", {"id": 5}, ("decline", None))
    check(result.is_error, "a declined approval is an error result")
    check("not_approved" in str(result.model_dump()), f"code not_approved: {result.model_dump()}")

    result, questions = await call(client, "sign_in", {}, ("accept", None))
    check(text_of(result) == "opened", f"URL mode: {text_of(result)!r} {result.model_dump()}")
    check(getattr(questions[0], "url", None) == "https://example.com/sign-in", f"url: {questions[0]}")


async def main() -> None:
    kind, target, era, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    server = StdioServerParameters(command=target, args=extra) if kind == "stdio" else target
    async with Client(server, mode=era, elicitation_callback=on_elicit) as client:
        await run(client, era)
    via = f" ({' '.join(extra)})" if extra else ""
    print(f"elicit_client: {kind} {era}{via}: {checks} checks passed")


anyio.run(main)
