"""Marks: tokens the text index holds for facts about an address rather than its words, so a
filter on them draws exactly and uniformly with the reads of `q` (domain/text_search.py): its
licence's classes and ids, its traits (domain/traits.py), its property type
(domain/premises.py), which of the components a near-miss variant changes it has (its base
must have the one it removes or replaces: services/generation/near_misses.py), and the geohash
cells it lies in (`near`, `bbox`: domain/geo.py).

Licences (`license=`): a class names the records a user may take on at most those terms, so
`attribution` holds the public-domain records too, and `share-alike` both of those; an SPDX id
names the records whose licence expression names it. A record's class is its expression's
strictest part (an OR's easiest alternative); unlisted and non-commercial terms are in no class."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from chalicelib.domain.addresses import PropertyType, PublishedAddress
from chalicelib.domain.geo import PRECISIONS, geohash
from chalicelib.domain.text_search import MARK
from chalicelib.domain.traits import TRAITS, traits_of
from chalicelib.reference.formatting import street_line
from chalicelib.reference.licences import RANKS, LicencePolicy, licence_ids, load_licence_policy

LICENCE_CLASSES = RANKS[:3]  # public-domain, attribution, share-alike: what `license=` takes
_TRAIT, _CLASS, _SPDX, _TYPE = f"{MARK}trait:", f"{MARK}licence:", f"{MARK}spdx:", f"{MARK}type:"
_HAS, _GEO, _LEN = f"{MARK}has:", f"{MARK}geo:", f"{MARK}len:"
_COUNTED = (_TRAIT, _CLASS, _SPDX, _TYPE, _LEN)
# Traits by length, against the country's own lengths: its longest street names and street lines
# (number, street and unit as a form's first address line), the longest 5% at most: those at
# least as long as the shortest length that at most 5% of the country's addresses reach.
LENGTH_TRAITS = {"long-street": "street", "long-line": "line"}
ALL_TRAITS = (*TRAITS, *LENGTH_TRAITS)
TOP_SHARE = 0.05
LONGEST = 100  # characters: a longer name or line is marked as this long
# The components a variant removes or replaces whose presence no trait marks (`unit` is a trait).
PRESENT = ("postcode", "city", "house_number")


def marks_of(address: PublishedAddress) -> frozenset[str]:
    """The marks the index holds for the address: its licence's, its traits, its property type,
    the components of PRESENT it has, and its geohash cell at each of the index's precisions."""
    traits = frozenset(f"{_TRAIT}{t}" for t in traits_of(address))
    present = {f"{_HAS}{name}" for name in PRESENT if getattr(address.components, name)}
    kinds = {f"{_TYPE}{address.property_type}"} | _length_marks(address)
    finest = geohash(address.lat, address.lon, PRECISIONS[-1])
    cells = frozenset(geo_marks(finest[:p] for p in PRECISIONS))  # a cell's parents are its prefixes
    return _licence_marks(address.provenance.license) | traits | kinds | present | cells


def counted_marks(address: PublishedAddress) -> frozenset[str]:
    """The marks a snapshot counts (its traits, property type and licences, which /countries
    reports): not the components it has nor its cells, which would be thousands of counts in the
    snapshot's pointer."""
    return frozenset(m for m in marks_of(address) if m.startswith(_COUNTED))


def geo_marks(cells: Iterable[str]) -> list[str]:
    """The marks of the addresses in these geohash cells (domain/geo.py), one per cell."""
    return [f"{_GEO}{cell}" for cell in cells]


def presence_marks(components: Iterable[str]) -> frozenset[str]:
    """The marks of addresses that have these components (`unit` by its trait)."""
    return frozenset(f"{_TRAIT}unit" if c == "unit" else f"{_HAS}{c}" for c in components)


def property_type_marks(value: str | None) -> frozenset[str]:
    """The mark a `propertyType=` filter asks for (none without one)."""
    return frozenset({f"{_TYPE}{value}"} if value else ())


