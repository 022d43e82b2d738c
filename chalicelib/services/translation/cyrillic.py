"""Russian in Latin letters: GOST R 52290-2004, the Russian standard for geographic names on road
signs (street signs read Myasnitskaya ulitsa), through iuliia (MIT), which implements it among
its named schemas.

Street-type words: English output writes them as English does, translated and after the name
(улица Покровка → Pokrovka Street, Мясницкая улица → Myasnitskaya Street), from a fixed table of
words with an established English rendering. Other Latin-script locales keep the transliterated
word where the Russian puts it (ulitsa Pokrovka), as the standard writes it."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

_STREET_TYPES = {
    "улица": "Street",
    "переулок": "Lane",
    "проспект": "Avenue",
    "бульвар": "Boulevard",
    "площадь": "Square",
    "набережная": "Embankment",
    "шоссе": "Highway",
    "проезд": "Passage",
    "тупик": "Dead End",
    "аллея": "Alley",
}
_WORD = re.compile(r"\s+")


def has_cyrillic(text: str) -> bool:
    return any("\u0400" <= ch <= "\u04ff" for ch in text)


def romanize(text: str, english: bool) -> str:
    words = _WORD.split(text.strip())
    if english:
        kind = next((w for w in words if w.lower() in _STREET_TYPES), None)
        if kind is not None and len(words) > 1:
            name = " ".join(w for w in words if w is not kind)
            return f"{_transliterated(name)} {_STREET_TYPES[kind.lower()]}"
    return _transliterated(text.strip())


def _transliterated(text: str) -> str:
    latin: str = _schema().translate(text)
    return latin


@cache
def _schema() -> Any:
    import iuliia  # type: ignore[import-untyped]  # lazy: only Russian-to-Latin translations load it

    return iuliia.schemas.get("gost_52290")
