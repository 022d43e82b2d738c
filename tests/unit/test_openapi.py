from __future__ import annotations

from typing import Any, get_args

import pytest
from openapi_spec_validator import validate

from app import ROUTES
from chalicelib.api.errors import CODES
from chalicelib.api.models.common import ErrorCode
from chalicelib.api.openapi import build_document
from chalicelib.api.openapi_examples import described_example

SPEC_ENDPOINTS = {
    ("get", "/api/v1/health"): None,
    ("get", "/api/v1/ready"): None,
    ("get", "/api/v1/countries"): "read",
    ("get", "/api/v1/availability"): "read",
    ("get", "/api/v1/client-context"): "read",
    ("get", "/api/v1/locations/search"): "read",
    ("get", "/api/v1/generate"): "generate",
    ("post", "/api/v1/generate/batch"): "generate",
    ("get", "/api/v1/locations/hierarchy"): "read",
    ("get", "/api/v1/coverage"): "read",
    ("get", "/api/v1/addresses/{id}"): "read",
    ("post", "/api/v1/address-translation"): "generate",
    ("get", "/api/v1/data-health"): "read",
}
# Ours beyond the spec's table: the seeded export (issue 27).
ADDITIONS = {("get", "/api/v1/export"): "generate"}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return build_document(ROUTES.operations())


