"""What a snapshot costs in storage, measured in one run on DynamoDB Local (in memory).

The source is Iceland's national register (the largest sample: ~117,000 rows), read as published
and as real subsets of it, written to a temporary folder (every row real, none edited):

- A: the register without a seeded 0.5% of its rows; B: without another 0.5%. From A to B, 1% of
  the addresses change (0.5% removed, 0.5% added).
- H: half the register, so the epoch's served share falls below its bound; F: the whole register,
  which then begins a new epoch.

Prints, after each sync, the items and bytes (DynamoDB's item size: names and values) that the
pool and registry tables hold and what the sync added; the DynamoDB reads per seeded generate on
the changed snapshot (current and pinned); and what the sweep deletes once the first epoch's
snapshots are past the retention. A copy per snapshot would add the first sync's pool every time.

    .venv/bin/python -m bench.snapshots [SOURCE ID]    (a GeoJSON-lines source; default IS's register)
"""

from __future__ import annotations

import gzip
import json
import platform
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from chalice.test import Client

from app import app
from bench.harness import RequestCounter, bare_client, bench_auth, bench_dependencies, local_engine
from chalicelib import deps
from chalicelib.config import Settings
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sync_wiring import sync_in_process
from infra.local.env import SHARED_MANIFEST

SOURCE = "is-countrywide-stadfangaskra_2022"
DRAWS = 200


class LaterClock:
    """The real clock moved on by `offset`, so the retention passes within the run."""

    def __init__(self) -> None:
        self.offset = timedelta()

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset


@dataclass(frozen=True)
class Size:
    items: int
    bytes: int

    def __sub__(self, other: Size) -> Size:
        return Size(self.items - other.items, self.bytes - other.bytes)

    def __str__(self) -> str:
        return f"{self.items:>9,} items {self.bytes / 1e6:>8.2f} MB"


