"""Overture at planet scale, projected from the replica.

One run on this machine: the replica's release 2026-10-21.0 (10 countries, 99,056 rows) found by
discovery and synced, stage by stage in this process, into an in-memory DynamoDB Local; then its
release 2026-11-18.0 (the changelog's 1,001 added and 1,001 removed rows: a 1.0% refresh). Per
stage it measures this process's CPU seconds (DynamoDB Local runs apart), DynamoDB requests and
work-store files read and written; the Overture reader alone (the part's bytes by ranged GETs
counted, its rows mapped to records); and what the tables hold afterwards, priced in write units
by DynamoDB's item-size rules. From those per-row figures it projects Overture's 472.8 M rows: a
first load, and a monthly refresh of 1% and 5%, each in wall time with N workers, Lambda GB-seconds
and Fargate hours, DynamoDB write units (and Import from S3 for the first load), S3 and Step
Functions requests, and dollars at the published prices below.

    .venv/bin/python -m bench.planet [--workers 100 1000] [--countries NO BE]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from bench.harness import RequestCounter, bare_client, bench_dependencies, local_engine
from chalicelib import deps
from chalicelib.reference.overture_levels import COUNTRIES
from chalicelib.services.sync.discovery import discover
from chalicelib.services.sync.job import (
    CLAIMS_PER_CELL,
    CONTAINER_MAP_BUFFER,
    INDEX_ROWS,
    PART_ROWS,
    ROWS_PER_CELL,
    SHARD_ROWS,
)
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.sharding import power_of_two
from chalicelib.services.sync.stages import STAGES
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.manifest import SourceEntry, load_manifest, save_manifest
from chalicelib.sources.overture import RowGroups, read_overture
from chalicelib.storage.files.overture_bucket import LocalReleases
from chalicelib.storage.files.sync_work import LocalWorkStore
from chalicelib.sync_wiring import sync_pipeline
from infra.local.env import SHARED_MANIFEST

REPLICA = SHARED_MANIFEST.parent / "overture"
FIRST, SECOND = "2026-10-21.0", "2026-11-18.0"
PLANET_ROWS = 472_800_000  # Overture's addresses, 39 countries (issue #40's figures, 2026-09)
OVERTURE_COUNTRIES = COUNTRIES  # the 39 countries Overture's addresses cover
# Their rows, millions (issue #40's figures, 2026-09): what sizes each country's street cells.
OVERTURE_ROWS_M = {
    "US": 125.8, "BR": 89.9, "MX": 30.7, "FR": 26.1, "IT": 25.9, "JP": 19.6, "DE": 19.3, "CA": 16.9,
    "AU": 15.7, "ES": 15.6, "NL": 9.9, "TW": 9.7, "PL": 8.6, "CO": 7.8, "BE": 6.7, "PT": 5.6, "CL": 4.2,
    "DK": 3.9, "FI": 3.7, "NO": 3.6, "CH": 3.3, "CZ": 3.0, "RS": 2.7, "AT": 2.5, "NZ": 2.4, "EE": 2.2,
    "SK": 1.7, "HR": 1.7, "LT": 1.1, "UY": 1.1, "SI": 0.58, "LV": 0.55, "LU": 0.179, "HK": 0.177,
    "SG": 0.142, "IS": 0.139, "FO": 0.026, "GL": 0.020, "LI": 0.013,
}  # fmt: skip
STRATA = 4  # residential or not, complete or not (domain/ordering.py)
PLANET_ROW_GROUPS = 32 * 384  # 32 parts of 256 to 512 row groups
TASK_ROWS = 10_000  # the replica's tasks (production: 500,000, discovery's default)
PLANET_TASK_ROWS = 500_000
CHILD_TRANSITIONS = 3  # a Distributed Map item's states: Runner?, the task, its end

# Published prices, us-east-1 (verified 2026-11-27; docs/benchmarks.md names the pages).
LAMBDA_GB_S = 0.0000166667
LAMBDA_REQUEST = 0.20 / 1e6
LAMBDA_GB = 2.0  # the sync_step function's 2,048 MB: one vCPU and a bit (1,769 MB is one)
FARGATE_HOUR = 2 * 0.04048 + 8 * 0.004445  # the sync task: 2 vCPU, 8 GB
WRU = 0.625 / 1e6  # on-demand write request unit
IMPORT_GB = 0.15  # Import from S3, per GB of uncompressed source
S3_PUT, S3_GET = 0.005 / 1000, 0.0004 / 1000
TRANSITION = 0.025 / 1000
TABLE_WRU_PER_S = 40_000  # on-demand's default table quota (adjustable by a quota request)


@dataclass
class Counts:
    """A stage's (or a read's) costs: CPU seconds of this process, wall seconds, requests."""

    cpu: float = 0.0
    wall: float = 0.0
    dynamodb: Counter[str] = field(default_factory=Counter)
    puts: int = 0
    gets: int = 0
    tasks: int = 0


class CountingWork(LocalWorkStore):
    """The local work folder, its files' writes and reads counted (S3 PUTs and GETs in AWS)."""

    def __init__(self, root: Path) -> None:
        super().__init__(root)
        self.puts = self.gets = 0

    def write_lines(
        self, key: str, lines: Iterable[str], every: int = 0, marks: Sequence[int] = ()
    ) -> list[int]:
        self.puts += 1
        return super().write_lines(key, lines, every, marks)

    def read_lines(self, key: str, start: int = 0, end: int | None = None) -> Iterator[str]:
        self.gets += 1
        return super().read_lines(key, start, end)

    def write_json(self, key: str, value: Any) -> None:
        self.puts += 1
        super().write_json(key, value)

    def read_json(self, key: str) -> Any:
        self.gets += 1
        return super().read_json(key)

    def keys(self, prefix: str) -> list[str]:
        self.gets += 1  # a LIST request
        return super().keys(prefix)


