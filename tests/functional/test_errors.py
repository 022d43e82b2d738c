from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from chalice.test import Client

from chalicelib import deps
from chalicelib.api.errors import RETRY_AFTER_SECONDS, service_error_response, status_and_code
from chalicelib.errors import RateLimited, ServiceError, Unauthorized
from chalicelib.services.auth import CachedTokens
from tests.functional.conftest import error_of
from tests.support.factories import bearer, issue_token
from tests.support.fakes import BrokenTokenStore, FakeClock

BATCH = "/api/v1/generate/batch"


@pytest.fixture
def auth(dependencies: deps.Dependencies, clock: FakeClock) -> dict[str, str]:
    return {**bearer(issue_token(dependencies.stores.tokens, clock)), "Content-Type": "application/json"}


def _post(client: Client, auth: dict[str, str], body: Any, path: str = BATCH) -> Any:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    return client.http.post(path, headers=auth, body=raw)


def _fields(response: Any) -> set[str]:
    return {d["field"] for d in error_of(response).get("details", [])}


@pytest.mark.parametrize("raw", [b"{not json", b'{"count": 1,', b"\xff\xfe", b""])
def test_malformed_or_missing_json_is_400(client: Client, auth: dict[str, str], raw: bytes) -> None:
    response = _post(client, auth, raw)
    assert response.status_code == 400
    assert error_of(response)["code"] == "INVALID_REQUEST"
    assert _fields(response) == {"body"}


def test_wrong_content_type_has_our_shape(client: Client, auth: dict[str, str]) -> None:
    response = client.http.post(BATCH, headers={**auth, "Content-Type": "text/plain"}, body=b"{}")
    assert response.status_code == 415
    assert error_of(response)["code"] == "INVALID_REQUEST"


def test_unsupported_method_has_our_shape(client: Client) -> None:
    response = client.http.delete("/api/v1/health")
    assert response.status_code == 405
    assert error_of(response)["code"] == "INVALID_REQUEST"
    assert response.headers["Allow"] == "GET"


def test_get_ignores_content_type(client: Client) -> None:
    assert client.http.get("/api/v1/health", headers={"Content-Type": "text/plain"}).status_code == 200


VALID_BATCH: dict[str, Any] = {"count": 5, "filters": {"country": "US"}}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({**VALID_BATCH, "count": 0}, "count"),
        ({**VALID_BATCH, "count": 51}, "count"),
        ({**VALID_BATCH, "count": "5"}, "count"),
        ({**VALID_BATCH, "count": 5.5}, "count"),
        ({"filters": {"country": "US"}}, "count"),
        ({"count": 1}, "filters"),
        ({**VALID_BATCH, "extra": 1}, "extra"),
        ({**VALID_BATCH, "filters": {"country": "US", "colour": "red"}}, "filters.colour"),
        ({**VALID_BATCH, "filters": {}}, "filters.country"),
        ({**VALID_BATCH, "filters": {"country": "USA"}}, "filters.country"),
        ({**VALID_BATCH, "filters": {"country": "US", "residential": "yes"}}, "filters.residential"),
        ({**VALID_BATCH, "filters": {"country": "US", "q": "x" * 301}}, "filters.q"),
        ({**VALID_BATCH, "filters": {"country": "US", "regionId": "x" * 161}}, "filters.regionId"),
        ({**VALID_BATCH, "options": {"unique": 1}}, "options.unique"),
        ({**VALID_BATCH, "options": {"strategy": "fast"}}, "options.strategy"),
        ({**VALID_BATCH, "options": {"sneaky": True}}, "options.sneaky"),
        ({**VALID_BATCH, "excludeAddressIds": ["a"] * 501}, "excludeAddressIds"),
        ({**VALID_BATCH, "excludeAddressIds": [1]}, "excludeAddressIds[0]"),
        ([1, 2], "body"),
    ],
)
def test_batch_body_violations_name_the_field(
    client: Client, auth: dict[str, str], body: Any, field: str
) -> None:
    response = _post(client, auth, body)
    assert response.status_code == 400
    assert field in _fields(response)


