"""Which script a text is written in: what the sync, the formats and translation decide by."""

from __future__ import annotations

import unicodedata


def has_han(text: str) -> bool:
    return any("CJK UNIFIED" in unicodedata.name(ch, "") for ch in text)


def is_latin(text: str) -> bool:
    """No letters outside the Latin script (digits, spaces and punctuation do not count; the
    ordinal indicators ª and º are Latin's: Rua 1º de Maio)."""
    return all(not ch.isalpha() or ch in "ªº" or "LATIN" in unicodedata.name(ch, "") for ch in text)
