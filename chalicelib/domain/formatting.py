"""One-line addresses in the country's own conventions and script, from published components only."""

from __future__ import annotations

from chalicelib.domain.addresses import Components

# Largest unit first, no separators: the native order of Japanese and Chinese addresses.
_EAST_ASIAN = {"JP", "CN", "TW"}
# Number after the street: "Dorfstrasse 24, 9490 Vaduz".
_NUMBER_AFTER_STREET = {
    "DE",
    "AT",
    "LI",
    "CH",
    "NL",
    "BE",
    "PL",
    "IT",
    "IS",
    "RU",
    "AD",
    "DK",
    "NO",
    "SE",
    "CZ",
}
# Postcode after the city: "Baltimore, MD 21201" style and "London EC2Y 8BB".
_POSTCODE_AFTER_CITY = {"US", "GB", "SG", "CA", "AU"}


def format_address(country: str, c: Components) -> str:
    if country in _EAST_ASIAN:
        return _east_asian(country, c)
    street_line = _street_line(country, c)
    if country in _POSTCODE_AFTER_CITY:
        locality = _join(
            " ",
            _join(", ", c.city, c.region_code.split("-")[1] if country == "US" and c.region_code else None),
            c.postcode,
        )
        parts = [street_line, c.district if country == "GB" else None, locality]
    else:
        parts = [
            street_line,
            c.district if c.district and c.district != c.city else None,
            _join(" ", c.postcode, c.city),
        ]
    return ", ".join(p for p in parts if p)


def _street_line(country: str, c: Components) -> str:
    return street_line(country, c.street, c.house_number, c.unit)


def street_line(country: str, street: str | None, number: str | None, unit: str | None) -> str:
    """Street and number in the country's order ("Dorfstrasse 24" or "24 Main St"), then the unit."""
    line = _join(" ", street, number) if country in _NUMBER_AFTER_STREET else _join(" ", number, street)
    return _join(", ", line, unit) if unit else line


def _east_asian(country: str, c: Components) -> str:
    city = None if c.city == c.region else c.city  # municipalities repeat their name as city
    body = "".join(p for p in (c.region, city, c.district, c.street, c.house_number, c.unit) if p)
    if not c.postcode:
        return body
    return f"〒{c.postcode} {body}" if country == "JP" else f"{c.postcode} {body}"


def _join(sep: str, *parts: str | None) -> str:
    return sep.join(p for p in parts if p)
