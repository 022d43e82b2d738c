from __future__ import annotations

import json
import re
from pathlib import Path

from chalice.test import Client

from chalicelib import deps
from tests.functional.conftest import error_of
from tests.support.api import api_over, synced_pool

SHERIDAN = {"us-san_francisco_ca-eas": re.compile(rb'"street":"SHERIDAN ST"')}  # one street: a quick sync


def test_health(client: Client) -> None:
    response = client.http.get("/api/v1/health")
    assert response.status_code == 200
    assert json.loads(response.body) == {"status": "ok"}
    assert response.headers["X-Request-Id"]


def test_ready_when_tables_answer_and_a_country_is_published(tmp_path: Path) -> None:
    with synced_pool(tmp_path, SHERIDAN) as pool, api_over(pool) as api:
        response = api.client.http.get("/api/v1/ready")
    assert response.status_code == 200
    assert json.loads(response.body) == {"status": "ready"}


def test_not_ready_before_the_first_sync_publishes_a_country(client: Client) -> None:
    """Tables that answer but hold no pool cannot serve an address: a probe waits, told for how long."""
    response = client.http.get("/api/v1/ready")
    assert response.status_code == 503
    error = error_of(response)
    assert error["code"] == "SERVICE_UNAVAILABLE"
    assert error["message"].startswith("no country's pool is published yet")
    assert response.headers["Retry-After"] == "30"


def test_not_ready_when_a_table_is_missing(client: Client, dependencies: deps.Dependencies) -> None:
    dependencies.stores.tokens._model.delete_table()
    response = client.http.get("/api/v1/ready")
    assert response.status_code == 503
    assert error_of(response)["code"] == "SERVICE_UNAVAILABLE"
    assert response.headers["Retry-After"] == "5"


def test_openapi_is_public_json(client: Client) -> None:
    response = client.http.get("/api/v1/openapi.json")
    assert response.status_code == 200
    document = json.loads(response.body)
    assert document["openapi"] == "3.1.0"
    assert "/api/v1/generate" in document["paths"]


def test_request_ids_differ(client: Client) -> None:
    ids = {client.http.get("/api/v1/health").headers["X-Request-Id"] for _ in range(3)}
    assert len(ids) == 3