class OneRelease(LocalReleases):
    """The replica's folder as the bucket would list it on the day `release` was the newest."""

    def __init__(self, root: Path, release: str) -> None:
        super().__init__(root)
        self.release = release

    def releases(self) -> list[str]:
        return [self.release]


class CountedReads:
    """A part file as the ranged-GET client sees it: each read is one GET of that many bytes."""

    def __init__(self, handle: IO[bytes]) -> None:
        self._handle, self.gets, self.bytes = handle, 0, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._handle, name)

    def read(self, size: int = -1) -> bytes:
        data = self._handle.read(size)
        self.gets, self.bytes = self.gets + 1, self.bytes + len(data)
        return data


def manifest_of(release: str, folder: Path, wired: deps.Dependencies, countries: list[str]) -> Path:
    found = discover(OneRelease(REPLICA, release), [], wired.pool_config, {}, task_rows=TASK_ROWS)
    entries = [e for e in found.entries if not countries or e.country in countries]
    path = folder / f"overture-{release}.json"
    save_manifest(entries, path)
    return path


def measure_reads(manifest: Path) -> tuple[Counts, int, int]:
    """The reader alone over every entry: CPU, GETs and bytes; rows read; row groups read."""
    counts, rows, groups = Counts(), 0, 0
    for entry in load_manifest(manifest):
        with Path(entry.files[0]).open("rb") as raw:
            part = CountedReads(raw)
            started, cpu = time.perf_counter(), time.process_time()
            rows += sum(1 for _ in _records(entry, part))
            counts.cpu += time.process_time() - cpu
            counts.wall += time.perf_counter() - started
            counts.gets += part.gets
            counts.dynamodb["bytes"] += part.bytes
        groups += entry.row_groups[1] - entry.row_groups[0] if entry.row_groups else 0
    return counts, rows, groups


def _records(entry: SourceEntry, part: CountedReads) -> Iterator[object]:
    row_groups = RowGroups(*entry.row_groups) if entry.row_groups else None
    return read_overture(
        part,  # type: ignore[arg-type]  # file-like: what pyarrow asks of it is passed through
        source_id=entry.id,
        country=entry.country,
        language=entry.language,
        row_groups=row_groups,
    )


def sync_by_stage(
    wired: deps.Dependencies, manifest: Path, work: Path
) -> tuple[SyncReport, dict[str, Counts]]:
    store = CountingWork(work)
    pipeline = sync_pipeline(wired, store)
    pipeline.start(SyncTarget(manifest, manifest.parent))
    stages: dict[str, Counts] = {}
    with RequestCounter() as counter:
        for stage in STAGES:
            counter.reset()
            store.puts = store.gets = 0
            items = pipeline.items(stage)
            started, cpu = time.perf_counter(), time.process_time()
            for item in items:
                pipeline.run_task(stage, item)
            pipeline.close(stage)
            stages[stage] = Counts(
                time.process_time() - cpu,
                time.perf_counter() - started,
                Counter(counter.counts()),
                store.puts,
                store.gets,
                len(items),
            )
    return pipeline.report(), stages


