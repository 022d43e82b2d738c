"""Rows offered in read order become a pool's survivors, with every decision tallied per source:
the same code for a whole in-process sync and for one cell of a sharded build."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.services.sync.dedupe import Deduplicator, Kept, MergeReason, Seq, TextClaim, text_claim
from chalicelib.services.sync.report import SourceTally


@dataclass(frozen=True)
class Row:
    """A published candidate and what deduplication needs to know of where it came from."""

    seq: Seq
    family: str
    source_country: str  # the manifest's country of its source: whose tally it counts in
    address: PublishedAddress
    removed: tuple[str, ...] = ()  # fields the row's own values lost in validation
    osm_object: str | None = None
    precision_meters: float = 0.0


class Tallies:
    """Per source family; partial tallies of cells add up to a whole sync's (negative kept allowed)."""

    def __init__(self) -> None:
        self.sources: dict[str, SourceTally] = {}

    def tally(self, family: str, country: str = "") -> SourceTally:
        tally = self.sources.setdefault(family, SourceTally(country=country))
        tally.country = tally.country or country
        return tally

    def add(self, other: Tallies) -> None:
        for family, part in other.sources.items():
            tally = self.tally(family, part.country)
            tally.read += part.read
            tally.kept += part.kept
            tally.dropped.update(part.dropped)
            tally.removed_fields.update(part.removed_fields)


class Survival:
    """Which offered rows survive into the pool (the dedupe's two rounds), each decision tallied.
    `is_repeat_object(row)`: whether an earlier row already read the row's OSM object."""

    def __init__(
        self, supersedes: dict[str, frozenset[str]], tallies: Tallies, is_repeat_object: Callable[[Row], bool]
    ) -> None:
        self._dedupe = Deduplicator(supersedes=supersedes)
        self._tallies = tallies
        self._is_repeat_object = is_repeat_object
        self._removals: dict[str, tuple[str, ...]] = {}

    def offer(self, row: Row) -> None:
        tally = self._tallies.tally(row.family, row.source_country)
        if row.osm_object is not None and self._is_repeat_object(row):
            tally.dropped[MergeReason.SAME_OSM_OBJECT.value] += 1
            return
        decision = self._dedupe.offer(
            row.address, row.family, seq=row.seq, precision_meters=row.precision_meters
        )
        if decision.reason is not None and decision.replaces is None:
            tally.dropped[decision.reason.value] += 1
            return
        if decision.replaces is not None and decision.reason is not None:
            self._leave(decision.replaces, decision.reason)
        if row.removed:
            self._removals[row.address.id] = row.removed
        tally.removed_fields.update(self._removals.get(row.address.id, ()))
        tally.kept += 1

    def survivors(self) -> list[Kept]:
        return self._dedupe.survivors()

    def text_claims(self) -> list[TextClaim]:
        return [claim for kept in self.survivors() if (claim := text_claim(kept)) is not None]

    def drop_same_texts(self, losers: set[Seq]) -> list[Kept]:
        """The survivors left once the second round's losers are dropped."""
        remaining = []
        for kept in self.survivors():
            if kept.seq in losers:
                self._leave(kept, MergeReason.SAME_TEXT)
            else:
                remaining.append(kept)
        return remaining

    def removed_of(self, address: PublishedAddress) -> tuple[str, ...]:
        return self._removals.get(address.id, ())

    def _leave(self, kept: Kept, reason: MergeReason) -> None:
        leave(self._tallies, kept.family, self._removals.pop(kept.address.id, ()), reason)


def leave(tallies: Tallies, family: str, removed: Iterable[str], reason: MergeReason) -> None:
    """A kept row replaced or dropped: it leaves its source's kept count and field tally."""
    earlier = tallies.tally(family)
    earlier.kept -= 1
    earlier.dropped[reason.value] += 1
    for name in removed:
        earlier.removed_fields[name] -= 1
