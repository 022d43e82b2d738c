"""The active snapshot of each country, as readers see it: one Query lists every pointer, cached
per Lambda for a few seconds so requests do not pay for it (a new publication shows up within
that time)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from chalicelib.domain.published import PublishedSnapshot


class ActiveSnapshotReader(Protocol):
    """What use cases need of the pointers: the active snapshot of a country, if any."""

    def get(self, country: str) -> PublishedSnapshot | None: ...


class PointerReader(Protocol):
    def active_snapshots(self) -> dict[str, PublishedSnapshot]: ...


class ActiveSnapshots:
    def __init__(
        self, catalog: PointerReader, ttl_seconds: float, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self._catalog = catalog
        self._ttl = ttl_seconds
        self._monotonic = monotonic
        self._loaded_at: float | None = None
        self._snapshots: dict[str, PublishedSnapshot] = {}

    def all(self) -> dict[str, PublishedSnapshot]:
        now = self._monotonic()
        if self._loaded_at is None or now - self._loaded_at >= self._ttl:
            self._snapshots = self._catalog.active_snapshots()
            self._loaded_at = now
        return self._snapshots

    def get(self, country: str) -> PublishedSnapshot | None:
        return self.all().get(country)
