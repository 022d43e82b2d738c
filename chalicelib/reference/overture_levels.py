"""What each position of Overture's `address_levels` names, per country (most general first).

Overture publishes no per-country table (its schema documents the US, two levels: state, then
municipality); these are read off the upstream sources Overture takes each country from and off
the replica in ../shared/sources/overture, whose README documents ten of them. docs/overture.md
gives each row's basis. A position mapped to None is not carried (Italy's provincia: the served
province comes from the postcode). Where a row publishes `postal_city` (the US from the National
Address Database, NO, SI), that is the city a form asks for, and the level naming the municipality
gives way to it."""

from __future__ import annotations

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
    "LV": _REGION_CITY_DISTRICT,
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


def levels_of(country: str) -> tuple[Level, ...]:
    """The country's mapping; a country not in the table keeps no level (its rows keep their
    street, number, unit, postcode, postal city and point)."""
    return LEVELS.get(country, ())
