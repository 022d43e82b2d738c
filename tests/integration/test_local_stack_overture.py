"""`make run DATA=overture` as a new user meets it: discovery against the Overture replica's folder
(as production runs it against Overture's bucket), its newest release synced through the Overture
reader into DynamoDB Local, and served over real HTTP like any source (here NO and BE of its ten
countries, to keep the run short)."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from infra.local.dynamodb_local import free_port, java_available
from infra.local.launch import read_until
from tests.support.factories import needs_sources
from tests.support.local_stack import SYNC_TIMEOUT, Stack, start_stack, stop_stack

pytestmark = [pytest.mark.integration, needs_sources]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    if not java_available():
        pytest.skip("Java is not installed: the local stack test needs DynamoDB Local")
    running = start_stack(
        tmp_path_factory.mktemp("dev"),
        free_port(),
        free_port(),
        countries=("NO", "BE"),
        first="NO",
        data="overture",
    )
    yield running
    if running.process.poll() is None:
        stop_stack(running, signal.SIGTERM)


def test_the_replica_s_newest_release_is_discovered_synced_and_served(stack: Stack) -> None:
    discovered = [line for line in stack.startup if line.startswith("Overture release")]
    assert discovered
    assert discovered[0].startswith("Overture release 2026-11-18.0: ")
    assert discovered[0].endswith("BE, DK, FR, IS, JP, NO, PL, SG, TW, US")
    read_until(stack.process, "Sync finished", timeout=SYNC_TIMEOUT)
    status, _, body = stack.request("GET", "/api/v1/countries", token=stack.dev_token)
    assert status == 200
    assert {c["code"]: c["addressCount"] for c in body["data"]} == {"NO": 19, "BE": 658}
    status, _, body = stack.request("GET", "/api/v1/generate?country=NO&seed=1", token=stack.dev_token)
    assert status == 200
    address = body["data"]["result"]["address"]
    assert address["source"]["id"] == "overture-NO:OpenAddresses/no-countrywide-kartverket"
    assert address["source"]["license"] == "CC-BY-4.0"
    assert address["components"]["postcode"]
