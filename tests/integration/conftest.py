"""Integration tests: the real DynamoDB Local engine (from the pinned npm package, on Java 17)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from moto import mock_aws

from chalicelib import deps
from chalicelib.storage.dynamodb.tables import create_missing_tables
from infra.local.dynamodb_local import DynamoDBLocal, free_port, java_available
from tests.support.factories import fresh_tables, make_settings
from tests.support.fakes import FakeClock

pytestmark = pytest.mark.integration

NO_JAVA = "Java is not installed: DynamoDB Local integration tests skipped (install a JDK 17 to run them)"


@pytest.fixture(scope="session")
def dynamodb_local() -> Iterator[DynamoDBLocal]:
    if not java_available():
        pytest.skip(NO_JAVA)
    with DynamoDBLocal(free_port()) as engine:
        yield engine


@pytest.fixture(params=["moto", "dynamodb-local"])
def backend(
    request: pytest.FixtureRequest, aws_env: None, monkeypatch: pytest.MonkeyPatch
) -> Iterator[deps.Dependencies]:
    """The same wiring on moto and on DynamoDB Local, with tables of its own per test."""
    tables = fresh_tables("it")
    clock = FakeClock.for_a_real_engine()
    if request.param == "moto":
        with mock_aws():
            wired = deps.build(make_settings(**tables), clock)
            create_missing_tables(wired.stores)
            yield wired
        return
    engine: DynamoDBLocal = request.getfixturevalue("dynamodb_local")
    wired = deps.build(make_settings(**tables, dynamodb_endpoint=engine.endpoint), clock)
    create_missing_tables(wired.stores)
    yield wired
