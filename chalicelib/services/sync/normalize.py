"""Validation and normalization of one source row. A row is dropped (with a reason) or becomes a
Candidate; a bad field (placeholder or invalid postcode) is removed, counted, and the row kept.
Nothing is invented: derived region and city come only from gazetteers or the source's area."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from enum import StrEnum

from chalicelib.domain.addresses import MatchLevel, PropertyType
from chalicelib.domain.premises import property_type
from chalicelib.reference.pool_config import CountryConfig, SourceConfig
from chalicelib.reference.postcodes import PostcodeVerdict, check_postcode
from chalicelib.sources.records import RawRecord


class DropReason(StrEnum):
    COUNTRY_NOT_ENABLED = "country_not_enabled"
    LICENCE_NOT_ACCEPTED = "licence_not_accepted"  # its licence's class is not in the policy's accept
    PLACEHOLDER_TEXT = "placeholder_text"
    PLACEHOLDER_NUMBER = "placeholder_number"
    INVALID_COORDINATES = "invalid_coordinates"
    COORDINATES_OUT_OF_RANGE = "coordinates_out_of_range"
    PLACEHOLDER_COORDINATES = "placeholder_coordinates"
    OUTSIDE_COUNTRY = "outside_country"
    MISSING_STREET = "missing_street"
    MISSING_NUMBER = "missing_number"
    DUPLICATE = "duplicate"
    MALFORMED_ROW = "malformed_row"  # the reader could not parse the row
    UNREADABLE_FILE = "unreadable_file"  # the file broke off here (one per damaged file)
    NOT_PREMISES = "not_premises"  # street furniture with an address: a bus stop, a speed camera
    WITHDRAWN = "withdrawn"  # an operator withdrew the address (a resident asked): never served


class FieldRemoval(StrEnum):
    POSTCODE_PLACEHOLDER = "postcode_placeholder"
    POSTCODE_INVALID = "postcode_invalid"
    POSTCODE_OUTSIDE_REGION = "postcode_outside_region"
    NUMBER_MEANS_NONE = "number_means_none"  # the source's "no number" value: a street-level address
    CITY_NOT_A_NAME = "city_not_a_name"  # digits alone (Helsinki's "7": the house number copied)


@dataclass(slots=True)
class Candidate:
    """A valid row, normalized, before regions are resolved and duplicates removed."""

    raw: RawRecord
    lon: float
    lat: float
    street: str
    number: str
    unit: str
    city: str
    district: str
    region: str
    postcode: str
    match_level: MatchLevel
    property_type: PropertyType
    removed: list[FieldRemoval] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Dropped:
    reason: DropReason


# Whole values, or words inside them, that stand for "no real address here".
_PLACEHOLDER_VALUES = {"unknown", "n/a", "na", "null", "none", "tbd", "test", "-", "?", "unnamed", "no name"}
_PLACEHOLDER_WORDS = re.compile(r"\b(fake|anytown|placeholder|dummy|lorem)\b", re.IGNORECASE)
_SENTINEL_NUMBER = re.compile(r"^-\d+$")
_EDGE_JUNK = " \t-\u2013\u2014,;:/"  # spaces, hyphen, en and em dashes, separators
_PARTICLES = {
    "de",
    "du",
    "des",
    "la",
    "le",
    "les",
    "l",
    "d",
    "et",
    "aux",
    "au",
    "en",
    "sur",
    "sous",
    "von",
    "van",
    "der",
    "den",
    "het",
    "di",
    "da",
    "del",
    "della",
    "y",
    "of",
    "the",
    "and",
}
_NAME_FIELDS = ("street", "city", "district", "region")


def clean_text(value: str, *, is_name: bool = False) -> str:
    """NFC, single spaces, no stray edge punctuation. An all-lower-case Latin name gets capitals
    (the 2015 BAN writes 'rue gramme'); upper case stays as published (the USPS style)."""
    text = " ".join(unicodedata.normalize("NFC", value).split()).strip(_EDGE_JUNK)
    return _capitalize(text) if is_name and _is_lower_latin(text) else text


def _is_lower_latin(text: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(
        ch.islower() and unicodedata.name(ch, "").startswith("LATIN") for ch in letters
    )


def _capitalize(text: str) -> str:
    return " ".join(_capitalize_word(word, first=i == 0) for i, word in enumerate(text.split(" ")))


def _capitalize_word(word: str, *, first: bool) -> str:
    head, apostrophe, tail = word.partition("'")
    if apostrophe and head in {"l", "d"}:  # l'Église, d'Italie: the article stays small inside a name
        return f"{head.upper() if first else head}'{tail[:1].upper()}{tail[1:]}"
    if not first and word in _PARTICLES:
        return word
    return "-".join(part[:1].upper() + part[1:] for part in word.split("-"))


# Vietnamese text written with the Latin eth (Ð, U+00D0), which looks like Vietnamese Đ (U+0110):
# 112 Ho Chi Minh City objects write Trần Hưng Ðạo. Only in Vietnam: Icelandic's Ð is its own letter.
_VIETNAMESE_D = str.maketrans({"\u00d0": "\u0110", "\u00f0": "\u0111"})


def _letters_of(country: str, text: str) -> str:
    return text.translate(_VIETNAMESE_D) if country == "VN" else text


def is_placeholder(value: str) -> bool:
    return value.casefold() in _PLACEHOLDER_VALUES or bool(_PLACEHOLDER_WORDS.search(value))


def normalize(raw: RawRecord, country: CountryConfig | None, source: SourceConfig) -> Candidate | Dropped:
    if raw.defect:
        return Dropped(DropReason(raw.defect))
    if country is None:
        return Dropped(DropReason.COUNTRY_NOT_ENABLED)
    texts = {
        name: _letters_of(raw.country, clean_text(getattr(raw, name), is_name=name in _NAME_FIELDS))
        for name in ("street", "number", "unit", "city", "district", "region")
    }
    city_removed = bool(texts["city"]) and not any(ch.isalpha() for ch in texts["city"])
    if city_removed:
        texts["city"] = ""
    if any(is_placeholder(texts[name]) for name in ("street", "city")):
        return Dropped(DropReason.PLACEHOLDER_TEXT)
    # On the raw value: cleaning strips edge dashes and would turn the sentinel -9 into a number 9.
    if _SENTINEL_NUMBER.match(raw.number.strip()) or is_placeholder(texts["number"]):
        return Dropped(DropReason.PLACEHOLDER_NUMBER)
    position = _position(raw.lon, raw.lat, country)
    if isinstance(position, DropReason):
        return Dropped(position)
    if not texts["street"]:
        return Dropped(DropReason.MISSING_STREET)
    no_number = bool(texts["number"]) and texts["number"] in source.no_number
    if no_number:
        texts["number"] = ""
    if not texts["number"] and not (source.street_level or no_number):
        return Dropped(DropReason.MISSING_NUMBER)
    verdict = check_postcode(raw.country, raw.postcode)
    return Candidate(
        raw=raw,
        lon=position[0],
        lat=position[1],
        postcode=verdict.value or "",
        match_level=MatchLevel.HOUSE_NUMBER if texts["number"] else MatchLevel.STREET,
        property_type=property_type(raw.use, raw.premises, source.premises),
        removed=_removals(verdict)
        + ([FieldRemoval.NUMBER_MEANS_NONE] if no_number else [])
        + ([FieldRemoval.CITY_NOT_A_NAME] if city_removed else []),
        **texts,
    )


def _removals(verdict: PostcodeVerdict) -> list[FieldRemoval]:
    if verdict.placeholder:
        return [FieldRemoval.POSTCODE_PLACEHOLDER]
    return [FieldRemoval.POSTCODE_INVALID] if verdict.invalid else []


def _position(lon_text: str, lat_text: str, country: CountryConfig) -> tuple[float, float] | DropReason:
    try:
        lon, lat = float(lon_text), float(lat_text)
    except ValueError:
        return DropReason.INVALID_COORDINATES
    if not (math.isfinite(lon) and math.isfinite(lat)):
        return DropReason.INVALID_COORDINATES
    if not (-180 <= lon <= 180 and -90 <= lat <= 90):
        return DropReason.COORDINATES_OUT_OF_RANGE
    if lon == 0 and lat == 0:
        return DropReason.PLACEHOLDER_COORDINATES
    if not any(_within(lon, lat, box, country.margin) for box in country.bounds):
        return DropReason.OUTSIDE_COUNTRY
    return lon, lat


def _within(lon: float, lat: float, box: tuple[float, float, float, float], m: float) -> bool:
    west, south, east, north = box
    return west - m <= lon <= east + m and south - m <= lat <= north + m
