"""The location catalog of a snapshot: each region, city, district and postcode with the spans
of slots its addresses hold, built address by address in the order of a segment, and per span how
many of them the snapshot serves."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import LocationType, location_id, value_key
from chalicelib.domain.ordering import (
    NO_COUNTS,
    NO_RANGES,
    Range,
    Ranges,
    Span,
    Stratum,
    region_key,
    strata,
    stratum_of,
)


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
            _extend(known, ancestors, Range(ordinal, ordinal + 1), stratum, 1)
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
                for added in span.ranges[stratum]:
                    _extend(known, span.ancestors, added, stratum, span.live[stratum])
        for language, name in location.names.items():
            if language not in known.names:
                known.names[language] = name
                known.aliases.add(value_key(name))


def shift_locations(locations: Iterable[Location], offset: int) -> list[Location]:
    """Locations indexed from 0 within a cell, moved to the cell's place in the segment."""
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
    moved = [tuple(Range(r.start + offset, r.end + offset) for r in ranges) for ranges in span.ranges]
    return Span((moved[0], moved[1], moved[2], moved[3]), span.live, *span.ancestors)


def place_generation(
    live: Mapping[str, Location], kept: Mapping[str, Location], born: Mapping[str, Location]
) -> dict[str, Location]:
    """A generation's catalog: the locations of its content (`live`: counts and names, indexed
    over the content alone) with their slots: those of the parent snapshot (`kept`), where its
    kept addresses stay, then those of the generation's own segment (`born`). A stratum left with
    no live address in a span loses its ranges, so draws never look there."""
    placed: dict[str, Location] = {}
    for location in live.values():
        before = {s.ancestors: s for s in kept[location.id].spans} if location.id in kept else {}
        after = {s.ancestors: s for s in born[location.id].spans} if location.id in born else {}
        spans = []
        for span in location.spans:
            old, new = before.get(span.ancestors), after.get(span.ancestors)
            ranges = [
                (old.ranges[s] if old else ()) + (new.ranges[s] if new else ()) if span.live[s] else ()
                for s in Stratum
            ]
            spans.append(Span((ranges[0], ranges[1], ranges[2], ranges[3]), span.live, *span.ancestors))
        placed[location.id] = Location(
            location.id,
            location.type,
            location.value,
            location.parent_type,
            location.parent_id,
            spans,
            dict(location.names),
            set(location.aliases),
        )
    return placed


Ancestors = tuple[str | None, str | None, str | None]


def _locations_of(a: PublishedAddress) -> list[tuple[Location, Ancestors]]:
    """The address's region, city, district and postcode locations, each with the ancestors that
    place this address's span (region, city, district ids)."""
    c, country = a.components, a.country
    region = _region(a)
    region_id = region.id if region else None
    city = district = None
    if c.city:
        path = (region_key(a), c.city)
        city = Location(
            location_id(country, LocationType.CITY, path),
            LocationType.CITY,
            c.city,
            "region" if region else "country",
            region_id,
        )
    if c.district:
        district_path = (region_key(a), c.city or "", c.district)
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


def _extend(location: Location, ancestors: Ancestors, added: Range, stratum: Stratum, live: int) -> None:
    """Grow the span whose ancestors match; the order guarantees spans are contiguous."""
    span = next((s for s in reversed(location.spans) if s.ancestors == ancestors), None)
    if span is None:
        span = Span(NO_RANGES, NO_COUNTS, *ancestors)
        location.spans.append(span)
    index = location.spans.index(span)
    ranges, counts = list(span.ranges), list(span.live)
    ranges[stratum] = _grow(ranges[stratum], added)
    counts[stratum] += live
    location.spans[index] = Span(
        (ranges[0], ranges[1], ranges[2], ranges[3]), (counts[0], counts[1], counts[2], counts[3]), *ancestors
    )


def _grow(current: Ranges, added: Range) -> Ranges:
    if not current:
        return (added,)
    last = current[-1]
    if added.start != last.end:
        raise AssertionError(f"ordinals {added} break the contiguous range {last}")
    return (*current[:-1], Range(last.start, added.end))


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
