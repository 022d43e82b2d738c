"""Fixtures shared by every layer of tests."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from chalicelib import deps
from infra.local.dynamodb_local import free_port, java_available
from infra.local.launch import drain, read_until
from tests.support.factories import SOURCES
from tests.support.local_stack import SYNC_TIMEOUT, Stack, start_stack, stop_stack


@pytest.fixture(autouse=True)
def _fresh_dependencies() -> Iterator[None]:
    """No test sees another test's wiring."""
    deps.use(None)
    yield
    deps.use(None)


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Throwaway credentials, and no endpoint override (it would bypass moto)."""
    for name in ("AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")


@pytest.fixture(scope="session")
def synced_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The local stack as `make run` starts it (DynamoDB Local, chalice local), NL and AD synced from
    ../shared/sources, shared by the browser and contract tests of a session."""
    if not java_available():
        pytest.skip("Java is not installed: the local stack needs DynamoDB Local")
    if not SOURCES.exists():
        pytest.skip("shared/sources is not beside the checkout: no pool to serve")
    running = start_stack(tmp_path_factory.mktemp("dev"), free_port(), free_port())
    try:
        read_until(running.process, "Sync finished", timeout=SYNC_TIMEOUT)
        drain(running.process)
        yield running
    finally:
        if running.process.poll() is None:
            stop_stack(running, signal.SIGTERM)
