"""One-line addresses in the country's own conventions and script, from published components only."""

from __future__ import annotations

from chalicelib.domain.addresses import Components
from chalicelib.domain.scripts import has_han
from chalicelib.reference import hong_kong
from chalicelib.reference.countries import facts


def format_address(country: str, c: Components) -> str:
    if facts(country).native_order:
        return _east_asian(country, c)
    if country in _OWN_LAYOUTS:
        return ", ".join(p for p in _OWN_LAYOUTS[country](c) if p)
    street_line = _street_line(country, c)
    if facts(country).postcode_after_city:
        locality = _join(
            " ",
            _join(", ", c.city, region_abbreviation(country, c.region_code)),
            c.postcode,
        )
        parts = [street_line, c.district if country == "GB" else None, locality]
    else:
        parts = [
            street_line,
            c.district if c.district and c.district != c.city else None,
            _join(" ", c.postcode, c.city, province_text(country, c)),
        ]
    return ", ".join(p for p in parts if p)


def _brazil(c: Components) -> list[str | None]:
    """Correios' order: street and number, bairro, "city - UF", CEP."""
    locality = _join(" - ", c.city, region_abbreviation("BR", c.region_code) or c.region)
    return [_street_line("BR", c), c.district, locality, c.postcode]


def _vietnam(c: Components) -> list[str | None]:
    """Smallest first, the province and postcode last (Google's %A %C %S %Z): a city governed as
    a province (Hà Nội) is written once."""
    city = None if c.city == c.region else c.city
    return [_street_line("VN", c), c.district, city, _join(" ", c.region, c.postcode)]


def _hong_kong(c: Components) -> list[str | None]:
    """In the script of its street: Chinese from the area down (九龍彌敦道36-44), English from the
    flat up (5B5, 5/F, 36-44 Nathan Road, Kowloon). No postcodes."""
    if c.street and has_han(c.street):
        return [_join(" ", "".join(p for p in (c.region, c.city, c.street, c.house_number) if p), c.unit)]
    area = hong_kong.area(c.region) if c.region else None
    return [c.unit, _join(" ", c.house_number, c.street), c.city, area.english if area else c.region]


_OWN_LAYOUTS = {"BR": _brazil, "VN": _vietnam, "HK": _hong_kong}


def _street_line(country: str, c: Components) -> str:
    return street_line(country, c.street, c.house_number, c.unit)


def street_line(country: str, street: str | None, number: str | None, unit: str | None) -> str:
    """Street and number in the country's order ("Dorfstrasse 24" or "24 Main St"), then the unit."""
    country_facts = facts(country)
    line = (
        _join(" ", number, street)
        if country_facts.number_first
        else _join(country_facts.number_separator, street, number)
    )
    return _join(", ", line, unit) if unit else line


def _east_asian(country: str, c: Components) -> str:
    city = None if c.city == c.region else c.city  # municipalities repeat their name as city
    parts = (c.region, city, c.district, c.street, c.house_number, c.unit)
    body = (" " if country == "KR" else "").join(p for p in parts if p)  # Korean spaces its units
    if not c.postcode:
        return body
    return f"〒{c.postcode} {body}" if country == "JP" else f"{c.postcode} {body}"


def province_text(country: str, c: Components) -> str | None:
    """As the country writes its province after the city: Italy its sigla ("00185 Roma RM"), Spain
    its name unless the city already says it ("28001 Madrid")."""
    if not c.province_code or not facts(country).postal_province:
        return None
    if country == "IT":
        return c.province_code.split("-", 1)[1]
    return None if c.province == c.city else c.province


def region_abbreviation(country: str, region_code: str | None) -> str | None:
    """The region as written on envelopes where that is its code's second part (CA, NSW, BC)."""
    if not region_code or not facts(country).region_as_code:
        return None
    return region_code.split("-", 1)[1]


def _join(sep: str, *parts: str | None) -> str:
    return sep.join(p for p in parts if p)
