"""What the sync does around a country's items: its published record, the pointer write that
publishes it (retiring the snapshot it replaces), and the sweep of expired snapshots."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta

from chalicelib.clock import Clock
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.epochs import Epoch
from chalicelib.domain.ordering import StrataCounts
from chalicelib.domain.published import Layout, Placement, PublishedSnapshot, SnapshotRecord
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.coverage import compute_coverage
from chalicelib.services.sync.ports import LayoutPolicy, PoolWriter, RegistryWriter

# A snapshot still being written after this long belongs to a sync that died: safe to remove.
STALE_WRITE = timedelta(hours=6)


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
    placement: Placement,
    content: str,
    catalog_shards: int = 0,
    marked: Mapping[str, int] | None = None,
) -> PublishedSnapshot:
    total = sum(strata)
    shards = catalog_shards or layout_for(total, locations).shards
    return PublishedSnapshot(
        country=country,
        snapshot_id=snapshot_id,
        published_at=published_at,
        strata=strata,
        layout=Layout(buckets=placement.buckets, shards=shards),
        sources=tuple(sorted(set(sources))),
        coverage=compute_coverage(country, total, per_region_code, config.countries[country].coverage),
        placement=placement,
        content=content,
        marked=dict(marked or {}),
    )


def still_kept(record: SnapshotRecord, retention: timedelta, now: datetime) -> bool:
    """Whether requests may still use the snapshot: published, or retired within the retention
    (by the clock, whatever the sweep has done yet)."""
    if record.state == "published":
        return True
    retired = record.retired_at
    return (
        record.state == "retired"
        and retired is not None
        and now - datetime.fromisoformat(retired) < retention
    )


def publish_snapshot(
    registry: RegistryWriter, published: PublishedSnapshot, active: PublishedSnapshot | None, clock: Clock
) -> str:
    """Point the country at `published` (its items all written) with one conditional write;
    'unchanged' when it is the active snapshot already."""
    if active and active.snapshot_id == published.snapshot_id:
        if active.coverage != published.coverage:  # targets changed: same content, new verdicts
            registry.publish(_same_place(published, active), expected_previous=active.snapshot_id)
        record = registry.snapshot_record(active.country, active.snapshot_id)
        if record is None or record.state != "published":  # a run stopped between the two writes
            registry.record_published(active, clock.now().isoformat())
        return "unchanged"
    registry.publish(published, expected_previous=active.snapshot_id if active else None)
    now = clock.now().isoformat()
    registry.record_published(published, now)
    if active:
        registry.retire_snapshot(active.country, active.snapshot_id, now)
    return "published"


def _same_place(fresh: PublishedSnapshot, active: PublishedSnapshot) -> PublishedSnapshot:
    """The active snapshot with new coverage verdicts; its items and layout stay as written."""
    return replace(active, coverage=fresh.coverage)


def sweep(
    country: str, keep: str, pool: PoolWriter, registry: RegistryWriter, clock: Clock, retention: timedelta
) -> int:
    """Delete what requests may no longer use: the catalogs of the country's snapshots replaced
    more than `retention` ago (their record stays, `expired`, so a pin on one learns so) and of
    writes abandoned by a sync that died (only once stale, so a concurrent sync's snapshot in
    progress is left alone; never published, they are forgotten); then every epoch of the pool
    no kept snapshot and no write in progress uses."""
    deleted = 0
    now = clock.now()
    used: set[str] = set()
    for record in registry.snapshot_records(country):
        snapshot_id, state = record.snapshot_id, record.state
        if state == "expired":
            continue
        if snapshot_id == keep or _in_progress(record, now) or not _expired(record, retention, now):
            if state != "writing" and record.retired_at is None and snapshot_id != keep:
                # replaced before retirement was recorded: its time starts now
                registry.retire_snapshot(country, snapshot_id, now.isoformat())
            used.add(record.epoch)
            continue
        if record.layout is None:
            raise ValueError(f"snapshot record without a layout: {record}")
        deleted += registry.delete_snapshot_catalog(snapshot_id, record.layout)
        if record.epoch == snapshot_id:  # format 4: the snapshot's own copy
            deleted += pool.delete_epoch(Epoch(snapshot_id, record.layout.buckets))
        if state == "writing":
            registry.forget_snapshot(country, snapshot_id)
        else:
            registry.expire_snapshot(country, snapshot_id, now.isoformat())
    for name, begun in registry.list_epochs(country).items():
        if name in used or now - datetime.fromisoformat(begun.began_at) < STALE_WRITE:
            continue
        deleted += pool.delete_epoch(begun.epoch)
        registry.forget_epoch(country, name)
    return deleted


def _expired(record: SnapshotRecord, retention: timedelta, now: datetime) -> bool:
    """Whether requests may no longer use it: an abandoned write, or retired past the retention."""
    if record.state == "writing":
        return True
    retired_at = record.retired_at
    return retired_at is not None and now - datetime.fromisoformat(retired_at) >= retention


def _in_progress(record: SnapshotRecord, now: datetime) -> bool:
    if record.state != "writing" or record.started_at is None:
        return False
    return now - datetime.fromisoformat(record.started_at) < STALE_WRITE
