"""The MCP tools: each is one operation of the public REST API. Its input schema is that operation's
own pydantic models' (query or body, with path parameters), its output schema the operation's
response model's, and a call answers the operation's JSON with a short text form an agent can
paste into a form, field by field."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from chalicelib.api import route_table
from chalicelib.api.endpoint import OPERATIONS, Operation

Json = dict[str, Any]


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    method: str
    path: str  # the REST operation's
    text: Callable[[Json], str]  # the short text form of a success's JSON

    @functools.cached_property
    def operation(self) -> Operation:
        """Its REST operation, the route's module imported first (once per process: a call reads it)."""
        route_table.load(route_table.route(self.method, self.path).module)
        return next(op for op in OPERATIONS if (op.method, op.path) == (self.method, self.path))

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


def _lines(pairs: list[tuple[str, Any]]) -> str:
    return "\n".join(f"{label}: {value}" for label, value in pairs if value not in (None, ""))


def _address_lines(address: Json) -> list[tuple[str, Any]]:
    parts = address["components"]
    return [
        ("Address", address["formattedAddress"]),
        ("Street", parts.get("street")),
        ("House number", parts.get("houseNumber")),
        ("Unit", parts.get("unit")),
        ("District", parts.get("district")),
        ("City", parts.get("city")),
        ("Region", parts.get("region")),
        ("Postcode", parts.get("postcode")),
        ("Country", address["countryCode"]),
        ("Address ID", address["id"]),
    ]


def _generated(result: Json) -> str:
    profile = result["profile"]
    latin = profile.get("latin")
    name = profile["fullName"] + (f" ({latin['fullName']})" if latin else "")
    pairs: list[tuple[str, Any]] = [
        ("Name", name),
        ("Given name", profile["givenName"]),
        ("Family name", profile["familyName"]),
        ("Email", profile["email"]),
        ("Phone", profile["phone"]["number"]),
        ("Date of birth", profile["dateOfBirth"]),
        *_address_lines(result["address"]),
    ]
    variant = result.get("variant")
    if variant:
        pairs.append(("Near-miss variant", f"{variant['kind']} (changed: {', '.join(variant['changed'])})"))
    return _lines(pairs)


def _generate_text(body: Json) -> str:
    return _generated(body["data"]["result"])


def _batch_text(body: Json) -> str:
    results = body["data"]["results"]
    return "\n\n".join(f"# {n}\n{_generated(r)}" for n, r in enumerate(results, 1)) or "No address matched."


def _address_text(body: Json) -> str:
    return _lines(_address_lines(body["data"]["address"]))


def _locations_text(body: Json) -> str:
    data = body["data"]
    items = next(v for k, v in data.items() if isinstance(v, list))
    rows = [f"{i['value']} (id {i['id']}): {i['availableCount']} addresses" for i in items]
    more = f"\n(more: pass cursor={data['nextCursor']})" if data.get("nextCursor") else ""
    return ("\n".join(rows) or "No location matched.") + more


def _translation_text(body: Json) -> str:
    return "\n".join(body["data"]["lines"])


def _countries_text(body: Json) -> str:
    return "\n".join(f"{c['code']}: {c['addressCount']} addresses" for c in body["data"]) or "No country yet."


TOOLS: tuple[Tool, ...] = (
    Tool("generate_address", "Generate a real address", "GET", "/api/v1/generate", _generate_text),
    Tool("generate_batch", "Generate a batch of addresses", "POST", "/api/v1/generate/batch", _batch_text),
    Tool("get_address", "Read an address by its ID", "GET", "/api/v1/addresses/{id}", _address_text),
    Tool(
        "search_locations", "Search the location catalog", "GET", "/api/v1/locations/search", _locations_text
    ),
    Tool(
        "translate_address", "Translate an address", "POST", "/api/v1/address-translation", _translation_text
    ),
    Tool("list_countries", "Countries and their counts", "GET", "/api/v1/countries", _countries_text),
)
BY_NAME = {tool.name: tool for tool in TOOLS}
