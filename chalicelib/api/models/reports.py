"""Countries, availability, coverage, data health and client context."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from chalicelib.api.models.common import ApiModel, CountryCode, IpText, QueryModel


class CountryEntry(ApiModel):
    """A country whose pool is published, with its counts"""

    code: str
    """ISO 3166-1 alpha-2"""
    address_count: int
    """Published addresses"""
    residential_available: bool
    """Whether any published address is residential"""
    residential_count: int
    """Published residential addresses"""
    complete_count: int = Field(description="Addresses a form with the country's postal rules accepts")
    trait_counts: dict[str, int] = Field(
        description="Addresses per trait (`traits=` on /generate): every trait, 0 where none has it",
        examples=[
            {
                "unit": 0,
                "no-number": 0,
                "diacritics": 1,
                "non-latin": 0,
                "multi-script": 0,
                "long-street": 0,
                "long-line": 0,
            }
        ],
    )
    length_thresholds: dict[str, int] = Field(
        description="Characters from which a street name (`long-street`) or a street line (`long-line`: "
        "number, street and unit) counts as long in this country: the shortest length at most 5% of "
        "its addresses reach; absent where no length is that rare",
        examples=[{"long-street": 24, "long-line": 28}],
    )
    property_type_counts: dict[str, int] = Field(
        description="Addresses per property type (`propertyType=` on /generate), as their sources "
        "classify them: every type, 0 where none is",
        examples=[
            {"residential": 0, "commercial": 1, "institutional": 0, "industrial": 0, "mixed": 0, "unknown": 0}
        ],
    )
    license_counts: dict[str, int] = Field(
        description="Addresses per licence class (`license=`: public-domain; attribution, public-domain "
        "records included; share-alike, all three) and per SPDX id its records name (case-folded)",
        examples=[{"public-domain": 0, "attribution": 0, "share-alike": 1, "odbl-1.0": 1}],
    )
    generation_mode: Literal["synchronized-pool"]
    """How addresses are served: drawn from the synchronized pool"""


class CountriesResponse(ApiModel):
    """The answer of GET /api/v1/countries"""

    data: list[CountryEntry]
    """The countries, by code"""


class AvailabilityEntry(ApiModel):
    """Whether an enabled country can be generated"""

    code: str
    """ISO 3166-1 alpha-2"""
    available: bool
    """Whether its pool is published"""
    residential_available: bool
    """Whether its pool holds residential addresses"""


class AvailabilityResponse(ApiModel):
    """The answer of GET /api/v1/availability"""

    data: list[AvailabilityEntry]
    """Every enabled country, by code"""


class CoverageQuery(QueryModel):
    country: CountryCode | None = None
    """Only this country (enabled for synchronization)"""
    include_complete: bool = True
    """Include countries that meet every rule"""


class CountRule(ApiModel):
    """A count against its target"""

    current: int
    """The count now"""
    target: int
    """The count the rule asks for"""
    met: bool
    """current >= target"""


class FractionRule(ApiModel):
    """A share against its target"""

    actual: float
    """The share now, 0 to 1"""
    target: float
    """The share the rule asks for"""
    met: bool
    """actual >= target"""


class CoverageRules(ApiModel):
    """The three rules a country's pool must meet to be complete"""

    total: CountRule
    """Published addresses against the country's target"""
    administrative_coverage: FractionRule
    """Share of the country's first-level ISO 3166-2 subdivisions with an address"""
    regional_minimums: FractionRule
    """Share of the covered subdivisions holding at least the minimum of addresses"""


class CoverageEntry(ApiModel):
    """One enabled country's coverage"""

    country_code: str
    """ISO 3166-1 alpha-2"""
    complete: bool
    """Whether every rule is met"""
    rules: CoverageRules
    """The rules, each with its figures"""


class CoverageData(ApiModel):
    """Coverage per enabled country"""

    countries: list[CoverageEntry]
    """One entry per country, by code"""


class CoverageResponse(ApiModel):
    """The answer of GET /api/v1/coverage"""

    data: CoverageData
    """The coverage"""


SyncStateName = Literal["waiting", "building", "published", "missing"]


class CountryHealth(ApiModel):
    """One enabled country's pool"""

    code: str
    """ISO 3166-1 alpha-2"""
    ready: bool
    """Whether its pool is published and can serve"""
    count: int
    """Published addresses"""
    sync_state: SyncStateName = Field(
        description=(
            "where the country stands (an addition to the spec): `published`, its pool is served"
            " (and the running sync, if any, is not writing it now); `building`, the running sync"
            " is writing it now (a pool it had is still served); `waiting`, no pool yet, and the"
            " running sync will build one; `missing`, no pool and no running sync will build one"
            " (not synced yet, or its sources failed: the last sync's report says which)"
        )
    )


class ConfigurationIssue(ApiModel):
    """An error in the pool's configuration files"""

    country: str | None
    """The country it concerns; null for a whole file"""
    field: str
    """The setting at fault (a file name, or a path inside it)"""
    message: str
    """What is wrong with it"""


class DataHealth(ApiModel):
    """Whether the data can serve: each enabled country's pool and the configuration's errors"""

    healthy: bool
    """Every enabled country is ready and the configuration has no error"""
    countries: list[CountryHealth]
    """Each enabled country's pool"""
    configuration_errors: list[ConfigurationIssue]
    """The configuration's errors; empty when there are none"""


class DataHealthResponse(ApiModel):
    """The answer of GET /api/v1/data-health"""

    data: DataHealth
    """The data's health"""


class ClientContextQuery(QueryModel):
    ip: IpText | None = Field(default=None, description="IPv4 or IPv6; omitted: the caller's address")


class ClientContext(ApiModel):
    """Where an IP address is, per the IP database (DB-IP Lite, CC BY 4.0)"""

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
    """The city the database names; null when it names none"""
    match_level: Literal["city", "region", "country"] = Field(
        description="The finest level the database places the address at"
    )


class ClientContextResponse(ApiModel):
    """The answer of GET /api/v1/client-context"""

    data: ClientContext
    """Where the address is"""
