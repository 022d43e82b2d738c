"""What a country's active-snapshot pointer says, and how its items are spread over partition keys."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from chalicelib.domain.coverage import Coverage
from chalicelib.domain.epochs import Epoch
from chalicelib.domain.ordering import Range, Span, StrataCounts, StrataTotals, strata_counts
from chalicelib.domain.text_search import MARKS_VERSION


@dataclass(frozen=True)
class Layout:
    """How a snapshot's items are spread over partition keys; readers need it to build keys."""

    buckets: int  # pool: ordinal % buckets, and hash(address id) % buckets
    shards: int  # catalog: hash(key) % shards


# A segment as stored: its generation, start and the four strata's slots.
SegmentRow = tuple[str, int, int, int, int, int]


@dataclass(frozen=True)
class Segment:
    """The slots one generation appended to its epoch: its new addresses, in the snapshot order."""

    generation: str
    start: int
    strata: StrataCounts  # slots per stratum, one block after another from `start`

    @property
    def end(self) -> int:
        return self.start + sum(self.strata)

    def encoded(self) -> SegmentRow:
        """How plans and pointers store a segment: the generation, its start, its four strata."""
        return (self.generation, self.start, *self.strata)

    @classmethod
    def decoded(cls, row: Sequence[Any]) -> Segment:
        generation, start, *strata = row
        return cls(str(generation), int(start), strata_counts(strata))

    def blocks(self) -> list[Range]:
        """Each stratum's slots."""
        found, start = [], self.start
        for size in self.strata:
            found.append(Range(start, start + size))
            start += size
        return found


@dataclass(frozen=True)
class Placement:
    """Where a snapshot's addresses are stored: slots of its epoch, appended by each generation of
    its lineage (oldest first). An item is shared by every snapshot of the epoch that holds it; one
    a generation removed is tagged with that generation (`died`), so a snapshot skips it exactly
    when the tag is in its lineage."""

    epoch: str
    buckets: int  # the pool's partitions per kind, fixed when the epoch begins
    segments: tuple[Segment, ...]
    # The lowest share of served slots in a location's span (per stratum, spans of SPARSE_SLOTS
    # slots or more): what a draw there hits at worst; a sync begins a new epoch below a bound.
    min_share: float = 1.0
    # False for a snapshot of format 4, a whole copy with no ledger: the next sync begins an epoch.
    appendable: bool = True
    # The marks its text index holds (text_search.MARKS_VERSION; 0: none, published before them).
    marks: int = MARKS_VERSION

    @property
    def generation(self) -> str:
        return self.segments[-1].generation

    @property
    def in_epoch(self) -> Epoch:
        return Epoch(self.epoch, self.buckets)

    @property
    def lineage(self) -> frozenset[str]:
        return frozenset(s.generation for s in self.segments)

    @property
    def slots(self) -> int:
        return sum(sum(s.strata) for s in self.segments)

    def serves(self, born: str, died: Iterable[str]) -> bool:
        """Whether the snapshot serves an item appended by `born` and removed by the `died` tags."""
        return born in self.lineage and self.lineage.isdisjoint(died)

    def country_span(self, live: StrataCounts) -> Span:
        """The whole country: each stratum's slots over the segments."""
        blocks = [s.blocks() for s in self.segments]
        ranges = [tuple(b[stratum] for b in blocks if b[stratum].size) for stratum in range(4)]
        return Span((ranges[0], ranges[1], ranges[2], ranges[3]), live)


SPARSE_SLOTS = 100  # a smaller span is read whole when its draws keep missing (draws.py)


def min_share(spans: Iterable[Span]) -> float:
    """The lowest share of served slots among these spans' strata of SPARSE_SLOTS slots or more."""
    shares = [
        live / slots
        for span in spans
        for live, ranges in zip(span.live, span.ranges, strict=True)
        if (slots := sum(r.size for r in ranges)) >= SPARSE_SLOTS
    ]
    return min(shares, default=1.0)


def first_placement(generation: str, buckets: int, strata: StrataCounts) -> Placement:
    """A new epoch: its first generation's addresses at slots 0..n-1, in the snapshot order."""
    return Placement(generation, buckets, (Segment(generation, 0, strata),))


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
    placement: Placement
    content: str  # the content's id (digests.content_id): the snapshot id, or an earlier link of its chain
    # Addresses per mark of its index (`~trait:unit`, `~licence:attribution`): what /countries counts.
    marked: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SnapshotClaim:
    """A sync's claim on a snapshot id before it writes anything under it."""

    country: str
    snapshot_id: str
    generation: str  # the sync's generation: a rerun of it may claim its own id again
    layout: Layout
    epoch: str
    started_at: str  # ISO 8601 UTC


@dataclass(frozen=True)
class SnapshotRecord:
    """A country's snapshot as recorded by the sync: what a request pinned to it reads."""

    country: str
    snapshot_id: str
    state: str  # writing, published, retired (replaced, still served pinned), expired (items deleted)
    published: PublishedSnapshot | None  # while it is published or retired
    retired_at: str | None = None  # ISO 8601 UTC: when another snapshot replaced it
    expired_at: str | None = None
    generation: str | None = None  # while writing: the generation of the sync writing it
    layout: Layout | None = None  # how its items are keyed; None only in a record older than layouts
    epoch: str = ""  # the pool epoch it uses: a snapshot of format 4 kept a copy of its own, named as it
    started_at: str | None = None  # while writing: when its sync began writing it
