"""The Python kit's README quickstart as a new user follows it (tests/support/quickstarts.py): from a
fresh folder, with nothing but the line `make run` prints pasted in, against a stack on other ports
than the defaults. The main README's are in tests/contract/test_generated_clients.py (its stack has
the US, which a request without `country` asks for), the TypeScript kit's in
test_typescript_testkit.py (the worker that builds the kit)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from infra.local.env import DEFAULT_PORT, PROJECT_DIR
from tests.support.local_stack import Stack
from tests.support.quickstarts import run_quickstarts, users_environment

pytestmark = pytest.mark.integration

PYTHON_README = PROJECT_DIR / "clients" / "python" / "README.md"


@pytest.fixture(scope="module")
def env(synced_stack: Stack) -> dict[str, str]:
    assert synced_stack.port != DEFAULT_PORT  # the quickstarts must not lean on port 8000
    return users_environment(synced_stack, synced_stack.make_token("generate", 100_000))


def test_the_python_kit_s_quickstart_works_as_written_online_and_offline(
    env: dict[str, str], tmp_path: Path
) -> None:
    done = run_quickstarts(PYTHON_README, tmp_path, env)
    assert done.stdout.count("1 passed") == 2  # test_signup.py online, then offline from nl.ndjson
    exported = [json.loads(line) for line in (tmp_path / "nl.ndjson").read_text().splitlines()]
    assert len(exported) == 50
    assert all(r["address"]["countryCode"] == "NL" for r in exported)
    csv_ids = [line.split(",", 1)[0] for line in (tmp_path / "nl.csv").read_text().splitlines()[1:]]
    assert csv_ids == [r["address"]["id"] for r in exported]  # the same seed, the same 50
    assert "@example." in done.stdout  # the Faker script printed its profile's e-mail
