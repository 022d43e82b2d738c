from __future__ import annotations

import json

from chalice.test import Client

from chalicelib import deps
from chalicelib.domain.tokens import window_start
from tests.functional.conftest import error_of
from tests.support.factories import bearer, issue_token
from tests.support.fakes import FakeClock

PATH = "/api/v1/countries"


def test_limit_boundary_then_next_window(
    client: Client, dependencies: deps.Dependencies, clock: FakeClock
) -> None:
    issued = issue_token(dependencies.stores.tokens, clock, rate_per_minute=3)
    reset = str(window_start(clock.now()) + 60)
    remaining = []
    for _ in range(3):
        response = client.http.get(PATH, headers=bearer(issued))
        assert response.status_code == 200
        assert response.headers["X-RateLimit-Limit"] == "3"
        assert response.headers["X-RateLimit-Reset"] == reset
        remaining.append(response.headers["X-RateLimit-Remaining"])
    assert remaining == ["2", "1", "0"]

    refused = client.http.get(PATH, headers=bearer(issued))
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "60"
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["X-RateLimit-Reset"] == reset
    assert error_of(refused)["code"] == "RATE_LIMITED"

    clock.advance(60)
    response = client.http.get(PATH, headers=bearer(issued))
    assert response.status_code == 200
    assert response.headers["X-RateLimit-Remaining"] == "2"


def test_limits_are_per_token(client: Client, dependencies: deps.Dependencies, clock: FakeClock) -> None:
    first = issue_token(dependencies.stores.tokens, clock, rate_per_minute=1)
    second = issue_token(dependencies.stores.tokens, clock, rate_per_minute=1)
    assert client.http.get(PATH, headers=bearer(first)).status_code == 200
    assert client.http.get(PATH, headers=bearer(first)).status_code == 429
    assert client.http.get(PATH, headers=bearer(second)).status_code == 200


def test_refused_requests_do_not_count(
    client: Client, dependencies: deps.Dependencies, clock: FakeClock
) -> None:
    issued = issue_token(dependencies.stores.tokens, clock, rate_per_minute=1)
    client.http.get(PATH, headers=bearer(issued))
    for _ in range(3):
        assert client.http.get(PATH, headers=bearer(issued)).status_code == 429
    clock.advance(60)
    assert client.http.get(PATH, headers=bearer(issued)).status_code == 200


def test_invalid_requests_carry_rate_headers(
    client: Client, dependencies: deps.Dependencies, clock: FakeClock
) -> None:
    issued = issue_token(dependencies.stores.tokens, clock, rate_per_minute=5)
    response = client.http.get("/api/v1/coverage?includeComplete=maybe", headers=bearer(issued))
    assert response.status_code == 400
    assert response.headers["X-RateLimit-Remaining"] == "4"
    assert json.loads(response.body)["error"]["details"][0]["field"] == "includeComplete"


def test_public_endpoints_are_not_counted(client: Client) -> None:
    response = client.http.get("/api/v1/health")
    assert "X-RateLimit-Limit" not in response.headers
