"""Script detection and conversion between Han scripts with OpenCC (Apache-2.0): Simplified and
Traditional Chinese, and Japanese shinjitai. Converters are built on first use and kept."""

from __future__ import annotations

from functools import cache
from typing import Any

from chalicelib.domain.scripts import has_han, is_latin

__all__ = ["convert_han", "has_han", "has_hangul", "has_kana", "is_latin"]

# OpenCC configurations chained for (text script, target script).
_CHAINS: dict[tuple[str, str], tuple[str, ...]] = {
    ("Hans", "Hant"): ("s2t",),
    ("Hant", "Hans"): ("t2s",),
    ("Jpan", "Hant"): ("jp2t",),
    ("Jpan", "Hans"): ("jp2t", "t2s"),
    ("Hans", "Jpan"): ("s2t", "t2jp"),
    ("Hant", "Jpan"): ("t2jp",),
}


def has_kana(text: str) -> bool:
    return any(0x3040 <= ord(ch) <= 0x30FF for ch in text)


def convert_han(text: str, source_script: str, target_script: str) -> str | None:
    """`text` in the target Han script, or None when no conversion applies."""
    chain = _CHAINS.get((source_script, target_script))
    if chain is None or not has_han(text):
        return None
    for config in chain:
        text = _converter(config).convert(text)
    return text


@cache
def _converter(config: str) -> Any:
    import opencc  # lazy: only translations into or out of Han scripts load it

    return opencc.OpenCC(config)


def has_hangul(text: str) -> bool:
    return any(0xAC00 <= ord(ch) <= 0xD7A3 or 0x1100 <= ord(ch) <= 0x11FF for ch in text)
