"""The MCP endpoint (/mcp) in process, over a synced pool: each tool answers exactly what its REST
operation answers, under the same token, scope, rate limit and error codes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from chalicelib.api.models.addresses import GenerateResponse
from chalicelib.api.models.requests import GenerateQuery
from tests.support.api import MCP_TOOLS, Api, synced_pool
from tests.support.factories import bearer, issue_token

HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2025-11-25",
}


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("mcp"), ["osm-liechtenstein-li"]) as wired:
        yield wired


def rpc(
    api: Api, method: str, params: dict[str, Any] | None = None, auth: dict[str, str] | None = None
) -> Any:
    message = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}
    headers = {**HEADERS, **(api.auth if auth is None else auth)}
    response = api.client.http.post("/mcp", headers=headers, body=json.dumps(message).encode())
    assert response.status_code == 200, response.body
    return json.loads(response.body)


def call(api: Api, tool: str, auth: dict[str, str] | None = None, **arguments: Any) -> Any:
    return rpc(api, "tools/call", {"name": tool, "arguments": arguments}, auth)["result"]


def error_of(result: Any) -> Any:
    """A tool error's REST error body: its second text block (no structured content, which clients
    would hold to the tool's output schema)."""
    assert result["isError"] is True
    assert "structuredContent" not in result
    return json.loads(result["content"][1]["text"])["error"]


def test_the_tools_are_the_rest_operations_with_their_own_models_schemas(api: Api) -> None:
    tools = {t["name"]: t for t in rpc(api, "tools/list")["result"]["tools"]}
    assert list(tools) == MCP_TOOLS
    generate = tools["generate_address"]
    assert (
        generate["inputSchema"]["properties"] == GenerateQuery.model_json_schema(by_alias=True)["properties"]
    )
    assert generate["outputSchema"] == GenerateResponse.model_json_schema(mode="serialization", by_alias=True)
    assert "scope 'generate'" in generate["description"]
    assert tools["get_address"]["inputSchema"]["required"] == ["id"]
    assert set(tools["get_address"]["inputSchema"]["properties"]) == {"id", "snapshot"}
    assert tools["list_countries"]["inputSchema"]["properties"] == {}
    for tool in tools.values():
        assert tool["inputSchema"]["type"] == "object"
        assert tool["annotations"]["readOnlyHint"] is True
        assert tool["annotations"]["idempotentHint"] is True


def test_generate_answers_the_rest_json_and_a_text_to_fill_a_form_with(api: Api) -> None:
    result = call(api, "generate_address", country="LI", seed="form", residential=False)
    rest = api.get("/api/v1/generate", country="LI", seed="form", residential="false")
    assert result["structuredContent"] == rest
    text, as_json = (c["text"] for c in result["content"])
    assert json.loads(as_json) == rest
    generated = rest["data"]["result"]
    fields = dict(line.split(": ", 1) for line in text.splitlines())
    assert fields["Email"] == generated["profile"]["email"]
    assert fields["Phone"] == generated["profile"]["phone"]["number"]
    assert fields["Street"] == generated["address"]["components"]["street"]
    assert fields["Postcode"] == generated["address"]["components"]["postcode"]
    assert fields["Address ID"] == generated["address"]["id"]
    assert "Unit" not in fields  # an empty component is left out, not written as None


def test_every_tool_answers_what_its_operation_answers(api: Api) -> None:
    batch: dict[str, Any] = {"count": 3, "filters": {"country": "LI"}, "options": {"seed": "kit"}}
    drawn = call(api, "generate_batch", **batch)
    assert drawn["structuredContent"] == api.batch(batch)
    assert drawn["content"][0]["text"].startswith("# 1\nName: ")
    address_id = drawn["structuredContent"]["data"]["results"][0]["address"]["id"]
    read = call(api, "get_address", id=address_id)
    assert read["structuredContent"] == api.get(f"/api/v1/addresses/{address_id}")
    assert f"Address ID: {address_id}" in read["content"][0]["text"]
    cities = call(api, "search_locations", country="LI", field="city", limit=20)
    assert cities["structuredContent"] == api.get(
        "/api/v1/locations/search", country="LI", field="city", limit=20
    )
    first = cities["structuredContent"]["data"]["cities"][0]
    assert cities["content"][0]["text"].startswith(f"{first['value']} (id {first['id']}): ")
    translated = call(api, "translate_address", addressId=address_id, targetLocale="ja")
    rest = api.post("/api/v1/address-translation", {"addressId": address_id, "targetLocale": "ja"})
    assert translated["structuredContent"] == rest
    assert translated["content"][0]["text"] == "\n".join(rest["data"]["lines"])
    countries = call(api, "list_countries")
    assert countries["structuredContent"] == api.get("/api/v1/countries")
    listed = countries["structuredContent"]["data"]
    assert countries["content"][0]["text"].splitlines() == [
        f"{c['code']}: {c['addressCount']} addresses" for c in listed
    ]


