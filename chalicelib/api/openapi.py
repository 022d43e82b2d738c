"""The OpenAPI 3.1 description, generated from the registered operations and their pydantic models."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from chalicelib.api.endpoint import Operation
from chalicelib.api.errors import CODES
from chalicelib.api.models.common import ErrorBody, ErrorResponse
from chalicelib.api.openapi_examples import add_examples
from chalicelib.api.openapi_text import ADMIN_DESCRIPTION, TAG_TEXT, public_description

API_VERSION = "1.0.0"
_REF = "#/components/schemas/{model}"

_SERVERS = {
    "public": [{"url": "../..", "description": "The deployment that serves this document"}],
    "admin": [{"url": "../../..", "description": "The deployment that serves this document"}],
}
_CONTACT = {"name": "Address Generation Service team"}
# The service is not published under an open licence; each served address carries its source's
# licence and attribution in `source`.
_LICENSE = {
    "name": "Proprietary; addresses under their sources' licences (each address's source.license)",
    "identifier": "LicenseRef-Proprietary",
}

# Response headers, declared once: (schema, description, required where the response lists it).
_HEADERS: dict[str, tuple[dict[str, Any], str, bool]] = {
    "X-Request-Id": ({"type": "string"}, "The server's id of this request (the error's requestId)", True),
    "X-RateLimit-Limit": ({"type": "integer"}, "The token's requests per minute", False),
    "X-RateLimit-Remaining": ({"type": "integer"}, "Requests left in the current minute", False),
    "X-RateLimit-Reset": ({"type": "integer"}, "Epoch seconds at which the current minute ends", False),
    "Retry-After": ({"type": "integer"}, "Seconds to wait before trying again", False),
    "ETag": (
        {"type": "string"},
        "On a seeded answer from a pinned snapshot (and one by ID from a pinned snapshot): a strong "
        "validator of its bytes; sent back in If-None-Match, it gets 304",
        False,
    ),
    "Cache-Control": (
        {"type": "string"},
        "With ETag: `private, max-age=<seconds until the pinned snapshot may expire>, immutable` "
        "(RFC 8246): the answer will not change while the snapshot is kept",
        False,
    ),
    "X-Export-Seed": ({"type": "string"}, "The export's seed, percent-encoded UTF-8", True),
    "X-Export-Snapshot": ({"type": "string"}, "The snapshot the export walks (snapshotId)", True),
    "X-Export-Total": ({"type": "integer"}, "Addresses the whole export walks through", True),
    "X-Export-Pages": ({"type": "integer"}, "Pages of this size in the whole export", True),
    "Link": (
        {"type": "string"},
        'The next page, `<?…>; rel="next"`, relative to this request\'s URL; absent on the last page',
        False,
    ),
}
_RATE = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")

# The code each error status carries; a 404's depends on the operation (Operation.not_found).
STATUS_CODES = {
    400: "INVALID_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    409: "SYNC_RUNNING",
    429: "RATE_LIMITED",
    500: "INTERNAL_ERROR",
    503: "SERVICE_UNAVAILABLE",
}
_ERROR_TEXT = {
    "INVALID_REQUEST": "INVALID_REQUEST: malformed or invalid request; details name the field",
    "UNAUTHORIZED": "UNAUTHORIZED: missing, malformed, unknown, revoked or expired bearer token",
    "FORBIDDEN": "FORBIDDEN: the token's scope does not cover this endpoint",
    "NO_POOL_COVERAGE": "NO_POOL_COVERAGE: no published pool for the country, or no location or address "
    "matching the filters",
    "ADDRESS_NOT_FOUND": "ADDRESS_NOT_FOUND: no such address, or no place known for it",
    "TOKEN_NOT_FOUND": "TOKEN_NOT_FOUND: no token with this id",
    "SYNC_RUNNING": "SYNC_RUNNING: a sync is running already",
    "SNAPSHOT_EXPIRED": "SNAPSHOT_EXPIRED: the pinned snapshot is no longer served (replaced more than the "
    "retention ago, 30 days by default) or was never published for this country; pin the current one",
    "ADDRESS_WITHDRAWN": "ADDRESS_WITHDRAWN: an operator withdrew the address (a resident asked): it is "
    "never served again",
    "WITHDRAWAL_NOT_FOUND": "WITHDRAWAL_NOT_FOUND: no withdrawal with this id",
    "RATE_LIMITED": "RATE_LIMITED: the token's per-minute limit is used up, or the deployment's per-IP or "
    "stage throttle answered; see Retry-After",
    "INTERNAL_ERROR": "INTERNAL_ERROR: a fault of the service, logged with the request id",
    "SERVICE_UNAVAILABLE": "SERVICE_UNAVAILABLE: the data store is unreachable or throttling (Retry-After: "
    "5), or a setting the endpoint needs is missing",
}
_AUTH_ERRORS = (401, 403)
_ALWAYS = (429, 500, 503)  # 429: the WAF's per-IP rule and the stage's throttle answer any route


def build_document(operations: list[Operation], document: str = "public") -> dict[str, Any]:
    """The OpenAPI document of the operations in `document`: "public" or "admin"."""
    operations = [op for op in operations if op.document == document]
    title, description = (
        ("Address Generation Service: administration", ADMIN_DESCRIPTION)
        if document == "admin"
        else ("Address Generation Service", public_description(operations))
    )
    schemas = _component_schemas(operations)
    paths: dict[str, dict[str, Any]] = {}
    for op in sorted(operations, key=lambda o: (o.path, o.method)):
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op, schemas)
    combined = {op.gone for op in operations if 410 in op.errors and len(op.gone) > 1}
    _coded_errors(schemas, paths, combined)
    built: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": title,
            "version": API_VERSION,
            "description": description,
            "contact": _CONTACT,
            "license": _LICENSE,
        },
        "servers": _SERVERS[document],
        "tags": [{"name": t, "description": TAG_TEXT[t]} for t in sorted({op.tag for op in operations})],
        "paths": paths,
        "components": {
            "schemas": schemas,
            "headers": _header_components(json.dumps(paths)),
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "bearerFormat": "ags_<12-character id>_<43-character secret>",
                }
            },
        },
    }
    add_examples(built)
    return built


def _component_schemas(operations: list[Operation]) -> dict[str, Any]:
    models: dict[type[BaseModel], JsonSchemaMode] = {ErrorResponse: "serialization"}
    for op in operations:
        models[op.response] = "serialization"
        if op.body:
            models[op.body] = "validation"
    _, top = models_json_schema(list(models.items()), ref_template=_REF)
    schemas = dict(top.get("$defs", {}))
    for schema in schemas.values():
        _untitled(schema.get("properties", {}))
    bodies = [op.body.__name__ for op in operations if op.body]
    for name in _referenced(bodies, schemas):
        _defaults_described(schemas[name])
    return schemas


def _untitled(properties: dict[str, Any]) -> None:
    """Without pydantic's property titles ("Targetlocale", made from the wire name): generators name
    a property's type from its schema and the property instead (TranslationRequestTargetLocale)."""
    for prop in properties.values():
        prop.pop("title", None)
        for branch in prop.get("anyOf", []):
            branch.pop("title", None)