def _param(document: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    params = document["paths"][path]["get"]["parameters"]
    return next(p for p in params if p["name"] == name)


def _schema(document: dict[str, Any], name: str) -> dict[str, Any]:
    schema: dict[str, Any] = document["components"]["schemas"][name]
    return schema


def test_is_a_valid_openapi_31_document_at_version_1_0_0(document: dict[str, Any]) -> None:
    validate(document)
    assert document["openapi"] == "3.1.0"
    assert document["info"]["version"] == "1.0.0"


def test_describes_exactly_the_spec_endpoints_with_their_scopes(document: dict[str, Any]) -> None:
    described = {
        (method, path): (op["security"][0]["bearerAuth"][0] if op["security"] else None)
        for path, item in document["paths"].items()
        for method, op in item.items()
    }
    assert described == SPEC_ENDPOINTS | ADDITIONS


def test_authenticated_operations_list_auth_errors(document: dict[str, Any]) -> None:
    responses = document["paths"]["/api/v1/generate"]["get"]["responses"]
    assert {"200", "400", "401", "403", "404", "429", "500", "503"} <= set(responses)
    assert "401" not in document["paths"]["/api/v1/health"]["get"]["responses"]


@pytest.mark.parametrize(
    ("name", "limit"),
    [("region", 300), ("q", 300), ("seed", 300), ("regionId", 160), ("requestId", 160), ("ip", 64)],
)
def test_generate_parameter_limits(document: dict[str, Any], name: str, limit: int) -> None:
    schema = _param(document, "/api/v1/generate", name)["schema"]
    assert schema["maxLength"] == limit


def test_generate_defaults_and_enums(document: dict[str, Any]) -> None:
    assert _param(document, "/api/v1/generate", "country")["schema"]["default"] == "US"
    strategy = _param(document, "/api/v1/generate", "strategy")["schema"]
    assert strategy["enum"] == ["random", "instant"]
    assert strategy["default"] == "random"


def test_page_size_limits(document: dict[str, Any]) -> None:
    for path in ("/api/v1/locations/search", "/api/v1/locations/hierarchy"):
        schema = _param(document, path, "limit")["schema"]
        assert (schema["minimum"], schema["maximum"], schema["default"]) == (20, 200, 100)


def test_batch_body_limits(document: dict[str, Any]) -> None:
    body = _schema(document, "BatchRequest")
    assert body["properties"]["count"]["minimum"] == 1
    assert body["properties"]["count"]["maximum"] == 50
    assert body["properties"]["excludeAddressIds"]["maxItems"] == 500
    assert body["additionalProperties"] is False
    assert _schema(document, "BatchFilters")["additionalProperties"] is False
    assert _schema(document, "BatchFilters")["required"] == ["country"]


def test_translation_locales(document: dict[str, Any]) -> None:
    locale = _schema(document, "TranslationRequest")["properties"]["targetLocale"]
    assert locale["enum"] == ["en", "zh-CN", "zh-TW", "ja", "ko", "de", "fr", "es", "pt"]


def test_error_shape_is_a_component(document: dict[str, Any]) -> None:
    body = _schema(document, "NoPoolCoverageError")["properties"]["error"]
    assert set(body["required"]) == {"code", "message", "requestId"}


ADMIN_ENDPOINTS = {
    ("get", "/api/v1/admin/tokens"): "200",
    ("post", "/api/v1/admin/tokens"): "201",
    ("post", "/api/v1/admin/tokens/{tokenId}/revoke"): "200",
    ("get", "/api/v1/admin/data"): "200",
    ("post", "/api/v1/admin/sync"): "202",
    ("get", "/api/v1/admin/audit"): "200",
    ("post", "/api/v1/admin/withdrawals"): "201",
    ("get", "/api/v1/admin/withdrawals"): "200",
    ("delete", "/api/v1/admin/withdrawals/{withdrawalId}"): "200",
}


def test_the_admin_api_has_its_own_valid_document_all_admin_scoped() -> None:
    admin = build_document(ROUTES.operations(), "admin")
    validate(admin)
    described = {(m, p): op for p, item in admin["paths"].items() for m, op in item.items()}
    assert set(described) == set(ADMIN_ENDPOINTS)
    for key, op in described.items():
        assert op["security"] == [{"bearerAuth": ["admin"]}]
        assert op["tags"] == ["admin"]
        assert ADMIN_ENDPOINTS[key] in op["responses"]
        assert {"401", "403", "429"} <= set(op["responses"])
    revoke = described[("post", "/api/v1/admin/tokens/{tokenId}/revoke")]
    assert "404" in revoke["responses"]
    assert "409" in described[("post", "/api/v1/admin/sync")]["responses"]
    undo = described[("delete", "/api/v1/admin/withdrawals/{withdrawalId}")]
    assert "WITHDRAWAL_NOT_FOUND" in undo["responses"]["404"]["description"]
    create = admin["components"]["schemas"]["CreateTokenBody"]
    assert create["additionalProperties"] is False
    assert set(create["required"]) == {"label", "scope", "ratePerMinute", "expiresIn"}


def test_error_codes_are_an_enum_of_exactly_the_codes_errors_carry(document: dict[str, Any]) -> None:
    assert set(get_args(ErrorCode)) == CODES
    coded = {
        name: schema["properties"]["error"]["properties"]["code"]["enum"]
        for name, schema in document["components"]["schemas"].items()
        if name.endswith("Error")
    }
    assert {c for codes in coded.values() for c in codes} <= CODES
    # One code each, but for a status that carries two: getAddress's 410, gone either way.
    several = {name: codes for name, codes in coded.items() if len(codes) > 1}
    assert several == {"SnapshotExpiredOrAddressWithdrawnError": ["SNAPSHOT_EXPIRED", "ADDRESS_WITHDRAWN"]}
    gone = document["paths"]["/api/v1/addresses/{id}"]["get"]["responses"]["410"]
    assert gone["content"]["application/json"]["schema"]["$ref"].endswith(
        "/SnapshotExpiredOrAddressWithdrawnError"
    )


@pytest.mark.parametrize(
    ("path", "method", "code"),
    [
        ("/api/v1/generate", "get", "NoPoolCoverageError"),
        ("/api/v1/addresses/{id}", "get", "AddressNotFoundError"),
        ("/api/v1/address-translation", "post", "AddressNotFoundError"),
        ("/api/v1/client-context", "get", "AddressNotFoundError"),
        ("/api/v1/locations/search", "get", "NoPoolCoverageError"),
    ],
)
def test_each_operation_names_the_code_of_its_404(
    document: dict[str, Any], path: str, method: str, code: str
) -> None:
    schema = document["paths"][path][method]["responses"]["404"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": f"#/components/schemas/{code}"}
    assert document["paths"][path][method]["responses"]["401"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/UnauthorizedError"
    }


def test_optional_parameters_are_never_null_nor_defaulted_to_null(document: dict[str, Any]) -> None:
    loose = [
        (path, p["name"])
        for path, item in document["paths"].items()
        for op in item.values()
        for p in op.get("parameters", [])
        if any(b.get("type") == "null" for b in p["schema"].get("anyOf", []))
        or p["schema"].get("default", ...) is None
    ]
    assert loose == []


def test_responses_require_every_field_the_server_writes(document: dict[str, Any]) -> None:
    assert _schema(document, "GenerateData")["required"] == [
        "requestId",
        "country",
        "mode",
        "sourcesTried",
        "snapshotId",
        "result",
        "ipContext",
    ]
    assert set(_schema(document, "Components")["required"]) == set(
        _schema(document, "Components")["properties"]
    )
    assert _schema(document, "RateLimitedError")["properties"]["error"]["required"] == [
        "code",
        "message",
        "requestId",
    ]


def test_request_bodies_state_defaults_in_words_not_as_defaults(document: dict[str, Any]) -> None:
    options = _schema(document, "BatchOptions")["properties"]
    assert "default" not in options["unique"]
    assert options["unique"]["description"] == "Default: true."


def test_ip_is_one_typed_string(document: dict[str, Any]) -> None:
    schema = _param(document, "/api/v1/generate", "ip")["schema"]
    assert schema["type"] == "string"
    assert [b["type"] for b in schema["anyOf"]] == ["string", "string"]


def test_response_headers_are_declared(document: dict[str, Any]) -> None:
    def names(path: str, method: str, status: str) -> set[str]:
        return set(document["paths"][path][method]["responses"][status]["headers"])

    assert names("/api/v1/generate", "get", "200") == {
        "X-Request-Id",
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset",
        "ETag",
        "Cache-Control",
    }
    assert {"ETag", "Cache-Control"} <= names("/api/v1/generate", "get", "304")
    assert "ETag" not in names("/api/v1/countries", "get", "200")
    assert {"Retry-After", "X-RateLimit-Remaining"} <= names("/api/v1/generate", "get", "429")
    assert "Retry-After" in names("/api/v1/generate", "get", "503")
    assert names("/api/v1/health", "get", "200") == {"X-Request-Id"}
    export = names("/api/v1/export", "get", "200")
    assert {"X-Export-Seed", "X-Export-Snapshot", "X-Export-Total", "X-Export-Pages", "Link"} <= export
    headers = document["components"]["headers"]
    assert headers["X-Export-Total"]["required"] is True
    assert headers["Link"]["required"] is False


def test_every_schema_parameter_and_answer_has_a_real_example(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    assert [n for n, s in schemas.items() if "examples" not in s and not n.endswith("Response")] == []
    for item in document["paths"].values():
        for op in item.values():
            for p in op.get("parameters", []):
                apart = "(example: `" in p.get("description", "")  # sent alone, not with the others
                assert ("example" in p) if p["required"] else ("examples" in p["schema"] or apart), p["name"]
            for status, response in op["responses"].items():
                if status != "304":  # not modified: no body
                    assert "example" in response["content"]["application/json"], (op["operationId"], status)


PUBLIC_QUERIES = [op for op in ROUTES.operations() if op.query is not None and op.document == "public"]


def _as_sent(value: Any) -> str:
    """A query parameter's example as a URL carries it."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize("operation", PUBLIC_QUERIES, ids=lambda op: op.name)
def test_each_parameter_example_is_accepted_by_its_operation(
    document: dict[str, Any], operation: Any
) -> None:
    params = document["paths"][operation.path][operation.method.lower()]["parameters"]
    queried = [p for p in params if p["in"] == "query"]
    required = {p["name"]: _as_sent(p["example"]) for p in queried if p["required"]}
    for param in queried:
        operation.query.model_validate({**required, param["name"]: _as_sent(_example_of(param))})


def _example_of(param: dict[str, Any]) -> Any:
    """Its example: its own (required), its schema's, or the one in its description (a parameter
    whose example is not sent with the operation's others)."""
    if param["required"]:
        return param["example"]
    if "examples" in param["schema"]:
        return param["schema"]["examples"][0]
    described = described_example(param)
    assert described is not None, param["name"]
    return described


@pytest.mark.parametrize("which", ["public", "admin"])
def test_every_schema_property_and_parameter_is_described(which: str) -> None:
    described = build_document(ROUTES.operations(), which)
    undescribed = [
        f"{name}.{prop}"
        for name, schema in described["components"]["schemas"].items()
        for prop, sub in schema.get("properties", {}).items()
        if not sub.get("description")
    ]
    undescribed += [
        name for name, schema in described["components"]["schemas"].items() if not schema.get("description")
    ]
    undescribed += [
        f"{op['operationId']}:{p['name']}"
        for item in described["paths"].values()
        for op in item.values()
        for p in op.get("parameters", [])
        if not p.get("description")
    ]
    assert undescribed == []