def main(source: str = SOURCE) -> list[str]:
    entry = next(e for e in json.loads(SHARED_MANIFEST.read_text()) if e["id"] == source)
    country = entry["country"]
    rows = _rows(SHARED_MANIFEST.parent / entry["files"][0])
    chosen = random.Random(29).sample(range(len(rows)), len(rows) // 100)
    half = len(chosen) // 2
    versions = {
        "A": set(chosen[:half]),
        "B": set(chosen[half:]),
        "H": set(range(0, len(rows), 2)),
        "F": set(),
    }
    clock = LaterClock()
    lines = [
        f"{source}: {len(rows):,} rows; DynamoDB Local (in memory), {platform.machine()}, "
        f"CPython {platform.python_version()}"
    ]
    with tempfile.TemporaryDirectory() as folder, RequestCounter() as counter, local_engine() as engine:
        wired = bench_dependencies(engine)
        wired = deps.build(wired.settings, clock)
        client = bare_client(engine.endpoint)
        manifests = {
            name: _manifest(Path(folder), entry, name, [r for i, r in enumerate(rows) if i not in left])
            for name, left in versions.items()
        }
        before = _sizes(client, wired.settings)

        def step(label: str, name: str) -> SyncReport:
            nonlocal before
            started = time.perf_counter()
            report = _sync(wired, manifests[name])
            seconds = time.perf_counter() - started
            after = _sizes(client, wired.settings)
            outcome = report.countries[country]
            lines.extend(
                [
                    f"{label}: {outcome.status}, {outcome.addresses:,} addresses "
                    f"(kept {outcome.kept:,}, added {outcome.added:,}, removed {outcome.removed:,}), "
                    f"{seconds:.0f} s",
                    f"  pool    holds {after[0]}   added {after[0] - before[0]}",
                    f"  catalog holds {after[1]}   added {after[1] - before[1]}",
                ]
            )
            before = after
            return report

        step("sync A (first: a new epoch)", "A")
        pinned = _active_id(wired, country)
        step("sync A again (no change)", "A")
        step("sync B (1% changed)", "B")
        deps.use(deps.build(wired.settings, clock))
        lines += _reads_per_generate(counter, wired, country, pinned)
        step("sync H (half the register)", "H")
        step("sync F (the whole register: a new epoch)", "F")
        clock.offset = timedelta(days=wired.settings.snapshot_retention_days + 1)
        counter.reset()
        started = time.perf_counter()
        report = _sync(wired, manifests["F"])
        seconds = time.perf_counter() - started
        after = _sizes(client, wired.settings)
        deleted = report.countries[country].items_deleted
        lines += [
            f"sync F again {wired.settings.snapshot_retention_days + 1} days later: the sweep deletes "
            f"{deleted:,} items (A, B and H past the retention: their catalogs and the first epoch) "
            f"in a sync of {seconds:.0f} s, {counter.counts().get('BatchWriteItem', 0)} BatchWriteItem",
            f"  pool    holds {after[0]}   change {after[0] - before[0]}",
            f"  catalog holds {after[1]}   change {after[1] - before[1]}",
        ]
    return lines


def _rows(path: Path) -> list[bytes]:
    with gzip.open(path, "rb") as lines:
        return [line for line in lines if line.strip()]


def _manifest(folder: Path, entry: dict[str, Any], name: str, rows: list[bytes]) -> Path:
    data = folder / f"{name}.geojson.gz"
    with gzip.open(data, "wb") as out:
        out.writelines(rows)
    manifest = folder / f"{name}.json"
    manifest.write_text(json.dumps([{**entry, "files": [str(data)], "records": len(rows)}]))
    return manifest


def _sync(wired: deps.Dependencies, manifest: Path) -> SyncReport:
    report = sync_in_process(wired, SyncTarget(manifest, manifest.parent))
    assert report is not None
    return report


def _active_id(wired: deps.Dependencies, country: str) -> str:
    active = wired.stores.registry.active_snapshot(country)
    assert active is not None
    return active.snapshot_id


def _reads_per_generate(
    counter: RequestCounter, wired: deps.Dependencies, country: str, pinned: str
) -> list[str]:
    """DynamoDB reads per seeded generate, warm: on the changed snapshot (two generations, 0.5% of
    its slots no longer served) and pinned on the first."""
    auth = bench_auth(wired, "generate")
    client = Client(app)
    found = []
    for label, extra in (("current (B)", ""), ("pinned (A)", f"&snapshot={pinned}")):
        client.http.get(f"/api/v1/generate?country={country}&seed=warm{extra}", headers=auth)
        counter.reset()
        for n in range(DRAWS):
            answer = client.http.get(f"/api/v1/generate?country={country}&seed=r{n}{extra}", headers=auth)
            assert answer.status_code == 200, answer.body
        calls = counter.counts()
        reads = {k: v / DRAWS for k, v in sorted(calls.items()) if k != "UpdateItem"}
        shown = ", ".join(f"{k} {v:.3f}" for k, v in reads.items())
        found.append(
            f"  generate {label}: per request {shown} (and UpdateItem {calls['UpdateItem'] / DRAWS:.0f})"
        )
    return found


def _sizes(client: Any, settings: Settings) -> tuple[Size, Size]:
    return _size(client, settings.pool_table), _size(client, settings.catalog_table)


def _size(client: Any, table: str) -> Size:
    items = size = 0
    for page in client.get_paginator("scan").paginate(TableName=table):
        for item in page["Items"]:
            items += 1
            size += sum(len(name.encode()) + _value_bytes(value) for name, value in item.items())
    return Size(items, size)


def _value_bytes(value: dict[str, Any]) -> int:
    """DynamoDB's item size rules, near enough: strings by UTF-8, numbers ~1 byte per 2 digits,
    binary by length, sets by their members."""
    ((kind, data),) = value.items()
    if kind == "S":
        return len(data.encode())
    if kind == "N":
        return len(data) // 2 + 1
    if kind == "B":
        return len(data)
    if kind in ("SS", "NS"):
        return sum(len(member.encode()) for member in data)
    return len(json.dumps(data))


if __name__ == "__main__":
    print("\n".join(main(*sys.argv[1:2])))
