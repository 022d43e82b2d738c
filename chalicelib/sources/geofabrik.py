"""Geofabrik's index of OSM extracts (https://download.geofabrik.de/index-v1-nogeom.json): which
extract serves a country, for the countries Overture's addresses do not cover.

A country's extract is one that lists the country's ISO code alone. The index lists some codes on
extracts of other territories (2022: Vanuatu's VU also on Tokelau, Wallis-et-Futuna and three
others; the Marshall Islands' MH on the Pitcairn Islands), so when several do, the one named like
the country wins. An extract shared by two countries (Israel and Palestine, Senegal and Gambia) is
not used for either: an OSM row says no country of its own, so each would serve the other's
addresses. A country inside another's extract that does not list it (Singapore, in
malaysia-singapore-brunei, which lists MY only) has none. Each miss is reported with its reason."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

GEOFABRIK_INDEX = "https://download.geofabrik.de/index-v1-nogeom.json"  # rebuilt daily


@dataclass(frozen=True)
class Extract:
    id: str  # e.g. `europe/andorra`'s `andorra`, `us/california`
    name: str
    countries: tuple[str, ...]  # its iso3166-1:alpha2 list
    pbf: str  # the -latest.osm.pbf download
    updates: str  # the replication base (state.txt and .osc.gz diffs)


@dataclass(frozen=True)
class NoExtract:
    country: str
    reason: str


def parse_index(text: str) -> list[Extract]:
    """The index's extracts, skipping any feature without a PBF download."""
    features = json.loads(text).get("features", [])
    return [e for e in (_extract(f.get("properties") or {}) for f in features) if e is not None]


def _extract(properties: Mapping[str, Any]) -> Extract | None:
    urls = properties.get("urls") or {}
    if not properties.get("id") or not urls.get("pbf"):
        return None
    return Extract(
        id=str(properties["id"]),
        name=str(properties.get("name") or properties["id"]),
        countries=tuple(str(c) for c in properties.get("iso3166-1:alpha2") or ()),
        pbf=str(urls["pbf"]),
        updates=str(urls.get("updates") or ""),
    )


def extracts_for(
    extracts: Iterable[Extract], countries: Iterable[str], names: Mapping[str, str]
) -> tuple[dict[str, Extract], list[NoExtract]]:
    """Each country's own extract, and the countries without one (with the reason). `names` gives
    each country's English name (ISO 3166), to choose among extracts listing the same code."""
    listing: dict[str, list[Extract]] = {}
    for extract in extracts:
        for code in extract.countries:
            listing.setdefault(code, []).append(extract)
    found: dict[str, Extract] = {}
    missing: list[NoExtract] = []
    for country in sorted(set(countries)):
        candidates = listing.get(country, [])
        own = [e for e in candidates if e.countries == (country,)]
        if len(own) > 1:
            own = [e for e in own if _folded(e.name) == _folded(names.get(country, ""))]
        if len(own) == 1:
            found[country] = own[0]
        elif candidates and not own:
            shared = ", ".join(sorted(e.id for e in candidates))
            missing.append(NoExtract(country, f"only in extracts shared with other countries ({shared})"))
        elif own:
            missing.append(NoExtract(country, f"several extracts list it: {', '.join(e.id for e in own)}"))
        else:
            missing.append(NoExtract(country, "no extract lists it"))
    return found, missing


def _folded(name: str) -> str:
    """`Marshall Islands` and `marshall-islands` alike."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().casefold()
    return "".join(ch for ch in plain if ch.isalnum())
