"""A country's snapshot of the pool: its addresses in one fixed order (`ordering`) with dense
ordinals, named by its content (`digests`), and its location catalog (`location_index`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.digests import cell_digest, content_id
from chalicelib.domain.location_index import Location, index_locations
from chalicelib.domain.ordering import Span, StrataCounts, StrataTotals, cell_of, order_key, stratum_of
from chalicelib.domain.published import first_placement


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
    """The whole country of a first generation: each stratum's ordinals, in stratum order."""
    return first_placement("", 1, counts).country_span(counts)


def build_snapshot(country: str, addresses: Iterable[PublishedAddress]) -> Snapshot:
    ordered = sorted(addresses, key=order_key)
    counts = [0, 0, 0, 0]
    for address in ordered:
        counts[stratum_of(address)] += 1
    strata_counts = (counts[0], counts[1], counts[2], counts[3])
    cells = [(key, cell_digest(list(group))) for key, group in groupby(ordered, key=cell_of)]
    return Snapshot(country, content_id(country, cells), ordered, strata_counts, index_locations(ordered))