def item_size(item: dict[str, Any]) -> int:
    """DynamoDB's item size: attribute names' and values' bytes (its documented rules)."""
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


def _value_size(value: dict[str, Any]) -> int:
    ((kind, body),) = value.items()
    if kind == "S":
        return len(body.encode())
    if kind == "B":
        return len(body)
    if kind == "N":
        return math.ceil(len(body.lstrip("-").replace(".", "").lstrip("0") or "0") / 2) + 1
    if kind in ("SS", "NS", "BS"):
        return sum(_value_size({kind[0]: v}) for v in body)
    if kind == "M":
        return 3 + sum(len(k.encode()) + _value_size(v) + 1 for k, v in body.items())
    if kind == "L":
        return 3 + sum(_value_size(v) + 1 for v in body)
    return 1  # BOOL, NULL


def table_items(endpoint: str, tables: list[str]) -> dict[tuple[str, str, str], int]:
    """Every item of the tables: (table, pk, sk) → its size in bytes."""
    found = {}
    pages = bare_client(endpoint).get_paginator("scan")
    for table in tables:
        for page in pages.paginate(TableName=table):
            for item in page["Items"]:
                key = (table, item["pk"]["S"], item.get("sk", {}).get("S", ""))
                found[key] = item_size(item)
    return found


def write_units(before: dict[Any, int], after: dict[Any, int]) -> Counter[str]:
    """Per kind of item (`pool O`, `pool I`, `pool Q`, `pool G`, `catalog L`, ...), the items new
    or changed between two scans (`items`), their write units (1 per KB begun; an update is charged
    the larger image) and bytes."""
    found: Counter[str] = Counter()
    for key, size in after.items():
        old = before.get(key)
        if old == size:
            continue
        kind = f"{'pool' if key[0].endswith('pool') else 'catalog'} {key[1].split('#', 1)[0][:1]}"
        if kind == "catalog L":  # a snapshot's catalog: its locations, value index, directories
            kind = f"catalog L {key[2].split('#', 1)[0]}"
        found[f"{kind} items"] += 1
        found[f"{kind} units"] += math.ceil(max(size, old or 0) / 1024)
        found[f"{kind} bytes"] += size
    return found


def _total(found: Counter[str], what: str, table: str = "") -> int:
    return sum(v for k, v in found.items() if k.endswith(what) and k.startswith(table))


@dataclass
class Sync:
    report: SyncReport
    stages: dict[str, Counts]
    rows: int  # read
    written: Counter[str]  # write_units' figures

    @property
    def changes(self) -> int:
        return sum(o.added + o.removed for o in self.report.countries.values())


def main(workers: list[int], countries: list[str]) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="ags-bench-planet-") as folder, local_engine() as engine:
        wired = bench_dependencies(engine, pool_table="planet-pool", catalog_table="planet-catalog")
        tables = [wired.settings.pool_table, wired.settings.catalog_table]
        syncs, held = [], table_items(engine.endpoint, tables)
        for release in (FIRST, SECOND):
            manifest = manifest_of(release, Path(folder), wired, countries)
            if release == FIRST:
                reads, read_rows, groups = measure_reads(manifest)
            report, stages = sync_by_stage(wired, manifest, Path(folder) / f"work-{release}")
            now = table_items(engine.endpoint, tables)
            rows = sum(t.read for t in report.sources.values())
            syncs.append(Sync(report, stages, rows, write_units(held, now)))
            held = now
    return _measured(reads, read_rows, groups, syncs) + projection(reads, groups, *syncs, workers=workers)