def _referenced(names: list[str], schemas: dict[str, Any]) -> set[str]:
    """These schemas and every schema they reference, however deep."""
    found, todo = set(names), list(names)
    while todo:
        for ref in _refs(schemas[todo.pop()]):
            if ref not in found:
                found.add(ref)
                todo.append(ref)
    return found


def _refs(node: object) -> set[str]:
    if isinstance(node, dict):
        own = {node["$ref"].rsplit("/", 1)[1]} if "$ref" in node else set()
        return own.union(*(_refs(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node))
    return set()


def _defaults_described(schema: dict[str, Any]) -> None:
    """A request body's defaults in words, not as `default`: generators make a property with a
    default required (openapi-typescript) or send the default themselves; the server applies it."""
    for prop in schema.get("properties", {}).values():
        if "default" in prop:
            default = prop.pop("default")
            if default is not None and default != []:
                text = prop.get("description", "").rstrip(".")
                prop["description"] = (
                    f"{text}. Default: {json.dumps(default)}." if text else f"Default: {json.dumps(default)}."
                )


def _operation(op: Operation, schemas: dict[str, Any]) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "operationId": op.name,
        "summary": op.summary,
        "tags": [op.tag],
        "security": [{"bearerAuth": [op.scope.value]}] if op.scope else [],
        "responses": _responses(op),
    }
    if op.description:
        doc["description"] = op.description
    if op.scope:
        doc["x-required-scope"] = op.scope.value
    parameters = _parameters(op.path_params, "path", schemas) + _parameters(op.query, "query", schemas)
    if parameters:
        doc["parameters"] = parameters
    if op.body:
        doc["requestBody"] = {"required": True, "content": _json_ref(op.body)}
    return doc


def _parameters(model: type[BaseModel] | None, where: str, schemas: dict[str, Any]) -> list[dict[str, Any]]:
    if model is None:
        return []
    schema = model.model_json_schema(ref_template=_REF, by_alias=True)
    schemas.update(schema.get("$defs", {}))
    required = set(schema.get("required", []))
    params = []
    for name, prop in schema["properties"].items():
        param: dict[str, Any] = {"name": name, "in": where, "required": name in required or where == "path"}
        described = prop.get("description") or _branch_description(prop)
        if described:
            param["description"] = described
        param["schema"] = _without_null(
            {k: v for k, v in prop.items() if k not in {"description", "title"}}, param["required"]
        )
        params.append(param)
    return params


