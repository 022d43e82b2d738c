"""Offline mode: an exported file read when the service cannot be reached."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from ags_testkit import (
    Client,
    ExportFileError,
    Filters,
    Offline,
    Unreachable,
    fallback,
    real_address_provider,
)
from faker import Faker
from testkit_fakes import record

RECORDS = [record(i, "AD", "Canillo" if i % 2 else "Encamp") for i in range(40)] + [
    record(100, "LI", "Vaduz")
]


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    path = tmp_path / "export.ndjson"
    path.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    return path


def test_the_same_seed_picks_the_same_record_and_filters_hold(exported: Path) -> None:
    pool = Offline.load(exported)
    picked = {pool.draw(f"s{i}", Filters("AD", city="encamp"))["address"]["id"] for i in range(30)}
    assert len(picked) > 5
    assert all(int(p[-4:]) % 2 == 0 for p in picked)
    assert pool.draw("x", Filters("AD")) == pool.draw("x", Filters("AD"))
    assert pool.draw("x", Filters("LI"))["address"]["id"] == "li-fixture0100"


VECTORS = Path(__file__).parents[2] / "testdata" / "offline_draws.json"


def test_the_typescript_kit_draws_the_same_record_from_the_same_file_seed_and_filters() -> None:
    """The shared vectors clients/typescript/test/offline.test.ts holds its kit to as well."""
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    pool = Offline(vectors["records"])
    drawn = []
    for case in vectors["cases"]:
        named = {k: v for k, v in case["filters"].items() if k != "country"}
        drawn.append(pool.draw(case["seed"], Filters(case["filters"]["country"], **named))["address"]["id"])
    assert drawn == [case["drawn"] for case in vectors["cases"]]
    assert len(set(drawn)) > len(drawn) // 2  # the cases reach many records, not one by chance


def test_a_csv_export_is_refused_by_name_with_the_formats_offline_reads(tmp_path: Path) -> None:
    csv = tmp_path / "jp.csv"
    csv.write_text("id,countryCode,formattedAddress\r\njp-1,JP,x\r\n")
    with pytest.raises(
        ExportFileError,
        match=r"jp\.csv is not an export file offline mode reads: NDJSON or JSON.*--format ndjson",
    ):
        Offline.load(csv)
    garbled = tmp_path / "garbled.ndjson"
    garbled.write_text('{"address": {}}\n\n{"addr\n')
    with pytest.raises(ExportFileError, match=r"garbled\.ndjson is not .*: line 3: "):  # as an editor counts
        Offline.load(garbled)


def test_a_saved_generate_answer_reads_as_its_one_record(tmp_path: Path) -> None:
    saved = tmp_path / "one.json"
    saved.write_text(json.dumps({"data": {"result": RECORDS[0]}}))
    assert Offline.load(saved).records == [RECORDS[0]]


def test_json_exports_read_as_ndjson_ones(exported: Path, tmp_path: Path) -> None:
    as_json = tmp_path / "export.json"
    as_json.write_text(json.dumps(RECORDS))
    assert Offline.load(as_json).records == Offline.load(exported).records


def test_what_offline_cannot_filter_is_refused_and_nothing_matching_is_an_error(exported: Path) -> None:
    pool = Offline.load(exported)
    with pytest.raises(ValueError, match="q"):
        pool.draw("s", Filters("AD", extra={"q": "x"}))
    with pytest.raises(LookupError):
        pool.draw("s", Filters("JP"))


def test_the_faker_provider_falls_back_to_the_file_and_follows_fakers_seed(exported: Path) -> None:
    unreachable = Client("http://127.0.0.1:9", "t", timeout=1)  # discard port: nothing answers
    fake = Faker()
    fake.add_provider(real_address_provider(unreachable, exported))
    Faker.seed(7)
    first = [fake.real_address(country="AD")["id"] for _ in range(5)]
    Faker.seed(7)
    again = [fake.real_address(country="AD")["id"] for _ in range(5)]
    assert first == again
    assert len(set(first)) > 1
    assert fake.real_profile(country="LI", city="Vaduz")["email"] == "p100@example.org"


def test_without_a_file_the_service_being_down_is_an_error() -> None:
    source = fallback(Client("http://127.0.0.1:9", "t", timeout=1), None)
    with pytest.raises(Unreachable, match=r"127\.0\.0\.1:9"):
        source.draw("s", Filters("AD"))


def test_both_kits_name_the_same_primary_locale_for_each_country() -> None:
    from ags_testkit import PRIMARY_LOCALES

    typescript = (Path(__file__).parents[2] / "typescript" / "src" / "place.ts").read_text(encoding="utf-8")
    listed = dict(re.findall(r'\b([A-Z]{2}): "([a-z]{2,3}-[A-Z]{2})"', typescript))
    assert listed == PRIMARY_LOCALES
