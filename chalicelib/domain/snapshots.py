"""A country's snapshot of the pool: addresses in one fixed order with dense ordinals, and the
location catalog describing where each location's addresses sit in that order.

Order: by stratum (residential and complete, residential and incomplete, other and complete, other
and incomplete), then region, city, district, postcode, street, number. So each stratum's addresses
of any region, city or district are one contiguous range: a uniform draw in any location, with any
mix of the residential and complete filters, is one random integer over at most four ranges and one
read by ordinal. A postcode can cross cities, so it is a few such spans, one per (region, city,
district) cell."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import groupby

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.coverage import Coverage
from chalicelib.domain.locations import LocationType, location_id, value_key

SNAPSHOT_FORMAT = (
    4  # bump when the stored layout changes, so equal content still gets a new id (4: the text index)
)


@dataclass(frozen=True, slots=True)
class Range:
    start: int
    end: int  # exclusive

    @property
    def size(self) -> int:
        return self.end - self.start


EMPTY = Range(0, 0)


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
NO_RANGES = (EMPTY, EMPTY, EMPTY, EMPTY)


def residential_in(counts: StrataCounts) -> int:
    return sum(n for stratum, n in zip(Stratum, counts, strict=True) if stratum.is_residential)


def complete_in(counts: StrataCounts) -> int:
    return sum(n for stratum, n in zip(Stratum, counts, strict=True) if stratum.is_complete)


@dataclass(frozen=True, slots=True)
class Span:
    """One contiguous run of a location's addresses in each stratum, with the ancestors of that run."""

    ranges: tuple[Range, Range, Range, Range]  # indexed by Stratum
    region_id: str | None = None
    city_id: str | None = None
    district_id: str | None = None

    @property
    def count(self) -> int:
        return sum(r.size for r in self.ranges)

    def count_in(self, chosen: tuple[Stratum, ...]) -> int:
        return sum(self.ranges[s].size for s in chosen)


@dataclass(slots=True)
class Location:
    id: str
    type: LocationType
    value: str
    parent_type: str  # "country", "region" or "city"
    parent_id: str | None  # None when the parent is the country
    spans: list[Span] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    aliases: set[str] = field(default_factory=set)

    @property
    def count(self) -> int:
        return sum(s.count for s in self.spans)

    def count_in(self, chosen: tuple[Stratum, ...]) -> int:
        return sum(s.count_in(chosen) for s in self.spans)

    @property
    def residential_count(self) -> int:
        return self.count_in(strata(residential=True, complete=False))


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


CellKey = tuple[int, str]


def cell_of(a: PublishedAddress) -> CellKey:
    """The order's leading (stratum, region) prefix: a snapshot is these cells in key order, so a
    sharded build sorts each cell on its own and places it by the sizes of the cells before it."""
    return (int(stratum_of(a)), _region_key(a))


def index_locations(ordered: Iterable[PublishedAddress]) -> dict[str, Location]:
    """The locations of addresses already in snapshot order."""
    index = LocationIndex()
    for address in ordered:
        index.add(address)
    return index.locations


class LocationIndex:
    """Locations built address by address, in snapshot order, from ordinal 0."""

    def __init__(self) -> None:
        self.locations: dict[str, Location] = {}
        self._next = 0

    def add(self, address: PublishedAddress) -> None:
        ordinal, stratum = self._next, stratum_of(address)
        for location, ancestors in _locations_of(address):
            known = self.locations.setdefault(location.id, location)
            _extend(known, ancestors, Range(ordinal, ordinal + 1), stratum)
            _add_names(known, address, location.type)
        self._next += 1


def merge_locations(into: dict[str, Location], later: Iterable[Location]) -> None:
    """Add the locations of the cell that follows `into`'s in the order, as `index_locations` over
    both would have: spans joined where they meet, the first name per language kept."""
    for location in later:
        known = into.setdefault(location.id, location)
        if known is location:
            continue
        for span in location.spans:
            for stratum in Stratum:
                if span.ranges[stratum].size:
                    _extend(
                        known, (span.region_id, span.city_id, span.district_id), span.ranges[stratum], stratum
                    )
        for language, name in location.names.items():
            if language not in known.names:
                known.names[language] = name
                known.aliases.add(value_key(name))


def shift_locations(locations: Iterable[Location], offset: int) -> list[Location]:
    """Locations indexed from 0 within a cell, moved to the cell's place in the snapshot."""
    return [
        Location(
            loc.id,
            loc.type,
            loc.value,
            loc.parent_type,
            loc.parent_id,
            [_shift(span, offset) for span in loc.spans],
            dict(loc.names),
            set(loc.aliases),
        )
        for loc in locations
    ]


def _shift(span: Span, offset: int) -> Span:
    moved = tuple(Range(r.start + offset, r.end + offset) if r.size else r for r in span.ranges)
    return Span((moved[0], moved[1], moved[2], moved[3]), span.region_id, span.city_id, span.district_id)


