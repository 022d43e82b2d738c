"""Damaged source files: each damage is counted in the sync report, and everything else, the rest of
the same file included, is still published. Copies of real shared files, damaged here."""

from __future__ import annotations

import gzip
import io
import json
import zipfile
from pathlib import Path

import pytest
from moto import mock_aws

from chalicelib import deps
from chalicelib.storage.dynamodb.tables import create_missing_tables
from tests.support.factories import SOURCES, make_settings
from tests.support.fakes import FakeClock
from tests.support.sync import sync

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

KEPT_AS_IS = ["osm-amsterdam-nl", "osm-rome_via_montebello-it", "osm-andorra_2021-ad"]


def _truncated_gzip(source: Path, target: Path) -> None:
    data = source.read_bytes()
    target.write_bytes(data[: len(data) - 40])  # the end of the stream and its checksum are gone


def _damaged_pbf(source: Path, target: Path) -> None:
    data = bytearray(source.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(b ^ 0xFF for b in data[middle : middle + 64])  # a block's bytes
    target.write_bytes(bytes(data))


def _csv_with_a_broken_row(source: Path, target: Path) -> None:
    with zipfile.ZipFile(source) as archive:
        [member] = [n for n in archive.namelist() if n.endswith(".csv")]
        lines = io.TextIOWrapper(archive.open(member), encoding="utf-8").read().splitlines()
    broken = "-122.27,37.80,12"  # three fields where the header names eleven
    target.write_text("\n".join([*lines[:41], broken, *lines[41:51]]) + "\n", encoding="utf-8")


def _geojson_with_a_line_that_is_not_json(source: Path, target: Path) -> None:
    lines = gzip.decompress(source.read_bytes()).decode("utf-8").splitlines()
    damaged = [*lines[:5], '{"type": "Feature", "properties": {"number": "1"', *lines[5:]]
    target.write_bytes(gzip.compress(("\n".join(damaged) + "\n").encode("utf-8")))


DAMAGES = {
    "nl-countrywide-bag": (_truncated_gzip, "bag.geojson.gz", "unreadable_file"),
    "osm-renkum-nl": (_damaged_pbf, "renkum.osm.pbf", "unreadable_file"),
    "oa-us-ca-alameda": (_csv_with_a_broken_row, "alameda.csv", "malformed_row"),
    "it-forte_dei_marmi-civici": (_geojson_with_a_line_that_is_not_json, "forte.geojson.gz", "malformed_row"),
}


def _manifest(directory: Path) -> Path:
    entries = {e["id"]: e for e in json.loads((SOURCES / "manifest.json").read_text(encoding="utf-8"))}
    chosen = []
    for source_id, (damage, name, _) in DAMAGES.items():
        entry = entries[source_id]
        damage(SOURCES / entry["files"][0], directory / name)
        chosen.append({**entry, "files": [str(directory / name)]})
    chosen += [{**entries[i], "files": [str(SOURCES / f) for f in entries[i]["files"]]} for i in KEPT_AS_IS]
    path = directory / "manifest.json"
    path.write_text(json.dumps(chosen), encoding="utf-8")
    return path


def test_each_damage_is_counted_and_everything_else_is_published(aws_env: None, tmp_path: Path) -> None:
    with mock_aws():
        wired = deps.build(make_settings(), FakeClock())
        create_missing_tables(wired.stores)
        report = sync(wired, _manifest(tmp_path))
    for source_id, (_, _, reason) in DAMAGES.items():
        assert report.sources[source_id].dropped[reason] == 1, (source_id, report.sources[source_id])
    assert report.sources["oa-us-ca-alameda"].kept > 40  # the rows around the broken one
    assert report.sources["it-forte_dei_marmi-civici"].kept > 10
    for source_id in KEPT_AS_IS:
        tally = report.sources[source_id]
        assert tally.kept > 0
        assert not {"unreadable_file", "malformed_row"} & set(tally.dropped)
    assert {code: o.status for code, o in report.countries.items() if code in {"NL", "IT", "US", "AD"}} == {
        "NL": "published",
        "IT": "published",
        "US": "published",
        "AD": "published",
    }
    assert report.ok
