"""The sharded sync's stages, run in this process on moto: the same snapshots as the in-process
sync, with cells, sort runs and shards made small so every seam is crossed."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from chalicelib import deps
from chalicelib.domain.snapshots import build_snapshot
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.job import SyncJob
from chalicelib.services.sync.local_executor import LocalExecutor
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.sharding import order_cell_name
from chalicelib.services.sync.target import SyncTarget
from chalicelib.storage.files.sync_work import LocalWorkStore
from chalicelib.sync_wiring import sync_pipeline
from tests.support.factories import SOURCES, needs_sources
from tests.support.sync import MIXED_SOURCES, sync, write_cut, write_manifest
from tests.support.sync_oracle import collect

# Mixed scripts and levels, plus the overlaps the cross-cell dedupe rules are about: two Monaco
# extracts (the same OSM objects, some retagged) and Krems (one text on two objects).
SOURCES_WITH_OVERLAPS = [*MIXED_SOURCES, "osm-monaco-mc", "osm-monaco_2021-mc", "osm-krems-at"]
TINY = {
    "per_cell": 700,
    "claims_per_cell": 2000,
    "sort_chunk": 300,
    "shard_rows": 250,
    "part_rows": 400,  # large cells sorted in parts, one of them cut at keys sampled 1 in 3
    "sample_every": 3,
}


def _sharded(wired: deps.Dependencies, work: Path, manifest: Path, **sizes: int) -> SyncReport:
    executor = LocalExecutor(lambda: sync_pipeline(wired, LocalWorkStore(work)), workers=0, sizes=sizes)
    return executor.run(SyncTarget(manifest=manifest, root=SOURCES))


@pytest.fixture
def manifest(tmp_path: Path) -> Path:
    return write_manifest(tmp_path, SOURCES_WITH_OVERLAPS)


@needs_sources
def test_the_sharded_build_publishes_what_the_in_process_sync_would(
    tmp_path: Path, dependencies: deps.Dependencies, manifest: Path
) -> None:
    sharded = _sharded(dependencies, tmp_path / "work", manifest, **TINY)
    assert sharded.ok
    work = LocalWorkStore(tmp_path / "work")
    sorted_parts = work.read_json("items/sort.json")
    assert max(item["part"] for item in sorted_parts) >= 2  # some cells were sorted in parts
    _assert_each_sort_reads_its_countrys_street_cells(work, sorted_parts)
    target = SyncTarget(manifest=manifest, root=SOURCES)
    expected_report = SyncReport(started_at="")
    collected = collect(target, dependencies.pool_config, set(sharded.planned), expected_report)
    pool, registry = dependencies.stores.pool, dependencies.stores.registry
    for country, addresses in collected.items():
        if country not in sharded.planned:
            continue
        snapshot = build_snapshot(country, addresses)
        outcome = sharded.countries[country]
        assert (outcome.status, outcome.snapshot_id) == ("published", snapshot.id), country
        active = registry.active_snapshot(country)
        assert active is not None
        assert active.strata == snapshot.strata
        served = pool.get_many_by_ordinal(active.placement, range(active.count))
        assert [served[i] for i in range(active.count)] == snapshot.addresses, country
        for location in snapshot.locations.values():
            assert registry.get_location(active.snapshot_id, active.layout, location.id) == location
    assert _tallies(sharded) == _tallies(expected_report)
    assert sharded.sources["osm-monaco-mc"].dropped["same_osm_object"] > 0
    assert sharded.sources["osm-krems-at"].dropped["same_text_elsewhere"] > 0

    again = sync(dependencies, manifest)  # the in-process sync finds every snapshot already active
    assert {c: (o.status, o.snapshot_id) for c, o in again.countries.items()} == {
        c: ("unchanged" if o.snapshot_id else "empty", o.snapshot_id) for c, o in sharded.countries.items()
    }
    assert len([o for o in again.countries.values() if o.status == "unchanged"]) == 6


def _assert_each_sort_reads_its_countrys_street_cells(
    work: LocalWorkStore, parts: list[dict[str, Any]]
) -> None:
    """Each counted country's streets hash into street cells of its own, so a sort task reads the
    route tasks of its country only (hashed over all countries, it read every one)."""
    job = SyncJob.model_validate(work.read_json(keys.JOB))
    ranges = sorted(job.country_cells.values())
    assert len(ranges) >= 6
    assert all(a + n <= b for (a, n), (b, _) in pairwise(ranges))  # disjoint
    for part in parts:
        first, count = job.country_cells[part["country"]]
        name = order_cell_name((part["key"][0], part["key"][1]), part["part"])
        cells = {cell for cell, *_ in work.read_json(keys.sort_inputs(part["country"], name))}
        assert cells, part
        assert all(first <= cell < first + count for cell in cells), part


def _tallies(report: SyncReport) -> dict[str, tuple[int, int, dict[str, int], dict[str, int]]]:
    return {
        family: (t.read, t.kept, dict(t.dropped), dict(+t.removed_fields))
        for family, t in report.sources.items()
    }


@needs_sources
def test_a_generation_over_many_street_cells_keeps_what_it_shares_and_serves_each_address_once(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    """Wrocław's 978 addresses fill one ledger bucket, written by several street cells: each
    cell's pages must survive the others', or the next generation stores the lost ones again."""
    sizes = {**TINY, "per_cell": 200}
    first = _sharded(
        dependencies, tmp_path / "w1", write_cut(tmp_path, "pl-wroclaw-prg", slice(0, 900), "a"), **sizes
    )
    assert first.countries["PL"].status == "published"
    second = _sharded(
        dependencies, tmp_path / "w2", write_cut(tmp_path, "pl-wroclaw-prg", slice(30, 992), "b"), **sizes
    )
    outcome = second.countries["PL"]
    assert outcome.status == "published"
    assert outcome.kept + outcome.added == outcome.addresses
    assert outcome.kept >= first.countries["PL"].addresses - 30 - 14  # less the cut and a few twins
    assert outcome.added <= 92 + 14
    active = dependencies.stores.registry.active_snapshot("PL")
    assert active is not None
    assert len(active.placement.segments) == 2
    slots = active.placement.slots
    served = dependencies.stores.pool.get_many_by_ordinal(active.placement, range(slots))
    ids = [a.id for a in served.values()]
    assert len(ids) == len(set(ids)) == active.count  # every address once, none removed served