def order_key(a: PublishedAddress) -> tuple[object, ...]:
    c = a.components
    return (
        stratum_of(a),
        _region_key(a),
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


def _region_key(a: PublishedAddress) -> str:
    return a.components.region_code or value_key(a.components.region or "")


Ancestors = tuple[str | None, str | None, str | None]


def _locations_of(a: PublishedAddress) -> list[tuple[Location, Ancestors]]:
    """The address's region, city, district and postcode locations, each with the ancestors that
    place this address's span (region, city, district ids)."""
    c, country = a.components, a.country
    region = _region(a)
    region_id = region.id if region else None
    city = district = None
    if c.city:
        path = (_region_key(a), c.city)
        city = Location(
            location_id(country, LocationType.CITY, path),
            LocationType.CITY,
            c.city,
            "region" if region else "country",
            region_id,
        )
    if c.district:
        district_path = (_region_key(a), c.city or "", c.district)
        parent_type, parent_id = (
            ("city", city.id) if city else ("region", region_id) if region else ("country", None)
        )
        district = Location(
            location_id(country, LocationType.DISTRICT, district_path),
            LocationType.DISTRICT,
            c.district,
            parent_type,
            parent_id,
        )
    city_id, district_id = (city.id if city else None), (district.id if district else None)
    found: list[tuple[Location, Ancestors]] = []
    if region:
        found.append((region, (region_id, None, None)))
    if city:
        found.append((city, (region_id, city_id, None)))
    if district:
        found.append((district, (region_id, city_id, district_id)))
    if c.postcode:
        postcode = Location(
            location_id(country, LocationType.POSTCODE, (c.postcode,)),
            LocationType.POSTCODE,
            c.postcode,
            "country",
            None,
        )
        found.append((postcode, (region_id, city_id, district_id)))
    return found


def _region(a: PublishedAddress) -> Location | None:
    c = a.components
    if not (c.region_code or c.region):
        return None
    key = c.region_code or c.region or ""
    region = Location(
        location_id(a.country, LocationType.REGION, (key,)),
        LocationType.REGION,
        c.region or key,
        "country",
        None,
    )
    region.aliases.update(value_key(v) for v in (c.region_code, c.region) if v)
    return region


def _extend(location: Location, ancestors: Ancestors, added: Range, stratum: Stratum) -> None:
    """Grow the span whose ancestors match; the order guarantees spans are contiguous."""
    span = next(
        (s for s in reversed(location.spans) if (s.region_id, s.city_id, s.district_id) == ancestors), None
    )
    if span is None:
        span = Span(NO_RANGES, *ancestors)
        location.spans.append(span)
    index = location.spans.index(span)
    ranges = list(span.ranges)
    ranges[stratum] = _grow(ranges[stratum], added)
    location.spans[index] = Span((ranges[0], ranges[1], ranges[2], ranges[3]), *ancestors)


def _grow(current: Range, added: Range) -> Range:
    if current.size == 0:
        return added
    if added.start != current.end:
        raise AssertionError(f"ordinals {added} break the contiguous range {current}")
    return Range(current.start, added.end)


_NAME_FIELD = {LocationType.REGION: "region", LocationType.CITY: "city", LocationType.DISTRICT: "district"}


def _add_names(location: Location, a: PublishedAddress, kind: LocationType) -> None:
    location.aliases.add(value_key(location.value))
    name_field = _NAME_FIELD.get(kind)
    if not name_field:
        return
    for language, names in a.names.items():
        name = names.get(name_field)
        if name and language not in location.names:
            location.names[language] = name
            location.aliases.add(value_key(name))


def content_id(country: str, cells: Iterable[tuple[CellKey, str]]) -> str:
    """Same published content → same snapshot id, so a re-run publishes nothing new. Hashed cell by
    cell (`cell_digest`), so a sharded build that sorts each cell apart gets the same id."""
    digest = hashlib.sha256(f"{SNAPSHOT_FORMAT}|{country}".encode())
    for (stratum, region), cell in cells:
        digest.update(f"|{stratum}|{region}|{cell}".encode())
    return digest.hexdigest()[:16]


def cell_digest(ordered: Iterable[PublishedAddress]) -> str:
    digest = CellDigest()
    for address in ordered:
        digest.add(address)
    return digest.hexdigest()


_DIGEST_MODULUS = 1 << 256


class CellDigest:
    """A cell's addresses hashed as a multiset: the count and the sum of each address's SHA-256.
    The order within a cell is a function of its content (the order key ends with the id), so the
    multiset names the ordered cell too, and the digests of a cell's parts, sorted by different
    workers, add up to the digest of the whole (`combined`)."""

    def __init__(self, count: int = 0, total: int = 0) -> None:
        self.count, self.total = count, total

    def add(self, address: PublishedAddress) -> None:
        fingerprint = json.dumps(_fingerprint(address), ensure_ascii=False, sort_keys=True).encode()
        hashed = int.from_bytes(hashlib.sha256(fingerprint).digest(), "big")
        self.total = (self.total + hashed) % _DIGEST_MODULUS
        self.count += 1

    def hexdigest(self) -> str:
        return f"{self.count}-{self.total:064x}"

    @classmethod
    def combined(cls, parts: Iterable[str]) -> str:
        whole = cls()
        for part in parts:
            count, total = part.split("-")
            whole.count += int(count)
            whole.total = (whole.total + int(total, 16)) % _DIGEST_MODULUS
        return whole.hexdigest()


def _fingerprint(a: PublishedAddress) -> list[object]:
    c = a.components
    return [
        a.id,
        a.match_level,
        a.property_type,
        *c.values(),
        a.lon,
        a.lat,
        a.provenance.source_id,
        a.names,
        a.derived,
        a.completeness.missing,
        a.completeness.invalid,
    ]


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
