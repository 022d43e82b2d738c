"""What each position of Overture's `address_levels` names, per country (most general first).

Overture publishes no per-country table (its schema documents the US, two levels: state, then
municipality); these are read off the upstream sources Overture takes each country from and off
the replica in ../shared/sources/overture, whose README documents ten of them. docs/overture.md
gives each row's basis. A position mapped to None is not carried (Italy's provincia: the served
province comes from the postcode). Where a row publishes `postal_city` (the US from the National
Address Database, NO, SI), that is the city a form asks for, and the level naming the municipality
gives way to it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Level = Literal["region", "district", "city"] | None

_REGION_CITY: tuple[Level, ...] = ("region", "city")
_CITY: tuple[Level, ...] = ("city",)
_REGION_CITY_DISTRICT: tuple[Level, ...] = ("region", "city", "district")
_REGION_DISTRICT_CITY: tuple[Level, ...] = ("region", "district", "city")

LEVELS: dict[str, tuple[Level, ...]] = {
    # Two levels: state or province, then municipality.
    "US": _REGION_CITY,
    "CA": _REGION_CITY,
    "MX": _REGION_CITY,
    "JP": _REGION_CITY,  # prefecture, municipality or ward; chōme and ōaza are in `street`
    "DE": _REGION_CITY,
    "AU": _REGION_CITY,
    "CO": _REGION_CITY,
    "UY": _REGION_CITY,
    "CL": _REGION_CITY,
    "CH": _REGION_CITY,
    "DK": _REGION_CITY,  # region (often empty), postal district (`Odense C`)
    # Three: the region, the municipality, then a part of it.
    "TW": _REGION_CITY_DISTRICT,  # county, township, village
    "BR": _REGION_CITY_DISTRICT,  # state, municipality, bairro
    "EE": _REGION_CITY_DISTRICT,  # maakond, municipality, settlement or city district
    "SK": _REGION_CITY_DISTRICT,  # kraj, obec, časť obce
    "HK": _REGION_CITY_DISTRICT,
    # Three, the settlement last.
    "PL": _REGION_DISTRICT_CITY,  # voivodeship, powiat, locality
    "LT": _REGION_DISTRICT_CITY,  # apskritis, savivaldybė, settlement
    "SI": _REGION_DISTRICT_CITY,  # statistical region, občina, naselje
    "IT": ("region", None, "city"),  # regione, provincia, comune
    # A municipality, then the place the address is delivered to.
    "AT": ("district", "city"),  # Gemeinde, Zustellort
    "FO": ("district", "city"),
    "NZ": ("city", "district"),  # town or city, suburb
    "GL": ("city", "district"),  # locality, municipality
    # One level.
    "FR": _CITY,  # commune (Paris: its arrondissement)
    "ES": _CITY,
    "NL": _CITY,  # woonplaats
    "PT": _CITY,
    "BE": _CITY,
    "FI": _CITY,  # postitoimipaikka
    "CZ": _CITY,
    "HR": _CITY,
    "RS": _CITY,
    "LU": _CITY,
    "LI": _CITY,
    "SG": _CITY,
    "NO": ("district",),  # kommune; the postal town is `postal_city`
    "IS": ("district",),  # municipality
}


# Latvia's rows are as deep as the place is (OvertureMaps/data#509, release 2026-03-18.0): the first
# level is the first-level unit (a novads, or a state city: 111 K rows carry `Rīga` alone), the
# last the settlement; a parish (pagasts) between them is the district:
#   [Rīga]                                → region Rīga, city Rīga
#   [Jēkabpils nov., Jēkabpils]           → region, city
#   [Olaines nov., Olaines pag., Jāņupe]  → region, district, city
_BY_DEPTH: dict[str, dict[int, tuple[Level, ...]]] = {
    "LV": {1: ("region",), 2: ("region", "city"), 3: ("region", "district", "city")},
}
# Where one level names two components: a state city is its own city.
_ALSO_CITY = {"LV": 1}
# Every country whose levels are known: the 39 Overture's addresses cover.
COUNTRIES = (*LEVELS, *_BY_DEPTH)


def levels_of(country: str, values: Sequence[str | None] = ()) -> tuple[Level, ...]:
    """What each of a row's levels names (`values`: its published values, for a country whose
    rows differ in depth); a country not in the table keeps no level (its rows keep their street,
    number, unit, postcode, postal city and point)."""
    depths = _BY_DEPTH.get(country)
    if depths is None:
        return LEVELS.get(country, ())
    depth = max((i + 1 for i, v in enumerate(values) if v), default=0)
    return depths.get(depth, ())


def assign(country: str, values: Sequence[str | None]) -> dict[str, str]:
    """The components a row's published level values give."""
    found: dict[str, str] = {
        name: value
        for name, value in zip(levels_of(country, values), values, strict=False)
        if name is not None and value
    }
    if _ALSO_CITY.get(country) == len([v for v in values if v]) and "region" in found:
        found["city"] = found["region"]
    return found
