"""Fixtures shared by every layer of tests."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from chalicelib import deps
from tests.support import moto_queries
from tests.support.factories import SOURCES
from tests.support.local_stack import Stack, synced_local_stack

moto_queries.install()  # a Query reads its partition, not every item of the table sorted


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


# The longest files first, longest first (the full sync of every source, then the functional files
# of 10 s and more, measured), then the rest of the integration suite started early: a long file
# started last would run alone while the other worker waits.
_FIRST = (
    "test_full_sync.py",
    "test_state_machine.py",
    "test_sync.py",
    "test_sharded_sync.py",
    "test_pinned_snapshots.py",
    "test_generation.py",
    "test_catalog.py",
    "test_key_formats.py",
    "test_export.py",
    "test_client_context.py",
    "test_overture_sync.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`make test` spreads the files over two workers (pytest-xdist, --dist loadfile, handed out
    in this order: --no-loadscope-reorder), so a module's synced pool is built once. (Grouping
    files by a shared session fixture, --dist loadgroup, does nothing under pytest 9: xdist 3.8
    renames the item's `_nodeid`, which pytest 9 no longer reads.)"""
    if hasattr(config, "workerinput"):
        first = {name: rank for rank, name in enumerate(_FIRST)}
        items.sort(
            key=lambda item: (first.get(item.path.name, len(first)), item.path.parent.name != "integration")
        )


def pytest_sessionstart(session: pytest.Session) -> None:
    """CI asks for the real data (AGS_REQUIRE_SOURCES, set by .ci/run): a missing ../shared fails
    the run instead of skipping the tests that need it."""
    if os.environ.get("AGS_REQUIRE_SOURCES") and not SOURCES.exists():
        raise pytest.UsageError(f"AGS_REQUIRE_SOURCES is set but {SOURCES} does not exist")


@pytest.fixture(scope="session")
def synced_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The local stack as `make run` starts it (DynamoDB Local, chalice local), NL and AD synced from
    ../shared/sources, shared by the browser and contract tests of a session."""
    with synced_local_stack(tmp_path_factory.mktemp("dev")) as running:
        yield running
