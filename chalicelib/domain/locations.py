"""Locations of the catalog: types, stable ids and the text keys used to compare values."""

from __future__ import annotations

import base64
import hashlib
import unicodedata
from enum import StrEnum


class LocationType(StrEnum):
    REGION = "region"
    CITY = "city"
    DISTRICT = "district"
    POSTCODE = "postcode"


def value_key(text: str) -> str:
    """How values compare: Unicode-compatible (full-width = half-width), case-folded, single spaces."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def search_key(text: str) -> str:
    """value_key without diacritics, for search where 'Wroclaw' should find 'Wrocław'."""
    if text.isascii():  # the common case, and what directories decode by the hundred thousand
        return " ".join(text.lower().split())
    decomposed = unicodedata.normalize("NFKD", value_key(text))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped.replace("ł", "l").replace("ø", "o").replace("đ", "d"))


def location_id(country: str, kind: LocationType, path: tuple[str, ...]) -> str:
    """Stable across syncs: a short hash of country, type and the normalized values of the path
    (e.g. region code, city, district)."""
    text = "|".join([country, kind.value, *(value_key(p) for p in path)])
    digest = hashlib.sha256(text.encode()).digest()
    return f"{kind.value[:3]}-{base64.b32encode(digest[:10]).decode().lower()}"
