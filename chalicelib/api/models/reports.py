"""Countries, availability, coverage, data health and client context."""

from __future__ import annotations

from typing import Literal

from chalicelib.api.models.common import ApiModel, CountryCode, IpText, QueryModel


class CountryEntry(ApiModel):
    code: str
    address_count: int
    residential_available: bool
    residential_count: int
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


class CountryHealth(ApiModel):
    code: str
    ready: bool
    count: int


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
    ip: IpText | None = None


class ClientContext(ApiModel):
    country: str
    region: str | None
    city: str | None
    match_level: Literal["city", "region", "country"]


class ClientContextResponse(ApiModel):
    data: ClientContext
