"""The repo's pool configuration: which countries are served, their bounds and coverage targets, and
per-source facts. Validated at every sync; problems become configurationErrors, never crashes."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from chalicelib.domain.addresses import PropertyType
from chalicelib.reference.licences import LicencePolicy, load_licence_policy

Box = tuple[float, float, float, float]  # west, south, east, north


class RegionalMinimum(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    share: float = Field(ge=0, le=1)
    min_addresses: int = Field(ge=1, alias="minAddresses")


class CoverageTargets(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    total: int = Field(ge=1)
    administrative_coverage: float = Field(ge=0, le=1, alias="administrativeCoverage")
    regional_minimum: RegionalMinimum = Field(alias="regionalMinimum")


class CountryConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = True
    language: str = Field(min_length=2)
    bounds: tuple[Box, ...] = Field(min_length=1)
    # How far outside every box a point may lie and still count as inside (coastlines, borders).
    margin: float = Field(default=0.5, ge=0, le=2)
    coverage: CoverageTargets


class SourceConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    region: str | None = Field(default=None, pattern=r"^[A-Z]{2}-[A-Z0-9]{1,3}$")
    city: str | None = None
    district: str | None = None
    street_level: bool = Field(default=False, alias="streetLevel")
    # The source's own value for "this address has no number" (the Icelandic register's 0): such a
    # row is served as a street-level address, without the number.
    no_number: tuple[str, ...] = Field(default=(), alias="noNumber")
    # Older sources of the same addresses: where both publish an address, this source's values win.
    supersedes: tuple[str, ...] = ()
    # What every premises of the source is, by its own definition (a register of clinics):
    # each row's property type (domain/premises.py).
    premises: PropertyType | None = None


@dataclass(frozen=True)
class ConfigIssue:
    country: str | None
    field: str
    message: str


@dataclass(frozen=True)
class PoolConfig:
    countries: dict[str, CountryConfig]
    sources: dict[str, SourceConfig]
    issues: tuple[ConfigIssue, ...] = field(default=())
    text: str = ""  # the configuration as read, for fingerprints
    licences: LicencePolicy = field(default_factory=load_licence_policy)

    @property
    def enabled(self) -> list[str]:
        return sorted(code for code, c in self.countries.items() if c.enabled)

    def source(self, source_id: str) -> SourceConfig:
        return self.sources.get(source_id, SourceConfig())

    def supersedes(self) -> dict[str, frozenset[str]]:
        return {family: frozenset(s.supersedes) for family, s in self.sources.items() if s.supersedes}

    def primary_languages(self) -> dict[str, str]:
        return {code: c.language.split("-")[0] for code, c in self.countries.items()}


def load_pool_config(countries_text: str | None = None, sources_text: str | None = None) -> PoolConfig:
    """Parse and validate; every invalid entry is left out and reported as a ConfigIssue."""
    issues: list[ConfigIssue] = []
    countries_text = countries_text or _packaged("countries.json")
    sources_text = sources_text or _packaged("sources.json")
    countries_raw = _json(countries_text, "countries.json", issues)
    sources_raw = _json(sources_text, "sources.json", issues)
    countries = _parse_countries(countries_raw.get("countries", {}), issues)
    sources = _parse_sources(sources_raw.get("sources", {}), issues)
    licences = load_licence_policy()
    text = f"{countries_text}|{sources_text}|{licences.text}"
    return PoolConfig(
        countries=countries, sources=sources, issues=tuple(issues), text=text, licences=licences
    )


def _packaged(name: str) -> str:
    return resources.files("chalicelib.reference.data").joinpath(name).read_text(encoding="utf-8")


def _json(text: str, name: str, issues: list[ConfigIssue]) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError as exc:
        issues.append(ConfigIssue(None, name, f"not valid JSON: {exc}"))
        return {}
    if not isinstance(value, dict):
        issues.append(ConfigIssue(None, name, "must be a JSON object"))
        return {}
    return value


def _parse_countries(raw: Any, issues: list[ConfigIssue]) -> dict[str, CountryConfig]:
    import pycountry  # ISO's tables load in some 50 ms: only where a configuration is read

    countries: dict[str, CountryConfig] = {}
    for code, entry in raw.items() if isinstance(raw, dict) else []:
        if pycountry.countries.get(alpha_2=str(code)) is None or code != str(code).upper():
            issues.append(ConfigIssue(str(code), "country", "not an ISO 3166-1 alpha-2 code"))
            continue
        try:
            countries[code] = CountryConfig.model_validate(entry)
        except ValidationError as exc:
            issues.extend(_validation_issues(code, exc))
    return countries


def _parse_sources(raw: Any, issues: list[ConfigIssue]) -> dict[str, SourceConfig]:
    sources: dict[str, SourceConfig] = {}
    for source_id, entry in raw.items() if isinstance(raw, dict) else []:
        try:
            sources[source_id] = SourceConfig.model_validate(entry)
        except ValidationError as exc:
            issues.extend(_validation_issues(None, exc, prefix=f"sources.{source_id}"))
    return sources


def _validation_issues(country: str | None, exc: ValidationError, prefix: str = "") -> list[ConfigIssue]:
    issues = []
    for error in exc.errors():
        path = ".".join(str(p) for p in error["loc"])
        issues.append(ConfigIssue(country, f"{prefix}.{path}" if prefix else path, error["msg"]))
    return issues
