"""Countries, availability, coverage and data health: reports on the published pool."""

from __future__ import annotations

from chalicelib.api.endpoint import Call, McpTool, Operation, endpoint
from chalicelib.api.models.reports import (
    AvailabilityEntry,
    AvailabilityResponse,
    CountriesResponse,
    CountryEntry,
    CountryHealth,
    CoverageData,
    CoverageQuery,
    CoverageResponse,
    DataHealth,
    DataHealthResponse,
)
from chalicelib.api.presenters.reports import configuration_issues, coverage_entry
from chalicelib.api.presenters.tool_text import countries_text
from chalicelib.domain.tokens import Scope
from chalicelib.services import reports as service


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/countries",
        name="listCountries",
        tag="reports",
        summary="Countries with a published pool and their counts",
        description="Only countries whose pool is published; see /availability for every enabled country.",
        response=CountriesResponse,
        scope=Scope.READ,
        tool=McpTool("list_countries", "Countries and their counts", countries_text),
    ),
    needs=lambda d: d.snapshots,
)
def countries(call: Call[None, None], snapshots: service.Snapshots) -> CountriesResponse:
    published = service.published_countries(snapshots)
    return CountriesResponse(
        data=[
            CountryEntry(
                code=c.code,
                address_count=c.count,
                residential_available=c.residential_count > 0,
                residential_count=c.residential_count,
                complete_count=c.complete_count,
                trait_counts=c.trait_counts,
                length_thresholds=c.length_thresholds,
                property_type_counts=c.property_type_counts,
                license_counts=c.license_counts,
                generation_mode="synchronized-pool",
            )
            for c in published
        ]
    )


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/availability",
        name="listAvailability",
        tag="reports",
        summary="Whether each enabled country can be generated, and with residential evidence",
        description="Every country enabled for synchronization, published or not: `available` once its "
        "pool is published, `residentialAvailable` when it holds residential addresses.",
        response=AvailabilityResponse,
        scope=Scope.READ,
    ),
    needs=lambda d: d.report_ports(),
)
def availability(call: Call[None, None], ports: service.ReportPorts) -> AvailabilityResponse:
    statuses = service.country_statuses(ports.snapshots, ports.config)
    return AvailabilityResponse(
        data=[
            AvailabilityEntry(code=s.code, available=s.ready, residential_available=s.residential_count > 0)
            for s in statuses
        ]
    )


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/coverage",
        name="getCoverage",
        tag="reports",
        summary="The three synchronization completion rules per enabled country",
        description="404 NO_POOL_COVERAGE when `country` is not enabled for synchronization.",
        response=CoverageResponse,
        scope=Scope.READ,
        query=CoverageQuery,
        errors=(404,),
    ),
    needs=lambda d: d.report_ports(),
)
def coverage(call: Call[CoverageQuery, None], ports: service.ReportPorts) -> CoverageResponse:
    query = call.query
    results = service.coverage(
        ports.snapshots, ports.config, country=query.country, include_complete=query.include_complete
    )
    return CoverageResponse(data=CoverageData(countries=[coverage_entry(c) for c in results]))


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/data-health",
        name="getDataHealth",
        tag="reports",
        summary="Whether every enabled country has a published pool, and configuration errors",
        description="healthy: every enabled country is ready and the configuration has no errors. "
        "syncState (an addition to the spec) says where each country stands in a running sync: waiting, "
        "building (being written now), published (has a pool, not being rebuilt) or missing (no pool, "
        "and no running sync will build one); a sync report unfinished after 6 hours counts as not running.",
        response=DataHealthResponse,
        scope=Scope.READ,
    ),
    needs=lambda d: d.report_ports(),
)
def data_health(call: Call[None, None], ports: service.ReportPorts) -> DataHealthResponse:
    health = service.data_health(ports.snapshots, ports.config, ports.sync_reports, ports.clock.now())
    return DataHealthResponse(
        data=DataHealth(
            healthy=health.healthy,
            countries=[
                CountryHealth(
                    code=c.code,
                    ready=c.ready,
                    count=c.count,
                    sync_state=health.sync_states[c.code].value,
                )
                for c in health.countries
            ],
            configuration_errors=configuration_issues(health.configuration_errors),
        )
    )
