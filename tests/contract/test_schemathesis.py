"""The OpenAPI document says what the server enforces: schemathesis (pinned in requirements-dev)
with every check against the local stack finds nothing. What a schema cannot state is chosen in
tests/contract/schemathesis.toml, each choice with its reason."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.local_stack import Stack

pytestmark = pytest.mark.integration

CONFIG = Path(__file__).with_name("schemathesis.toml")
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def test_schemathesis_with_every_check_finds_nothing(synced_stack: Stack) -> None:
    base = f"http://127.0.0.1:{synced_stack.port}"
    token = synced_stack.make_token("generate", 100_000)  # no 429s to hide behind
    argv = [
        str(SCHEMATHESIS),
        "--no-color",
        "--config-file",
        str(CONFIG),
        "run",
        f"{base}/api/v1/openapi.json",
    ]
    argv += ["--url", base, "--checks", "all", "--max-examples", "100", "--seed", "20261124"]
    argv += ["--header", f"Authorization: Bearer {token}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
    assert "Tested: 14" in done.stdout
