"""Duplicates within and across sources: the same normalized address text at (nearly) the same place.
Text alone is not enough: 'Main St 1' without a city can be two real places in one county."""

from __future__ import annotations

import math

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import value_key

SAME_PLACE_METERS = 250.0
_METERS_PER_DEGREE = 111_320.0
_EARTH_RADIUS_M = 6_371_000.0


def text_key(address: PublishedAddress) -> tuple[str, ...]:
    c = address.components
    return (
        address.country,
        *(value_key(v or "") for v in (c.street, c.house_number, c.unit, c.city, c.district, c.postcode)),
    )


class Deduplicator:
    """Keeps the first of each duplicate set, in input order (deterministic for the same sources)."""

    def __init__(self) -> None:
        self._seen_ids: set[str] = set()
        self._places: dict[tuple[str, ...], list[tuple[float, float]]] = {}

    def is_duplicate(self, address: PublishedAddress, precision_meters: float = 0.0) -> bool:
        """`precision_meters`: how coarse the source's coordinates are (CN publishes 2 decimals, ~1 km);
        text-identical rows that close are one address."""
        if address.id in self._seen_ids:  # the same OSM object in two overlapping extracts
            return True
        places = self._places.setdefault(text_key(address), [])
        tolerance = max(SAME_PLACE_METERS, 1.5 * precision_meters)
        if any(_meters(address.lat, address.lon, lat, lon) <= tolerance for lat, lon in places):
            return True
        places.append((address.lat, address.lon))
        self._seen_ids.add(address.id)
        return False


def _meters(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * _EARTH_RADIUS_M * math.asin(math.sqrt(a))


def coordinate_precision_meters(lon_text: str, lat_text: str) -> float:
    """The ground distance of one unit in the last published decimal place."""
    decimals = min(_decimals(lon_text), _decimals(lat_text))
    return _METERS_PER_DEGREE * 10.0**-decimals


def _decimals(text: str) -> int:
    _, dot, fraction = text.strip().partition(".")
    return len(fraction.rstrip()) if dot else 0
