"""The local stack as `make run` starts it, driven over real HTTP: shared by the stack's own
integration tests and the console's browser tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from infra.local.dynamodb_local import free_port, java_available
from infra.local.launch import START_TIMEOUT, create_token, drain, launch, printed_after, read_until
from tests.support.factories import SOURCES

SYNC_TIMEOUT = 240.0
# Small real sources keep the start quick; KR's 50, in Hangul, give the pages a non-Latin script.
SYNCED = {"NL": 86, "AD": 193, "KR": 50}
NL_POSTCODES = 17  # distinct postcodes of the three NL sources: one listing page


@dataclass
class Stack:
    process: subprocess.Popen[str]
    port: int
    ddb_port: int
    dev_token: str
    admin_token: str
    env: dict[str, str]
    startup: list[str]

    def request(
        self, method: str, path: str, token: str | None = None, body: bytes | None = None
    ) -> tuple[int, dict[str, str], Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        url = f"http://127.0.0.1:{self.port}{path}"
        req = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=10) as response:  # noqa: S310 - loopback only
                return response.status, dict(response.headers), json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read())

    def make_token(self, scope: str, rate: int) -> str:
        """What `make token` runs, against this stack."""
        return create_token(self.env, scope, rate, "it")


def start_stack(
    dev_dir: Path,
    port: int,
    ddb_port: int,
    countries: Iterable[str] = SYNCED,
    first: str = "AD",
    data: str = "samples",
) -> Stack:
    process, env = launch(
        {
            "PORT": str(port),
            "DDB_PORT": str(ddb_port),
            "DEV_DIR": str(dev_dir),
            "LOCAL_SYNC_COUNTRIES": ",".join(countries),
            "LOCAL_SYNC_FIRST": first,
            "DATA": data,
        }
    )
    lines = read_until(process, "Serving http")
    token = printed_after(lines, "Dev token")
    stack = Stack(process, port, ddb_port, token, printed_after(lines, "Admin token"), env, lines)
    wait_for_health(stack)
    return stack


def wait_for_health(stack: Stack) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        try:
            if stack.request("GET", "/api/v1/health")[0] == 200:
                return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.3)
    pytest.fail("the API never answered /api/v1/health")


def stop_stack(stack: Stack, sig: signal.Signals) -> int:
    os.killpg(stack.process.pid, sig)
    return stack.process.wait(timeout=30)


@contextmanager
def synced_local_stack(directory: Path, countries: Iterable[str] = SYNCED) -> Iterator[Stack]:
    """A local stack as `make run` starts it, once these countries' sources are synced; stopped
    after. Skips the test when Java (DynamoDB Local) or ../shared/sources is missing."""
    if not java_available():
        pytest.skip("Java is not installed: the local stack needs DynamoDB Local")
    if not SOURCES.exists():
        pytest.skip("shared/sources is not beside the checkout: no pool to serve")
    running = start_stack(directory, free_port(), free_port(), countries)
    try:
        read_until(running.process, "Sync finished", timeout=SYNC_TIMEOUT)
        drain(running.process)
        yield running
    finally:
        if running.process.poll() is None:
            stop_stack(running, signal.SIGTERM)
