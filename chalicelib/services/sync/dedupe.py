"""Duplicates within and across sources: the same address (street, number and unit) at (nearly) the
same place, whose other components agree or are missing on one side. Text alone is not enough
('Main St 1' without a city can be two real places in one county), a source id is never enough
(Alameda's parcel numbers are shared by several buildings), and a missing city or postcode must not
make two publications of one address differ (nor a derived one: it fills a gap). Where they are one address:
- the same OSM object in two overlapping extracts is read once, from the newer extract (`FirstClaims`);
- the same full text with a city is one address wherever it was placed: the place taken first in
  read order stays (`same_text_losers`, a second round over the survivors, so a sharded build can
  run it apart from the street-by-street first round);
- a newer source's values win over the source it supersedes (IS 2022 register: postcode 113 → 161);
- the number and unit compare without spaces or case (`57a`/`57 A`, `50B`/`50 B`);
- two publications that differ only in the city's or district's text, with the same postcode and
  within SAME_SPELLING_METERS, are one address spelled two ways (`Praha 8`/`Praha`, `Lauf
  a.d.Pegnitz`/`Lauf an der Pegnitz`, `Frederiksberg C`/`Frederiksberg C.`, Berlin's `Eichborndamm
  106` in `Wittenau`/`Reinickendorf`): the publication serving more components stays, then the
  first read (a superseding, newer source is read first);
- otherwise the publication with more published components is kept, then the one serving more
  (derived included), then the first."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import search_key, value_key

SAME_PLACE_METERS = 250.0
# One number, street and postcode this close is one building, whatever the city is called.
SAME_SPELLING_METERS = 150.0
_METERS_PER_DEGREE = 111_320.0
_EARTH_RADIUS_M = 6_371_000.0
# Each compared component, with the name `derived` lists it under.
_OTHER_FIELDS = (
    ("city", "city"),
    ("district", "district"),
    ("postcode", "postcode"),
    ("region_code", "region"),
)


class MergeReason(StrEnum):
    DUPLICATE = "duplicate"  # the same address text at the same place
    FEWER_COMPONENTS = "merged_fewer_components"  # the same address, published elsewhere with more
    SUPERSEDED = "superseded"  # the same address in a newer source of the country
    SAME_OSM_OBJECT = "same_osm_object"  # one OSM object in two overlapping extracts
    SAME_TEXT = "same_text_elsewhere"  # the full address text, city included, at another position
    CITY_SPELLING = "merged_city_spelling"  # the same address and postcode, its city written otherwise
    DISTRICT_SPELLING = "merged_district_spelling"  # likewise, its district (and maybe city) otherwise


# The place names one address may be published under in two spellings (with one postcode, nearby).
_PLACE_NAMES = frozenset({"city", "district"})

Seq = tuple[int, int]  # (source group's rank, row number): the order rows are read in


@dataclass
class Kept:
    """A publication kept so far (its survival): its source family, and when its place was first taken (a
    replacement keeps the place and its `seq`)."""

    address: PublishedAddress
    family: str
    seq: Seq = (0, 0)


@dataclass(frozen=True)
class Decision:
    reason: MergeReason | None = None  # None: a new address
    replaces: Kept | None = None  # the earlier publication this one takes the place of

    @property
    def is_new(self) -> bool:
        return self.reason is None


def street_key(address: PublishedAddress) -> tuple[str, ...]:
    """The street compared without diacritics: two texts of one address that differ only by them
    (MC `Rue de la Lüjerneta 2` and `Rue de la Lujerneta 2`, 31 m apart) are one address; the
    number and unit without spaces or case."""
    c = address.components
    street = search_key(c.street or "")
    return (address.country, street, *(_compact(v or "") for v in (c.house_number, c.unit)))


def _compact(value: str) -> str:
    """A number or unit as compared: `57 A` is `57a`."""
    return "".join(value_key(value).split())


@dataclass
class Deduplicator:
    """Deterministic for the same rows offered in read order (superseding sources first). Rows of
    different street keys never meet here, so any partition by street key gives the same result."""

    supersedes: dict[str, frozenset[str]] = field(default_factory=dict)  # family → older families
    _places: dict[tuple[str, ...], list[Kept]] = field(default_factory=dict)

    def offer(
        self,
        address: PublishedAddress,
        family: str,
        *,
        seq: Seq = (0, 0),
        precision_meters: float = 0.0,
    ) -> Decision:
        """`seq`: the row's place in read order. `precision_meters`: how coarse the source's
        coordinates are (CN publishes 2 decimals, ~1 km)."""
        kept_here = self._places.setdefault(street_key(address), [])
        tolerance = max(SAME_PLACE_METERS, 1.5 * precision_meters)
        for kept in kept_here:
            if distance_meters(address.lat, address.lon, kept.address.lat, kept.address.lon) > tolerance:
                continue
            decision = self._merge(address, family, kept)
            if decision is not None:
                return decision
        kept_here.append(Kept(address, family, seq))
        return Decision()

    def survivors(self) -> list[Kept]:
        return [kept for places in self._places.values() for kept in places]

    def _merge(self, address: PublishedAddress, family: str, kept: Kept) -> Decision | None:
        if address.country != kept.address.country:
            return None
        if family in self.supersedes.get(kept.family, frozenset()):
            return Decision(MergeReason.SUPERSEDED)
        mine, theirs = _others(address), _others(kept.address)
        differing = {
            label for (_, label), a, b in zip(_OTHER_FIELDS, mine, theirs, strict=True) if a and b and a != b
        }
        if differing and differing <= _PLACE_NAMES and _same_postcode_nearby(address, kept.address):
            reason = MergeReason.DISTRICT_SPELLING if "district" in differing else MergeReason.CITY_SPELLING
            if _fuller(address, kept):
                return _take(kept, address, family, reason)
            return Decision(reason)
        if differing:
            return None  # a component differs: two addresses
        if mine == theirs:
            if _fuller(address, kept):
                return _take(kept, address, family, MergeReason.DUPLICATE)
            return Decision(MergeReason.DUPLICATE)
        if all(b or not a for a, b in zip(mine, theirs, strict=True)):
            return Decision(MergeReason.FEWER_COMPONENTS)  # the kept one published all of ours
        if all(a or not b for a, b in zip(mine, theirs, strict=True)) or _fuller(address, kept):
            return _take(kept, address, family, MergeReason.FEWER_COMPONENTS)
        # Each lacks one the other published, and serves no more: the first stays.
        return Decision(MergeReason.FEWER_COMPONENTS)


def _same_postcode_nearby(address: PublishedAddress, other: PublishedAddress) -> bool:
    postcode = value_key(address.components.postcode or "")
    return (
        bool(postcode)
        and postcode == value_key(other.components.postcode or "")
        and distance_meters(address.lat, address.lon, other.lat, other.lon) <= SAME_SPELLING_METERS
    )


def _take(kept: Kept, address: PublishedAddress, family: str, reason: MergeReason) -> Decision:
    """The newcomer takes the kept one's place."""
    replaced = Kept(kept.address, kept.family, kept.seq)
    kept.address, kept.family = address, family
    return Decision(reason, replaces=replaced)


