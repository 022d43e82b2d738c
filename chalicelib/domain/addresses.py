"""A published address: what the pool serves, built only from what a source published."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import astuple, dataclass, field
from enum import StrEnum


class MatchLevel(StrEnum):
    HOUSE_NUMBER = "houseNumber"
    STREET = "street"


class PropertyType(StrEnum):
    RESIDENTIAL = "residential"
    COMMERCIAL = "commercial"
    INSTITUTIONAL = "institutional"
    INDUSTRIAL = "industrial"
    MIXED = "mixed"  # the source names more than one of the others
    UNKNOWN = "unknown"


COMPONENT_FIELDS = (
    "street",
    "house_number",
    "unit",
    "district",
    "city",
    "region",
    "region_code",
    "postcode",
    "province",
    "province_code",
)


@dataclass(frozen=True, slots=True)
class Components:
    street: str | None = None
    house_number: str | None = None
    unit: str | None = None
    district: str | None = None
    city: str | None = None
    region: str | None = None
    region_code: str | None = None
    postcode: str | None = None
    # The second-level unit a postal address names where the country's forms ask for it (IT and ES
    # provinces): an addition beside the first-level region, never in its place.
    province: str | None = None
    province_code: str | None = None

    def values(self) -> tuple[str | None, ...]:
        """Every component, in COMPONENT_FIELDS order."""
        return astuple(self)


@dataclass(frozen=True, slots=True)
class Provenance:
    source_id: str
    license: str
    attribution: str


@dataclass(frozen=True, slots=True)
class Completeness:
    """Whether an address form with the country's postal rules accepts the address as served:
    `missing` lists required components it lacks, `invalid` those the rules reject (a postcode
    outside its region's prefixes, a city the country's list does not know)."""

    complete: bool
    missing: tuple[str, ...] = ()
    invalid: tuple[str, ...] = ()


UNASSESSED = Completeness(complete=False)


@dataclass(frozen=True, slots=True)
class PublishedAddress:
    id: str
    country: str
    match_level: MatchLevel
    property_type: PropertyType
    components: Components
    formatted: str
    lon: float
    lat: float
    provenance: Provenance
    # Names the source publishes per language: {"en": {"street": "Aoicho", ...}}.
    names: dict[str, dict[str, str]] = field(default_factory=dict)
    # Readings the source publishes (JP katakana).
    readings: dict[str, str] = field(default_factory=dict)
    # Components that differ from the row's own text: filled from a gazetteer, a postal table, the
    # boundaries in the same extract or the source's configured area, or renamed by normalization.
    derived: tuple[str, ...] = ()
    completeness: Completeness = UNASSESSED

    @property
    def is_complete(self) -> bool:
        return self.completeness.complete

    @property
    def is_residential(self) -> bool:
        return self.property_type is PropertyType.RESIDENTIAL


def stable_address_id(country: str, origin: str, record_id: str, text: str = "") -> str:
    """Same source record and address text → same id in every sync. `origin` is the source family,
    or "osm" for OSM objects, whose type/id is global so the id survives a move between extracts;
    `text` tells apart the distinct addresses a source publishes under one record id."""
    digest = hashlib.sha256(f"{country}|{origin}|{record_id}|{text}".encode()).digest()
    return f"{country.lower()}-{base64.b32encode(digest[:10]).decode().lower()}"
