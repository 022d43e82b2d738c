"""The testers' package (clients/python) against the local stack as `make run` starts it: the client,
the export CLI, offline mode reading what it wrote, and the Faker provider online."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ags_testkit import Client, Filters, Offline, real_address_provider
from ags_testkit.cli import main
from faker import Faker

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