def test_valid_batch_body_passes_validation(client: Client, auth: dict[str, str]) -> None:
    body = {**VALID_BATCH, "excludeAddressIds": ["a"] * 500, "options": {"seed": "s", "unique": False}}
    response = _post(client, auth, body)
    assert response.status_code == 404  # valid, and the empty pool has no coverage
    assert error_of(response)["code"] == "NO_POOL_COVERAGE"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("country=USA", "country"),
        ("region=" + "r" * 301, "region"),
        ("cityId=" + "c" * 161, "cityId"),
        ("ip=" + "1" * 65, "ip"),
        ("strategy=fastest", "strategy"),
        ("mode=nearby", "mode"),  # address (the default) and ip-region are the modes
        ("residential=perhaps", "residential"),
        ("seed=", "seed"),
        ("colour=red", "colour"),
        ("country=US&country=DE", "country"),
    ],
)
def test_generate_query_violations_name_the_field(
    client: Client, auth: dict[str, str], query: str, field: str
) -> None:
    response = client.http.get(f"/api/v1/generate?{query}", headers=auth)
    assert response.status_code == 400
    assert field in _fields(response)


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("country=us", 404),
        ("residential=true&seed=abc&strategy=instant", 404),
        ("mode=ip-region", 404),
        ("mode=address", 404),
    ],
)
def test_valid_generate_queries_pass_validation(
    client: Client, auth: dict[str, str], query: str, status: int
) -> None:
    assert client.http.get(f"/api/v1/generate?{query}", headers=auth).status_code == status


@pytest.mark.parametrize("limit", ["19", "201", "ten"])
def test_page_size_outside_20_to_200_is_400(client: Client, auth: dict[str, str], limit: str) -> None:
    response = client.http.get(f"/api/v1/locations/search?limit={limit}", headers=auth)
    assert response.status_code == 400
    assert _fields(response) == {"limit"}


def test_hierarchy_requires_country_and_child_type(client: Client, auth: dict[str, str]) -> None:
    response = client.http.get("/api/v1/locations/hierarchy", headers=auth)
    assert _fields(response) == {"country", "childType"}


def test_translation_locale_must_be_supported(client: Client, auth: dict[str, str]) -> None:
    response = _post(client, auth, {"addressId": "x", "targetLocale": "it"}, "/api/v1/address-translation")
    assert response.status_code == 400
    assert _fields(response) == {"targetLocale"}


def test_unexpected_failure_is_500_without_internals(
    client: Client, dependencies: deps.Dependencies, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = BrokenTokenStore()
    deps.use(replace(dependencies, tokens=CachedTokens(broken, 0)))
    response = client.http.get(
        "/api/v1/countries", headers={"Authorization": "Bearer ags_abcdefghijkl_" + "a" * 43}
    )
    assert response.status_code == 500
    error = error_of(response)
    assert error["code"] == "INTERNAL_ERROR"
    assert "disk on fire" not in response.body.decode()
    logged = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    failure = next(entry for entry in logged if entry["event"] == "unhandled_error")
    assert failure["requestId"] == error["requestId"]
    assert failure["error"] == "RuntimeError"


def test_missing_table_is_503(client: Client, dependencies: deps.Dependencies, clock: FakeClock) -> None:
    issued = issue_token(dependencies.stores.tokens, clock)
    dependencies.stores.rate_limits._model.delete_table()
    response = client.http.get("/api/v1/countries", headers=bearer(issued))
    assert response.status_code == 503
    error = error_of(response)
    assert error["code"] == "SERVICE_UNAVAILABLE"
    assert "test-rate-limits" not in error["message"]
    assert response.headers["Retry-After"] == "5"


def test_retry_after_is_the_spec_value() -> None:
    assert RETRY_AFTER_SECONDS == 60


def _subclasses(cls: type[ServiceError]) -> list[type[ServiceError]]:
    return [c for sub in cls.__subclasses__() for c in (sub, *_subclasses(sub))]


@pytest.mark.parametrize("error_class", _subclasses(ServiceError), ids=lambda c: c.__name__)
def test_every_domain_error_has_a_client_status_and_a_code(error_class: type[ServiceError]) -> None:
    error = error_class("x", None) if error_class is RateLimited else error_class("x")
    status, code = status_and_code(error)
    assert 400 <= status < 600
    assert status != 500
    assert code.isupper()


def test_a_subclass_answers_as_its_nearest_listed_ancestor() -> None:
    class TokenLeftTheBuilding(Unauthorized):
        pass

    response = service_error_response(TokenLeftTheBuilding("gone"), "req-1")
    assert response.status_code == 401
    assert str(response.headers["WWW-Authenticate"]).startswith("Bearer")
