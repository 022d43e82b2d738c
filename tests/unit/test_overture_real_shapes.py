"""Overture parts shaped as real releases are, not as the replica is: `sources` without a `license`
field (schema 1.6, release 2025-02-19.0), with `license: null` (the docs' example row), without
`dataset` (its planned removal: `provider` and `resource` only), a part missing a column the reader
needs, a part with a column it does not know; and Latvia's levels as release 2026-03-18.0 has them.
Each part is written here with pyarrow from real rows of the replica."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.errors import ConfigurationError
from chalicelib.reference.licences import load_licence_policy
from chalicelib.reference.pool_config import load_pool_config
from chalicelib.services.sync.discovery import discover
from chalicelib.services.sync.enrich import SourceFacts, publish
from chalicelib.services.sync.normalize import Candidate, normalize
from chalicelib.sources.manifest import SourceEntry
from chalicelib.sources.overture import read_overture
from chalicelib.sources.overture_plan import row_group_facts
from chalicelib.storage.files.overture_bucket import PARTS, LocalReleases
from tests.support.factories import SOURCES, needs_sources

pytestmark = needs_sources

REPLICA = SOURCES / "overture" / "release" / "2026-11-18.0" / PARTS
_LEVELS = pa.list_(pa.struct([("value", pa.string())]))
_SOURCE_2025 = [("property", pa.string()), ("dataset", pa.string()), ("record_id", pa.string()),
                ("update_time", pa.string()), ("confidence", pa.float64())]  # fmt: skip
_SOURCE_2026 = [("property", pa.string()), ("dataset", pa.string()), ("license", pa.string()),
                ("record_id", pa.string()), ("update_time", pa.string()), ("confidence", pa.float64()),
                ("provider", pa.string()), ("resource", pa.string()), ("version", pa.string())]  # fmt: skip
_SOURCE_NO_DATASET = [f for f in _SOURCE_2026 if f[0] != "dataset"]


def _replica_rows(country: str, count: int) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for part in sorted(REPLICA.glob("part-*.parquet")):
        table = pq.read_table(part, filters=[("country", "=", country)])
        rows += table.slice(0, count - len(rows)).to_pylist()
    return rows


def _part(
    path: Path, rows: list[dict[str, Any]], source_fields: list[tuple[str, pa.DataType]], **extra: Any
) -> Path:
    """A part with the replica's columns, `sources` items of the given fields, and `extra` columns
    (a column set to None is left out)."""
    columns: dict[str, pa.DataType] = {
        "id": pa.string(), "geometry": pa.binary(), "country": pa.string(), "postcode": pa.string(),
        "street": pa.string(), "number": pa.string(), "unit": pa.string(), "address_levels": _LEVELS,
        "postal_city": pa.string(), "version": pa.int32(),
        "sources": pa.list_(pa.struct(source_fields)),
    }  # fmt: skip
    names = [n for n, _ in source_fields]
    data = [
        {
            **{k: row.get(k) for k in columns},
            "sources": [{k: v for k, v in item.items() if k in names} for item in row["sources"]],
        }
        for row in rows
    ]
    for name, values in extra.items():
        if values is None:
            columns.pop(name)
        else:
            columns[name] = pa.string()
            for row, value in zip(data, values, strict=True):
                row[name] = value
    schema = pa.schema(list(columns.items()))
    pq.write_table(pa.Table.from_pylist([{k: r[k] for k in columns} for r in data], schema), path)
    return path


def _served(part: Path, country: str) -> list[PublishedAddress]:
    """Through the sync's own steps: read, normalize, publish."""
    config = load_pool_config()
    entry = SourceEntry(
        id=f"overture-{country}",
        country=country,
        format="overture-parquet",
        files=(part.name,),
        language="",
        license="not stated by Overture for this dataset: see its publisher's terms",
        attribution="© Overture Maps Foundation (overturemaps.org) and the dataset's publisher",
    )
    facts = SourceFacts(entry.id, entry, config.source(entry.id))
    served = []
    for raw in read_overture(part, source_id=entry.id, country=country, language=""):
        candidate = normalize(raw, config.countries.get(country), facts.config)
        assert isinstance(candidate, Candidate), raw
        served.append(publish(candidate, facts))
    return served


def _with_sources(rows: list[dict[str, Any]], **item: Any) -> list[dict[str, Any]]:
    return [{**row, "sources": [{**row["sources"][0], **item}]} for row in rows]


def test_a_dataset_overture_states_no_licence_for_gets_the_attribution_page_s(tmp_path: Path) -> None:
    """Norway's Kartverket rows: CC-BY-4.0 on Overture's page. Without the field (2025), with null,
    and with the row's own licence, which wins."""
    rows = _with_sources(_replica_rows("NO", 5), dataset="OpenAddresses/Kartverket")
    policy = load_licence_policy()
    absent = _served(_part(tmp_path / "2025.parquet", rows, _SOURCE_2025), "NO")
    null = _served(_part(tmp_path / "null.parquet", _with_sources(rows, license=None), _SOURCE_2026), "NO")
    for served in (absent, null):
        assert {a.provenance.license for a in served} == {"CC-BY-4.0"}
        assert {policy.strictest_class(a.provenance.license) for a in served} == {"attribution"}
        assert {a.provenance.attribution.split(";")[0] for a in served} == {"Kartverket"}
    own = _served(
        _part(tmp_path / "own.parquet", _with_sources(rows, license="ODbL-1.0"), _SOURCE_2026), "NO"
    )
    assert {a.provenance.license for a in own} == {"ODbL-1.0"}


