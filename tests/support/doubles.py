"""The audit's doubles probe over a whole export: one address served twice. Two served addresses
are doubles when they have the same country, street (without diacritics), number and unit
(without spaces or case), and postcode, and lie within 150 m of each other, whatever their city
or district says."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import search_key
from chalicelib.services.sync.dedupe import distance_meters

NEAR_METERS = 150.0


def doubles(addresses: Iterable[PublishedAddress]) -> list[tuple[str, str]]:
    """The ids of every pair of doubles."""
    groups: dict[tuple[str, ...], list[PublishedAddress]] = defaultdict(list)
    for address in addresses:
        if address.components.postcode and address.components.house_number:
            groups[_key(address)].append(address)
    found: list[tuple[str, str]] = []
    for group in groups.values():
        for i, a in enumerate(group):
            found += [
                (a.id, b.id)
                for b in group[i + 1 :]
                if distance_meters(a.lat, a.lon, b.lat, b.lon) <= NEAR_METERS
            ]
    return found


def _key(address: PublishedAddress) -> tuple[str, ...]:
    """Written out here, not the dedupe's key: the probe judges the dedupe."""
    c = address.components
    compact = ["".join((v or "").casefold().split()) for v in (c.house_number, c.unit, c.postcode)]
    return (address.country, search_key(c.street or ""), *compact)
