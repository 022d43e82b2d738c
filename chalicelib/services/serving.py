"""The active snapshot of each country, as readers see it: one Query lists every pointer, cached
per Lambda for a few seconds so requests do not pay for it (a new publication shows up within
that time). And a snapshot a request pins, while it is kept."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from chalicelib.clock import Clock
from chalicelib.domain.published import PublishedSnapshot, SnapshotRecord
from chalicelib.errors import SnapshotExpired


class ActiveSnapshotReader(Protocol):
    """What use cases need of the pointers: the active snapshot of a country, if any."""

    def get(self, country: str) -> PublishedSnapshot | None: ...


class PointerReader(Protocol):
    def active_snapshots(self) -> dict[str, PublishedSnapshot]: ...


class ActiveSnapshots:
    def __init__(
        self, registry: PointerReader, ttl_seconds: float, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self._registry = registry
        self._ttl = ttl_seconds
        self._monotonic = monotonic
        self._loaded_at: float | None = None
        self._snapshots: dict[str, PublishedSnapshot] = {}

    def all(self) -> dict[str, PublishedSnapshot]:
        now = self._monotonic()
        if self._loaded_at is None or now - self._loaded_at >= self._ttl:
            self._snapshots = self._registry.active_snapshots()
            self._loaded_at = now
        return self._snapshots

    def get(self, country: str) -> PublishedSnapshot | None:
        return self.all().get(country)


class SnapshotRecordReader(Protocol):
    def snapshot_record(self, country: str, snapshot_id: str) -> SnapshotRecord | None: ...


@dataclass(frozen=True)
class Served:
    """The snapshot a request reads; when pinned, the earliest it may expire."""

    snapshot: PublishedSnapshot
    pinned_until: datetime | None = None


class PinnedSnapshots:
    """Snapshots a request names (`snapshot=`): the active one, or one replaced less than the
    retention ago, whose items the sweep keeps until then. Records are cached like the pointers;
    whether one has expired is decided by the clock, so a pin stops working on time whatever the
    sweep has done yet."""

    MAX_CACHED = 256

    def __init__(
        self,
        active: ActiveSnapshotReader,
        records: SnapshotRecordReader,
        clock: Clock,
        retention: timedelta,
        ttl_seconds: float,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._active, self._records, self._clock = active, records, clock
        self.retention = retention
        self._ttl, self._monotonic = ttl_seconds, monotonic
        self._cached: dict[tuple[str, str], tuple[float, SnapshotRecord | None]] = {}

    def pinned(self, country: str, snapshot_id: str) -> Served:
        now = self._clock.now()
        current = self._active.get(country)
        if current is not None and current.snapshot_id == snapshot_id:
            return Served(current, now + self.retention)
        record = self._record(country, snapshot_id)
        if record is None or record.state == "writing":
            raise SnapshotExpired(f"no snapshot {snapshot_id} was published for {country}")
        if record.published is None or record.state == "expired":
            raise SnapshotExpired(f"snapshot {snapshot_id} of {country} expired on {record.expired_at}")
        if record.retired_at is None:  # replaced within the pointers' cache time
            return Served(record.published, now + self.retention)
        until = datetime.fromisoformat(record.retired_at) + self.retention
        if until <= now:
            raise SnapshotExpired(f"snapshot {snapshot_id} of {country} expired on {until.isoformat()}")
        return Served(record.published, until)

    def _record(self, country: str, snapshot_id: str) -> SnapshotRecord | None:
        key, at = (country, snapshot_id), self._monotonic()
        cached = self._cached.get(key)
        if cached is None or at - cached[0] >= self._ttl:
            if len(self._cached) >= self.MAX_CACHED:
                self._cached.clear()
            cached = self._cached[key] = (at, self._records.snapshot_record(country, snapshot_id))
        return cached[1]
