"""Postcode rules per country: the canonical form, what is valid, and known placeholders.
An invalid or placeholder postcode is removed from the record (the record stays, postcode unknown)."""

from __future__ import annotations

import re
from dataclasses import dataclass

_PATTERNS = {
    "US": r"\d{5}(-\d{4})?",
    "JP": r"\d{3}-\d{4}",
    "TW": r"\d{3}(\d{2,3})?",
    "CN": r"\d{6}",
    "GB": r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}",
    "DE": r"\d{5}",
    "AT": r"\d{4}",
    "LI": r"94(8[5-9]|9[0-8])",
    "BE": r"\d{4}",
    "FR": r"\d{5}",
    "NL": r"\d{4} [A-Z]{2}",
    "PL": r"\d{2}-\d{3}",
    "IT": r"\d{5}",
    "IS": r"\d{3}",
    "SG": r"\d{6}",
    "RU": r"\d{6}",
    "MC": r"980\d{2}",
    "AD": r"AD\d{3}",
}
_COMPILED = {country: re.compile(pattern) for country, pattern in _PATTERNS.items()}


@dataclass(frozen=True, slots=True)
class PostcodeVerdict:
    value: str | None
    placeholder: bool = False
    invalid: bool = False


def canonical(country: str, text: str) -> str:
    """Upper case, single spaces; the national written form where it is fixed (JP 640-8273,
    NL 1614 LN, GB with its inward-code space, US ZIP+4 with a hyphen)."""
    value = " ".join(text.upper().split())
    compact = value.replace(" ", "").replace("-", "")
    if country == "JP" and re.fullmatch(r"\d{7}", compact):
        return f"{compact[:3]}-{compact[3:]}"
    if country == "NL" and re.fullmatch(r"\d{4}[A-Z]{2}", compact):
        return f"{compact[:4]} {compact[4:]}"
    if country == "GB" and re.fullmatch(r"[A-Z0-9]{5,7}", compact):
        return f"{compact[:-3]} {compact[-3:]}"
    if country == "US" and re.fullmatch(r"\d{9}", compact):
        return f"{compact[:5]}-{compact[5:]}"
    if country == "AD" and re.fullmatch(r"\d{3}", compact):
        return f"AD{compact}"
    return value


def check_postcode(country: str, text: str) -> PostcodeVerdict:
    value = canonical(country, text)
    if not value:
        return PostcodeVerdict(None)
    digits = re.sub(r"\D", "", value)
    if digits and set(digits) == {"0"} and len(digits) == len(re.sub(r"[\s-]", "", value)):
        return PostcodeVerdict(None, placeholder=True)  # 00000, 00-000: "not assigned"
    pattern = _COMPILED.get(country)
    if pattern is not None and not pattern.fullmatch(value):
        return PostcodeVerdict(None, invalid=True)
    return PostcodeVerdict(value)
