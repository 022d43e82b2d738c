"""Filters → the slot ranges of the matching published addresses.

Each location filter (value or stable id, for region, city, district, postcode) names catalog
locations; the most specific level's spans are kept where their ancestors agree with the coarser
filters. The result is a short list of slot ranges: a uniform draw over them, passing over the
slots of addresses the snapshot no longer serves, is exact."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from chalicelib.domain.geo import MAX_COVER, MAX_SIDE, Area, Box, Circle, cover
from chalicelib.domain.location_index import Location
from chalicelib.domain.locations import LocationType
from chalicelib.domain.ordering import Range, Span, strata
from chalicelib.domain.partitions import WHOLE, Partition
from chalicelib.domain.published import PublishedSnapshot
from chalicelib.domain.text_search import Query, parse
from chalicelib.errors import ErrorDetail, InvalidRequest, NoPoolCoverage
from chalicelib.reference.countries import facts
from chalicelib.services.marks import (
    LENGTH_TRAITS,
    length_groups,
    licence_marks,
    presence_marks,
    property_type_marks,
    trait_marks,
)

# Most specific last: the last level given decides the spans, the others filter them.
LEVELS = (LocationType.REGION, LocationType.CITY, LocationType.DISTRICT, LocationType.POSTCODE)


@dataclass(frozen=True)
class Filters:
    country: str
    values: dict[LocationType, str] = field(default_factory=dict)
    ids: dict[LocationType, str] = field(default_factory=dict)
    q: str | None = None
    residential: bool | None = None
    complete: bool = False  # only addresses a form with the country's postal rules accepts
    licences: tuple[str, ...] = ()  # `license=`: classes or SPDX ids, every one required (services/marks.py)
    traits: tuple[str, ...] = ()  # `traits=`: every one required (domain/traits.py)
    property_type: str | None = None  # `propertyType=` (domain/premises.py)
    having: tuple[str, ...] = ()  # components every drawn address has (a near-miss variant's base)
    area: Area | None = None  # `near` and `radius`, or `bbox` (domain/geo.py)
    partition: Partition = WHOLE  # `partition=i/n`: only the addresses of that part (domain/partitions.py)

    def __post_init__(self) -> None:
        if self.area is not None:
            _check_area(self.area)

    @property
    def wants_residential(self) -> bool:
        """As asked; unasked, the country's default, unless a property type is asked for."""
        if self.residential is not None:
            return self.residential
        return self.property_type is None and facts(self.country).residential_by_default


def _check_area(area: Area) -> None:
    """400 naming the field, before any read: a box with a side over MAX_SIDE, or an area so near a
    pole that its cover would be hundreds of cells (the draw reads the same cover: it is cached)."""
    if isinstance(area, Box) and area.longest_side() > MAX_SIDE:
        raise InvalidRequest.of_field("bbox", f"a side of the box is over {MAX_SIDE // 1000} km")
    if len(cover(area)) > MAX_COVER:
        field = "near" if isinstance(area, Circle) else "bbox"
        raise InvalidRequest.of_field(field, "too near a pole: the area would be read as hundreds of cells")


class CatalogReader(Protocol):
    def get_location(self, snapshot: PublishedSnapshot, location_id: str) -> Location | None: ...
    def find_locations(
        self, snapshot: PublishedSnapshot, kind: LocationType, value: str
    ) -> list[Location]: ...


@dataclass(frozen=True)
class Selection:
    snapshot: PublishedSnapshot
    ranges: tuple[Range, ...]
    live: int  # the addresses the snapshot serves in the ranges (the rest of the slots are passed over)
    partition: Partition = WHOLE  # the positions are those of this part's slots alone

    @property
    def total(self) -> int:
        """Slots in the ranges (of the part), served or not."""
        return sum(self.partition.count_in(r) for r in self.ranges)

    @property
    def share(self) -> float:
        """The share of the slots the snapshot serves: a draw's chance to hit one (the whole
        ranges' share stands for a part's: a part is spread over all of them)."""
        slots = sum(r.size for r in self.ranges)
        return self.live / slots if slots else 1.0

    def ordinal_at(self, k: int) -> int:
        """The k-th matching ordinal (0 <= k < total)."""
        for r in self.ranges:
            size = self.partition.count_in(r)
            if k < size:
                return self.partition.nth_in(r, k)
            k -= size
        raise IndexError(k)


