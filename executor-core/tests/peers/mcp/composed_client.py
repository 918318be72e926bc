"""The official MCP Python SDK client against `examples/composed_server` (stdio).

    python composed_client.py PATH/TO/composed_server

A transformed set as a client nobody here wrote sees it (protocol 2026-07-28): the renamed
tool is listed and callable under its new name, with its hidden argument gone from the
schema; the hidden `admin` tool is absent and a call of it refused (JSON-RPC -32602, like any
unknown tool), as is the renamed tool's old name; the guardrail hook's refusal is an
`isError` result with its code; and when `unlock` changes the visibility, the change reaches
the client on its `subscriptions/listen` stream and the tool appears; so does the prompt
`unlock` adds to the served catalog (`promptsListChanged`). Exits non-zero on the first failed
check.
"""

from __future__ import annotations

import sys

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.subscriptions import PromptsListChanged, ToolsListChanged
from mcp.shared.exceptions import MCPError

checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def text_of(result) -> str:
    texts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
    return texts[0] if texts else ""


async def expect_unknown(client: Client, tool: str) -> None:
    try:
        await client.call_tool(tool, {"path": "a"})
    except MCPError as e:
        check(e.code == -32602, f"{tool}: expected JSON-RPC -32602, got {e.code} {e.message!r}")
        check(f"unknown tool `{tool}`" in e.message, f"{tool}: {e.message!r}")
        return
    raise AssertionError(f"{tool}: a hidden or renamed-away tool must be refused")


async def names(client: Client) -> list[str]:
    return [t.name for t in (await client.list_tools()).tools]


async def run(client: Client) -> None:
    check(client.protocol_version == "2026-07-28", f"negotiated 2026-07-28: {client.protocol_version}")
    listed = await client.list_tools()
    tools = {t.name: t for t in listed.tools}
    check(list(tools) == ["cat", "unlock"], f"renamed listed, admin tool hidden: {list(tools)}")
    cat = tools["cat"]
    check(cat.description == "Prints a file.", f"new description: {cat.description!r}")
    check(list(cat.input_schema["properties"]) == ["path"], f"verbose hidden: {cat.input_schema}")
    check(cat.annotations.read_only_hint is True, "cat keeps read_only")

    result = await client.call_tool("cat", {"path": "notes.txt"})
    check(not result.is_error and result.structured_content == {"result": "contents of notes.txt"}, f"cat: {result}")
    await expect_unknown(client, "delete_file")
    await expect_unknown(client, "read_file")

    result = await client.call_tool("cat", {"path": "/etc/shadow"})
    check(result.is_error, f"the guardrail refuses: {result}")
    check(text_of(result) == "`cat` may not touch /etc/shadow", f"refusal text: {text_of(result)!r}")
    check((result.meta or {})["executor/failure"]["code"] == "guardrail", f"refusal code: {result.meta}")

    check(client.server_capabilities.prompts.list_changed is True, "a catalog that changes says so")
    check((await client.list_prompts()).prompts == [], "no prompt before unlock")
    async with client.listen(tools_list_changed=True, prompts_list_changed=True) as subscription:
        result = await client.call_tool("unlock", {})
        check(not result.is_error, f"unlock: {result}")
        events = []
        with anyio.fail_after(10):
            events.append(await subscription.__anext__())
            events.append(await subscription.__anext__())
        kinds = sorted(type(e).__name__ for e in events)
        check(kinds == ["PromptsListChanged", "ToolsListChanged"], f"both changes reach the client: {events!r}")
        check(all(isinstance(e, (PromptsListChanged, ToolsListChanged)) for e in events), "typed events")
    check(await names(client) == ["cat", "delete_file", "unlock"], "the unlocked tool appears")
    prompts = [p.name for p in (await client.list_prompts()).prompts]
    check(prompts == ["admin_help"], f"the unlocked prompt appears: {prompts}")
    result = await client.call_tool("delete_file", {"path": "old.txt"})
    check(not result.is_error and result.structured_content == {"result": "deleted old.txt"}, f"{result}")


async def main() -> None:
    server = StdioServerParameters(command=sys.argv[1], args=[])
    async with Client(server) as client:
        await run(client)
    print(f"official MCP client against the composed server: {checks} checks passed")


if __name__ == "__main__":
    anyio.run(main)
