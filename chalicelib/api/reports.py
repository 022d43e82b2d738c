"""Countries, availability, coverage and data health: reports on the published pool."""

from __future__ import annotations

from chalice.app import Blueprint

from chalicelib.api.endpoint import Call, Operation, endpoint
from chalicelib.api.models.reports import (
    AvailabilityResponse,
    CountriesResponse,
    CoverageQuery,
    CoverageResponse,
    DataHealthResponse,
)
from chalicelib.api.pending import not_yet_available
from chalicelib.domain.tokens import Scope

reports = Blueprint(__name__)


@endpoint(
    reports,
    Operation(
        method="GET",
        path="/api/v1/countries",
        name="listCountries",
        tag="reports",
        summary="Countries with published addresses and their counts",
        response=CountriesResponse,
        scope=Scope.READ,
        implemented=False,
    ),
)
def countries(call: Call[None, None]) -> CountriesResponse:
    raise not_yet_available("countries")


@endpoint(
    reports,
    Operation(
        method="GET",
        path="/api/v1/availability",
        name="listAvailability",
        tag="reports",
        summary="Whether each country can be generated, and with residential evidence",
        response=AvailabilityResponse,
        scope=Scope.READ,
        implemented=False,
    ),
)
def availability(call: Call[None, None]) -> AvailabilityResponse:
    raise not_yet_available("availability")


@endpoint(
    reports,
    Operation(
        method="GET",
        path="/api/v1/coverage",
        name="getCoverage",
        tag="reports",
        summary="The three synchronization completion rules per enabled country",
        response=CoverageResponse,
        scope=Scope.READ,
        query=CoverageQuery,
        implemented=False,
    ),
)
def coverage(call: Call[CoverageQuery, None]) -> CoverageResponse:
    raise not_yet_available("coverage")


@endpoint(
    reports,
    Operation(
        method="GET",
        path="/api/v1/data-health",
        name="getDataHealth",
        tag="reports",
        summary="Whether every enabled country has a published pool, and configuration errors",
        response=DataHealthResponse,
        scope=Scope.READ,
        implemented=False,
    ),
)
def data_health(call: Call[None, None]) -> DataHealthResponse:
    raise not_yet_available("data health")
