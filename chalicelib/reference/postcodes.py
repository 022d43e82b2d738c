"""Postcode rules per country: the canonical form, what is valid, and known placeholders.
An invalid or placeholder postcode is removed from the record (the record stays, postcode unknown)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from chalicelib.reference.countries import COUNTRIES


@dataclass(frozen=True, slots=True)
class PostcodeVerdict:
    value: str | None
    placeholder: bool = False
    invalid: bool = False


@cache
def _pattern(country: str) -> re.Pattern[str] | None:
    facts = COUNTRIES.get(country)
    return re.compile(facts.postcode) if facts else None


def canonical(country: str, text: str) -> str:
    """Upper case, single spaces; the national written form where it is fixed (JP 640-8273,
    NL 1614 LN, GB and CA with the inward-code space, SE 114 55 and CZ 190 00, US ZIP+4, PT and BR
    with a hyphen).
    Only spacing and case change: digits and letters stay as published."""
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
    if country == "BR" and re.fullmatch(r"\d{8}", compact):
        return f"{compact[:5]}-{compact[5:]}"  # the CEP's written form, 01310-200
    if country == "PT" and (m := re.fullmatch(r"(\d{4}) ?-? ?(\d{3})(?: [^\d]+)?", value)):
        return f"{m[1]}-{m[2]}"  # "4050297", "4300-198 PORTO": the code as published, locality apart
    if country == "CA" and (m := re.fullmatch(r"(?:[A-Z]{2} )?([A-Z]\d[A-Z]) ?(\d[A-Z]\d)", value)):
        return f"{m[1]} {m[2]}"  # "BC V6B 2E2": the province written before the code
    if country in {"SE", "CZ"} and re.fullmatch(r"\d{5}", compact):
        return f"{compact[:3]} {compact[3:]}"
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
    pattern = _pattern(country)
    if pattern is not None and not pattern.fullmatch(value):
        return PostcodeVerdict(None, invalid=True)
    return PostcodeVerdict(value)
