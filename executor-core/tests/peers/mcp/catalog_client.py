"""The official MCP Python SDK client against `examples/conformance_server`: prompts,
resources, templates, completion, rich tool results, logging and sampling, on both protocol
eras.

    python catalog_client.py stdio PATH/TO/conformance_server MODE
    python catalog_client.py http http://127.0.0.1:PORT/mcp MODE

MODE is `legacy` (2025-11-25, with `initialize`) or `2026-07-28` (no session; the log level
rides each request's `_meta`; sampling and `resources/subscribe` are legacy-only and skipped).
Exits non-zero on the first failed check.
"""

from __future__ import annotations

import base64
import json
import sys

import warnings

import anyio
from mcp import Client, MCPDeprecationWarning, StdioServerParameters, types

# Sampling and resources/subscribe are legacy (2025-11-25) on purpose here.
warnings.filterwarnings("ignore", category=MCPDeprecationWarning)

checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def dump(model) -> dict:
    return model.model_dump(by_alias=True, exclude_none=True, mode="json")


async def run(client: Client, mode: str) -> None:
    expected = "2026-07-28" if mode == "2026-07-28" else "2025-11-25"
    check(client.protocol_version == expected, f"negotiated {expected}: {client.protocol_version}")

    prompts = {p.name: p for p in (await client.list_prompts()).prompts}
    check(
        list(prompts) == [
            "test_simple_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image",
        ],
        f"prompts in declaration order: {list(prompts)}",
    )
    args = [dump(a) for a in prompts["test_prompt_with_arguments"].arguments]
    check(
        args == [
            {"name": "arg1", "description": "First test argument.", "required": True},
            {"name": "arg2", "description": "Second test argument.", "required": True},
        ],
        f"arguments from the parameters: {args}",
    )
    got = await client.get_prompt("test_prompt_with_arguments", {"arg1": "hello", "arg2": "world"})
    check(
        dump(got.messages[0]) == {"role": "user", "content": {"type": "text",
            "text": "Prompt with arguments: arg1='hello', arg2='world'"}},
        f"arguments substituted: {dump(got.messages[0])}",
    )
    got = await client.get_prompt("test_prompt_with_embedded_resource", {"resourceUri": "test://x"})
    check(got.messages[0].content.type == "resource", "an embedded resource message")
    check(got.messages[0].content.resource.uri == "test://x", "the renamed argument reached the prompt")
    got = await client.get_prompt("test_prompt_with_image")
    check(got.messages[0].content.type == "image", "an image message")

    completion = await client.complete(
        types.PromptReference(type="ref/prompt", name="test_prompt_with_arguments"),
        {"name": "arg1", "value": "par"},
    )
    check(completion.completion.values == ["paris", "park", "party"], f"completion: {completion.completion}")

    uris = [r.uri for r in (await client.list_resources()).resources]
    check(
        uris == ["test://static-text", "test://static-binary", "test://watched-resource"],
        f"fixed resources: {uris}",
    )
    templates = [t.uri_template for t in (await client.list_resource_templates()).resource_templates]
    check(templates == ["test://template/{id}/data"], f"templates: {templates}")
    read = await client.read_resource("test://static-text")
    check(read.contents[0].text == "This is the content of the static text resource.", "text resource")
    read = await client.read_resource("test://static-binary")
    check(base64.b64decode(read.contents[0].blob)[:4] == b"\x89PNG", "binary resource")
    read = await client.read_resource("test://template/123/data")
    check(
        json.loads(read.contents[0].text) == {"id": "123", "templateTest": True, "data": "Data for ID: 123"},
        f"template resource: {read.contents[0].text}",
    )

    result = await client.call_tool("test_multiple_content_types", {})
    check(
        [c.type for c in result.content] == ["text", "image", "resource"] and not result.is_error,
        f"mixed content: {result.content}",
    )
    check(result.structured_content is None, "content results carry no structuredContent")
    result = await client.call_tool("test_audio_content", {})
    check(result.content[0].type == "audio" and result.content[0].mime_type == "audio/wav", "audio")

    result = await client.call_tool("test_tool_with_logging", {})
    check(not result.is_error, "the logging tool succeeds")

    if mode == "legacy":
        await client.subscribe_resource("test://watched-resource")
        await client.unsubscribe_resource("test://watched-resource")
        result = await client.call_tool("test_sampling", {"prompt": "hi"})
        check(
            result.content[0].text == "LLM response: model says hi",
            f"sampling through the session: {result.content}",
        )


async def main() -> None:
    transport, target, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    if transport == "stdio":
        server = StdioServerParameters(command=target, args=[])
    elif transport == "http":
        server = target
    else:
        raise SystemExit(f"unknown transport {transport!r}")
    logs: list = []

    async def on_log(params) -> None:
        logs.append(params)

    async def on_sampling(context, params):
        prompt = params.messages[0].content.text
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text=f"model says {prompt}"),
            model="test-model",
        )

    async with Client(
        server,
        mode="legacy" if mode == "legacy" else "2026-07-28",
        log_level="info",
        logging_callback=on_log,
        sampling_callback=on_sampling,
    ) as client:
        if mode == "legacy":
            await client.set_logging_level("info")
        await run(client, mode)
    messages = [entry.data for entry in logs]
    check(
        messages[:3] == ["Tool execution started", "Tool processing data", "Tool execution completed"],
        f"log messages at the client's level: {messages}",
    )
    print(f"official MCP client, catalog over {transport} ({mode}): {checks} checks passed")


if __name__ == "__main__":
    anyio.run(main)
