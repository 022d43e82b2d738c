"""What a country's active-snapshot pointer says, and how its items are spread over partition keys."""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.domain.coverage import Coverage
from chalicelib.domain.ordering import StrataCounts, StrataTotals


@dataclass(frozen=True)
class Layout:
    """How a snapshot's items are spread over partition keys; readers need it to build keys."""

    buckets: int  # pool: ordinal % buckets, and hash(address id) % buckets
    shards: int  # catalog: hash(key) % shards


@dataclass(frozen=True)
class PublishedSnapshot(StrataTotals):
    """What a country's active-snapshot pointer says: read first, cached briefly, by every reader."""

    country: str
    snapshot_id: str
    published_at: str  # ISO 8601 UTC
    strata: StrataCounts  # addresses per stratum
    layout: Layout
    sources: tuple[str, ...]
    coverage: Coverage


@dataclass(frozen=True)
class SnapshotRecord:
    """A country's snapshot as recorded by the sync: what a request pinned to it reads."""

    country: str
    snapshot_id: str
    state: str  # writing, published, retired (replaced, still served pinned), expired (items deleted)
    published: PublishedSnapshot | None  # while it is published or retired
    retired_at: str | None = None  # ISO 8601 UTC: when another snapshot replaced it
    expired_at: str | None = None
