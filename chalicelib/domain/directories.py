"""Location directories: for each scope (the whole country, one region, one city) and each location
type below it, every location with published addresses inside the scope, counted inside the scope,
in one stable order. Search and hierarchy pages are slices of these lists, so counts are the same
spans generation draws from: a city's count inside a region is what generate returns for
regionId + cityId.

Matching: `q` is compared by search_key (case-, accent- and width-insensitive) with the location's
value and its published names in other languages; postcodes also ignore spaces and hyphens.
Prefix matches come first, then matches inside the name, each group in directory order."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from chalicelib.domain.location_index import Location
from chalicelib.domain.locations import LocationType, search_key, value_key
from chalicelib.domain.ordering import Span, strata

RESIDENTIAL = strata(residential=True, complete=False)

COUNTRY_SCOPE = "country"  # the key of the country's own scope; regions and cities use their ids

# Which types each kind of scope lists: everything below it.
TYPES_IN_SCOPE: dict[str, tuple[LocationType, ...]] = {
    "country": (LocationType.REGION, LocationType.CITY, LocationType.DISTRICT, LocationType.POSTCODE),
    "region": (LocationType.CITY, LocationType.DISTRICT, LocationType.POSTCODE),
    "city": (LocationType.DISTRICT, LocationType.POSTCODE),
}

DirectoryKey = tuple[str, LocationType]  # (scope key, type listed)


@dataclass(frozen=True, slots=True)
class Entry:
    """One location as a directory lists it: its counts are those inside the directory's scope."""

    id: str
    value: str
    count: int
    residential_count: int
    names: tuple[str, ...] = ()  # the location's names in other languages, also searched
    keys: tuple[str, ...] = field(default=(), compare=False)  # search keys of value and names

    @classmethod
    def of(
        cls, kind: LocationType, id: str, value: str, count: int, residential: int, names: Iterable[str] = ()
    ) -> Entry:
        others = tuple(n for n in dict.fromkeys(names) if n != value)
        key = match_key(kind, value)
        if not others:  # most entries: skip the general path
            return cls(id, value, count, residential, (), (key,))
        keys = tuple(dict.fromkeys([key, *(match_key(kind, text) for text in others)]))
        return cls(id, value, count, residential, others, keys)

    def available(self, residential: bool) -> int:
        return self.residential_count if residential else self.count


def match_key(kind: LocationType, text: str) -> str:
    """How q and names compare: search_key, and for postcodes without spaces or hyphens too
    ('1012AB' finds '1012 AB')."""
    key = search_key(text)
    return key.replace(" ", "").replace("-", "") if kind is LocationType.POSTCODE else key


def order_key(entry: Entry) -> tuple[str, str, str]:
    return (search_key(entry.value), value_key(entry.value), entry.id)


def build_directories(locations: Iterable[Location]) -> dict[DirectoryKey, list[Entry]]:
    """Every non-empty directory of a snapshot, each in order."""
    counts: dict[DirectoryKey, dict[str, list[int]]] = defaultdict(dict)
    by_id: dict[str, Location] = {}
    for location in locations:
        by_id[location.id] = location
        for scope, spans in _scopes_of(location):
            tally = counts[(scope, location.type)].setdefault(location.id, [0, 0])
            tally[0] += sum(s.count for s in spans)
            tally[1] += sum(s.count_in(RESIDENTIAL) for s in spans)
    directories: dict[DirectoryKey, list[Entry]] = {}
    for (scope, kind), tallies in counts.items():
        entries = [
            Entry.of(kind, i, by_id[i].value, c, r, by_id[i].names.values()) for i, (c, r) in tallies.items()
        ]
        directories[(scope, kind)] = sorted(entries, key=order_key)
    return directories


def _scopes_of(location: Location) -> list[tuple[str, list[Span]]]:
    """The scopes a location is listed in, with its spans inside each."""
    scopes: list[tuple[str, list[Span]]] = [(COUNTRY_SCOPE, location.spans)]
    if location.type is LocationType.REGION:
        return scopes
    scopes += _grouped(location.spans, "region_id")
    if location.type in (LocationType.DISTRICT, LocationType.POSTCODE):
        scopes += _grouped(location.spans, "city_id")
    return scopes


def _grouped(spans: list[Span], attribute: str) -> list[tuple[str, list[Span]]]:
    groups: dict[str, list[Span]] = defaultdict(list)
    for span in spans:
        scope = getattr(span, attribute)
        if scope is not None:
            groups[scope].append(span)
    return list(groups.items())


def matching(entries: list[Entry], kind: LocationType, q: str | None, residential: bool) -> list[Entry]:
    """The entries a listing shows, in the order it shows them: those with addresses available
    (residential ones when asked), and when q is given those matching it, prefix matches first."""
    available = [e for e in entries if e.available(residential) > 0]
    if q is None:
        return available
    wanted = match_key(kind, q)
    prefix: list[Entry] = []
    inside: list[Entry] = []
    for entry in available:
        if any(k.startswith(wanted) for k in entry.keys):
            prefix.append(entry)
        elif any(wanted in k for k in entry.keys):
            inside.append(entry)
    return prefix + inside