def _measured(reads: Counts, read_rows: int, groups: int, syncs: list[Sync]) -> list[str]:
    first, refresh = syncs
    lines = [
        f"Overture's replica, in-memory DynamoDB Local, {os.cpu_count()} CPUs "
        f"({platform.python_implementation()} {platform.python_version()}); CPU is this process's alone",
        "",
        f"Reader alone: {read_rows:,} rows in {groups} row groups, "
        f"{reads.cpu / read_rows * 1e6:.1f} µs CPU per row "
        f"(read, decoded, mapped to records), {reads.gets / groups:.1f} ranged GETs per row group, "
        f"{reads.dynamodb['bytes'] / read_rows:.0f} bytes fetched per row",
        "",
        "| stage | tasks | first load: CPU µs per row | DynamoDB requests per row | "
        "work files written per row | refresh: CPU µs per row read |",
        "|---|---|---|---|---|---|",
    ]
    for stage in STAGES:
        one, two = first.stages[stage], refresh.stages[stage]
        lines.append(
            f"| {stage} | {one.tasks} | {one.cpu / first.rows * 1e6:.1f} | "
            f"{sum(one.dynamodb.values()) / first.rows:.4f} | {one.puts / first.rows:.4f} | "
            f"{two.cpu / refresh.rows * 1e6:.1f} |"
        )
    lines += [
        "",
        "| sync | rows read | added + removed | items written | write units | per row read | per change |",
    ]
    lines.append("|---|---|---|---|---|---|---|")
    for name, sync in (("first load", first), ("refresh", refresh)):
        units = _total(sync.written, "units")
        lines.append(
            f"| {name} | {sync.rows:,} | {sync.changes:,} | {_total(sync.written, 'items'):,} | {units:,} | "
            f"{units / sync.rows:.2f} | {units / max(1, sync.changes):.2f} |"
        )
    kinds = sorted({k.rsplit(" ", 1)[0] for k in first.written})
    lines += ["", "| items | first load: units per row | refresh: units per change |", "|---|---|---|"]
    for kind in kinds:
        lines.append(
            f"| {kind}# | {first.written[kind + ' units'] / first.rows:.3f} | "
            f"{refresh.written[kind + ' units'] / max(1, refresh.changes):.3f} |"
        )
    lines += [
        "",
        "The newest release's addresses held to Google's address rules (libaddressinput's data, "
        "as the sync assesses each address):",
        "",
        "| country | published | complete | components most often missing or invalid |",
        "|---|---|---|---|",
    ]
    for country, outcome in sorted(refresh.report.countries.items()):
        if outcome.addresses:
            worst = ", ".join(f"{k} {v:,}" for k, v in Counter(outcome.incomplete).most_common(3))
            share = outcome.complete / outcome.addresses
            lines.append(f"| {country} | {outcome.addresses:,} | {share:.1%} | {worst or '-'} |")
    return [*lines, ""]


@dataclass(frozen=True)
class Run:
    """A sync projected to the planet: CPU seconds per stage and their tasks, write units, bytes
    written, work-store requests."""

    name: str
    cpu: dict[str, float]
    tasks: dict[str, int]
    units: float
    bytes: float
    puts: float  # work-store requests
    gets: float


