"""Near-miss variants for negative tests: a published address with one component removed, or
replaced by the value published for another address of the same country. Nothing is invented:
a variant is made of published values only, and says what it changed and whose value it took.

| kind | the base must have | changed to |
|---|---|---|
| `missing-postcode` | a postcode | none |
| `missing-number` | a house number | none (the address becomes street-level) |
| `missing-unit` | a unit | none |
| `postcode-of-another-place` | a postcode and a city | the postcode of an address in another city |
| `city-of-another-place` | a city | the city of another address |
| `street-of-another-city` | a city | the street of an address in another city |

A donor always publishes a city other than the base's (compared as the catalog compares names);
one in another region is preferred (a form's rules often tie a postcode or a city to its region)."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from chalicelib.domain.addresses import Components, MatchLevel, PublishedAddress
from chalicelib.domain.locations import search_key


class VariantKind(StrEnum):
    POSTCODE_OF_ANOTHER_PLACE = "postcode-of-another-place"
    CITY_OF_ANOTHER_PLACE = "city-of-another-place"
    MISSING_POSTCODE = "missing-postcode"
    MISSING_NUMBER = "missing-number"
    MISSING_UNIT = "missing-unit"
    STREET_OF_ANOTHER_CITY = "street-of-another-city"


# The component each kind removes or replaces.
CHANGED = {
    VariantKind.POSTCODE_OF_ANOTHER_PLACE: "postcode",
    VariantKind.CITY_OF_ANOTHER_PLACE: "city",
    VariantKind.MISSING_POSTCODE: "postcode",
    VariantKind.MISSING_NUMBER: "house_number",
    VariantKind.MISSING_UNIT: "unit",
    VariantKind.STREET_OF_ANOTHER_CITY: "street",
}
REMOVING = frozenset({VariantKind.MISSING_POSTCODE, VariantKind.MISSING_NUMBER, VariantKind.MISSING_UNIT})


@dataclass(frozen=True)
class Variant:
    kind: VariantKind
    changed: tuple[str, ...]  # component names, as the API's components spell them in snake case
    base: str  # the published address it was made from
    donor: str | None = None  # the published address whose value it took


def needs(kind: VariantKind) -> tuple[str, ...]:
    """What a base (and a donor) must have: the component removed or replaced, and for a value of
    another place a city, so that "another" can be told."""
    if kind in REMOVING:
        return (CHANGED[kind],)
    name = CHANGED[kind]
    return ("city",) if name in ("city", "street") else (name, "city")  # every address has a street


def removed(base: PublishedAddress, kind: VariantKind) -> Components:
    """The base's components without the one the kind removes."""
    return dataclasses.replace(base.components, **{CHANGED[kind]: None})


def donor_for(
    base: PublishedAddress, kind: VariantKind, donors: Sequence[PublishedAddress]
) -> PublishedAddress | None:
    """The first donor (in the seeded order given) whose value differs, in another region if any
    is, else in another city; None when no donor's value differs from the base's."""
    name = CHANGED[kind]
    own = _key(getattr(base.components, name))
    fitting = [
        d
        for d in donors
        if (value := _key(getattr(d.components, name))) and value != own and another_city(base, d)
    ]
    elsewhere = [d for d in fitting if _region(d) and _region(base) and _region(d) != _region(base)]
    chosen = elsewhere or fitting
    return chosen[0] if chosen else None


def swapped(base: PublishedAddress, kind: VariantKind, donor: PublishedAddress) -> Components:
    name = CHANGED[kind]
    return dataclasses.replace(base.components, **{name: getattr(donor.components, name)})


def match_level(base: PublishedAddress, kind: VariantKind) -> MatchLevel:
    return MatchLevel.STREET if kind is VariantKind.MISSING_NUMBER else base.match_level


def variant_id(base: PublishedAddress, kind: VariantKind, donor: PublishedAddress | None) -> str:
    """`<cc>-variant-<16 base32>`: never the shape of a published address's id (`<cc>-<16 base32>`)."""
    digest = hashlib.sha256(f"{base.id}|{kind}|{donor.id if donor else ''}".encode()).digest()
    return f"{base.country.lower()}-variant-{base64.b32encode(digest[:10]).decode().lower()}"


def another_city(base: PublishedAddress, donor: PublishedAddress) -> bool:
    """Both publish a city, and not the same one however spelled (`Wroclaw` is `Wrocław`)."""
    theirs, own = _key(donor.components.city), _key(base.components.city)
    return bool(theirs and own and theirs != own)


def _region(address: PublishedAddress) -> str:
    return _key(address.components.region_code or address.components.region)


def _key(value: str | None) -> str:
    """A value as the catalog compares names: case, accents and width folded."""
    return search_key(value or "").strip()
