"""Candidate → PublishedAddress: regions resolved to ISO 3166-2; a missing city, district, region or
postcode filled only from published evidence (the source's configured area, the administrative
boundaries in the same extracts, a postal authority's table, a US ZIP); every component that
differs from the row's own text listed in `derived`; completeness against the country's postal
rules; a stable id; and the one-line form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from chalicelib.domain.addresses import Components, Provenance, PublishedAddress, stable_address_id
from chalicelib.domain.locations import value_key
from chalicelib.domain.scripts import is_latin
from chalicelib.reference import hong_kong
from chalicelib.reference.countries import facts
from chalicelib.reference.formatting import format_address
from chalicelib.reference.pool_config import SourceConfig
from chalicelib.reference.postal_areas import area_postcode, postcode_place, postcode_region
from chalicelib.reference.postal_forms import assess, postcode_province
from chalicelib.reference.regions import Region, gazetteer, us_zip
from chalicelib.services.sync.normalize import Candidate, FieldRemoval
from chalicelib.sources.boundaries import Boundary
from chalicelib.sources.manifest import SourceEntry

OSM_ORIGIN = "osm"
OVERTURE_ORIGIN = "overture"


@dataclass(frozen=True)
class SourceFacts:
    """What enrichment knows about the source a candidate came from."""

    family: str
    entry: SourceEntry
    config: SourceConfig
    # Administrative boundaries read from the OSM extracts, per country.
    boundaries: Mapping[str, Sequence[Boundary]] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        return OSM_ORIGIN if self.entry.format.startswith("osm") else self.family

    def applies_to(self, country: str) -> bool:
        """The source's configured area speaks for its own country only (the LI extract holds AT rows)."""
        return country == self.entry.country


def publish(candidate: Candidate, source: SourceFacts) -> PublishedAddress:
    country = candidate.raw.country
    derived: list[str] = []
    region, region_text = _region(candidate, source, derived)
    city = _city(candidate, source, derived)
    district = _numbered_district(candidate, derived) or _boundary(candidate, source, "district", derived)
    if region is None and city:
        region = _region_from_city(country, city, derived)
    if not city and region is not None and facts(country).municipal_regions:
        city = _municipality(country, region, derived)
    region_value = region_text or (region.name if region else None)
    if candidate.postcode and _postcode_adds_to(candidate.raw.postcode, candidate.postcode):
        derived.append("postcode")
    postcode = candidate.postcode or _area_postcode(country, region_value, city, candidate.street, derived)
    province = _province(candidate, region, postcode, derived) if facts(country).postal_province else None
    components = Components(
        street=candidate.street or None,
        house_number=candidate.number or None,
        unit=candidate.unit or None,
        district=district or None,
        city=city or None,
        region=region_value,
        region_code=region.code if region else None,
        postcode=postcode or None,
        province=province.name if province else None,
        province_code=province.code if province else None,
    )
    completeness = assess(country, components)
    if "postcode" in completeness.invalid and "postcode" not in derived:
        # A published postcode the country's rules place in another region (KR 19497 in Suwon).
        candidate.removed.append(FieldRemoval.POSTCODE_OUTSIDE_REGION)
        components = replace(components, postcode=None)
        completeness = assess(country, components)
    return PublishedAddress(
        id=_address_id(candidate, source),
        country=country,
        match_level=candidate.match_level,
        property_type=candidate.property_type,
        components=components,
        formatted=format_address(country, components),
        lon=round(candidate.lon, 7),
        lat=round(candidate.lat, 7),
        provenance=_provenance(candidate, source.entry),
        names=candidate.raw.names,
        readings=candidate.raw.readings,
        derived=tuple(derived),
        completeness=completeness,
    )


def _address_id(candidate: Candidate, source: SourceFacts) -> str:
    """Same record and address text, same id, in every sync. An Overture row's rests on what
    identifies the address alone, its text at its place (to 0.1 m), never on which dataset,
    provider or record id a release names: those fields come and go (`dataset` is to be removed),
    and Overture re-ids a row on any change."""
    raw, country = candidate.raw, candidate.raw.country
    if raw.overture_id:
        place = f"@{candidate.lon:.6f},{candidate.lat:.6f}"
        return stable_address_id(country, OVERTURE_ORIGIN, place, _identity_text(candidate))
    return stable_address_id(country, source.origin, raw.record_id, _identity_text(candidate))


def _provenance(candidate: Candidate, entry: SourceEntry) -> Provenance:
    """A row naming its own dataset (Overture's) is served under it and under its own licence where
    it gives one (or Overture's table does), and its attribution names the dataset's publisher
    first (CC-BY asks to credit the licensor, not only the aggregator); the others under their
    manifest entry's."""
    raw, source_id = candidate.raw, entry.family or entry.id  # a family outlives its tasks' entries
    if not raw.dataset:
        return Provenance(source_id, raw.license or entry.license, _credited(raw.attribution, entry))
    credited = _credited(raw.attribution or raw.dataset, entry)
    return Provenance(f"{source_id}:{raw.dataset}", raw.license or entry.license, credited)


def _credited(publisher: str, entry: SourceEntry) -> str:
    return f"{publisher}; {entry.attribution}" if publisher else entry.attribution


def _identity_text(candidate: Candidate) -> str:
    """Street, number and unit: a source id shared by several addresses (Alameda's parcel numbers)
    still gives each its own id, and an unchanged address keeps its id across syncs."""
    return "|".join(value_key(v) for v in (candidate.street, candidate.number, candidate.unit))


