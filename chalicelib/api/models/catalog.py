"""Location search and hierarchy."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from chalicelib.api.models.common import (
    DEFAULT_PAGE,
    ApiModel,
    CountryCode,
    Cursor,
    Id,
    LocationType,
    PageSize,
    QueryModel,
    Value,
)


class LocationItem(ApiModel):
    """A location of the published catalog with how many addresses it holds"""

    id: str = Field(description="Stable ID, usable as regionId, cityId, districtId, postcodeId, parentId")
    value: str
    """The location's name as the catalog writes it (a postcode as the country does)"""
    available_count: int
    """Published addresses inside it: what generate can draw with it as a filter"""


class LocationSearchQuery(QueryModel):
    country: CountryCode = "US"
    field: LocationType = "city"
    """Which kind of location to list: region, city, district or postcode"""
    q: Value | None = None
    """Text the name must contain (prefix matches first); case-, accent- and width-insensitive"""
    region: Value | None = None
    """Only inside this region (its name or ISO 3166-2 code)"""
    region_id: Id | None = None
    """Only inside the region with this ID"""
    city_id: Id | None = None
    """Only inside the city with this ID (districts and postcodes)"""
    residential: bool = False
    """Count residential addresses only, leaving out locations without any"""
    cursor: Cursor | None = None
    """nextCursor of the previous page, unchanged (signed; anything else is 400)"""
    limit: PageSize = DEFAULT_PAGE


class _Page(ApiModel):
    """A page of locations"""

    total: int
    """Every location that matches, over all pages"""
    next_cursor: str | None
    """The cursor of the next page; null on the last one"""


class RegionPage(_Page):
    """A page of regions (field=region)"""

    regions: list[LocationItem]
    """The page's regions, in name order"""


class CityPage(_Page):
    """A page of cities (field=city)"""

    cities: list[LocationItem]
    """The page's cities, in name order"""


class DistrictPage(_Page):
    """A page of districts (field=district)"""

    districts: list[LocationItem]
    """The page's districts, in name order"""


class PostcodePage(_Page):
    """A page of postcodes (field=postcode)"""

    postcodes: list[LocationItem]
    """The page's postcodes, in order"""


class LocationSearchResponse(ApiModel):
    """The answer of GET /api/v1/locations/search: its list key follows `field`"""

    data: RegionPage | CityPage | DistrictPage | PostcodePage
    """The page"""


class HierarchyQuery(QueryModel):
    country: CountryCode
    child_type: LocationType
    """Which kind of child to list: region, city, district or postcode"""
    parent_type: Literal["country", "region", "city"] = "country"
    """The parent's kind: country, region or city"""
    parent_id: Id | None = None
    """The parent region's or city's ID (not with parentType=country)"""
    q: Value | None = None
    """Text the child's name must contain"""
    residential: bool | None = Field(default=None, description="Default true for CN, else false")
    cursor: Cursor | None = None
    """nextCursor of the previous page, unchanged (signed; anything else is 400)"""
    limit: PageSize = DEFAULT_PAGE


class ParentRef(ApiModel):
    """The location whose children are listed"""

    type: Literal["country", "region", "city"]
    """country, region or city"""
    id: str
    """The parent's ID (the country code for a country)"""


class HierarchyData(ApiModel):
    """A page of a location's immediate children"""

    parent: ParentRef
    """Whose children these are"""
    child_type: LocationType
    """The children's kind"""
    children: list[LocationItem]
    """The page's children, in name order"""
    total: int
    """Every child that matches, over all pages"""
    next_cursor: str | None
    """The cursor of the next page; null on the last one"""


class HierarchyResponse(ApiModel):
    """The answer of GET /api/v1/locations/hierarchy"""

    data: HierarchyData
    """The page"""
