"""A snapshot's order: by stratum (residential and complete, residential and incomplete, other and
complete, other and incomplete), then region, city, district, postcode, street, number. So each
stratum's addresses of any region, city or district are one contiguous range: a uniform draw in any
location, with any mix of the residential and complete filters, is one random integer over at most
four ranges and one read by ordinal. A postcode can cross cities, so it is a few such spans, one per
(region, city, district) cell."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import value_key


@dataclass(frozen=True, slots=True)
class Range:
    start: int
    end: int  # exclusive

    @property
    def size(self) -> int:
        return self.end - self.start


EMPTY = Range(0, 0)
Ranges = tuple[Range, ...]  # one stratum's slots: one range per segment of the epoch holding some


class Stratum(IntEnum):
    """The blocks of a snapshot's order, first to last."""

    RESIDENTIAL_COMPLETE = 0
    RESIDENTIAL_INCOMPLETE = 1
    OTHER_COMPLETE = 2
    OTHER_INCOMPLETE = 3

    @property
    def is_residential(self) -> bool:
        return self < Stratum.OTHER_COMPLETE

    @property
    def is_complete(self) -> bool:
        return self % 2 == 0


def stratum_of(address: PublishedAddress) -> Stratum:
    return Stratum((0 if address.is_residential else 2) + (0 if address.is_complete else 1))


def strata(*, residential: bool, complete: bool) -> tuple[Stratum, ...]:
    """The strata a draw takes: residential only, complete only, both, or all four."""
    return tuple(
        s for s in Stratum if (s.is_residential or not residential) and (s.is_complete or not complete)
    )


StrataCounts = tuple[int, int, int, int]
NO_RANGES: tuple[Ranges, Ranges, Ranges, Ranges] = ((), (), (), ())
NO_COUNTS: StrataCounts = (0, 0, 0, 0)


def strata_counts(values: Sequence[int]) -> StrataCounts:
    """The four strata's counts from their stored list (a plan's, a pointer's)."""
    first, second, third, fourth = (int(v) for v in values)
    return (first, second, third, fourth)


def residential_in(counts: StrataCounts) -> int:
    return sum(n for stratum, n in zip(Stratum, counts, strict=True) if stratum.is_residential)


def complete_in(counts: StrataCounts) -> int:
    return sum(n for stratum, n in zip(Stratum, counts, strict=True) if stratum.is_complete)


@dataclass(frozen=True, slots=True)
class Span:
    """A location's addresses with one set of ancestors: their slots in each stratum (one contiguous
    range per segment of the epoch: the order holds within a segment) and how many of them are live
    in the snapshot (the slots also hold addresses a later generation removed: draws pass them over)."""

    ranges: tuple[Ranges, Ranges, Ranges, Ranges]  # indexed by Stratum
    live: StrataCounts
    region_id: str | None = None
    city_id: str | None = None
    district_id: str | None = None

    @property
    def ancestors(self) -> tuple[str | None, str | None, str | None]:
        return (self.region_id, self.city_id, self.district_id)

    @property
    def count(self) -> int:
        return sum(self.live)

    def count_in(self, chosen: tuple[Stratum, ...]) -> int:
        return sum(self.live[s] for s in chosen)

    def slots_in(self, chosen: tuple[Stratum, ...]) -> list[Range]:
        return [r for s in chosen if self.live[s] for r in self.ranges[s]]


class StrataTotals:
    """Totals of a snapshot that keeps its addresses per stratum (`strata`)."""

    strata: StrataCounts

    @property
    def count(self) -> int:
        return sum(self.strata)

    @property
    def residential_count(self) -> int:
        return residential_in(self.strata)

    @property
    def complete_count(self) -> int:
        return complete_in(self.strata)


CellKey = tuple[int, str]


def cell_of(a: PublishedAddress) -> CellKey:
    """The order's leading (stratum, region) prefix: a snapshot is these cells in key order, so a
    sharded build sorts each cell on its own and places it by the sizes of the cells before it."""
    return (int(stratum_of(a)), region_key(a))


def order_key(a: PublishedAddress) -> tuple[object, ...]:
    c = a.components
    return (
        stratum_of(a),
        region_key(a),
        value_key(c.city or ""),
        value_key(c.district or ""),
        c.postcode or "",
        value_key(c.street or ""),
        _natural(c.house_number or ""),
        value_key(c.unit or ""),
        a.id,
    )


def _natural(text: str) -> tuple[tuple[int, str], ...]:
    """'2' before '10', '10a' after '10'."""
    return tuple((int(p), "") if p.isdigit() else (0, p) for p in re.findall(r"\d+|\D+", value_key(text)))


def region_key(a: PublishedAddress) -> str:
    return a.components.region_code or value_key(a.components.region or "")
