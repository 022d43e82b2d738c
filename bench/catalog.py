"""Location search and hierarchy: latency and DynamoDB requests per page, measured in one run.

Syncs shared/sources (or the countries named; default JP, the largest catalog) into an in-memory
DynamoDB Local, then through the Chalice app in-process, for pages of the country's largest
directory: p50/p99 and DynamoDB requests per page with warm caches (the steady state of a Lambda)
and with cold caches (a fresh Lambda: pointer, parent and directory reads), each beside the p50 of
one bare GetItem of a directory block on the same engine, as ratios.

    .venv/bin/python -m bench.catalog [CC ...]
"""

from __future__ import annotations

import json
import platform
import sys
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from chalice.test import Client

from app import app
from bench.harness import (
    RequestCounter,
    Timing,
    bare_client,
    bench_auth,
    bench_dependencies,
    local_engine,
    measure,
    sync_samples,
)
from chalicelib import deps
from chalicelib.domain.directories import COUNTRY_SCOPE, Entry, matching
from chalicelib.domain.locations import LocationType
from chalicelib.domain.published import Layout, PublishedSnapshot
from chalicelib.services.catalog.directory_cache import CachedDirectories
from chalicelib.services.generation.catalog_cache import CachedCatalog
from chalicelib.services.serving import ActiveSnapshots

RUNS = 200
DEFAULT_COUNTRIES = ["US"]
SCALES = (1_000, 10_000, 100_000, 1_000_000)


