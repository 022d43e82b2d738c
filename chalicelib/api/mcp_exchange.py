"""One HTTP exchange between a Chalice request and the MCP SDK's Streamable HTTP transport, run as an
ASGI server would run it, within the Lambda's invocation: the SDK's stateless session manager,
answering JSON (a Lambda holds no session, and API Gateway keeps no stream open)."""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import Any

import anyio
from chalice.app import Request, Response
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

# The SDK's session manager says it started, terminated a session and shut down at INFO, on every
# request here (one stateless exchange each): the request log already says each exchange.
logging.getLogger("mcp.server.streamable_http_manager").setLevel(logging.WARNING)

# What the transport reads, besides the MCP-* headers: the rest of a request's headers stay out of
# it (a value latin-1 cannot hold would otherwise fail the exchange).
_TRANSPORT_HEADERS = frozenset({"content-type", "accept", "last-event-id"})


def exchange(server: Server[Any], request: Request) -> Response:
    """`server`'s answer to `request`, as the transport writes it."""
    answer: dict[str, Any] = {"status": 500, "headers": [], "body": b""}
    messages: list[MutableMapping[str, Any]] = [
        {"type": "http.request", "body": request.raw_body or b"", "more_body": False}
    ]

    async def receive() -> MutableMapping[str, Any]:
        # The body, then the client gone: nothing else can arrive within one API Gateway exchange.
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"], answer["headers"] = message["status"], message.get("headers", [])
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    async def run() -> None:
        manager = StreamableHTTPSessionManager(
            app=server,
            json_response=True,
            stateless=True,
            # The bearer token, not the Host header, guards this endpoint: API Gateway's host is ours.
            security_settings=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        async with manager.run():
            await manager.handle_request(_asgi_scope(request), receive, send)

    anyio.run(run)
    # Named as Chalice names them (it adds a Content-Type unless one is spelled so); the gateway
    # sets the length.
    headers = {_title(k.decode("latin-1")): v.decode("latin-1") for k, v in answer["headers"]}
    headers.pop("Content-Length", None)
    return Response(answer["body"].decode("utf-8"), headers=headers, status_code=int(answer["status"]))


def _title(name: str) -> str:
    return "-".join(part.capitalize() for part in name.split("-"))


def _asgi_scope(request: Request) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": "https",
        "path": request.path,
        "raw_path": request.path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (k.lower().encode("latin-1"), v.encode("latin-1", errors="replace"))
            for k, v in request.headers.items()
            if k.lower() in _TRANSPORT_HEADERS or k.lower().startswith("mcp-")
        ],
        "client": (request.context.get("identity", {}).get("sourceIp") or "", 0),
        "server": ("localhost", 443),
    }
