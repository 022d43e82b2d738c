"""Each importer on real published files, read in place from shared/sources."""

from __future__ import annotations

import bz2
import gzip
from collections import Counter
from itertools import islice
from pathlib import Path

import pytest

from chalicelib.sources.manifest import group_variants, load_manifest
from chalicelib.sources.openaddresses import read_csv, read_geojson_lines
from chalicelib.sources.osm import centroid, read_osm
from chalicelib.sources.reader import read_group
from tests.support.factories import SOURCES

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")


def test_geojson_lines_keep_fields_and_readings() -> None:
    path = SOURCES / "openaddresses/jp/wakayama_shi-abr-ja.geojson.gz"
    first = next(read_geojson_lines(path, source_id="s", country="JP", language="ja"))
    assert (first.record_id, first.number, first.street, first.city) == (
        "302015-0001000-001-001",
        "1番1号",
        "葵町",
        "和歌山市",
    )
    assert (first.lon, first.lat, first.postcode) == ("135.1651967", "34.214456", "6408273")
    assert first.readings == {
        "region_kana": "ワカヤマケン",
        "city_kana": "ワカヤマシ",
        "street_kana": "アオイチョウ",
    }


def test_geojson_use_extension() -> None:
    path = SOURCES / "openaddresses/gb/england-edubase_schools.geojson.gz"
    uses = Counter(
        r.use for r in islice(read_geojson_lines(path, source_id="s", country="GB", language="en"), 50)
    )
    assert uses == {"institutional": 50}


def test_zipped_csv_streams_every_row_including_defects() -> None:
    rows = list(
        read_csv(
            SOURCES / "openaddresses/us-ca-santa_clara.csv.zip", source_id="s", country="US", language="en"
        )
    )
    assert len(rows) == 4913
    assert sum(1 for r in rows if not r.number) == 174  # the point-only rows the README lists
    assert any(r.street == "FAKE ST" for r in rows)
    assert all(r.record_id for r in rows)  # HASH stands in where the source has no ID


def test_csv_without_ids_or_hashes_gets_stable_natural_keys() -> None:
    first = list(
        islice(
            read_csv(
                SOURCES / "openaddresses/us-ca-alameda.csv.zip", source_id="s", country="US", language="en"
            ),
            3,
        )
    )
    again = list(
        islice(
            read_csv(
                SOURCES / "openaddresses/us-ca-alameda.csv.zip", source_id="s", country="US", language="en"
            ),
            3,
        )
    )
    assert [r.record_id for r in first] == [r.record_id for r in again]


@pytest.mark.parametrize(
    ("name", "count", "kinds"),
    [
        ("bristol-gb.osm.pbf", 31, {"way": 30, "node": 1}),
        ("monaco-mc.osm.gz", 22, {"node": 21, "way": 1}),
        ("liechtenstein-li.osm.pbf", 1001, {"way": 915, "node": 84, "relation": 2}),
        # Not sorted by id (an API download): libosmium's area assembly stops after 9 objects.
        ("goeppingen-de.osm.gz", 1005, {"node": 9, "way": 996}),
    ],
)
def test_osm_reads_nodes_ways_and_relations_once(name: str, count: int, kinds: dict[str, int]) -> None:
    records = list(read_osm(SOURCES / "osm" / name, source_id="s", country="XX", language="de"))
    assert len(records) == count  # the manifest's count of address objects
    assert Counter(r.record_id.split("/")[0] for r in records) == kinds
    assert len({r.record_id for r in records}) == count


def test_osm_xml_compressed_with_bzip2(tmp_path: Path) -> None:
    """.osm.bz2 is a published OSM format too; the same real extract, recompressed."""
    xml = gzip.decompress((SOURCES / "osm/monaco-mc.osm.gz").read_bytes())
    target = tmp_path / "monaco-mc.osm.bz2"
    target.write_bytes(bz2.compress(xml))
    records = list(read_osm(target, source_id="s", country="MC", language="fr"))
    assert len(records) == 22


def test_osm_country_tag_wins_over_the_extract() -> None:
    records = list(
        read_osm(SOURCES / "osm/liechtenstein-li.osm.pbf", source_id="s", country="LI", language="de")
    )
    assert Counter(r.country for r in records) == {"LI": 982, "AT": 19}


def test_osm_way_position_is_inside_its_outline() -> None:
    records = list(read_osm(SOURCES / "osm/bristol-gb.osm.pbf", source_id="s", country="GB", language="en"))
    for r in records:
        assert -2.7 < float(r.lon) < -2.5
        assert 51.4 < float(r.lat) < 51.5


def test_centroid_of_a_closed_ring_and_of_a_line() -> None:
    square = [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0), (0.0, 0.0)]
    assert centroid(square) == pytest.approx((1.0, 1.0))
    assert centroid([(0.0, 0.0), (4.0, 0.0)]) == pytest.approx((2.0, 0.0))


def test_language_variants_merge_into_one_record_with_names() -> None:
    entries = [e for e in load_manifest(SOURCES / "manifest.json") if e.country == "JP"]
    groups = {g.family: g for g in group_variants(entries, {"JP": "ja"})}
    wakayama = groups["jp-wakayama_shi-abr"]
    assert [e.language for e in wakayama.entries] == ["ja", "en"]
    first = next(read_group(wakayama, SOURCES))
    assert first.street == "葵町"
    assert first.names["en"] == {
        "street": "Aoicho",
        "city": "Wakayama-shi",
        "region": "Wakayama",
        "number": "1-1",
    }
    assert "jp-bunkyo_ku-abr-ja" in groups  # no variant: a group of its own


def test_belgian_variants_lead_with_the_country_language() -> None:
    entries = [e for e in load_manifest(SOURCES / "manifest.json") if e.country == "BE"]
    (group,) = group_variants(entries, {"BE": "fr"})
    records = list(read_group(group, SOURCES))
    assert len(records) == 665
    assert records[0].names["nl"]["street"] == "Overwinningsstraat"
    assert records[0].street == "Rue de la Victoire"
