from __future__ import annotations

from datetime import timedelta

import pytest
from chalice.test import Client

from chalicelib import deps
from tests.functional.conftest import error_of
from tests.support.factories import bearer, issue_token
from tests.support.fakes import FakeClock, FakeTokenStore

# Read endpoints and what they answer an authorized caller on an empty pool.
READ_ENDPOINTS = [
    ("/api/v1/countries", 200),
    ("/api/v1/availability", 200),
    ("/api/v1/client-context", 404),  # the test client calls from 127.0.0.1: no place
    ("/api/v1/locations/search", 404),  # no published pool for US
    ("/api/v1/locations/hierarchy?country=US&childType=region", 404),
    ("/api/v1/coverage", 200),
    ("/api/v1/addresses/some-id", 404),
    ("/api/v1/data-health", 200),
]


# /ready: 503 over these empty tables (no pool published), never 401; test_probes has it ready.
@pytest.mark.parametrize(
    ("path", "status"), [("/api/v1/health", 200), ("/api/v1/ready", 503), ("/api/v1/openapi.json", 200)]
)
def test_public_endpoints_need_no_token(client: Client, path: str, status: int) -> None:
    assert client.http.get(path).status_code == status


@pytest.mark.parametrize(
    "authorization",
    [None, "", "Token abc", "Bearer", "Bearer ags_short", "Basic dXNlcjpwYXNz"],
)
def test_missing_or_malformed_token_is_401(client: Client, authorization: str | None) -> None:
    headers = {} if authorization is None else {"Authorization": authorization}
    response = client.http.get("/api/v1/countries", headers=headers)
    assert response.status_code == 401
    assert error_of(response)["code"] == "UNAUTHORIZED"
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "X-RateLimit-Limit" not in response.headers


def test_unknown_token_is_401(client: Client, clock: FakeClock) -> None:
    elsewhere = issue_token(FakeTokenStore(), clock)
    response = client.http.get("/api/v1/countries", headers=bearer(elsewhere))
    assert response.status_code == 401
    assert error_of(response)["message"] == "invalid bearer token"


def test_revoked_token_is_401(client: Client, dependencies: deps.Dependencies, clock: FakeClock) -> None:
    issued = issue_token(dependencies.stores.tokens, clock)
    assert client.http.get("/api/v1/countries", headers=bearer(issued)).status_code == 200
    dependencies.stores.tokens.revoke(issued.token.token_id, clock.now())
    response = client.http.get("/api/v1/countries", headers=bearer(issued))
    assert response.status_code == 401
    assert "revoked" in error_of(response)["message"]


def test_expired_token_is_401(client: Client, dependencies: deps.Dependencies, clock: FakeClock) -> None:
    issued = issue_token(dependencies.stores.tokens, clock, lifetime=timedelta(seconds=90))
    clock.advance(90)
    response = client.http.get("/api/v1/countries", headers=bearer(issued))
    assert response.status_code == 401
    assert "expired" in error_of(response)["message"]


@pytest.mark.parametrize(("path", "status"), READ_ENDPOINTS)
def test_read_token_reaches_read_endpoints(
    client: Client, dependencies: deps.Dependencies, clock: FakeClock, path: str, status: int
) -> None:
    issued = issue_token(dependencies.stores.tokens, clock, scope="read")
    response = client.http.get(path, headers=bearer(issued))
    assert response.status_code == status  # authenticated, authorized, validated


@pytest.mark.parametrize(("path", "status"), READ_ENDPOINTS)
def test_generate_token_also_reaches_read_endpoints(
    client: Client, dependencies: deps.Dependencies, clock: FakeClock, path: str, status: int
) -> None:
    issued = issue_token(dependencies.stores.tokens, clock, scope="generate")
    assert client.http.get(path, headers=bearer(issued)).status_code == status


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/v1/generate", b""),
        ("POST", "/api/v1/generate/batch", b'{"count": 1, "filters": {"country": "US"}}'),
        ("POST", "/api/v1/address-translation", b'{"addressId": "x", "targetLocale": "en"}'),
    ],
)
def test_read_token_on_generate_endpoint_is_403(
    client: Client, dependencies: deps.Dependencies, clock: FakeClock, method: str, path: str, body: bytes
) -> None:
    read = issue_token(dependencies.stores.tokens, clock, scope="read")
    headers = {**bearer(read), "Content-Type": "application/json"}
    response = client.http.request(method, path, headers=headers, body=body)
    assert response.status_code == 403
    assert error_of(response)["code"] == "FORBIDDEN"
    generate = issue_token(dependencies.stores.tokens, clock, scope="generate")
    headers = {**bearer(generate), "Content-Type": "application/json"}
    # Past auth and scope: an empty pool has no coverage, and no address to translate.
    assert client.http.request(method, path, headers=headers, body=body).status_code == 404
