"""The load-test feeders against the local stack as `make run` starts it: the Locust example
(clients/load, pinned in its own venv) runs briefly with four users, each from its own partition,
and `ags export --partition` writes the per-thread CSV slices JMeter's CSV Data Set reads."""

from __future__ import annotations

import csv
import os
import subprocess
from pathlib import Path

import pytest
from ags_testkit.cli import main

from infra.local.env import PROJECT_DIR
from tests.support.local_stack import Stack

pytestmark = pytest.mark.integration

LOCUST = PROJECT_DIR / ".venv-load" / "bin" / "locust"


@pytest.fixture
def token(synced_stack: Stack) -> str:
    return synced_stack.make_token("generate", 100_000)


def _every_ad_address(stack: Stack, token: str) -> set[str]:
    _, _, whole = stack.request("GET", "/api/v1/export?country=AD&seed=ci&pageSize=1000", token)
    return {r["address"]["id"] for r in whole["data"]["results"]}


def test_four_locust_users_each_sign_up_with_addresses_of_their_own(
    synced_stack: Stack, token: str, tmp_path: Path
) -> None:
    assert LOCUST.exists(), "make install sets up .venv-load"
    env = {
        **os.environ,
        "AGS_TOKEN": token,
        "AGS_COUNTRY": "AD",
        "AGS_SEED": "ci",
        "AGS_DRAWN": str(tmp_path),
    }
    argv = [str(LOCUST), "-f", str(PROJECT_DIR / "clients" / "load" / "locustfile.py"), "--headless"]
    argv += ["-u", "4", "-r", "4", "-t", "4s", "--host", f"http://127.0.0.1:{synced_stack.port}"]
    argv += ["--only-summary", "--exit-code-on-error", "1", "--stop-timeout", "2"]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]  # no request failed
    used = {path.stem: path.read_text().split() for path in tmp_path.glob("*.txt")}
    assert set(used) == {f"{i}-of-4" for i in range(4)}
    assert all(used.values())  # every user signed up at least once
    seen = [set(ids) for ids in used.values()]
    assert sum(len(s) for s in seen) == len(set().union(*seen))  # no address used by two users
    assert set().union(*seen) <= _every_ad_address(synced_stack, token)


def test_ags_export_writes_disjoint_csv_slices_for_jmeter_threads(
    synced_stack: Stack, token: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGS_BASE_URL", f"http://127.0.0.1:{synced_stack.port}")
    monkeypatch.setenv("AGS_TOKEN", token)
    slices = []
    for thread in range(2):
        path = tmp_path / f"users-{thread + 1}.csv"  # CSV Data Set: users-${__threadNum}.csv
        argv = ["export", "--country", "AD", "--count", "200", "--seed", "ci", "--format", "csv"]
        assert main([*argv, "--partition", f"{thread}/2", "--output", str(path), "--quiet"]) == 0
        with path.open(newline="", encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        slices.append({row["id"] for row in rows})
    assert not slices[0] & slices[1]
    assert slices[0] | slices[1] == _every_ad_address(synced_stack, token)
