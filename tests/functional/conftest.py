"""Functional tests: the real app through chalice.test.Client, DynamoDB faked by moto."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chalice.test import Client
from moto import mock_aws

from app import app
from chalicelib import deps
from chalicelib.storage.dynamodb.tables import create_missing_tables
from tests.support.api import Api, api_over
from tests.support.factories import make_settings
from tests.support.fakes import FakeClock
from tests.support.ipdb import write_ip_database


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def ip_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small IP database of the DB-IP layout (see tests/support/ipdb.py), built once."""
    return write_ip_database(tmp_path_factory.mktemp("ip-database"))


@pytest.fixture
def dependencies(aws_env: None, clock: FakeClock, ip_database: Path) -> Iterator[deps.Dependencies]:
    with mock_aws():
        wired = deps.build(make_settings(ip_database=str(ip_database)), clock=clock)
        create_missing_tables(wired.stores)
        deps.use(wired)
        yield wired


@pytest.fixture
def api(pool: deps.Dependencies) -> Iterator[Api]:
    """The API over the module's synced `pool` (each module that asks for it defines its own),
    with a generate token; a module wanting another scope defines its own `api`."""
    with api_over(pool) as client:
        yield client


@pytest.fixture
def client(dependencies: deps.Dependencies) -> Iterator[Client]:
    with Client(app) as test_client:
        yield test_client


def error_of(response: Any) -> dict[str, Any]:
    """The error object of an error response, after checking the one shape every error has."""
    body = json.loads(response.body)
    assert set(body) == {"error"}
    error: dict[str, Any] = body["error"]
    assert {"code", "message", "requestId"} <= set(error) <= {"code", "message", "requestId", "details"}
    assert error["requestId"] == response.headers["X-Request-Id"]
    assert "Traceback" not in response.body.decode()
    return error
