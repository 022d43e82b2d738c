"""Candidate → PublishedAddress: regions resolved to ISO 3166-2, missing region and city filled from
gazetteers or the source's area (marked derived), a stable id, and the one-line form."""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.domain.addresses import Components, Provenance, PublishedAddress, stable_address_id
from chalicelib.domain.formatting import format_address
from chalicelib.services.sync.config import SourceConfig
from chalicelib.services.sync.normalize import Candidate
from chalicelib.services.sync.regions import Region, gazetteer, us_zip
from chalicelib.sources.manifest import SourceEntry

OSM_ORIGIN = "osm"


@dataclass(frozen=True)
class SourceContext:
    """What enrichment knows about the source a candidate came from."""

    family: str
    entry: SourceEntry
    config: SourceConfig

    @property
    def origin(self) -> str:
        return OSM_ORIGIN if self.entry.format.startswith("osm") else self.family


def publish(candidate: Candidate, source: SourceContext) -> PublishedAddress:
    country = candidate.raw.country
    derived: list[str] = []
    region, region_text = _region(candidate, source, derived)
    city = _city(candidate, source, derived)
    if region is None and city:
        region = _region_from_city(country, city, derived)
    components = Components(
        street=candidate.street or None,
        house_number=candidate.number or None,
        unit=candidate.unit or None,
        district=candidate.district or None,
        city=city or None,
        region=region_text or (region.name if region else None),
        region_code=region.code if region else None,
        postcode=candidate.postcode or None,
    )
    return PublishedAddress(
        id=stable_address_id(country, source.origin, candidate.raw.record_id),
        country=country,
        match_level=candidate.match_level,
        property_type=candidate.property_type,
        components=components,
        formatted=format_address(country, components),
        lon=round(candidate.lon, 7),
        lat=round(candidate.lat, 7),
        provenance=Provenance(source.entry.id, source.entry.license, source.entry.attribution),
        names=candidate.raw.names,
        readings=candidate.raw.readings,
        derived=tuple(derived),
    )


def _region(candidate: Candidate, source: SourceContext, derived: list[str]) -> tuple[Region | None, str]:
    """The ISO region, and the text to show for it: the source's own spelling when it is in a
    non-Latin script (和歌山県, 北京市), else the ISO name."""
    country = candidate.raw.country
    regions = gazetteer(country)
    if candidate.region:
        resolved = regions.resolve(candidate.region)
        if resolved is None:
            return None, candidate.region  # kept as published; no code is guessed
        if resolved.derived:
            derived.append("region")
        return resolved.region, candidate.region if not candidate.region.isascii() else ""
    area = source.config.region
    if area and area.startswith(f"{country}-") and (found := regions.by_code(area)):
        derived.append("region")
        return found, ""
    if country == "US" and candidate.postcode and (place := us_zip(candidate.postcode)):
        found = regions.by_code(place.state)
        if found:
            derived.append("region")
            return found, ""
    return None, ""


def _city(candidate: Candidate, source: SourceContext, derived: list[str]) -> str:
    if candidate.city:
        return candidate.city
    country = candidate.raw.country
    area_region = source.config.region or ""
    if source.config.city and area_region.startswith(f"{country}-"):
        derived.append("city")
        return source.config.city
    if country == "US" and candidate.postcode and (place := us_zip(candidate.postcode)) and place.city:
        derived.append("city")
        return place.city.upper() if source.entry.language == "en" else place.city
    return ""


def _region_from_city(country: str, city: str, derived: list[str]) -> Region | None:
    region = gazetteer(country).first_level_for_city(city)
    if region is not None:
        derived.append("region")
    return region