def main(countries: list[str], runs: int = RUNS, scales: tuple[int, ...] = SCALES) -> list[str]:
    with RequestCounter() as counter, local_engine() as engine:
        wired = bench_dependencies(engine, snapshot_cache_seconds=300, cursor_secret="b" * 32)
        sync_samples(wired, countries or DEFAULT_COUNTRIES)
        deps.use(wired)
        country = max(wired.stores.registry.active_snapshots().values(), key=lambda s: s.count)
        kind, size = _largest_directory(wired, country)
        client = Client(app)
        auth = bench_auth(wired, "read")
        pages = _pages(client, auth, country, kind)
        warm = {name: measure(name, action, runs) for name, action in pages.items()}
        warm_requests = _requests(counter, pages)
        cold_pages = {name: _cold(wired, action) for name, action in pages.items()}
        cold = {
            name: measure(name, action, max(runs // 4, 5), warmup=2) for name, action in cold_pages.items()
        }
        cold_requests = _requests(counter, cold_pages)
        bare = _bare_get(
            bare_client(engine.endpoint), wired.settings.catalog_table, wired, country, kind, runs
        )
        scaling = _scaling(wired, counter, scales)
    deps.use(None)
    header = (
        f"location listings, {country.country} ({country.count} addresses), pages of the country's "
        f"{kind.value} directory ({size} entries), DynamoDB Local in memory, "
        f"{platform.machine()} CPython {platform.python_version()}"
    )
    tables = [*_table("warm", warm, warm_requests, bare), *_table("cold", cold, cold_requests, bare)]
    return [header, *tables, *scaling]


def _scaling(wired: deps.Dependencies, counter: RequestCounter, scales: tuple[int, ...]) -> list[str]:
    """A whole directory as its size grows (synthetic entries, in benchmark-only tables): what a
    cold Lambda's first page reads, and what a new q costs once the directory is cached."""
    store = wired.stores.registry
    layout = Layout(buckets=1, shards=64)
    kind = LocationType.POSTCODE
    lines = [
        f"{'directory entries':>18} {'cold read ms':>13} {'new q warm ms':>14}  DynamoDB requests to read it"
    ]
    for size in scales:
        entries = [Entry.of(kind, f"pos-{n:09d}", f"{n:09d}", 1, 0) for n in range(size)]
        snapshot_id = f"bench-{size}"
        store.put_directories(snapshot_id, layout, {(COUNTRY_SCOPE, kind): entries})
        counter.reset()
        read = partial(store.get_directory, snapshot_id, layout, COUNTRY_SCOPE, kind)
        cold = measure("read", read, 3, 0)
        requests = {name: calls // 3 for name, calls in counter.calls.items()}
        q = measure("q", partial(matching, entries, kind, "123", residential=False), 3, 0)
        lines.append(f"{size:>18} {cold.p50:13.1f} {q.p50:14.1f}  {requests}")
    return lines


def _largest_directory(wired: deps.Dependencies, country: PublishedSnapshot) -> tuple[LocationType, int]:
    sizes = {
        kind: len(
            wired.stores.registry.get_directory(country.snapshot_id, country.layout, COUNTRY_SCOPE, kind)
        )
        for kind in LocationType
    }
    kind = max(sizes, key=lambda k: sizes[k])
    return kind, sizes[kind]


def _pages(
    client: Client, auth: dict[str, str], country: PublishedSnapshot, kind: LocationType
) -> dict[str, Callable[[], object]]:
    first = f"/api/v1/locations/search?country={country.country}&field={kind.value}&limit=100"
    body = json.loads(client.http.get(first, headers=auth).body)["data"]
    cursor = body["nextCursor"]
    items = next(v for v in body.values() if isinstance(v, list))
    q = items[len(items) // 2]["value"][:2]  # a prefix that also occurs inside other names
    hierarchy = f"/api/v1/locations/hierarchy?country={country.country}&childType=region&limit=100"

    def get(path: str) -> Callable[[], object]:
        def request() -> object:
            response = client.http.get(path, headers=auth)
            assert response.status_code == 200, response.body
            return response

        return request

    pages = {"search p1": get(first), "search q": get(f"{first}&q={q}"), "hierarchy": get(hierarchy)}
    if cursor:
        pages["search p2"] = get(f"{first}&cursor={cursor}")
    return pages


def _cold(wired: deps.Dependencies, action: Callable[[], object]) -> Callable[[], object]:
    """The same request as a fresh Lambda makes it: empty pointer, location and directory caches."""

    def fresh() -> object:
        deps.use(
            replace(
                wired,
                snapshots=ActiveSnapshots(wired.stores.registry, 300),
                location_cache=CachedCatalog(wired.stores.registry),
                directories=CachedDirectories(wired.stores.registry),
            )
        )
        try:
            return action()
        finally:
            deps.use(wired)

    return fresh


def _requests(counter: RequestCounter, pages: dict[str, Callable[[], object]]) -> dict[str, dict[str, int]]:
    counts = {}
    for name, action in pages.items():
        action()  # warm whatever the previous page left cold
        counter.reset()
        action()
        counts[name] = counter.counts()
    return counts


def _bare_get(
    client: Any,
    table: str,
    wired: deps.Dependencies,
    country: PublishedSnapshot,
    kind: LocationType,
    runs: int,
) -> Timing:
    """One GetItem of the directory's first block, the floor of a cold page."""
    store = wired.stores.registry
    key = store.directory_block_key(country.snapshot_id, country.layout, COUNTRY_SCOPE, kind, 0)
    return measure("GetItem", lambda: client.get_item(TableName=table, Key=key), runs)


def _table(
    label: str, timings: dict[str, Timing], requests: dict[str, dict[str, int]], bare: Timing
) -> list[str]:
    head = f"{label + ' caches':16} {'p50 ms':>8} {'p99 ms':>8} {'vs GetItem p50':>15}"
    lines = [f"{head}  DynamoDB requests per page"]
    for name, t in timings.items():
        lines.append(f"{name:16} {t.p50:8.2f} {t.p99:8.2f} {t.p50 / bare.p50:14.2f}x  {requests[name]}")
    lines.append(f"{'bare GetItem':16} {bare.p50:8.2f} {bare.p99:8.2f}")
    return lines


if __name__ == "__main__":
    print("\n".join(main([c.upper() for c in sys.argv[1:]])))
