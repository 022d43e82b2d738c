"""The testers' package (clients/python) against the local stack as `make run` starts it: the client,
the export CLI, offline mode reading what it wrote, and the Faker provider online; parallel workers
each with their own partition; and the load-test feeders: the Locust example (clients/load, pinned
in its own venv) briefly with four users, and `ags export --partition`'s CSV slices for JMeter."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from ags_testkit import Client, Filters, Offline, real_address_provider
from ags_testkit.cli import main
from faker import Faker

from infra.local.env import PROJECT_DIR
from tests.support.local_stack import Stack

pytestmark = pytest.mark.integration


@pytest.fixture
def client(synced_stack: Stack, monkeypatch: pytest.MonkeyPatch) -> Client:
    monkeypatch.setenv("AGS_BASE_URL", f"http://127.0.0.1:{synced_stack.port}")
    monkeypatch.setenv("AGS_TOKEN", synced_stack.make_token("generate", 100_000))
    return Client()


def test_the_client_generates_batches_and_reads_back_by_id(client: Client) -> None:
    one = client.generate("AD", seed="kit")
    assert one == client.generate("AD", seed="kit")
    assert client.address(one["address"]["id"]) == one["address"]
    batch = client.batch(10, "NL", seed="kit")
    assert len({r["address"]["id"] for r in batch}) == 10
    assert all(r["address"]["countryCode"] == "NL" for r in batch)


def test_an_export_file_is_the_same_twice_and_offline_mode_reads_it(client: Client, tmp_path: Path) -> None:
    files = [tmp_path / "a.ndjson", tmp_path / "b.ndjson"]
    for path in files:
        argv = ["export", "--country", "AD", "--count", "150", "--seed", "kit", "--page-size", "40"]
        assert main([*argv, "--output", str(path), "--quiet"]) == 0
    assert files[0].read_text() == files[1].read_text()
    records = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert len({r["address"]["id"] for r in records}) == 150
    offline = Offline.load(files[0])
    drawn = offline.draw("node::id", Filters("AD"))
    assert drawn in records
    assert client.address(drawn["address"]["id"]) == drawn["address"]


def test_the_faker_provider_follows_fakers_seed_online(client: Client) -> None:
    fake = Faker()
    fake.add_provider(real_address_provider(client))
    Faker.seed(11)
    first = [fake.real_address(country="NL")["id"] for _ in range(3)]
    Faker.seed(11)
    assert [fake.real_address(country="NL")["id"] for _ in range(3)] == first
    profile = fake.real_profile(country="AD")
    assert profile["email"].rsplit("@", 1)[1] in {"example.com", "example.net", "example.org"}


def test_two_xdist_workers_draw_disjoint_slices_that_together_are_every_match(
    client: Client, tmp_path: Path
) -> None:
    """Each pytest-xdist worker exports up to 200 addresses of one filter with one seed through its
    ags_partition (AD's 193 in two parts of about 96): no address twice, every match once."""
    drawn = tmp_path / "drawn"
    drawn.mkdir()
    (tmp_path / "test_slices.py").write_text(
        "import json, pathlib\n"
        "from ags_testkit import Client\n\n"
        "def test_slice(ags_partition, worker_id):\n"
        "    got = Client().export('AD', 200, seed='one-run', partition=ags_partition)\n"
        "    ids = [r['address']['id'] for r in got]\n"
        f"    (pathlib.Path({str(drawn)!r}) / worker_id).write_text(json.dumps([ags_partition, ids]))\n"
    )
    argv = [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "each", "-p", "no:cacheprovider"]
    done = subprocess.run(
        [*argv, "test_slices.py"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    slices = dict(json.loads(path.read_text()) for path in drawn.iterdir())
    assert set(slices) == {"0/2", "1/2"}
    first, second = (set(ids) for ids in slices.values())
    assert not first & second
    every = {r["address"]["id"] for r in client.export("AD", 1000, seed="one-run")}
    assert first | second == every
    assert len(every) > 150  # a real pool, not an empty one


# --- load-test feeders (one stack with the kit's tests above) -------------------------------

LOCUST = PROJECT_DIR / ".venv-load" / "bin" / "locust"


def _every_ad_address(client: Client) -> set[str]:
    return {r["address"]["id"] for r in client.export("AD", 1000, seed="ci")}


def test_four_locust_users_each_sign_up_with_addresses_of_their_own(
    client: Client, synced_stack: Stack, tmp_path: Path
) -> None:
    assert LOCUST.exists(), "make install sets up .venv-load"
    env = {
        **os.environ,
        "AGS_COUNTRY": "AD",
        "AGS_SEED": "ci",
        "AGS_DRAWN": str(tmp_path),
    }  # AGS_TOKEN: client's
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
    assert set().union(*seen) <= _every_ad_address(client)


def test_ags_export_writes_disjoint_csv_slices_for_jmeter_threads(client: Client, tmp_path: Path) -> None:
    slices = []
    for thread in range(2):
        path = tmp_path / f"users-{thread + 1}.csv"  # CSV Data Set: users-${__threadNum}.csv
        argv = ["export", "--country", "AD", "--count", "200", "--seed", "ci", "--format", "csv"]
        assert main([*argv, "--partition", f"{thread}/2", "--output", str(path), "--quiet"]) == 0
        with path.open(newline="", encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        slices.append({row["id"] for row in rows})
    assert not slices[0] & slices[1]
    assert slices[0] | slices[1] == _every_ad_address(client)
