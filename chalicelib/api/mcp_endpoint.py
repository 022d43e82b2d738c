"""The Model Context Protocol over Streamable HTTP at /mcp, for test agents, on the official MCP
Python SDK (the exchange itself: api/mcp_exchange.py).

Every /mcp request needs an active bearer token, as the REST API does (401 in the same error shape
otherwise). A tool call runs the REST operation it names (api/mcp_tools.py) through that
operation's own pipeline, with the caller's token: the same scope check, the same rate limit, the
same validation and error codes. A failed call is a tool error (`isError`) whose JSON is the REST
error body, never a protocol crash."""

from __future__ import annotations

import functools
import json
from typing import Any

import mcp_types as types
from chalice.app import Request, Response
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from chalicelib.api import request_scope
from chalicelib.api.endpoint import guarded_view
from chalicelib.api.errors import error_body
from chalicelib.api.mcp_exchange import exchange
from chalicelib.api.mcp_tools import Tool, tool_named, tools
from chalicelib.api.openapi import API_VERSION
from chalicelib.api.route_table import served
from chalicelib.logs import log_event

PATH = "/mcp"
INSTRUCTIONS = (
    "Real, published postal addresses (never invented), each with a clearly fictitious test profile, "
    "to fill forms in tests. generate_address draws one (filter by country, region, city, postcode, "
    "free text q, traits, propertyType, near/radius...; the same seed gives the same answer while the "
    "snapshot lasts); list_countries and search_locations say what can be asked for."
)
# Forwarded to the operation a tool call runs: who calls (its token, its address), nothing else.
_FORWARDED = ("authorization", "x-forwarded-for")


@guarded_view("POST", PATH)
def mcp_post(request: Request) -> Response:
    return _serve(request)


@guarded_view("GET", PATH)
def mcp_get(request: Request) -> Response:
    return _not_allowed("no stream to open: each POST's answer is its JSON")


@guarded_view("DELETE", PATH)
def mcp_delete(request: Request) -> Response:
    return _not_allowed("no session to end: the endpoint is stateless")


def _not_allowed(why: str) -> Response:
    """405, as the transport's specification says a server without them answers a GET or DELETE."""
    body = error_body(
        "INVALID_REQUEST", f"{PATH} takes POST only ({why})", request_scope.current().request_id
    )
    return Response(body, headers={"Allow": "POST"}, status_code=405)


def _serve(request: Request) -> Response:
    """The request answered by a server whose tool calls run as this caller's REST requests."""
    server: Server[Any] = Server(
        "address-generation-service",
        version=API_VERSION,
        instructions=INSTRUCTIONS,
        on_list_tools=_list_tools,
        get_tool_input_schema=_input_schema,
        on_call_tool=lambda ctx, params: _call_tool(request, params),
    )
    return exchange(server, request)


async def _list_tools(ctx: Any, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=_listed())


@functools.cache
def _listed() -> list[types.Tool]:
    """The tools as listed: the same for the life of the process (about 20 ms to build)."""
    return [_described(tool) for tool in tools()]


def _input_schema(name: str) -> dict[str, Any] | None:
    """For the 2026-07-28 revision's check of a call's Mcp-Param headers: the listed schema."""
    return next((dict(t.input_schema) for t in _listed() if t.name == name), None)


def _described(tool: Tool) -> types.Tool:
    return types.Tool(
        name=tool.name,
        title=tool.title,
        description=tool.description(),
        input_schema=tool.input_schema(),
        output_schema=tool.output_schema(),
        annotations=types.ToolAnnotations(
            title=tool.title,
            read_only_hint=tool.operation.reads_only,
            idempotent_hint=True,
            open_world_hint=False,
        ),
    )


async def _call_tool(outer: Request, params: types.CallToolRequestParams) -> types.CallToolResult:
    tool = tool_named(params.name)
    if tool is None:
        raise MCPError(types.INVALID_PARAMS, f"unknown tool: {params.name}")
    arguments = dict(params.arguments or {})
    path, rest = tool.split(arguments)
    unreadable = _unreadable(tool, arguments, path)
    if unreadable is not None:
        return _tool_error(unreadable, None)
    path_params = {k: str(v) for k, v in path.items()}
    inner = _inner_request(outer, tool, path_params, rest)
    response = served().dispatch(tool.method, tool.path, inner, path_params)
    log_event(
        "mcp_tool", requestId=request_scope.current().request_id, tool=tool.name, status=response.status_code
    )
    body = response.body if isinstance(response.body, dict) else json.loads(response.body)
    if response.status_code >= 400:
        retry_after = response.headers.get("Retry-After")
        return _tool_error(body, retry_after if isinstance(retry_after, str) else None)
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return types.CallToolResult(
        content=[
            types.TextContent(type="text", text=tool.text(body)),
            types.TextContent(type="text", text=text),
        ],
        structured_content=body,
    )


def _unreadable(tool: Tool, arguments: dict[str, Any], path: dict[str, Any]) -> dict[str, Any] | None:
    """The 400 the REST API would give arguments a URL cannot carry: a path parameter that is not
    a string, a query parameter that is a list or an object. None when there is none."""
    wrong = [(k, "path", "must be a string") for k, v in path.items() if not isinstance(v, str)]
    if tool.method == "GET":
        wrong += [
            (k, "query", "must be a string, number or boolean")
            for k, v in arguments.items()
            if k not in path and isinstance(v, dict | list)
        ]
    if not wrong:
        return None
    wrong.sort()
    details = [{"field": field, "message": message} for field, _, message in wrong]
    where = wrong[0][1]
    message = f"invalid {where}: {', '.join(field for field, _, _ in wrong)}"
    return error_body("INVALID_REQUEST", message, request_scope.current().request_id, details)


def _tool_error(body: dict[str, Any], retry_after: str | None) -> types.CallToolResult:
    error = body["error"]
    details = "".join(f"\n- {d['field']}: {d['message']}" for d in error.get("details", []))
    wait = f"\nRetry after {retry_after} s." if retry_after else ""
    text = f"{error['code']}: {error['message']}{details}{wait}"
    # No structured content: clients hold it to the tool's output schema even on an error (the
    # Inspector does), and the error body is not the operation's answer. Its JSON comes second.
    as_json = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text), types.TextContent(type="text", text=as_json)],
        is_error=True,
    )


def _inner_request(outer: Request, tool: Tool, path: dict[str, str], rest: dict[str, Any]) -> Request:
    """The REST request a tool call stands for: its arguments as the query (GET) or the JSON body."""
    headers = {k: v for k, v in outer.headers.items() if k.lower() in _FORWARDED}
    query, body = None, None
    if tool.method == "GET":
        query = {k: [_query_text(v)] for k, v in rest.items() if v is not None} or None
    else:
        headers["content-type"] = "application/json"
        body = json.dumps(rest)
    event = {
        "multiValueQueryStringParameters": query,
        "headers": headers,
        "pathParameters": path or None,
        "requestContext": {**outer.context, "httpMethod": tool.method, "resourcePath": tool.path},
        "body": body,
        "isBase64Encoded": False,
        "stageVariables": outer.stage_vars,
    }
    return Request(event)


def _query_text(value: Any) -> str:
    """A JSON argument as a query parameter's text: the REST API parses it back the same way."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
