"""The location catalog: search and hierarchy."""

from __future__ import annotations

from chalice.app import Blueprint

from chalicelib.api.endpoint import Call, Operation, endpoint
from chalicelib.api.models.catalog import (
    HierarchyQuery,
    HierarchyResponse,
    LocationSearchQuery,
    LocationSearchResponse,
)
from chalicelib.api.pending import not_yet_available
from chalicelib.domain.tokens import Scope

catalog = Blueprint(__name__)


@endpoint(
    catalog,
    Operation(
        method="GET",
        path="/api/v1/locations/search",
        name="searchLocations",
        tag="catalog",
        summary="Regions, cities, districts or postcodes with counts, paginated",
        description="The list key follows `field`: regions, cities, districts or postcodes.",
        response=LocationSearchResponse,
        scope=Scope.READ,
        query=LocationSearchQuery,
        errors=(404,),
        implemented=False,
    ),
)
def search_locations(call: Call[LocationSearchQuery, None]) -> LocationSearchResponse:
    raise not_yet_available("location search")


@endpoint(
    catalog,
    Operation(
        method="GET",
        path="/api/v1/locations/hierarchy",
        name="listLocationChildren",
        tag="catalog",
        summary="The immediate children of a country, region or city, with counts",
        response=HierarchyResponse,
        scope=Scope.READ,
        query=HierarchyQuery,
        errors=(404,),
        implemented=False,
    ),
)
def hierarchy(call: Call[HierarchyQuery, None]) -> HierarchyResponse:
    raise not_yet_available("location hierarchy")
