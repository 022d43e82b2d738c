"""pytest fixtures: `real_address` draws a real published address (with its test profile) seeded
from the test's node id, so a test gets the same address on every run; `@pytest.mark.ags(...)`
chooses the country and filters. `--ags-offline FILE` (or AGS_OFFLINE_FILE) names an exported file
used when the service cannot be reached, so a CI job runs without network.

Under pytest-xdist, `ags_partition` is this worker's part of the pool (`gw1` of 4 workers: `1/4`)
and `real_address` draws from it alone: workers of one run never receive the same address.

`ags_context_args` stands a Playwright browser context at `real_address`: its geolocation (the
permission granted), time zone and country's primary locale; with pytest-playwright, merge it into
`browser_context_args` (ags_testkit/place.py shows how)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from ags_testkit.client import Client
from ags_testkit.draw import Filters, Source, fallback
from ags_testkit.place import context_args
from ags_testkit.records import GeneratedAddress


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ags", "real addresses from the Address Generation Service")
    group.addoption(
        "--ags-offline", default=None, help="an `ags export` file to use when the service is unreachable"
    )
    group.addoption("--ags-country", default="US", help="the country of real_address without an ags marker")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ags(country='US', **filters): what real_address draws")


@pytest.fixture(scope="session")
def ags_source(pytestconfig: pytest.Config) -> Source:
    offline = pytestconfig.getoption("--ags-offline") or os.environ.get("AGS_OFFLINE_FILE")
    return fallback(Client(), offline)


@pytest.fixture(scope="session")
def ags_partition() -> str | None:
    """This pytest-xdist worker's part of the pool, `i/n`; None without xdist (the whole pool)."""
    worker, count = os.environ.get("PYTEST_XDIST_WORKER"), os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if not worker or not count:
        return None
    return f"{int(worker.removeprefix('gw'))}/{int(count)}"


@pytest.fixture
def ags_context_args(real_address: GeneratedAddress) -> dict[str, Any]:
    """Playwright's new_context options for a browser standing at `real_address`."""
    return context_args(real_address)


@pytest.fixture
def real_address(
    request: pytest.FixtureRequest, ags_source: Source, ags_partition: str | None
) -> GeneratedAddress:
    marker = request.node.get_closest_marker("ags")
    options: dict[str, Any] = dict(marker.kwargs) if marker else {}
    country = options.pop("country", request.config.getoption("--ags-country"))
    named = {k: options.pop(k) for k in ("region", "city", "district", "postcode") if k in options}
    filters = Filters(country=country, **named, extra=options, partition=ags_partition)
    return ags_source.draw(request.node.nodeid, filters)
