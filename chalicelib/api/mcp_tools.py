"""The MCP tools: each is one operation of the public REST API, declared on its handler
(`Operation.tool`, api/endpoint.py) and named in app.py's route table. Its input schema is that
operation's own pydantic models' (query or body, with path parameters), its output schema the
operation's response model's, and a call answers the operation's JSON with the tool's short text
form (api/presenters/tool_text.py)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from chalicelib.api.endpoint import McpTool, Operation
from chalicelib.api.route_table import Route, served

Json = dict[str, Any]


@dataclass(frozen=True)
class Tool:
    name: str
    route: Route

    @property
    def title(self) -> str:
        return self.declared[1].title

    @property
    def method(self) -> str:
        return self.route.method

    @property
    def path(self) -> str:
        return self.route.path

    @functools.cached_property
    def declared(self) -> tuple[Operation, McpTool]:
        """Its REST operation and the tool it declares, the route's module imported first (once per
        process: a call reads them)."""
        operation = self.route.declared().operation
        if operation is None or operation.tool is None:  # app.py's table is stale: `make routes`
            raise LookupError(f"{self.route.method} {self.route.path} declares no MCP tool")
        return operation, operation.tool

    @property
    def operation(self) -> Operation:
        return self.declared[0]

    def text(self, body: Json) -> str:
        """The short text form of a success's JSON."""
        return self.declared[1].text(self.operation.response.model_validate(body))

    def input_schema(self) -> Json:
        """The operation's path parameters and its query or body, as one JSON object's schema."""
        op = self.operation
        models = [m for m in (op.path_params, op.query, op.body) if m is not None]
        return _merged([_schema(m) for m in models])

    def output_schema(self) -> Json:
        return self.operation.response.model_json_schema(mode="serialization", by_alias=True)

    def description(self) -> str:
        op = self.operation
        scope = f" Needs a token with scope '{op.scope.value}'." if op.scope else ""
        return f"{op.summary}.{scope}\n\n{op.description}".strip()

    def split(self, arguments: Json) -> tuple[Json, Json]:
        """The arguments as the path's parameters, and the rest (the query or the body)."""
        model = self.operation.path_params
        names = {f.alias or n for n, f in model.model_fields.items()} if model else set()
        path = {k: v for k, v in arguments.items() if k in names}
        return path, {k: v for k, v in arguments.items() if k not in names}


def tools() -> list[Tool]:
    """Every tool, in the route table's order."""
    return [Tool(route.tool, route) for route in served().routes if route.tool is not None]


def tool_named(name: str) -> Tool | None:
    route = next((r for r in served().routes if r.tool == name), None)
    return Tool(name, route) if route is not None else None


def _schema(model: type[BaseModel]) -> Json:
    return model.model_json_schema(by_alias=True)


def _merged(schemas: list[Json]) -> Json:
    merged: Json = {"type": "object", "properties": {}, "additionalProperties": False}
    required: list[str] = []
    definitions: Json = {}
    for schema in schemas:
        merged["properties"].update(schema.get("properties", {}))
        required += schema.get("required", [])
        definitions.update(schema.get("$defs", {}))
    if required:
        merged["required"] = required
    if definitions:
        merged["$defs"] = definitions
    return merged
