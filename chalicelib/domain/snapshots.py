"""A country's snapshot of the pool: its addresses in one fixed order (`ordering`) with dense
ordinals, named by its content (`digests`), and its location catalog (`location_index`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.digests import cell_digest, content_id
from chalicelib.domain.location_index import Location, index_locations
from chalicelib.domain.ordering import Range, Span, StrataCounts, StrataTotals, cell_of, order_key, stratum_of


@dataclass(frozen=True)
class Snapshot(StrataTotals):
    country: str
    id: str
    addresses: list[PublishedAddress]  # index = ordinal
    strata: StrataCounts  # addresses per stratum
    locations: dict[str, Location]

    def country_span(self) -> Span:
        return country_span(self.strata)


def country_span(counts: StrataCounts) -> Span:
    """The whole country: each stratum's ordinals, in stratum order."""
    ranges, start = [], 0
    for size in counts:
        ranges.append(Range(start, start + size))
        start += size
    return Span((ranges[0], ranges[1], ranges[2], ranges[3]))


def build_snapshot(country: str, addresses: Iterable[PublishedAddress]) -> Snapshot:
    ordered = sorted(addresses, key=order_key)
    counts = [0, 0, 0, 0]
    for address in ordered:
        counts[stratum_of(address)] += 1
    strata_counts = (counts[0], counts[1], counts[2], counts[3])
    cells = [(key, cell_digest(list(group))) for key, group in groupby(ordered, key=cell_of)]
    return Snapshot(country, content_id(country, cells), ordered, strata_counts, index_locations(ordered))
