"""`ags mcp`: the service's MCP tools over stdio, for desktop agents (Claude Desktop, VS Code, Cursor).

A stdio server that relays each tool listing and call to the service's /mcp endpoint with
AGS_TOKEN, so a desktop agent gets exactly the tools, schemas and answers the deployed service
serves (nothing is restated here), under the token's own scope and rate limit.

    AGS_BASE_URL=https://... AGS_TOKEN=... ags mcp"""

from __future__ import annotations

from typing import Any

import anyio
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from ags_testkit.client import DEFAULT_BASE_URL

# A batch of 50 addresses from a cold service takes a few seconds; a minute bounds a hung one.
TIMEOUT_SECONDS = 60.0


def run(base_url: str | None, token: str | None) -> None:
    """Serve over this process's stdin and stdout until the agent closes them."""
    anyio.run(_serve, (base_url or DEFAULT_BASE_URL).rstrip("/"), token)


async def _serve(base_url: str, token: str | None) -> None:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=TIMEOUT_SECONDS) as http,
        Client(streamable_http_client(f"{base_url}/mcp", http_client=http)) as remote,
    ):
        server = relay(remote)
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())


def relay(remote: Client) -> Server[Any]:
    """A server whose tools are `remote`'s: listed and called there, answered as it answers."""

    async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return await remote.list_tools(cursor=params.cursor if params else None)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await remote.call_tool(params.name, dict(params.arguments or {}))

    info = remote.server_info
    return Server(
        "ags-testkit",
        version=info.version if info else "",
        instructions=remote.instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )
