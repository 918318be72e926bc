"""The official MCP Python SDK's OAuth client against `examples/secure_server`, with tokens from
a real authorization server (authorization_server.py, Authlib).

1. `ClientCredentialsOAuthProvider` (client credentials, RFC 8707 `resource`, discovery through
   the server's RFC 9728 metadata and the issuer's RFC 8414 metadata): a writer sees and calls
   every tool; a reader sees only the tools its scope allows and its `delete_note` is refused.
2. Raw HTTP: no token, a token for another resource, an expired token, a tampered signature and
   a missing scope, each refused with the status and `WWW-Authenticate` the MCP authorization
   spec gives.

Usage: oauth_client.py SERVER_URL ISSUER_URL
"""

from __future__ import annotations

import json
import sys
import time

import anyio
import httpx2
from mcp import Client
from mcp.client.auth import TokenStorage
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        raise SystemExit(f"FAILED: {what}")
    checks += 1


class Memory(TokenStorage):
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


def client_for(url: str, issuer: str, client_id: str, scope: str) -> Client:
    provider = ClientCredentialsOAuthProvider(
        server_url=url,
        storage=Memory(),
        client_id=client_id,
        client_secret=f"{client_id}-secret",
        scope=scope,
        issuer=issuer,
    )
    http = httpx2.AsyncClient(auth=provider, timeout=30)
    return Client(streamable_http_client(url, http_client=http))


def text_of(result) -> str:
    return "".join(block.text for block in result.content if getattr(block, "text", None))


async def sdk_checks(url: str, issuer: str) -> None:
    async with client_for(url, issuer, "writer", "notes:read notes:write") as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
        check(names == ["whoami", "list_notes", "delete_note"], f"the writer sees every tool: {names}")
        who = text_of(await client.call_tool("whoami", {}))
        check(who == "writer (notes:read notes:write)", f"the tool sees the writer's principal: {who!r}")
        deleted = await client.call_tool("delete_note", {"id": 3})
        check(not deleted.is_error and "deleted note 3" in text_of(deleted), "the writer deletes")

    async with client_for(url, issuer, "reader", "notes:read") as client:
        names = [tool.name for tool in (await client.list_tools()).tools]
        check(names == ["whoami", "list_notes"], f"the reader sees only what notes:read allows: {names}")
        notes = await client.call_tool("list_notes", {})
        check("reader: buy milk" in text_of(notes), "the reader lists its notes")
        try:
            result = await client.call_tool("delete_note", {"id": 3})
            refused = result.is_error
        except Exception as error:  # the SDK raises on the 403 after trying to step up
            refused = True
            print(f"  reader's delete_note refused: {type(error).__name__}: {error}")
        check(refused, "the reader's delete_note is refused")


async def token(issuer: str, client_id: str, resource: str, scope: str) -> str:
    async with httpx2.AsyncClient() as http:
        response = await http.post(
            f"{issuer}/token",
            data={"grant_type": "client_credentials", "resource": resource, "scope": scope},
            auth=(client_id, f"{client_id}-secret"),
        )
        check(response.status_code == 200, f"the authorization server issues a token: {response.text}")
        return response.json()["access_token"]


async def post(url: str, bearer: str | None, method: str, params: dict) -> httpx2.Response:
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2025-11-25",
        "Mcp-Method": method,
    }
    if "name" in params:
        headers["Mcp-Name"] = params["name"]
    if bearer is not None:
        headers["Authorization"] = f"Bearer {bearer}"
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    async with httpx2.AsyncClient() as http:
        return await http.post(url, headers=headers, content=json.dumps(body))


async def raw_checks(url: str, issuer: str) -> None:
    listing = ("tools/list", {})
    refused = await post(url, None, *listing)
    challenge = refused.headers.get("www-authenticate", "")
    check(refused.status_code == 401 and "resource_metadata=" in challenge, f"no token: 401 {challenge}")
    origin = url.rsplit("/mcp", 1)[0]
    async with httpx2.AsyncClient() as http:
        metadata = (await http.get(f"{origin}/.well-known/oauth-protected-resource/mcp")).json()
    check(metadata["resource"] == url and metadata["authorization_servers"] == [issuer], f"metadata {metadata}")

    elsewhere = await token(issuer, "elsewhere", "http://other.test/mcp", "notes:read")
    answer = await post(url, elsewhere, *listing)
    check(
        answer.status_code == 401 and "another resource" in answer.text,
        f"a token for another resource: {answer.status_code} {answer.text}",
    )

    brief = await token(issuer, "brief", url, "notes:read")
    check((await post(url, brief, *listing)).status_code == 200, "a fresh short-lived token works")
    time.sleep(2.5)
    answer = await post(url, brief, *listing)
    check(answer.status_code == 401 and "expired" in answer.text, f"an expired token: {answer.text}")

    reader = await token(issuer, "reader", url, "notes:read")
    header, claims, signature = reader.split(".")
    flipped = "B" if signature[5] == "A" else "A"
    tampered = f"{header}.{claims}.{signature[:5]}{flipped}{signature[6:]}"
    answer = await post(url, tampered, *listing)
    check(answer.status_code == 401 and "signature" in answer.text, f"a tampered token: {answer.text}")

    answer = await post(url, reader, "tools/call", {"name": "delete_note", "arguments": {"id": 1}})
    challenge = answer.headers.get("www-authenticate", "")
    check(
        answer.status_code == 403 and 'error="insufficient_scope"' in challenge and 'scope="notes:write"' in challenge,
        f"a missing scope: {answer.status_code} {challenge}",
    )


async def main() -> None:
    url, issuer = sys.argv[1], sys.argv[2]
    await sdk_checks(url, issuer)
    await raw_checks(url, issuer)
    print(f"official MCP client with OAuth: {checks} checks passed")


if __name__ == "__main__":
    anyio.run(main)