def projection(reads: Counts, groups: int, first: Sync, refresh: Sync, *, workers: list[int]) -> list[str]:
    scale = PLANET_ROWS / first.rows
    tasks = _planet_tasks(PLANET_ROWS)
    runs = [_projected("first load", first, scale, tasks, _total(first.written, "units") * scale)]
    # A refresh: the pool's items (addresses, ledger, text index) grow with the changes; the
    # catalog is written whole for each new snapshot, so it grows with the rows (an upper bound:
    # a country's locations grow far slower than its addresses).
    pool_per_change = _total(refresh.written, "units", "pool") / max(1, refresh.changes)
    catalog = _total(refresh.written, "units", "catalog") * PLANET_ROWS / refresh.rows
    for share in (0.01, 0.05):
        changes = 2 * share * PLANET_ROWS  # as many removed as added
        units = pool_per_change * changes + catalog
        runs.append(_projected(f"refresh {share:.0%}", refresh, PLANET_ROWS / refresh.rows, tasks, units))
    lines = [
        f"Projected to Overture's {PLANET_ROWS / 1e6:.1f} M rows (x{scale:,.0f} the replica): map tasks of "
        f"{PLANET_TASK_ROWS:,} rows in the Fargate task (2 vCPU, 8 GB), the other stages' tasks in the "
        f"{LAMBDA_GB * 1024:,.0f} MB Lambda, each task's CPU as this machine's; on-demand writes at most "
        f"{TABLE_WRU_PER_S:,} WRU/s per table; a refresh rereads every row (what the pipeline does today)",
        "",
        "| run | workers | wall h | Lambda GB-s | Fargate task h | write units M | work S3 PUT + GET M | "
        "transitions k | $ |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_row(run, n, w) for run in runs for n, w in _concurrencies(run, workers)]
    lines += ["", *_breakdown(runs, workers), "", "| shuffle | work PUTs + GETs |", "|---|---|"]
    lines += [f"| {k} | {p / 1e6:,.2f} M + {g / 1e6:,.2f} M |" for k, (p, g) in shuffles().items()]
    load = runs[0]
    capped = dollars(load, writers_for_the_quota(load))
    compute = sum(v for k, v in capped.items() if k != "DynamoDB writes")
    lines += [
        "",
        f"First load by Import from S3 instead: {load.bytes / 1e9:,.0f} GB of items at ${IMPORT_GB}/GB = "
        f"${load.bytes / 1e9 * IMPORT_GB:,.0f} (${load.bytes / 1e9 * IMPORT_GB + compute:,.0f} with the "
        "rest of the run), no write units and no table quota (into a new table only), against "
        f"${load.units * WRU:,.0f} of on-demand writes ({load.units / 1e9:.2f} G WRU, "
        f"{load.units / TABLE_WRU_PER_S / 3600:.1f} h at the default table quota)",
        f"Overture's parts: {PLANET_ROW_GROUPS:,} row groups, {reads.gets / groups:.0f} ranged GETs each "
        "(the public bucket's requests are not billed to the reader)",
    ]
    return lines


def _planet_tasks(rows: int) -> dict[str, int]:
    """Each stage's tasks at the planet's size, from the pipeline's own sizes (job.py)."""
    cells = sum(_street_cells().values())
    countries = len(OVERTURE_COUNTRIES)
    return {
        "map": math.ceil(rows / PLANET_TASK_ROWS)
        + countries,  # a run per part and country, cut at the budget
        "objects": 0,
        "bounds": 0,
        "dedupe": cells,
        "texts": math.ceil(rows / CLAIMS_PER_CELL),
        "route": cells,
        "sort": math.ceil(rows / PART_ROWS) + 4 * countries,
        "plan": countries,
        "write": math.ceil(rows / SHARD_ROWS),
        "index": math.ceil(rows / INDEX_ROWS),
        "publish": countries,
    }


def _projected(name: str, sync: Sync, scale: float, tasks: dict[str, int], units: float) -> Run:
    """CPU and write units grow with the rows; the work store's requests with the tasks (each
    reads its inputs and writes its outputs, as measured per task), plus the shuffles, whose files
    grow with producers times consumers (`shuffles`)."""
    cpu = {stage: counts.cpu * scale for stage, counts in sync.stages.items()}
    puts = gets = 0.0
    for stage, counts in sync.stages.items():
        per_task = tasks[stage] / max(1, counts.tasks)
        puts, gets = puts + counts.puts * per_task, gets + counts.gets * per_task
    exchanged = shuffles().values()
    shuffle_puts, shuffle_gets = sum(p for p, _ in exchanged), sum(g for _, g in exchanged)
    bytes_ = _total(sync.written, "bytes") * scale
    return Run(name, cpu, tasks, units, bytes_, puts + shuffle_puts, gets + shuffle_gets)


def shuffles() -> dict[str, tuple[int, int]]:
    """The PUTs and GETs of each all-to-all exchange at the planet's size. Each country's streets
    hash into street cells of its own (sharding.street_layout), sized by its rows. A map task (in
    the container, one country's rows) writes one object at each flush (every
    CONTAINER_MAP_BUFFER lines: once per task of 500,000 rows), whose rows fall in nearly every
    street cell of its country: a dedupe task reads its list of ranges and its range of each; a
    dedupe task writes one object of its text claims, a range per text cell, and a texts task reads
    its range of each. A route task writes one object of its rows
    by order-cell part (its country's stratum and first-level region by ISO 3166-2, plus the
    parts of large cells), in a refresh each part's new rows' ids after its rows; the sort plan
    writes each part's list of ranges, and each sort task reads its range of every route task of
    its country."""
    import pycountry

    flushes_per_task = math.ceil(PLANET_TASK_ROWS / CONTAINER_MAP_BUFFER)
    map_gets = route_gets = order_parts = 0
    for country, cells in _street_cells().items():
        rows = round(OVERTURE_ROWS_M[country] * 1e6)
        found = pycountry.subdivisions.get(country_code=country) or ()  # type: ignore[no-untyped-call]
        regions = max(1, len([s for s in found if s.parent_code is None]))
        parts = STRATA * regions + math.ceil(rows / PART_ROWS)
        order_parts += parts
        map_gets += math.ceil(rows / PLANET_TASK_ROWS) * flushes_per_task * cells
        route_gets += cells * parts
    street_cells = sum(_street_cells().values())
    flushes = _planet_tasks(PLANET_ROWS)["map"] * flushes_per_task
    text_cells = math.ceil(PLANET_ROWS / CLAIMS_PER_CELL)
    return {
        "map -> dedupe (ranged reads)": (flushes + street_cells, street_cells + map_gets),
        "dedupe -> texts (ranged reads)": (street_cells + text_cells, text_cells + street_cells * text_cells),
        "route -> sort (ranged reads)": (street_cells + order_parts, order_parts + route_gets),
    }


def _street_cells() -> dict[str, int]:
    """Each country's street cells at the planet's size (sharding.street_layout)."""
    return {c: power_of_two(math.ceil(m * 1e6 / ROWS_PER_CELL)) for c, m in OVERTURE_ROWS_M.items()}


def _waves(run: Run, stage: str, workers: int) -> float:
    """A stage's wall seconds: its tasks in waves of `workers`."""
    tasks = max(1, run.tasks[stage])
    return math.ceil(tasks / workers) * run.cpu[stage] / tasks


def _quota_seconds(run: Run) -> float:
    return run.units / TABLE_WRU_PER_S


def _wall(run: Run, workers: int, writers: int) -> float:
    """The stages one after another; the write stage as long as the table's quota makes it."""
    others = sum(_waves(run, s, workers) for s in run.cpu if s != "write")
    return others + max(_waves(run, "write", writers), _quota_seconds(run))


def _write_billed(run: Run, writers: int) -> float:
    """The write Lambdas' billed seconds: their CPU, or, where the table's quota holds them back,
    every running writer waiting out the quota's time."""
    running = min(writers, max(1, run.tasks["write"]))
    if _quota_seconds(run) <= _waves(run, "write", writers):
        return run.cpu["write"]
    return max(run.cpu["write"], running * _quota_seconds(run))


def writers_for_the_quota(run: Run) -> int:
    """How many writers keep the table's quota busy: the quota over one writer's rate (its write
    units per CPU second, as measured)."""
    return max(1, math.ceil(TABLE_WRU_PER_S / (run.units / max(run.cpu["write"], 1e-9))))


def _concurrencies(run: Run, workers: list[int]) -> list[tuple[int, int]]:
    """Each worker count for every stage, and the largest with the write stage capped at what the
    table's quota keeps busy."""
    return [(n, n) for n in workers] + [(max(workers), writers_for_the_quota(run))]


def _row(run: Run, workers: int, writers: int) -> str:
    transitions = sum(run.tasks.values()) * CHILD_TRANSITIONS
    return (
        f"| {run.name} | {workers:,} ({writers:,} writing) | {_wall(run, workers, writers) / 3600:.2f} | "
        f"{_lambda_gb_s(run, writers):,.0f} | {run.cpu['map'] / 3600:,.1f} | {run.units / 1e6:,.1f} | "
        f"{run.puts / 1e6:.2f} + {run.gets / 1e6:.2f} | "
        f"{transitions / 1e3:,.1f} | {sum(dollars(run, writers).values()):,.0f} |"
    )


def _lambda_gb_s(run: Run, writers: int) -> float:
    others = sum(seconds for stage, seconds in run.cpu.items() if stage not in ("map", "write"))
    return (others + _write_billed(run, writers)) * LAMBDA_GB


def dollars(run: Run, writers: int) -> dict[str, float]:
    """The run's cost by what is billed, with `writers` Lambdas writing at once."""
    items = sum(run.tasks.values())
    return {
        "Lambda": _lambda_gb_s(run, writers) * LAMBDA_GB_S + items * LAMBDA_REQUEST,
        "Fargate": run.cpu["map"] / 3600 * FARGATE_HOUR,
        "DynamoDB writes": run.units * WRU,
        "S3 work store": run.puts * S3_PUT + run.gets * S3_GET,
        "Step Functions": items * CHILD_TRANSITIONS * TRANSITION,
    }


def _breakdown(runs: list[Run], workers: list[int]) -> list[str]:
    kinds = list(dollars(runs[0], workers[0]))
    lines = ["| run | writers | " + " | ".join(kinds) + " |", "|---|---|" + "---|" * len(kinds)]
    for run in runs:
        for _, writers in _concurrencies(run, workers):
            costs = dollars(run, writers).values()
            lines.append(f"| {run.name} | {writers:,} | " + " | ".join(f"${v:,.2f}" for v in costs) + " |")
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--workers", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--countries", nargs="*", default=[])
    args = parser.parse_args()
    print("\n".join(main(args.workers, args.countries)))
