"""The audit's doubles probe: one address served twice with its city written two ways. Two served
addresses are doubles when they have the same country, street (without diacritics), number, unit
and postcode, lie within 150 m of each other, and their cities' texts differ."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import value_key
from chalicelib.services.sync.dedupe import SAME_SPELLING_METERS, distance_meters, street_key


def city_spelling_doubles(addresses: Iterable[PublishedAddress]) -> list[tuple[str, str]]:
    """The ids of every pair of doubles."""
    groups: dict[tuple[str, ...], list[PublishedAddress]] = defaultdict(list)
    for address in addresses:
        if address.components.postcode and address.components.house_number:
            groups[(*street_key(address), value_key(address.components.postcode))].append(address)
    doubles: list[tuple[str, str]] = []
    for group in groups.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                near = distance_meters(a.lat, a.lon, b.lat, b.lon) <= SAME_SPELLING_METERS
                if near and value_key(a.components.city or "") != value_key(b.components.city or ""):
                    doubles.append((a.id, b.id))
    return doubles