def _without_null(schema: dict[str, Any], required: bool) -> dict[str, Any]:
    """An optional parameter is left out, never sent as null: its schema is its non-null branch,
    without pydantic's `default: null` (which generators turn into a required or `null` value)."""
    if required or schema.get("default", ...) is not None:
        return schema
    branches = [b for b in schema.get("anyOf", []) if b.get("type") != "null"]
    rest = {k: v for k, v in schema.items() if k not in {"anyOf", "default"}}
    if len(branches) == 1:
        return {**branches[0], **rest}
    return {**rest, "anyOf": branches} if branches else rest


def _branch_description(prop: dict[str, Any]) -> str | None:
    """pydantic writes an optional annotated parameter's description inside its non-null branch."""
    branches = [b for b in prop.get("anyOf", []) if b.get("type") != "null"]
    return branches[0].get("description") if len(branches) == 1 else None


def _responses(op: Operation) -> dict[str, Any]:
    content = _json_ref(op.response)
    for media_type, description in op.other_media:
        content[media_type] = {"schema": {"type": "string", "description": description}}
    counted = _RATE if op.scope else ()  # an admitted request carries the token's rate headers
    responses: dict[str, Any] = {
        str(op.status): {
            "description": op.summary,
            "headers": _header_refs("X-Request-Id", *counted, *op.headers),
            "content": content,
        }
    }
    if op.cacheable:
        responses[str(op.status)]["headers"].update(_header_refs("ETag", "Cache-Control"))
        responses["304"] = {
            "description": "Not modified: If-None-Match held this answer's ETag (no body)",
            "headers": _header_refs("X-Request-Id", "ETag", "Cache-Control", *counted),
        }
    statuses = set(op.errors) | set(_ALWAYS)
    if op.scope:
        statuses |= set(_AUTH_ERRORS)
    if op.query or op.body or op.path_params:
        statuses.add(400)
    for status in sorted(statuses):
        headers = ["X-Request-Id"]
        if status in (429, 503):
            headers.append("Retry-After")
        if status in (400, 404, 409, 410, 429):
            headers += counted
        codes = (op.not_found,) if status == 404 else op.gone if status == 410 else (STATUS_CODES[status],)
        responses[str(status)] = {
            "description": "; or ".join(_ERROR_TEXT[code] for code in codes),
            "headers": _header_refs(*headers),
            "content": {"application/json": {"schema": _error_schema(*codes)}},
        }
    return responses


def _error_schema(*codes: str) -> dict[str, Any]:
    return {"$ref": _REF.format(model=error_schema_name(*codes))}


def error_schema_name(*codes: str) -> str:
    """The component of the error answers carrying one of `codes`: NO_POOL_COVERAGE →
    NoPoolCoverageError; SNAPSHOT_EXPIRED or ADDRESS_WITHDRAWN → SnapshotExpiredOrAddressWithdrawnError."""
    return "Or".join("".join(part.title() for part in code.split("_")) for code in codes) + "Error"


def _coded_errors(
    schemas: dict[str, Any], paths: dict[str, Any], combined: set[tuple[str, ...]] | None = None
) -> None:
    """One component per error code, or set of codes one status may carry (`combined`), the paths
    use: the error shape with its code narrowed to them (an enum per operation and status, so a
    generated client can switch on it); the generic shape is dropped once nothing refers to it."""
    text = json.dumps(paths)
    body, answer = schemas.pop(ErrorBody.__name__), schemas.pop(ErrorResponse.__name__)
    for codes in [(code,) for code in sorted(CODES)] + sorted(combined or ()):
        name = error_schema_name(*codes)
        if f'"{_REF.format(model=name)}"' not in text:
            continue
        narrowed = {**body["properties"]["code"], "enum": list(codes)}
        coded_body = {**body, "title": f"{name}Body", "properties": {**body["properties"], "code": narrowed}}
        schemas[name] = {
            **answer,
            "title": name,
            "description": f"An error answer whose code is {' or '.join(codes)}",
            "properties": {"error": {**coded_body, "description": body.get("description", "")}},
        }


def _header_refs(*names: str) -> dict[str, Any]:
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


def _header_components(paths_text: str) -> dict[str, Any]:
    """The headers the document's responses refer to (an unused component is a lint finding)."""
    return {
        name: {"description": text, "required": required, "schema": schema}
        for name, (schema, text, required) in _HEADERS.items()
        if f'"#/components/headers/{name}"' in paths_text
    }


def _json_ref(model: type[BaseModel]) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": _REF.format(model=model.__name__)}}}
