"""Sync throughput beside the bare writes it cannot avoid.

One run against an in-memory DynamoDB Local: a full sync of shared/sources (or some countries), then
bare BatchWriteItem loops writing the same number of items of the same size, on one thread and on
as many threads as the sync's writers. Prints addresses per second, the ratio of the sync's write
rate to the bare loops', DynamoDB write requests and items per published address, and the text
index's share: the time its writing takes and its items and bytes per address.

    .venv/bin/python -m bench.sync [CC ...]
"""

from __future__ import annotations

import platform
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bench.harness import RequestCounter, bare_client, bench_dependencies, local_engine, sync_samples
from chalicelib import deps
from chalicelib.domain.codecs import address_to_doc, dumps
from chalicelib.services.sync.report import SilentProgress, SyncReport

WRITERS = 8
BATCH = 25


class PhaseClock(SilentProgress):
    """Notes when the sync stops reading sources and starts writing, and how long the text index
    takes to build and write (from its stage to the next)."""

    def __init__(self) -> None:
        self.first_write: float | None = None
        self.indexing = 0.0
        self._index_started: float | None = None

    def country_stage(self, country: str, stage: str) -> None:
        now = time.perf_counter()
        if self._index_started is not None:
            self.indexing += now - self._index_started
            self._index_started = None
        if stage == "writing the text index":
            self._index_started = now
        if stage.startswith("writing") and self.first_write is None:
            self.first_write = now


def main(countries: list[str]) -> list[str]:
    with RequestCounter() as counter, local_engine() as engine:
        wired = bench_dependencies(engine)
        counter.reset()
        phases = PhaseClock()
        started = time.perf_counter()
        report = sync_samples(wired, countries, phases)
        total = time.perf_counter() - started
        calls = counter.counts()
        items = sum(o.items_written for o in report.countries.values())
        doc = _sample_doc(wired, report)
        index = _index_size(bare_client(engine.endpoint), wired)
        bare = bare_client(engine.endpoint)
        one = _bare_rate(bare, wired.settings.pool_table, items, doc, threads=1)
        many = _bare_rate(bare, wired.settings.pool_table, items, doc, threads=WRITERS)
    lines = _report(report, total, (phases.first_write or started) - started, calls, items, one, many)
    return [*lines, *_index_lines(report, phases.indexing, total, index)]


def _index_size(client: Any, wired: deps.Dependencies) -> tuple[int, int]:
    """The text index's items and bytes (key and document), read back by its partitions."""
    items = size = 0
    paginator = client.get_paginator("query")
    for snapshot in wired.stores.registry.active_snapshots().values():
        for bucket in range(snapshot.layout.buckets):
            pages = paginator.paginate(
                TableName=wired.settings.pool_table,
                KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues={":pk": {"S": f"Q#{snapshot.placement.epoch}#{bucket}"}},
            )
            for page in pages:
                for item in page["Items"]:
                    items += 1
                    size += sum(len(item[k]["S"].encode()) for k in ("pk", "sk", "doc"))
    return items, size


def _index_lines(report: SyncReport, indexing: float, total: float, index: tuple[int, int]) -> list[str]:
    published = sum(o.addresses for o in report.countries.values())
    items, size = index
    return [
        f"text index                     {indexing:.1f} s of the sync's {total:.1f} "
        f"({indexing / total:.0%}), {items} items ({items / published:.2f} per address), "
        f"{size / published:.0f} bytes per address",
    ]


def _sample_doc(wired: deps.Dependencies, report: SyncReport) -> str:
    """A real stored address document, so bare items weigh what the sync's do."""
    country = max(report.countries.values(), key=lambda o: o.addresses).country
    active = wired.stores.registry.active_snapshot(country)
    assert active is not None
    address = wired.stores.pool.get_by_ordinal(active.placement, 0)
    assert address is not None
    return dumps(address_to_doc(address))


def _bare_rate(client: Any, table: str, items: int, doc: str, *, threads: int) -> float:
    def write(start: int) -> None:
        for first in range(start * BATCH, items, BATCH * threads):
            requests = [
                {
                    "PutRequest": {
                        "Item": {
                            "pk": {"S": f"BARE#{threads}#{i % 97}"},
                            "sk": {"S": str(i)},
                            "doc": {"S": doc},
                        }
                    }
                }
                for i in range(first, min(first + BATCH, items))
            ]
            pending = {table: requests}
            while pending:
                pending = client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=threads) as pool:
        list(pool.map(write, range(threads)))
    return items / (time.perf_counter() - started)


def _report(
    report: SyncReport,
    total: float,
    reading: float,
    calls: dict[str, int],
    items: int,
    one: float,
    many: float,
) -> list[str]:
    published = sum(o.addresses for o in report.countries.values())
    writing = total - reading
    sync_rate = items / writing if writing else 0.0
    return [
        f"sync of {len(report.countries)} countries into DynamoDB Local (in memory), {platform.machine()}, "
        f"CPython {platform.python_version()}, {WRITERS} writers",
        f"published addresses            {published}",
        f"items written                  {items}  ({items / published:.2f} per address)",
        f"BatchWriteItem requests        {calls.get('BatchWriteItem', 0)}  "
        f"({calls.get('BatchWriteItem', 0) / published:.3f} per address)",
        f"sync total                     {total:.1f} s  = {published / total:.0f} addresses/s",
        f"  reading, validating, building {reading:.1f} s",
        f"  writing and publishing        {writing:.1f} s  = {sync_rate:.0f} items/s",
        f"bare BatchWriteItem, 1 thread  {one:.0f} items/s  -> sync/bare {sync_rate / one:.2f}",
        f"bare BatchWriteItem, {WRITERS} threads {many:.0f} items/s  -> sync/bare {sync_rate / many:.2f}",
    ]


if __name__ == "__main__":
    print("\n".join(main([c.upper() for c in sys.argv[1:]])))
