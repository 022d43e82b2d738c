from __future__ import annotations

import json

from chalice.test import Client

from chalicelib import deps
from tests.functional.conftest import error_of


def test_health(client: Client) -> None:
    response = client.http.get("/api/v1/health")
    assert response.status_code == 200
    assert json.loads(response.body) == {"status": "ok"}
    assert response.headers["X-Request-Id"]


def test_ready_when_tables_answer(client: Client) -> None:
    response = client.http.get("/api/v1/ready")
    assert response.status_code == 200
    assert json.loads(response.body) == {"status": "ready"}


def test_not_ready_when_a_table_is_missing(client: Client, dependencies: deps.Dependencies) -> None:
    dependencies.stores.tokens._model.delete_table()
    response = client.http.get("/api/v1/ready")
    assert response.status_code == 503
    assert error_of(response)["code"] == "SERVICE_UNAVAILABLE"


def test_openapi_is_public_json(client: Client) -> None:
    response = client.http.get("/api/v1/openapi.json")
    assert response.status_code == 200
    document = json.loads(response.body)
    assert document["openapi"] == "3.1.0"
    assert "/api/v1/generate" in document["paths"]


def test_request_ids_differ(client: Client) -> None:
    ids = {client.http.get("/api/v1/health").headers["X-Request-Id"] for _ in range(3)}
    assert len(ids) == 3