def test_a_dataset_the_page_does_not_name_keeps_its_terms_unknown(tmp_path: Path) -> None:
    rows = _with_sources(_replica_rows("NO", 3), dataset="OpenAddresses/Somebody Else", license=None)
    served = _served(_part(tmp_path / "x.parquet", rows, _SOURCE_2026), "NO")
    assert {a.provenance.license for a in served} == {
        "not stated by Overture for this dataset: see its publisher's terms"
    }
    assert {load_licence_policy().strictest_class(a.provenance.license) for a in served} == {"unlisted"}


def test_ids_and_source_ids_survive_the_removal_of_dataset(tmp_path: Path) -> None:
    rows = _replica_rows("BE", 20)
    named = _served(_part(tmp_path / "named.parquet", rows, _SOURCE_2026), "BE")
    successors = _with_sources(rows, provider="openaddresses", resource="urbis")
    unnamed = _served(_part(tmp_path / "unnamed.parquet", successors, _SOURCE_NO_DATASET), "BE")
    assert [a.id for a in unnamed] == [a.id for a in named]
    assert {a.provenance.source_id for a in named} == {"overture-BE:OpenAddresses/be-brussels-urbis-fr"}
    assert {a.provenance.source_id for a in unnamed} == {"overture-BE:openaddresses/urbis"}
    assert {a.provenance.license for a in unnamed} == {"CC-BY-4.0"}  # UrbiS, on Overture's page
    nothing = _with_sources(rows, provider=None, resource=None)
    bare = _served(_part(tmp_path / "bare.parquet", nothing, _SOURCE_NO_DATASET), "BE")
    assert [a.id for a in bare] == [a.id for a in named]
    assert {a.provenance.source_id for a in bare} == {"overture-BE"}  # never `overture-BE:`


def _release(root: Path, part: Path) -> LocalReleases:
    folder = root / "release" / "2026-12-16.0" / PARTS
    folder.mkdir(parents=True)
    part.rename(folder / part.name)
    return LocalReleases(root)


def test_a_part_without_a_column_the_reader_needs_fails_discovery_naming_it(tmp_path: Path) -> None:
    rows = _replica_rows("NO", 3)
    part = _part(tmp_path / "part-00000-x-c000.zstd.parquet", rows, _SOURCE_2026, street=None)
    releases = _release(tmp_path / "bucket", part)
    with pytest.raises(ConfigurationError) as refused:
        discover(releases, [], load_pool_config(), {})
    assert str(refused.value).startswith(
        "Overture release 2026-12-16.0, part part-00000-x-c000.zstd.parquet has no column street"
    )
    with pytest.raises(ConfigurationError, match="has no column street"):
        list(read_overture(releases.root / "release/2026-12-16.0" / PARTS / part.name, source_id="o",
                           country="NO", language=""))  # fmt: skip


def test_optional_columns_may_be_missing_and_new_ones_are_ignored(tmp_path: Path) -> None:
    rows = _replica_rows("NO", 3)
    lean = _part(tmp_path / "lean.parquet", rows, _SOURCE_2026, postal_city=None, unit=None)
    grown = _part(tmp_path / "grown.parquet", rows, _SOURCE_2026, names=["Storgata"] * 3)
    assert len(row_group_facts(lean)) == len(row_group_facts(grown)) == 1
    read = {p: list(read_overture(p, source_id="o", country="NO", language="")) for p in (lean, grown)}
    assert [r.city for r in read[lean]] == ["", "", ""]  # NO's postal town is postal_city
    assert [r.city for r in read[grown]] == [row["postal_city"] for row in rows]


def test_latvia_s_levels_are_as_deep_as_the_place(tmp_path: Path) -> None:
    """OvertureMaps/data#509's three patterns, on real rows' shape (the replica has no LV rows:
    the levels are #509's examples, the rest a replica row's)."""
    [row] = _replica_rows("NO", 1)
    patterns = [["Rīga"], ["Jēkabpils nov.", "Jēkabpils"], ["Olaines nov.", "Olaines pag.", "Jāņupe"]]
    lv = {**row, "country": "LV", "postal_city": None}
    rows = [{**lv, "address_levels": [{"value": v} for v in levels]} for levels in patterns]
    read = list(read_overture(_part(tmp_path / "lv.parquet", rows, _SOURCE_2026), source_id="o", country="LV",
                              language=""))  # fmt: skip
    assert [(r.region, r.district, r.city) for r in read] == [
        ("Rīga", "", "Rīga"),
        ("Jēkabpils nov.", "", "Jēkabpils"),
        ("Olaines nov.", "Olaines pag.", "Jāņupe"),
    ]
