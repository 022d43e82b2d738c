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
    UNKNOWN = "unknown"


COMPONENT_FIELDS = ("street", "house_number", "unit", "district", "city", "region", "region_code", "postcode")


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

    def values(self) -> tuple[str | None, ...]:
        """Every component, in COMPONENT_FIELDS order."""
        return astuple(self)


@dataclass(frozen=True, slots=True)
class Provenance:
    source_id: str
    license: str
    attribution: str


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
    # Components filled from a gazetteer or the source's configured area rather than the row itself.
    derived: tuple[str, ...] = ()

    @property
    def is_residential(self) -> bool:
        return self.property_type is PropertyType.RESIDENTIAL


def stable_address_id(country: str, origin: str, record_id: str) -> str:
    """Same source record → same id in every sync. `origin` is the source family, or "osm" for OSM
    objects, whose type/id is global so the id survives a move between extracts."""
    digest = hashlib.sha256(f"{country}|{origin}|{record_id}".encode()).digest()
    return f"{country.lower()}-{base64.b32encode(digest[:10]).decode().lower()}"