def _fuller(address: PublishedAddress, kept: Kept) -> bool:
    """More components served, derived ones included: between equally published twins, the one a
    form accepts (a ZIP from one, a city filled from it in the other) is the better to serve."""
    return _served_count(address) > _served_count(kept.address)


def _served_count(address: PublishedAddress) -> int:
    c = address.components
    return sum(1 for name, _ in _OTHER_FIELDS if getattr(c, name))


def text_key(address: PublishedAddress) -> str:
    return f"{address.country}|{value_key(address.formatted)}"


@dataclass(frozen=True)
class TextClaim:
    text: str
    seq: Seq
    address_id: str


def text_claim(kept: Kept) -> TextClaim | None:
    """With its city, the full text names one postal address wherever it was placed (a campus's
    buildings, a point set 400 m off): serving it twice would give one address two ids."""
    if not kept.address.components.city:
        return None
    return TextClaim(text_key(kept.address), kept.seq, kept.address.id)


def same_text_losers(claims: Iterable[TextClaim]) -> set[Seq]:
    """The survivors (by `seq`) whose text a place taken earlier already serves."""
    first: dict[str, TextClaim] = {}
    losers: set[Seq] = set()
    for claim in claims:
        held = first.get(claim.text)
        if held is None or claim.seq < held.seq:
            first[claim.text] = claim
            if held is not None:
                losers.add(held.seq)
        else:
            losers.add(claim.seq)
    return losers


@dataclass
class FirstClaims:
    """OSM objects seen so far: a later extract's copy of one is not read again."""

    _seen: set[tuple[str, str]] = field(default_factory=set)

    def is_repeat(self, country: str, osm_object: str) -> bool:
        key = (country, osm_object)
        if key in self._seen:
            return True
        self._seen.add(key)
        return False


def _others(address: PublishedAddress) -> tuple[str, ...]:
    """The components the source itself published: a derived one counts as missing, so a filled-in
    city ('Krems an der Donau' from the postcode) never splits it from the same address published
    with its own ('Krems')."""
    c = address.components
    return tuple(
        "" if label in address.derived else value_key(getattr(c, name) or "") for name, label in _OTHER_FIELDS
    )


def distance_meters(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
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
