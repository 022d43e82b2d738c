"""`make run` as a new user meets it: the real stack over real HTTP, stopped by a signal, run twice."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from infra.local.dynamodb_local import free_port, java_available, port_is_free
from infra.local.env import PORTS_FILE, PROJECT_DIR
from infra.local.launch import launch, read_until
from infra.local.stack import RAM_ROOT
from tests.support.factories import SOURCES
from tests.support.local_stack import (
    NL_POSTCODES,
    SYNC_TIMEOUT,
    SYNCED,
    Stack,
    start_stack,
    stop_stack,
)

pytestmark = pytest.mark.integration

SNAPSHOT_CACHE_SECONDS = 5  # the settings' default, which make run keeps


@pytest.fixture(scope="module")
def dev_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("dev")


@pytest.fixture(scope="module")
def stack(dev_dir: Path) -> Iterator[Stack]:
    if not java_available():
        pytest.skip("Java is not installed: the local stack test needs DynamoDB Local")
    running = start_stack(dev_dir, free_port(), free_port())
    yield running
    if running.process.poll() is None:
        stop_stack(running, signal.SIGTERM)


def test_probes_and_openapi(stack: Stack) -> None:
    assert stack.request("GET", "/api/v1/health")[2] == {"status": "ok"}
    status, _, body = stack.request("GET", "/api/v1/ready")  # before or after AD's publication
    assert (status, body) == (200, {"status": "ready"}) or (
        status == 503 and body["error"]["message"].startswith("no country's pool is published yet")
    ), (status, body)
    status, _, document = stack.request("GET", "/api/v1/openapi.json")
    assert status == 200
    assert document["info"]["version"] == "1.0.0"


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_first_start_serves_at_once_and_syncs_in_the_background_first_country_first(
    stack: Stack, dev_dir: Path
) -> None:
    assert any(
        line.startswith("Syncing the sources of manifest.json in the background") for line in stack.startup
    )
    assert stack.request("GET", "/api/v1/health")[0] == 200  # served before the pool exists
    # What the clients' quickstarts take, ready to paste: this stack's port and its dev token.
    pasted = f"export AGS_BASE_URL=http://127.0.0.1:{stack.port} AGS_TOKEN={stack.dev_token} AGS_CHECKOUT="
    assert f"{pasted}{shlex.quote(str(PROJECT_DIR))}" in stack.startup
    later = read_until(stack.process, "Sync finished", timeout=SYNC_TIMEOUT)
    assert "Sync: AD published and served; now the rest." in later  # LOCAL_SYNC_FIRST, a sync of its own
    assert _ready_within(
        stack, SNAPSHOT_CACHE_SECONDS + 5
    )  # the API's pointer cache may hold "none" that long
    status, _, body = stack.request("GET", "/api/v1/countries", token=stack.dev_token)
    assert status == 200
    assert {c["code"]: c["addressCount"] for c in body["data"]} == SYNCED
    status, _, health = stack.request("GET", "/api/v1/data-health", token=stack.dev_token)
    states = {c["code"]: c["syncState"] for c in health["data"]["countries"] if c["code"] in SYNCED}
    assert states == dict.fromkeys(SYNCED, "published")
    if RAM_ROOT.is_dir():  # served from memory-backed storage, saved to disk after the sync
        assert (dev_dir / "dynamodb" / "shared-local-instance.db").is_file()


@pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")
def test_location_listings_are_served(stack: Stack) -> None:
    """make run provides a cursor key, so the listings answer (503 without one)."""
    path = "/api/v1/locations/search?country=NL&field=postcode&limit=20"
    status, _, body = stack.request("GET", path, token=stack.dev_token)
    assert status == 200, body
    assert (body["data"]["total"], body["data"]["nextCursor"]) == (NL_POSTCODES, None)


def test_client_context_uses_the_installed_ip_database(stack: Stack) -> None:
    status, _, body = stack.request("GET", "/api/v1/client-context?ip=8.8.8.8", token=stack.dev_token)
    assert status == 200, body
    assert (body["data"]["country"], body["data"]["regionCode"]) == ("US", "US-CA")


def test_auth_failures(stack: Stack) -> None:
    status, headers, body = stack.request("GET", "/api/v1/countries")
    assert status == 401
    assert body["error"]["code"] == "UNAUTHORIZED"
    assert body["error"]["requestId"] == headers["X-Request-Id"]
    read = stack.make_token("read", 100)
    status, _, body = stack.request("GET", "/api/v1/generate", token=read)
    assert (status, body["error"]["code"]) == (403, "FORBIDDEN")


def test_rate_limit(stack: Stack) -> None:
    token = stack.make_token("read", 2)
    statuses = [stack.request("GET", "/api/v1/countries", token=token)[0] for _ in range(3)]
    assert statuses == [200, 200, 429]
    _, headers, body = stack.request("GET", "/api/v1/countries", token=token)
    assert headers["Retry-After"] == "60"
    assert body["error"]["code"] == "RATE_LIMITED"


def test_bad_input(stack: Stack) -> None:
    status, _, body = stack.request("POST", "/api/v1/generate/batch", token=stack.dev_token, body=b"{nope")
    assert (status, body["error"]["code"]) == (400, "INVALID_REQUEST")
    raw = json.dumps({"count": 99, "filters": {"country": "US"}}).encode()
    status, _, body = stack.request("POST", "/api/v1/generate/batch", token=stack.dev_token, body=raw)
    assert status == 400
    assert body["error"]["details"][0]["field"] == "count"


def test_make_token_finds_the_running_stack_on_its_own_ports(stack: Stack, dev_dir: Path) -> None:
    """`make token` run with no ports given: those `make run` noted in its .dev (not 8000/8001)."""
    token = _make_token(dev_dir).stdout.strip().splitlines()[-1]
    assert stack.request("GET", "/api/v1/countries", token=token)[0] == 200


@pytest.mark.parametrize("taken", ["PORT", "DDB_PORT", "DEV_DIR"])
def test_a_second_make_run_says_what_is_taken_and_leaves_the_first_s_ports_noted(
    stack: Stack, dev_dir: Path, tmp_path: Path, taken: str
) -> None:
    """Another make run on a taken port, or on the running one's data (its own free ports)."""
    given = {"PORT": str(free_port()), "DDB_PORT": str(free_port()), "DEV_DIR": str(tmp_path)}
    given[taken] = {"PORT": str(stack.port), "DDB_PORT": str(stack.ddb_port), "DEV_DIR": str(dev_dir)}[taken]
    second, _ = launch(given)
    output = second.communicate(timeout=60)[0]
    assert second.returncode == 1
    if taken == "DEV_DIR":
        assert f"error: another make run serves {dev_dir} (http://127.0.0.1:{stack.port}," in output
    else:
        assert f"error: port {given[taken]} is already in use; set {taken} to another port" in output
    noted = json.loads((dev_dir / PORTS_FILE).read_text())
    assert noted == {"port": stack.port, "ddbPort": stack.ddb_port}


