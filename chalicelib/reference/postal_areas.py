"""Postal authorities' tables that map an area to exactly one postcode, or a postcode to its place.
The sync fills a missing component from them (and lists it as derived); an area with several
postcodes is not in a table, so its addresses keep the postcode missing.

- JP: Japan Post's KEN_ALL, by prefecture, city and neighbourhood (chōme where split): japan_post.
- TW: Chunghwa Post's 3-digit codes, one per township (鄉鎮市區), for the counties the pool serves.
- LI: Swiss Post's codes for Liechtenstein: one per commune, except Eschen (Eschen 9492, Nendeln
  9485) and Mauren (Mauren 9493, Schaanwald 9486), whose villages have their own.
- MC: La Poste Monaco's 98000 for every street address of the principality (the other 980xx codes
  belong to institutions' mail services, not to streets).
- IS: Pósturinn's postcode list (postnumer.txt), each postcode with its place, in the nominative
  as iceaddr (BSD-3) records it: data/is_postcodes.json.
- AT: the postal regulator RTR's table of postcodes, each with its delivery place (Ort) and state
  (Bundesland), as python-stdnum packages it: data/at_postcodes.json.
- CZ: Česká pošta's numbering gives Prague (hlavní město Praha, one municipality) the leading digit
  1: every PSČ from 100 00 to 199 99 is delivered in Praha and nowhere else.
- BR: Correios' CEP ranges per state (Busca Faixa de CEP): a CEP names its state, never a city
  (São Paulo's 01000-000 to 19999-999 span 645 municipalities): data/br_cep_ranges.json."""

from __future__ import annotations

import bisect
import json
from functools import cache
from importlib import resources

from chalicelib.domain.locations import value_key
from chalicelib.reference import japan_post

_TW_TOWNSHIPS = {
    ("金門縣", "金城鎮"): "893",
    ("金門縣", "金湖鎮"): "891",
    ("金門縣", "金沙鎮"): "890",
    ("金門縣", "金寧鄉"): "892",
    ("金門縣", "烈嶼鄉"): "894",
    ("金門縣", "烏坵鄉"): "896",
}
_LI_PLACES = {
    "vaduz": "9490",
    "schaan": "9494",
    "triesen": "9495",
    "balzers": "9496",
    "triesenberg": "9497",
    "planken": "9498",
    "ruggell": "9491",
    "schellenberg": "9488",
    "gamprin": "9487",
    "nendeln": "9485",
    "schaanwald": "9486",
}
MONACO = "98000"
# Monaco's one commune and its quarters: a row whose city names something else lies outside it.
_MONACO_PLACES = {
    "monaco",
    "monte-carlo",
    "monaco-ville",
    "la condamine",
    "fontvieille",
    "moneghetti",
    "larvotto",
    "la rousse",
}


def area_postcode(country: str, region: str, city: str, street: str) -> str | None:
    """The one postcode the country's postal authority gives this area, or None."""
    if country == "JP" and region and city:
        return japan_post.street_postcode(region, city, street)
    if country == "TW":
        return _TW_TOWNSHIPS.get((region, city))
    if country == "LI":
        return _LI_PLACES.get(value_key(city))
    if country == "MC" and value_key(city) in _MONACO_PLACES:
        return MONACO
    return None


# Countries whose postal authority publishes one place per postcode: data/<cc>_postcodes.json.
_POSTCODE_PLACE_TABLES = frozenset({"AT", "IS"})


# Leading digits of a postcode that the postal authority gives to exactly one place.
_PREFIX_PLACES = {"CZ": {"1": "Praha"}}


def postcode_place(country: str, postcode: str) -> str | None:
    """The place a postcode stands for, where the postal authority names exactly one."""
    for prefix, place in _PREFIX_PLACES.get(country, {}).items():
        if postcode.startswith(prefix):
            return place
    return _places(country).get(postcode) if country in _POSTCODE_PLACE_TABLES else None


def postcode_region(country: str, postcode: str) -> str | None:
    """The first-level region a postcode lies in, where the postal authority's table says (AT, BR)."""
    if country == "BR":
        return _cep_state(postcode.replace("-", ""))
    return _table(country).get("regions", {}).get(postcode) if country in _POSTCODE_PLACE_TABLES else None


def _cep_state(cep: str) -> str | None:
    starts, ranges = _cep_ranges()
    at = bisect.bisect_right(starts, cep) - 1
    return ranges[at][2] if at >= 0 and ranges[at][0] <= cep <= ranges[at][1] else None


@cache
def _cep_ranges() -> tuple[list[str], list[list[str]]]:
    text = resources.files("chalicelib.reference.data").joinpath("br_cep_ranges.json").read_text("utf-8")
    ranges: list[list[str]] = json.loads(text)["ranges"]  # [first, last, ISO 3166-2], in order
    return [r[0] for r in ranges], ranges


def _places(country: str) -> dict[str, str]:
    return _table(country)["postcodes"]


@cache
def _table(country: str) -> dict[str, dict[str, str]]:
    name = f"{country.lower()}_postcodes.json"
    text = resources.files("chalicelib.reference.data").joinpath(name).read_text("utf-8")
    table: dict[str, dict[str, str]] = json.loads(text)
    return table
