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
    id: str = Field(description="Stable ID, usable as regionId, cityId, districtId, postcodeId, parentId")
    value: str
    available_count: int


class LocationSearchQuery(QueryModel):
    country: CountryCode = "US"
    field: LocationType = "city"
    q: Value | None = None
    region: Value | None = None
    region_id: Id | None = None
    city_id: Id | None = None
    residential: bool = False
    cursor: Cursor | None = None
    limit: PageSize = DEFAULT_PAGE


class _Page(ApiModel):
    total: int
    next_cursor: str | None


class RegionPage(_Page):
    regions: list[LocationItem]


class CityPage(_Page):
    cities: list[LocationItem]


class DistrictPage(_Page):
    districts: list[LocationItem]


class PostcodePage(_Page):
    postcodes: list[LocationItem]


class LocationSearchResponse(ApiModel):
    data: RegionPage | CityPage | DistrictPage | PostcodePage


class HierarchyQuery(QueryModel):
    country: CountryCode
    child_type: LocationType
    parent_type: Literal["country", "region", "city"] = "country"
    parent_id: Id | None = None
    q: Value | None = None
    residential: bool | None = Field(default=None, description="Default true for CN, else false")
    cursor: Cursor | None = None
    limit: PageSize = DEFAULT_PAGE


class ParentRef(ApiModel):
    type: Literal["country", "region", "city"]
    id: str


class HierarchyData(ApiModel):
    parent: ParentRef
    child_type: LocationType
    children: list[LocationItem]
    total: int
    next_cursor: str | None


class HierarchyResponse(ApiModel):
    data: HierarchyData