def test_stops_on_sigterm_and_runs_again_with_data_kept(stack: Stack, dev_dir: Path) -> None:
    assert stop_stack(stack, signal.SIGTERM) == 0
    assert not (dev_dir / PORTS_FILE).exists()  # its ports are forgotten with it
    stopped = _make_token(dev_dir, {"DDB_PORT": str(stack.ddb_port)}, check=False)
    assert stopped.returncode != 0  # the message names where it looked, not "try again shortly"
    assert f"error: no DynamoDB Local answers at http://127.0.0.1:{stack.ddb_port}: start" in stopped.stderr
    assert port_is_free(stack.port)
    assert port_is_free(stack.ddb_port)
    again = start_stack(dev_dir, stack.port, stack.ddb_port)
    if SOURCES.exists():
        assert any("The pool is current" in line for line in again.startup)  # no second sync
    try:
        assert again.request("GET", "/api/v1/countries", token=stack.dev_token)[0] == 200  # old token kept
    finally:
        assert stop_stack(again, signal.SIGINT) == 0
    assert port_is_free(again.ddb_port)


def _make_token(
    dev_dir: Path, given: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"PORT", "DDB_PORT", "MAKEFLAGS", "MAKELEVEL"}}
    return subprocess.run(
        ["make", "-s", "token", "SCOPE=read", "RATE=10", "EXPIRES=15m"],
        cwd=PROJECT_DIR,
        env={**env, "DEV_DIR": str(dev_dir), **(given or {})},
        capture_output=True,
        text=True,
        check=check,
    )


def _ready_within(stack: Stack, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while stack.request("GET", "/api/v1/ready")[0] != 200:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.5)
    return True