def select(filters: Filters, snapshot: PublishedSnapshot, catalog: CatalogReader) -> Selection:
    chosen: dict[LocationType, list[Location]] = {}
    for kind in LEVELS:
        locations = _locations(filters, kind, snapshot, catalog)
        if locations is not None:
            chosen[kind] = locations
    spans = _spans(chosen, snapshot)
    chosen_strata = strata(residential=filters.wants_residential, complete=filters.complete)
    live = sum(s.count_in(chosen_strata) for s in spans)
    selection = Selection(
        snapshot,
        tuple(r for s in spans for r in s.slots_in(chosen_strata) if r.size),
        live,
        filters.partition,
    )
    if live == 0:
        what = " ".join(
            w for w, on in (("residential", filters.wants_residential), ("complete", filters.complete)) if on
        )
        what = f"{what} addresses" if what else "addresses"
        raise NoPoolCoverage(f"no published {what} in {filters.country} match these filters")
    return selection


def _locations(
    filters: Filters, kind: LocationType, snapshot: PublishedSnapshot, catalog: CatalogReader
) -> list[Location] | None:
    value, location_id = filters.values.get(kind), filters.ids.get(kind)
    if value is None and location_id is None:
        return None
    found: dict[str, Location] | None = None
    if location_id is not None:
        location = catalog.get_location(snapshot, location_id)
        if location is None or location.type is not kind:
            raise _unknown(
                kind, f"{kind.value}Id", f"no {kind.value} with id {location_id} in {filters.country}"
            )
        found = {location.id: location}
    if value is not None:
        named = {loc.id: loc for loc in catalog.find_locations(snapshot, kind, value)}
        if not named:
            raise _unknown(
                kind, kind.value, f"no {kind.value} {value!r} in the published pool of {filters.country}"
            )
        found = named if found is None else {k: v for k, v in found.items() if k in named}
        if not found:
            raise _unknown(kind, kind.value, f"{kind.value}Id and {kind.value} name different {kind.value}s")
    return list(found.values()) if found else None


def _unknown(kind: LocationType, field_name: str, message: str) -> NoPoolCoverage:
    return NoPoolCoverage(message, (ErrorDetail(field_name, message),))


def _spans(chosen: dict[LocationType, list[Location]], snapshot: PublishedSnapshot) -> list[Span]:
    if not chosen:
        return [snapshot.placement.country_span(snapshot.strata)]
    finest = [kind for kind in LEVELS if kind in chosen][-1]
    spans = [span for location in chosen[finest] for span in location.spans]
    for kind, attribute in (
        (LocationType.REGION, "region_id"),
        (LocationType.CITY, "city_id"),
        (LocationType.DISTRICT, "district_id"),
    ):
        if kind in chosen and kind is not finest:
            allowed = {loc.id for loc in chosen[kind]}
            spans = [s for s in spans if getattr(s, attribute) in allowed]
    return spans


def _since(filters: Filters) -> dict[str, int]:
    """The marks version (text_search.MARKS_VERSION) each asked filter needs of an index."""
    since = {
        "license": 1 if filters.licences else 0,
        "traits": max((6 if t in LENGTH_TRAITS else 2 for t in filters.traits), default=0),
        "propertyType": 3 if filters.property_type else 0,
        "variant": 4 if filters.having else 0,
        "near" if isinstance(filters.area, Circle) else "bbox": 5 if filters.area else 0,
    }
    return {name: version for name, version in since.items() if version}


def query_of(filters: Filters, snapshot: PublishedSnapshot) -> Query | None:
    """What the draw asks the snapshot's text index for: `q`'s words and runs and the marks of
    the licence, trait, property type and place filters; None when none is given. A snapshot
    whose index holds an older version of the marks (text_search.MARKS_VERSION) cannot answer the
    filters of later ones (a pin on it: 404 naming them); it still answers the others."""
    marks = (
        licence_marks(filters.licences)
        | trait_marks(filters.traits)
        | property_type_marks(filters.property_type)
        | presence_marks(filters.having)
    )
    query = parse(filters.q or "").marked(marks, length_groups(filters.traits, snapshot.marked))
    too_new = [name for name, since in _since(filters).items() if since > snapshot.placement.marks]
    if too_new:
        message = (
            f"snapshot {snapshot.snapshot_id} of {filters.country} was published before its index held "
            f"what {', '.join(too_new)} asks for; ask the active snapshot"
        )
        raise NoPoolCoverage(message, tuple(ErrorDetail(name, message) for name in too_new))
    return query if query.tokens or query.any_of or filters.q else None  # q of punctuation: nothing
