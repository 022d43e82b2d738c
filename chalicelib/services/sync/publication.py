"""What every build does around a country's items: its published record, the pointer write that
publishes it, and the sweep of superseded snapshots. Shared by the in-process sync and the sharded
steps, so both publish the same way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from chalicelib.clock import Clock
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.directories import DirectoryKey, Entry
from chalicelib.domain.snapshots import Layout, Location, PublishedSnapshot, StrataCounts
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.coverage import compute_coverage
from chalicelib.services.sync.report import SyncProgress

# A snapshot still being written after this long belongs to a sync that died: safe to remove.
STALE_WRITE = timedelta(hours=6)


class PoolWriter(Protocol):
    def put_addresses(
        self, snapshot_id: str, layout: Layout, addresses: Sequence[PublishedAddress], first_ordinal: int = 0
    ) -> int: ...
    def put_text_index(
        self, snapshot_id: str, layout: Layout, postings: Mapping[str, Sequence[int]]
    ) -> int: ...
    def delete_snapshot(self, snapshot_id: str, layout: Layout) -> int: ...


class CatalogWriter(Protocol):
    def put_locations(self, snapshot_id: str, layout: Layout, locations: list[Location]) -> int: ...
    def put_directories(
        self, snapshot_id: str, layout: Layout, directories: dict[DirectoryKey, list[Entry]]
    ) -> int: ...
    def delete_snapshot_catalog(self, snapshot_id: str, layout: Layout) -> int: ...
    def record_snapshot(
        self, country: str, snapshot_id: str, state: str, details: dict[str, object]
    ) -> None: ...
    def list_snapshots(self, country: str) -> list[tuple[str, dict[str, object]]]: ...
    def forget_snapshot(self, country: str, snapshot_id: str) -> None: ...
    def publish(self, snapshot: PublishedSnapshot, expected_previous: str | None) -> None: ...
    def active_snapshot(self, country: str) -> PublishedSnapshot | None: ...
    def save_sync_report(self, report: dict[str, object]) -> None: ...
    def latest_sync_report(self) -> dict[str, object] | None: ...


class LayoutPolicy(Protocol):
    def __call__(self, addresses: int, locations: int) -> Layout: ...


def incomplete_counts(addresses: Iterable[PublishedAddress]) -> Counter[str]:
    """Per component, how many addresses lack it or carry one the country's rules reject."""
    return Counter(f for a in addresses for f in (*a.completeness.missing, *a.completeness.invalid))


def published_snapshot(
    country: str,
    snapshot_id: str,
    strata: StrataCounts,
    *,
    sources: Iterable[str],
    per_region_code: Mapping[str, int],
    locations: int,
    config: PoolConfig,
    published_at: str,
    layout_for: LayoutPolicy,
) -> PublishedSnapshot:
    total = sum(strata)
    return PublishedSnapshot(
        country=country,
        snapshot_id=snapshot_id,
        published_at=published_at,
        strata=strata,
        layout=layout_for(total, locations),
        sources=tuple(sorted(set(sources))),
        coverage=compute_coverage(country, total, per_region_code, config.countries[country].coverage),
    )


def record_writing(catalog: CatalogWriter, published: PublishedSnapshot) -> None:
    """Before the first item: the sweep leaves a snapshot in progress alone until it is stale."""
    layout = published.layout
    catalog.record_snapshot(
        published.country,
        published.snapshot_id,
        "writing",
        {"layout": [layout.buckets, layout.shards], "startedAt": published.published_at},
    )


def publish_snapshot(
    catalog: CatalogWriter, published: PublishedSnapshot, active: PublishedSnapshot | None, clock: Clock
) -> str:
    """Point the country at `published` (its items all written) with one conditional write;
    'unchanged' when it is the active snapshot already."""
    if active and active.snapshot_id == published.snapshot_id:
        if active.coverage != published.coverage:  # targets changed: same content, new verdicts
            catalog.publish(_same_place(published, active), expected_previous=active.snapshot_id)
        return "unchanged"
    catalog.publish(published, expected_previous=active.snapshot_id if active else None)
    catalog.record_snapshot(published.country, published.snapshot_id, "published", _details(published, clock))
    return "published"


def _same_place(fresh: PublishedSnapshot, active: PublishedSnapshot) -> PublishedSnapshot:
    """The active snapshot with new coverage verdicts; its items and layout stay as written."""
    return PublishedSnapshot(
        country=active.country,
        snapshot_id=active.snapshot_id,
        published_at=active.published_at,
        strata=active.strata,
        layout=active.layout,
        sources=active.sources,
        coverage=fresh.coverage,
    )


def _details(published: PublishedSnapshot, clock: Clock) -> dict[str, object]:
    layout = published.layout
    return {
        "layout": [layout.buckets, layout.shards],
        "count": published.count,
        "publishedAt": published.published_at,
        "recordedAt": clock.now().isoformat(),
    }


def sweep(
    country: str, keep: str, pool: PoolWriter, catalog: CatalogWriter, clock: Clock, progress: SyncProgress
) -> int:
    """Delete every other snapshot of the country: superseded ones, and writes abandoned by a sync
    that died (only once stale, so a concurrent sync's snapshot in progress is left alone)."""
    deleted = 0
    for snapshot_id, details in catalog.list_snapshots(country):
        if snapshot_id == keep or _in_progress(details, clock):
            continue
        progress.country_stage(country, f"removing snapshot {snapshot_id}")
        layout = _layout_of(details)
        deleted += pool.delete_snapshot(snapshot_id, layout) + catalog.delete_snapshot_catalog(
            snapshot_id, layout
        )
        catalog.forget_snapshot(country, snapshot_id)
    return deleted


def _layout_of(details: dict[str, object]) -> Layout:
    raw = details.get("layout")
    if not isinstance(raw, list) or len(raw) != 2:
        raise ValueError(f"snapshot record without a layout: {details}")
    return Layout(buckets=int(raw[0]), shards=int(raw[1]))


def _in_progress(details: dict[str, object], clock: Clock) -> bool:
    if details.get("state") != "writing":
        return False
    started = datetime.fromisoformat(str(details.get("startedAt")))
    return clock.now() - started < STALE_WRITE
