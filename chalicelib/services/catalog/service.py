"""The catalog use cases: search locations of a type inside a country, region or city, and list the
immediate children of a country, region or city. Both are pages of one cached directory, so a
page costs no DynamoDB read once the directory is cached, and one or two before.

Errors: a parameter combination that cannot make sense (a field that is not below its parent, a
parentType without parentId, a child that skips a level the parent has) is 400 INVALID_REQUEST; a
country without a published pool, or a parent that the published catalog does not have (unknown
id or value, a city outside the given region), is 404 NO_POOL_COVERAGE, as in generation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from chalicelib.domain.directories import COUNTRY_SCOPE, TYPES_IN_SCOPE, Entry, match_key
from chalicelib.domain.location_index import Location
from chalicelib.domain.locations import LocationType
from chalicelib.domain.published import PublishedSnapshot
from chalicelib.errors import ErrorDetail, InvalidRequest, NoPoolCoverage
from chalicelib.reference.countries import facts
from chalicelib.services.catalog.cursors import CursorSigner, Position, binding
from chalicelib.services.generation.selection import CatalogReader
from chalicelib.services.serving import ActiveSnapshotReader

_DEPTH = {LocationType.REGION: 1, LocationType.CITY: 2, LocationType.DISTRICT: 3, LocationType.POSTCODE: 4}
_PARENT_DEPTH = {"country": 0, "region": 1, "city": 2}


class DirectorySource(Protocol):
    def directory(self, snapshot: PublishedSnapshot, scope: str, kind: LocationType) -> list[Entry]: ...
    def listing(
        self, snapshot: PublishedSnapshot, scope: str, kind: LocationType, q: str | None, residential: bool
    ) -> list[Entry]: ...


@dataclass(frozen=True)
class CatalogPorts:
    snapshots: ActiveSnapshotReader
    catalog: CatalogReader
    directories: DirectorySource
    cursors: CursorSigner


@dataclass(frozen=True)
class Parent:
    type: str  # "country", "region" or "city"
    id: str  # the country code, or the location's id
    name: str

    @property
    def scope(self) -> str:
        return COUNTRY_SCOPE if self.type == "country" else self.id


@dataclass(frozen=True)
class Page:
    parent: Parent
    kind: LocationType
    residential: bool
    entries: list[Entry]
    total: int
    next_cursor: str | None


@dataclass(frozen=True)
class SearchRequest:
    country: str
    kind: LocationType = LocationType.CITY
    q: str | None = None
    region: str | None = None
    region_id: str | None = None
    city_id: str | None = None
    residential: bool = False
    limit: int = 100
    cursor: str | None = None


@dataclass(frozen=True)
class ChildrenRequest:
    country: str
    kind: LocationType
    parent_type: str = "country"
    parent_id: str | None = None
    q: str | None = None
    residential: bool | None = None  # None: true for CN, false elsewhere
    limit: int = 100
    cursor: str | None = None


def search(request: SearchRequest, ports: CatalogPorts) -> Page:
    snapshot = _snapshot(request.country, ports)
    parent = _search_scope(request, snapshot, ports.catalog)
    _check_below(parent, request.kind, "field")
    return _page("search", request.kind, parent, request, request.residential, snapshot, ports)


def children(request: ChildrenRequest, ports: CatalogPorts) -> Page:
    snapshot = _snapshot(request.country, ports)
    parent = _named_parent(request, snapshot, ports.catalog)
    _check_below(parent, request.kind, "childType")
    _check_immediate(parent, request.kind, snapshot, ports.directories)
    residential = (
        request.residential
        if request.residential is not None
        else facts(request.country).residential_by_default
    )
    return _page("hierarchy", request.kind, parent, request, residential, snapshot, ports)


def _snapshot(country: str, ports: CatalogPorts) -> PublishedSnapshot:
    snapshot = ports.snapshots.get(country)
    if snapshot is None:
        raise NoPoolCoverage(f"no published pool for country {country}", (ErrorDetail("country", country),))
    return snapshot


def _page(
    operation: str,
    kind: LocationType,
    parent: Parent,
    request: SearchRequest | ChildrenRequest,
    residential: bool,
    snapshot: PublishedSnapshot,
    ports: CatalogPorts,
) -> Page:
    """One page of the listing. The cursor is bound to what selects the listing (operation, parent,
    type, q as matched, residential) and to the page size."""
    q = request.q
    bound = binding(
        operation,
        {
            "parent": [parent.type, parent.id],
            "type": kind.value,
            "q": match_key(kind, q) if q is not None else None,
            "residential": residential,
            "limit": request.limit,
        },
    )
    offset = _offset(request.cursor, bound, snapshot, ports.cursors)
    listing = ports.directories.listing(snapshot, parent.scope, kind, q, residential)
    end = offset + request.limit
    next_cursor = (
        ports.cursors.issue(bound, Position(snapshot.snapshot_id, end)) if end < len(listing) else None
    )
    return Page(parent, kind, residential, listing[offset:end], len(listing), next_cursor)


def _offset(cursor: str | None, bound: str, snapshot: PublishedSnapshot, cursors: CursorSigner) -> int:
    if cursor is None:
        return 0
    position = cursors.read(cursor, bound)
    if position.snapshot_id != snapshot.snapshot_id:
        message = "the catalog was republished since this cursor was issued; start again without a cursor"
        raise InvalidRequest(message, (ErrorDetail("cursor", message),))
    return position.offset


# --- parents ------------------------------------------------------------------------------------


def _search_scope(request: SearchRequest, snapshot: PublishedSnapshot, catalog: CatalogReader) -> Parent:
    region = _region(request, snapshot, catalog) if request.region is not None or request.region_id else None
    if request.city_id is not None:
        city = _by_id(catalog, snapshot, LocationType.CITY, request.city_id, "cityId")
        if region is not None and city.parent_id != region.id:
            message = f"city {city.value!r} is not in region {region.value!r}"
            raise NoPoolCoverage(message, (ErrorDetail("cityId", message),))
        return Parent("city", city.id, city.value)
    if region is not None:
        return Parent("region", region.id, region.value)
    return Parent("country", snapshot.country, snapshot.country)


def _region(request: SearchRequest, snapshot: PublishedSnapshot, catalog: CatalogReader) -> Location:
    by_id = (
        _by_id(catalog, snapshot, LocationType.REGION, request.region_id, "regionId")
        if request.region_id
        else None
    )
    if request.region is None:
        assert by_id is not None
        return by_id
    named = catalog.find_locations(snapshot, LocationType.REGION, request.region)
    if by_id is not None:
        if by_id.id not in {n.id for n in named}:
            message = "region and regionId name different regions"
            raise NoPoolCoverage(message, (ErrorDetail("region", message),))
        return by_id
    if not named:
        message = f"no region {request.region!r} in the published pool of {snapshot.country}"
        raise NoPoolCoverage(message, (ErrorDetail("region", message),))
    if len(named) > 1:
        message = f"{request.region!r} names {len(named)} regions of {snapshot.country}; use regionId"
        raise InvalidRequest(message, (ErrorDetail("region", message),))
    return named[0]


def _named_parent(request: ChildrenRequest, snapshot: PublishedSnapshot, catalog: CatalogReader) -> Parent:
    if request.parent_type == "country":
        if request.parent_id is not None and request.parent_id.upper() != snapshot.country:
            message = "parentId names a region or city; leave it out when parentType is country"
            raise InvalidRequest(message, (ErrorDetail("parentId", message),))
        return Parent("country", snapshot.country, snapshot.country)
    if request.parent_id is None:
        message = f"parentType={request.parent_type} needs parentId, the {request.parent_type}'s id"
        raise InvalidRequest(message, (ErrorDetail("parentId", message),))
    location = _by_id(catalog, snapshot, LocationType(request.parent_type), request.parent_id, "parentId")
    return Parent(request.parent_type, location.id, location.value)


def _by_id(
    catalog: CatalogReader, snapshot: PublishedSnapshot, kind: LocationType, location_id: str, field: str
) -> Location:
    location = catalog.get_location(snapshot, location_id)
    if location is None or location.type is not kind:
        message = f"no {kind.value} with id {location_id} in the published pool of {snapshot.country}"
        raise NoPoolCoverage(message, (ErrorDetail(field, message),))
    return location


def _check_below(parent: Parent, kind: LocationType, field: str) -> None:
    if kind not in TYPES_IN_SCOPE[parent.type]:
        allowed = ", ".join(t.value for t in TYPES_IN_SCOPE[parent.type])
        message = f"a {parent.type} contains no {kind.value}s; {field} must be one of: {allowed}"
        raise InvalidRequest(message, (ErrorDetail(field, message),))


def _check_immediate(
    parent: Parent, kind: LocationType, snapshot: PublishedSnapshot, directories: DirectorySource
) -> None:
    """Children are immediate: a level between the parent and the child type that the parent has
    (regions of a country, cities of a country or region) must be walked through."""
    for level in (LocationType.REGION, LocationType.CITY):
        skipped = _PARENT_DEPTH[parent.type] < _DEPTH[level] < _DEPTH[kind]
        if skipped and directories.directory(snapshot, parent.scope, level):
            message = (
                f"{kind.value}s are not immediate children of {parent.type} {parent.name}: it has "
                f"{level.value}s, so list those and then their {kind.value}s "
                f"(/locations/search lists every {kind.value} of a country, region or city)"
            )
            raise InvalidRequest(message, (ErrorDetail("childType", message),))