def trait_marks(values: Iterable[str]) -> frozenset[str]:
    """The marks a `traits=` filter asks for (the rule traits: see `length_groups` for the others)."""
    return frozenset(f"{_TRAIT}{v}" for v in values if v not in LENGTH_TRAITS)


def length_groups(values: Iterable[str], marked: Mapping[str, int]) -> tuple[frozenset[str], ...]:
    """Per length trait asked, the marks of the lengths at or above the country's threshold (by
    its snapshot's counts per length), one of which its addresses hold; empty when none is long."""
    groups = []
    for value in values:
        if value in LENGTH_TRAITS:
            part = LENGTH_TRAITS[value]
            threshold = length_thresholds(marked).get(value)
            lengths = _lengths(marked, part)
            groups.append(frozenset(f"{_LEN}{part}:{n}" for n in lengths if threshold and n >= threshold))
    return tuple(groups)


def length_thresholds(marked: Mapping[str, int]) -> dict[str, int]:
    """Per length trait, the shortest length that at most TOP_SHARE of the addresses reach;
    absent where no length is that rare (every address equally long)."""
    found = {}
    for trait, part in LENGTH_TRAITS.items():
        lengths = _lengths(marked, part)
        total, reaching = sum(lengths.values()), 0
        for length in sorted(lengths, reverse=True):
            if reaching + lengths[length] > TOP_SHARE * total:
                break
            reaching += lengths[length]
            found[trait] = length
    return found


def _lengths(marked: Mapping[str, int], part: str) -> dict[int, int]:
    prefix = f"{_LEN}{part}:"
    return {int(k.removeprefix(prefix)): n for k, n in marked.items() if k.startswith(prefix)}


def _length_marks(address: PublishedAddress) -> set[str]:
    c = address.components
    line = street_line(address.country, c.street, c.house_number, c.unit)
    return {f"{_LEN}street:{min(len(c.street or ''), LONGEST)}", f"{_LEN}line:{min(len(line), LONGEST)}"}


def licence_marks(values: Iterable[str]) -> frozenset[str]:
    """The marks a `license=` filter asks for: a class, or an SPDX id (any case)."""
    return frozenset(
        f"{_CLASS}{v.casefold()}" if v.casefold() in LICENCE_CLASSES else f"{_SPDX}{v.casefold()}"
        for v in values
    )


def trait_counts(marked: Mapping[str, int]) -> dict[str, int]:
    """Addresses per trait, from a snapshot's counts per mark: every trait, 0 where none has it."""
    thresholds = length_thresholds(marked)
    lengthy = {
        trait: sum(
            n for length, n in _lengths(marked, part).items() if length >= thresholds.get(trait, LONGEST + 1)
        )
        for trait, part in LENGTH_TRAITS.items()
    }
    return {t: marked.get(f"{_TRAIT}{t}", 0) for t in TRAITS} | lengthy


def property_type_counts(marked: Mapping[str, int]) -> dict[str, int]:
    """Addresses per property type: every type, 0 where none is."""
    return {t.value: marked.get(f"{_TYPE}{t}", 0) for t in PropertyType}


def licence_counts(marked: Mapping[str, int]) -> dict[str, int]:
    """Addresses per licence class (every class), then per SPDX id the records name."""
    classes = {c: marked.get(f"{_CLASS}{c}", 0) for c in LICENCE_CLASSES}
    return classes | {k.removeprefix(_SPDX): n for k, n in sorted(marked.items()) if k.startswith(_SPDX)}


@cache
def _licence_marks(licence: str) -> frozenset[str]:
    """A licence's classes (its own and each less strict one's filter) and its SPDX ids."""
    strictest = _policy().strictest_class(licence)
    classes = LICENCE_CLASSES[LICENCE_CLASSES.index(strictest) :] if strictest in LICENCE_CLASSES else ()
    ids = [f"{_SPDX}{i.casefold()}" for i in licence_ids(licence)]
    return frozenset([f"{_CLASS}{c}" for c in classes] + ids)


@cache
def _policy() -> LicencePolicy:
    """The packaged policy, which classes each licence for the sync and the draws alike."""
    return load_licence_policy()
