"""The local stack as `make run` starts it, driven over real HTTP: shared by the stack's own
integration tests and the console's browser tests."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from infra.local.env import PROJECT_DIR

START_TIMEOUT = 120.0
SYNC_TIMEOUT = 240.0
SYNCED = {"NL": 86, "AD": 193}  # small real sources keep the start quick
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
        argv = [sys.executable, "-m", "infra.local", "cli", "tokens", "create"]
        argv += ["--scope", scope, "--rate", str(rate), "--expires", "1h", "--label", "it"]
        done = subprocess.run(argv, env=self.env, cwd=PROJECT_DIR, capture_output=True, text=True, check=True)
        return done.stdout.strip().splitlines()[-1]


def start_stack(dev_dir: Path, port: int, ddb_port: int) -> Stack:
    env = {
        **os.environ,
        "PORT": str(port),
        "DDB_PORT": str(ddb_port),
        "DEV_DIR": str(dev_dir),
        "LOCAL_SYNC_COUNTRIES": ",".join(SYNCED),
        "LOCAL_SYNC_FIRST": "AD",
    }
    env.pop("AWS_ENDPOINT_URL_DYNAMODB", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "infra.local", "run"],
        cwd=PROJECT_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,  # its own process group, as a terminal gives `make run`
    )
    lines = read_until(process, "Serving http")
    token = _printed_after(lines, "Dev token")
    stack = Stack(process, port, ddb_port, token, _printed_after(lines, "Admin token"), env, lines)
    wait_for_health(stack)
    return stack


def _printed_after(lines: list[str], heading: str) -> str:
    """The token printed on the line after the one starting with `heading`."""
    return lines[lines.index(next(line for line in lines if line.startswith(heading))) + 1]


def read_until(process: subprocess.Popen[str], marker: str, timeout: float = START_TIMEOUT) -> list[str]:
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            pytest.fail(f"make run stopped early:\n{''.join(lines)}")
        lines.append(line.rstrip("\n"))
        if line.startswith(marker):
            return lines
    pytest.fail(f"make run did not start in {START_TIMEOUT}s:\n" + "\n".join(lines))


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


def drain(process: subprocess.Popen[str]) -> list[str]:
    """Keep reading the stack's output in the background (lines gathered in the list returned):
    a full pipe would block the server's request log, and with it the server."""
    assert process.stdout is not None
    stdout = process.stdout
    lines: list[str] = []

    def read() -> None:
        for line in stdout:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read, name="stack-output", daemon=True).start()
    return lines