def test_a_bad_argument_is_a_tool_error_naming_the_field_as_the_rest_api_does(api: Api) -> None:
    wrong = call(api, "generate_address", country="L1")
    error = error_of(wrong)
    assert (error["code"], [d["field"] for d in error["details"]]) == ("INVALID_REQUEST", ["country"])
    assert wrong["content"][0]["text"].startswith("INVALID_REQUEST: invalid query: country\n- country: ")
    unknown = error_of(call(api, "generate_address", country="LI", colour="blue"))
    assert [d["field"] for d in unknown["details"]] == ["colour"]
    nested = error_of(call(api, "generate_address", country="LI", traits=["unit"], seed={"a": 1}))
    assert [(d["field"], d["message"]) for d in nested["details"]] == [
        ("seed", "must be a string, number or boolean"),
        ("traits", "must be a string, number or boolean"),
    ]
    for wrong_id in (None, 123, ["li-x"]):
        refused = error_of(call(api, "get_address", id=wrong_id))
        assert (refused["message"], refused["details"]) == (
            "invalid path: id",
            [{"field": "id", "message": "must be a string"}],
        )
    as_text = call(api, "generate_batch", count="3", filters={"country": "LI"})  # a body is strict
    assert error_of(as_text)["details"][0]["field"] == "count"
    nowhere = call(api, "generate_address", country="FR")
    assert error_of(nowhere)["code"] == "NO_POOL_COVERAGE"
    assert error_of(call(api, "get_address", id="li-nosuchaddress0"))["code"] == "ADDRESS_NOT_FOUND"


def test_a_token_without_the_scope_gets_forbidden_from_the_tools_that_need_it(
    api: Api, pool: deps.Dependencies
) -> None:
    reader = bearer(issue_token(pool.stores.tokens, pool.clock, scope="read"))
    assert call(api, "list_countries", auth=reader).get("isError") is not True
    refused = call(api, "generate_address", auth=reader, country="LI")
    assert error_of(refused)["code"] == "FORBIDDEN"
    assert refused["content"][0]["text"] == "FORBIDDEN: this endpoint needs a token with scope 'generate'"


def test_each_tool_call_counts_against_the_token_s_rate_limit_and_listing_does_not(
    api: Api, pool: deps.Dependencies
) -> None:
    limited = bearer(issue_token(pool.stores.tokens, pool.clock, rate_per_minute=2))
    for _ in range(3):
        assert len(rpc(api, "tools/list", auth=limited)["result"]["tools"]) == len(MCP_TOOLS)
    assert [call(api, "list_countries", auth=limited).get("isError") for _ in range(2)] == [False, False]
    third = call(api, "list_countries", auth=limited)
    assert error_of(third)["code"] == "RATE_LIMITED"
    assert third["content"][0]["text"].endswith("\nRetry after 60 s.")


def test_without_an_active_token_mcp_answers_401_in_the_api_s_error_shape(api: Api) -> None:
    for auth in ({}, {"Authorization": "Bearer not-a-token"}):
        response = api.client.http.post("/mcp", headers={**HEADERS, **auth}, body=b"{}")
        assert response.status_code == 401
        assert json.loads(response.body)["error"]["code"] == "UNAUTHORIZED"
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


def test_protocol_mistakes_are_json_rpc_errors_never_a_500(api: Api) -> None:
    unknown = rpc(api, "tools/call", {"name": "make_coffee", "arguments": {}})
    assert unknown["error"]["code"] == -32602
    listed = api.client.http.post(
        "/mcp",
        headers={**HEADERS, **api.auth, "X-Snow": "☃"},  # not latin-1: the transport never sees it
        body=json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode(),
    )
    assert listed.status_code == 200
    broken = api.client.http.post("/mcp", headers={**HEADERS, **api.auth}, body=b"{not json")
    assert broken.status_code == 400
    assert json.loads(broken.body)["error"]["code"] == -32700
    for method in ("GET", "DELETE"):
        answer = api.client.http.request(method, "/mcp", headers={**HEADERS, **api.auth})
        assert (answer.status_code, answer.headers["Allow"]) == (405, "POST")
        assert json.loads(answer.body)["error"]["code"] == "INVALID_REQUEST"
