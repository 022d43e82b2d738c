"""Traits: kinds of address a form must handle, each a rule on the published record alone, so a
tester can ask for them (`traits=`) and count them per country (docs/generation.md#traits).

- `unit`: the source publishes a unit (flat, suite, floor) for it.
- `no-number`: a street-level address, published without a house number.
- `diacritics`: a line a form holds, in Latin script, has a letter outside ASCII (`Wrocław`,
  `Ásvellir`).
- `non-latin`: a line a form holds has letters of a script other than Latin (Han, kana, Hangul...).
- `multi-script`: those lines and the names published for them in other languages use letters
  of more than one script (Han and kana count as one, as Japanese writes them together).

The lines a form holds are the street, number, unit and city: not the region, district or
province, which the sync often names itself (every French address lies in a region whose name has
an accent, `Île-de-France`, whatever its street is called)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import cache

from chalicelib.domain.addresses import MatchLevel, PublishedAddress

TRAITS = ("unit", "no-number", "diacritics", "non-latin", "multi-script")
# The lines of a form a person types (not the ISO codes, nor the region a sync derived).
_WRITTEN = ("street", "house_number", "unit", "city")
_NAMED = ("street", "number", "unit", "city")  # as language variants name them
# Han, kana and their marks are one writing (Japanese mixes them in a word); a full-width Latin
# letter and an ordinal indicator are Latin.
_ONE_WRITING = {
    "HIRAGANA": "CJK",
    "KATAKANA": "CJK",
    "IDEOGRAPHIC": "CJK",
    "HALFWIDTH": "CJK",
    "FULLWIDTH": "LATIN",
    "FEMININE": "LATIN",  # the ordinal indicators of Portuguese and Spanish: 1ª, 2º
    "MASCULINE": "LATIN",
}


def traits_of(address: PublishedAddress) -> frozenset[str]:
    found = set()
    parts = address.components
    if parts.unit:
        found.add("unit")
    if address.match_level == MatchLevel.STREET or not parts.house_number:
        found.add("no-number")
    texts = [t for t in (getattr(parts, name) for name in _WRITTEN) if t]  # not the ISO codes
    if any(_accented(text) for text in texts):
        found.add("diacritics")
    own = _scripts(texts)
    if own - {"LATIN"}:
        found.add("non-latin")
    named = (t for names in address.names.values() for field, t in names.items() if field in _NAMED)
    if len(own | _scripts(named)) > 1:
        found.add("multi-script")
    return frozenset(found)


def _scripts(texts: Iterable[str]) -> set[str]:
    """The scripts of the texts' letters (a modifier letter, U+02BC the apostrophe, belongs to none)."""
    return {script for text in texts for ch in text if ch.isalpha() and (script := _script(ch)) != "MODIFIER"}


@cache
def _script(letter: str) -> str:
    """A letter's script, read off its Unicode name's first word (`LATIN SMALL LETTER L WITH STROKE`)."""
    first = unicodedata.name(letter, "UNKNOWN").split(" ", 1)[0]
    return _ONE_WRITING.get(first, first)


def _accented(text: str) -> bool:
    """A Latin letter outside ASCII once width is folded (a full-width A is not accented)."""
    return any(
        ch.isalpha() and not ch.isascii() and _script(ch) == "LATIN"
        for ch in unicodedata.normalize("NFKC", text)
    )
