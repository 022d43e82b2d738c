"""Countries, availability, coverage, data health and client context."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from chalicelib.api.models.common import ApiModel, CountryCode, IpText, QueryModel


class CountryEntry(ApiModel):
    code: str
    address_count: int
    residential_available: bool
    residential_count: int
    complete_count: int = Field(description="Addresses a form with the country's postal rules accepts")
    generation_mode: Literal["synchronized-pool"]


class CountriesResponse(ApiModel):
    data: list[CountryEntry]


class AvailabilityEntry(ApiModel):
    code: str
    available: bool
    residential_available: bool


class AvailabilityResponse(ApiModel):
    data: list[AvailabilityEntry]


class CoverageQuery(QueryModel):
    country: CountryCode | None = None
    include_complete: bool = True


class CountRule(ApiModel):
    current: int
    target: int
    met: bool


class FractionRule(ApiModel):
    actual: float
    target: float
    met: bool


class CoverageRules(ApiModel):
    total: CountRule
    administrative_coverage: FractionRule
    regional_minimums: FractionRule


class CoverageEntry(ApiModel):
    country_code: str
    complete: bool
    rules: CoverageRules


class CoverageData(ApiModel):
    countries: list[CoverageEntry]


class CoverageResponse(ApiModel):
    data: CoverageData


SyncStateName = Literal["waiting", "building", "published", "missing"]


class CountryHealth(ApiModel):
    code: str
    ready: bool
    count: int
    sync_state: SyncStateName = Field(
        description="where the country stands in a running sync (an addition to the spec)"
    )


class ConfigurationIssue(ApiModel):
    country: str | None
    field: str
    message: str


class DataHealth(ApiModel):
    healthy: bool
    countries: list[CountryHealth]
    configuration_errors: list[ConfigurationIssue]


class DataHealthResponse(ApiModel):
    data: DataHealth


class ClientContextQuery(QueryModel):
    ip: IpText | None = Field(default=None, description="IPv4 or IPv6; omitted: the caller's address")


class ClientContext(ApiModel):
    ip: str = Field(description="The address looked up (IPv4-mapped IPv6 as IPv4)")
    country: str = Field(description="ISO 3166-1 alpha-2")
    region: str | None = Field(
        description="The first-level region as the catalog names it, usable as the region filter; "
        "null when the database knows none or its name maps to no ISO 3166-2 unit"
    )
    region_code: str | None = Field(description="ISO 3166-2 code of the region (an addition to the spec)")
    region_id: str | None = Field(
        description="The region's catalog id when the country's published pool has it (an addition)"
    )
    city: str | None
    match_level: Literal["city", "region", "country"] = Field(
        description="The finest level the database places the address at"
    )


class ClientContextResponse(ApiModel):
    data: ClientContext
