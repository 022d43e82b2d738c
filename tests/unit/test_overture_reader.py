"""The Overture reader against the replica in ../shared/sources/overture (Overture's layout and
physical schema, made of real OpenAddresses rows): every row read maps back to its own source row,
field by field, with the levels each country's table names; row-group ranges split a part without
losing or repeating a row; a row whose geometry is not a point is counted, not guessed."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from chalicelib.errors import StorageUnavailable
from chalicelib.sources.manifest import SourceEntry, load_manifest
from chalicelib.sources.overture import RowGroups, read_overture, row_group_count, to_record
from chalicelib.sources.reader import read_entry
from chalicelib.sources.records import MALFORMED_ROW, RawRecord
from tests.support.factories import SOURCES, needs_sources
from tests.support.part_files import PartFile

pytestmark = needs_sources

RELEASE = SOURCES / "overture" / "release" / "2026-11-18.0" / "theme=addresses" / "type=address"
# The replica's README: rows per country in release 2026-11-18.0.
ROWS = {"NO": 19, "PL": 1_335, "TW": 11_376, "DK": 1_307, "BE": 658, "SG": 660}
# What each country's source publishes that the replica does not carry (DK's supplerende bynavn).
NOT_CARRIED = {"DK": ("district",)}
COMPARED = ("number", "street", "unit", "postcode", "region", "district", "city")


def _parts() -> list[Path]:
    return sorted(RELEASE.glob("part-*.zstd.parquet"))


def _read(country: str) -> Iterator[RawRecord]:
    for part in _parts():
        yield from read_overture(part, source_id="overture", country=country, language="")


@pytest.fixture(scope="module")
def published() -> dict[tuple[str, str], RawRecord]:
    """Every row of the replica's sources for these countries, by (manifest id, record id)."""
    found: dict[tuple[str, str], RawRecord] = {}
    for entry in load_manifest(SOURCES / "manifest.json"):
        if entry.country in ROWS and entry.format.startswith("openaddresses"):
            found.update(((entry.id, r.record_id), r) for r in read_entry(entry, SOURCES))
    return found


@pytest.mark.parametrize("country", sorted(ROWS))
def test_every_row_maps_back_to_its_source_row(
    country: str, published: dict[tuple[str, str], RawRecord]
) -> None:
    records = list(_read(country))
    assert len(records) == ROWS[country]
    for record in records:
        assert record.country == country
        assert record.dataset.startswith("OpenAddresses/")
        source = published[(record.dataset.removeprefix("OpenAddresses/"), record.record_id)]
        expected = {f: source.text(f) for f in COMPARED if f not in NOT_CARRIED.get(country, ())}
        assert {f: record.text(f) for f in expected} == expected, record.record_id
        assert math.isclose(float(record.lon), float(source.lon), abs_tol=1e-9)
        assert math.isclose(float(record.lat), float(source.lat), abs_tol=1e-9)


def test_norway_s_postal_town_is_the_city_and_its_municipality_the_district() -> None:
    records = list(_read("NO"))
    assert {(r.district, r.city) for r in records} >= {("EIDSBERG", "MYSEN")}
    assert all(r.city and r.district for r in records)
    assert {r.license for r in records} == {"CC-BY-4.0"}


def test_row_group_ranges_split_a_part_without_losing_or_repeating_a_row() -> None:
    part = _parts()[0]  # IS fills row groups 9 to 19 of this part: the cuts fall inside its run
    groups = row_group_count(part)
    assert groups >= 20
    whole = [r.overture_id for r in read_overture(part, source_id="o", country="IS", language="")]
    pieces = [RowGroups(0, 10), RowGroups(10, 11), RowGroups(11, 15), RowGroups(15, groups)]
    split = [
        r.overture_id
        for p in pieces
        for r in read_overture(part, source_id="o", country="IS", language="", row_groups=p)
    ]
    assert split == whole
    assert len(whole) > 10_000


def test_a_row_whose_geometry_is_not_a_point_is_malformed() -> None:
    import pyarrow.parquet as pq

    row = pq.ParquetFile(_parts()[1]).read_row_group(0).slice(0, 1).to_pylist()[0]
    assert to_record(row, source_id="o", language="").defect == ""
    for broken in (None, b"", row["geometry"][:-1], bytes([1, 2, 0, 0, 0]) + row["geometry"][5:]):
        assert to_record({**row, "geometry": broken}, source_id="o", language="").defect == MALFORMED_ROW


def test_a_big_endian_point_reads_as_its_little_endian_twin() -> None:
    import struct

    import pyarrow.parquet as pq

    row = pq.ParquetFile(_parts()[1]).read_row_group(0).slice(0, 1).to_pylist()[0]
    x, y = struct.unpack("<dd", row["geometry"][5:])
    big = b"\x00" + struct.pack(">Idd", 1, x, y)
    read = to_record({**row, "geometry": big}, source_id="o", language="")
    assert (read.lon, read.lat, read.defect) == (repr(x), repr(y), "")


def test_a_row_built_from_several_datasets_is_under_every_one_s_licence() -> None:
    import pyarrow.parquet as pq

    row = pq.ParquetFile(_parts()[1]).read_row_group(0).slice(0, 1).to_pylist()[0]
    whole = {**row["sources"][0], "license": "CC-BY-4.0"}
    postcode = {**whole, "property": "/properties/postcode", "dataset": "other", "license": "ODbL-1.0"}
    read = to_record({**row, "sources": [whole, postcode]}, source_id="o", language="")
    assert (read.dataset, read.record_id) == (whole["dataset"], whole["record_id"])  # the whole's
    assert read.license == "CC-BY-4.0 AND ODbL-1.0"
    alone = to_record(
        {**row, "sources": [whole, {**postcode, "license": whole["license"]}]}, source_id="o", language=""
    )
    assert alone.license == "CC-BY-4.0"
    either = to_record(
        {**row, "sources": [{**whole, "license": "CC0-1.0 OR MIT"}, postcode]}, source_id="o", language=""
    )
    assert either.license == "(CC0-1.0 OR MIT) AND ODbL-1.0"
    unstated = to_record(
        {**row, "sources": [{**whole, "license": None}, postcode]}, source_id="o", language=""
    )
    assert unstated.license == "NOASSERTION AND ODbL-1.0"  # the whole row's silence is not dropped
    none = to_record({**row, "sources": [{**whole, "license": None}]}, source_id="o", language="")
    assert none.license == ""  # the entry's terms apply


def test_a_remote_part_that_breaks_off_fails_its_task_instead_of_publishing_fewer_rows() -> None:
    part = _parts()[0]
    entry = SourceEntry.model_validate(
        {
            "id": "overture-IS",
            "country": "IS",
            "format": "overture-parquet",
            "files": [f"s3://bucket/{part.name}"],
            "language": "",
            "license": "x",
            "attribution": "x",
        }
    )
    whole = list(read_entry(entry, SOURCES, lambda _: PartFile(part).opened()))
    assert len(whole) == 20_241 - sum(1 for r in whole if r.defect)  # read whole when nothing breaks
    with pytest.raises(StorageUnavailable, match="could not be read whole"):
        list(read_entry(entry, SOURCES, lambda _: PartFile(part, breaks_after=6).opened()))
