"""The location catalog: search and hierarchy."""

from __future__ import annotations

from chalicelib.api.endpoint import Call, McpTool, Operation, endpoint
from chalicelib.api.models.catalog import (
    CityPage,
    DistrictPage,
    HierarchyData,
    HierarchyQuery,
    HierarchyResponse,
    LocationItem,
    LocationSearchQuery,
    LocationSearchResponse,
    ParentRef,
    PostcodePage,
    RegionPage,
)
from chalicelib.api.presenters.tool_text import locations_text
from chalicelib.domain.locations import LocationType
from chalicelib.domain.tokens import Scope
from chalicelib.services.catalog import service
from chalicelib.services.catalog.service import CatalogPorts, Page

_LISTING_NOTES = """\
Counts (`availableCount`) are the published snapshot's addresses inside the parent, so they equal
what `generate` can return with the same filters; with `residential=true` they count residential
addresses only, and locations without any are left out. `q` matches the name or its published
names in other languages, case-, accent- and width-insensitively (postcodes also ignoring spaces
and hyphens); prefix matches come first, then matches inside the name, each in name order. `total`
counts every match. `nextCursor` is null on the last page; a cursor is signed and valid only with
the parameters that produced it (400 INVALID_REQUEST otherwise, and after the country's catalog is
republished)."""

_SEARCH_NOTES = f"""\
The list key follows `field`: `regions`, `cities`, `districts` or `postcodes`. Searches the whole
country, or inside `region`/`regionId`, or inside `cityId` (which must lie in the region when both
are given). 400 INVALID_REQUEST: a field not below its parent (e.g. `field=city` with `cityId`), or
a region value naming several regions. 404 NO_POOL_COVERAGE: no published pool for the country, an
unknown region or city, or a city outside the given region.

{_LISTING_NOTES}"""

_HIERARCHY_NOTES = f"""\
Immediate children: of the country its regions (its cities, districts or postcodes only where it
has no regions, and no cities for districts and postcodes); of a region its cities (its districts
or postcodes only where it has no cities); of a city its districts and postcodes. Every city,
district or postcode of a country is in `/locations/search`. `residential` defaults to true for CN.
`parent.id` is the country code for a country parent. 400 INVALID_REQUEST: `parentType` region or
city without `parentId`, a `parentId` with `parentType=country`, or a `childType` that is not an
immediate child type of the parent. 404 NO_POOL_COVERAGE: no published pool for the country, or a
`parentId` that is not a region or city (as `parentType` says) of the published catalog.

{_LISTING_NOTES}"""


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/locations/search",
        name="searchLocations",
        tag="catalog",
        summary="Regions, cities, districts or postcodes with counts, paginated",
        description=_SEARCH_NOTES,
        response=LocationSearchResponse,
        scope=Scope.READ,
        query=LocationSearchQuery,
        errors=(404,),
        tool=McpTool("search_locations", "Search the location catalog", locations_text),
    ),
    needs=lambda d: d.catalog_ports(),
)
def search_locations(call: Call[LocationSearchQuery, None], ports: CatalogPorts) -> LocationSearchResponse:
    query = call.query
    request = service.SearchRequest(
        country=query.country,
        kind=LocationType(query.field),
        q=query.q,
        region=query.region,
        region_id=query.region_id,
        city_id=query.city_id,
        residential=query.residential,
        limit=query.limit,
        cursor=query.cursor,
    )
    page = service.search(request, ports)
    items, total, next_cursor = _items(page), page.total, page.next_cursor
    match page.kind:
        case LocationType.REGION:
            data: RegionPage | CityPage | DistrictPage | PostcodePage = RegionPage(
                regions=items, total=total, next_cursor=next_cursor
            )
        case LocationType.CITY:
            data = CityPage(cities=items, total=total, next_cursor=next_cursor)
        case LocationType.DISTRICT:
            data = DistrictPage(districts=items, total=total, next_cursor=next_cursor)
        case LocationType.POSTCODE:
            data = PostcodePage(postcodes=items, total=total, next_cursor=next_cursor)
    return LocationSearchResponse(data=data)


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/locations/hierarchy",
        name="listLocationChildren",
        tag="catalog",
        summary="The immediate children of a country, region or city, with counts",
        description=_HIERARCHY_NOTES,
        response=HierarchyResponse,
        scope=Scope.READ,
        query=HierarchyQuery,
        errors=(404,),
    ),
    needs=lambda d: d.catalog_ports(),
)
def hierarchy(call: Call[HierarchyQuery, None], ports: CatalogPorts) -> HierarchyResponse:
    query = call.query
    request = service.ChildrenRequest(
        country=query.country,
        kind=LocationType(query.child_type),
        parent_type=query.parent_type,
        parent_id=query.parent_id,
        q=query.q,
        residential=query.residential,
        limit=query.limit,
        cursor=query.cursor,
    )
    page = service.children(request, ports)
    return HierarchyResponse(
        data=HierarchyData(
            parent=ParentRef.model_validate(page.parent, from_attributes=True),
            child_type=page.kind.value,
            children=_items(page),
            total=page.total,
            next_cursor=page.next_cursor,
        )
    )


def _items(page: Page) -> list[LocationItem]:
    return [
        LocationItem(id=e.id, value=e.value, available_count=e.available(page.residential))
        for e in page.entries
    ]