def _region(candidate: Candidate, source: SourceFacts, derived: list[str]) -> tuple[Region | None, str]:
    """The ISO region, and the text to show for it: the source's own spelling when it is in a
    non-Latin script (和歌山県, 北京市), else the ISO name. A served name that differs from the
    source's text (MD → Maryland, Friesland → Fryslân) is listed as derived."""
    country = candidate.raw.country
    if country == "HK":
        return None, _hong_kong_area(candidate, source, derived)
    regions = gazetteer(country)
    if candidate.region:
        resolved = regions.resolve(candidate.region)
        if resolved is None:
            return None, candidate.region  # kept as published; no code is guessed
        # Vietnamese "Hồ Chí Minh" is Latin: served as the gazetteer names it (Thành phố Hồ Chí Minh).
        text = "" if is_latin(candidate.region) else candidate.region
        if resolved.derived or value_key(text or resolved.region.name) != value_key(candidate.region):
            derived.append("region")
        return resolved.region, text
    area = source.config.region
    if area and source.applies_to(country) and (found := regions.by_code(area)):
        derived.append("region")
        return found, ""
    if country == "US" and candidate.postcode and (place := us_zip(candidate.postcode)):
        found = regions.by_code(place.state)
        if found:
            derived.append("region")
            return found, ""
    if candidate.postcode and (name := postcode_region(country, candidate.postcode)):
        resolved = regions.resolve(name)
        if resolved is not None:
            derived.append("region")
            return resolved.region, ""
    return None, ""


def _hong_kong_area(candidate: Candidate, source: SourceFacts, derived: list[str]) -> str:
    """HK has no ISO subdivisions; its forms ask for the area (九龍, Kowloon), which the district
    names: the row's own area or district where it gives one, else its source's district. Served
    in Chinese, the country's language, with its English name among the row's names (so one area
    is one catalog entry, found by either name)."""
    own = hong_kong.area(candidate.region) if candidate.region else None
    named = (candidate.district, candidate.city, source.config.district if source.applies_to("HK") else None)
    found = own or next((d[1] for name in filter(None, named) if (d := hong_kong.district(name))), None)
    if found is None:
        return candidate.region
    if found.chinese != candidate.region:
        derived.append("region")
    candidate.raw.names.setdefault("en", {})["region"] = found.english
    return found.chinese


def _municipality(country: str, region: Region, derived: list[str]) -> str:
    """A city governed as a province (Hà Nội) is its own city: ISO 3166-2 types it Municipality."""
    if not gazetteer(country).is_municipality(region.code):
        return ""
    derived.append("city")
    return region.name


def _numbered_district(candidate: Candidate, derived: list[str]) -> str:
    """Ho Chi Minh City's districts are numbered, and OSM often tags the number alone
    (addr:district=5): it is Quận 5, as the city names it and as the other rows write it."""
    if candidate.raw.country == "VN" and candidate.district.isdigit():
        derived.append("district")
        return f"Quận {int(candidate.district)}"
    return candidate.district


def _province(
    candidate: Candidate, region: Region | None, postcode: str, derived: list[str]
) -> Region | None:
    """The province the row names as its region, else the one province its postcode's prefix
    belongs to (listed as derived). A province outside the address's region is never served."""
    regions = gazetteer(candidate.raw.country)
    named = regions.province(candidate.region) if candidate.region else None
    code = postcode_province(candidate.raw.country, postcode) if postcode and named is None else None
    province = named or (regions.province_by_code(code) if code else None)
    if province is None or (region is not None and regions.top_level(province.code) != region.code):
        return None
    if named is None:
        derived.append("province")
    return province


def _city(candidate: Candidate, source: SourceFacts, derived: list[str]) -> str:
    if candidate.city:
        return candidate.city
    country = candidate.raw.country
    if source.config.city and source.applies_to(country):
        derived.append("city")
        return source.config.city
    if within := _boundary(candidate, source, "city", derived):
        return within
    if country == "US" and candidate.postcode and (place := us_zip(candidate.postcode)) and place.city:
        derived.append("city")
        return place.city.upper() if source.entry.language == "en" else place.city
    if candidate.postcode and (place_name := postcode_place(country, candidate.postcode)):
        derived.append("city")
        return place_name
    return ""


def _boundary(candidate: Candidate, source: SourceFacts, component: str, derived: list[str]) -> str:
    """The name of the boundary containing the address, at the first of the country's levels for
    that component that has one."""
    country = candidate.raw.country
    levels = getattr(facts(country).admin_levels, component)
    boundaries = source.boundaries.get(country, ())
    for level in levels:
        for boundary in boundaries:
            if boundary.level == level and boundary.contains(candidate.lon, candidate.lat):
                derived.append(component)
                return boundary.name
    return ""


def _postcode_adds_to(published: str, served: str) -> bool:
    """Whether the canonical form adds characters the row did not publish (AD `500` → `AD500`), not
    only spacing, case or a dropped locality (PT `4300-198 PORTO`)."""
    return _alphanumerics(served) not in _alphanumerics(published)


def _alphanumerics(text: str) -> str:
    return "".join(ch for ch in text.upper() if ch.isalnum())


def _area_postcode(country: str, region: str | None, city: str, street: str, derived: list[str]) -> str:
    postcode = area_postcode(country, region or "", city, street)
    if postcode:
        derived.append("postcode")
    return postcode or ""


def _region_from_city(country: str, city: str, derived: list[str]) -> Region | None:
    region = gazetteer(country).first_level_for_city(city)
    if region is not None:
        derived.append("region")
    return region
