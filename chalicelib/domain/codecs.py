"""Domain objects ⇄ the compact JSON payloads stored in item `doc` attributes."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from chalicelib.domain.addresses import (
    UNASSESSED,
    Completeness,
    Components,
    MatchLevel,
    PropertyType,
    Provenance,
    PublishedAddress,
)
from chalicelib.domain.coverage import CountRule, Coverage, FractionRule
from chalicelib.domain.location_index import Location
from chalicelib.domain.locations import LocationType
from chalicelib.domain.ordering import Range, Span


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> Any:
    return json.loads(text)


def address_to_doc(a: PublishedAddress) -> dict[str, Any]:
    c = {k: v for k, v in asdict(a.components).items() if v is not None}
    doc: dict[str, Any] = {
        "id": a.id,
        "cc": a.country,
        "ml": a.match_level.value,
        "pt": a.property_type.value,
        "c": c,
        "f": a.formatted,
        "lon": a.lon,
        "lat": a.lat,
        "src": [a.provenance.source_id, a.provenance.license, a.provenance.attribution],
    }
    if a.names:
        doc["n"] = a.names
    if a.readings:
        doc["r"] = a.readings
    if a.derived:
        doc["d"] = list(a.derived)
    k = a.completeness
    doc["k"] = [k.complete, list(k.missing), list(k.invalid)]
    return doc


def address_from_doc(doc: dict[str, Any]) -> PublishedAddress:
    return PublishedAddress(
        id=doc["id"],
        country=doc["cc"],
        match_level=MatchLevel(doc["ml"]),
        property_type=PropertyType(doc["pt"]),
        components=Components(**doc["c"]),
        formatted=doc["f"],
        lon=doc["lon"],
        lat=doc["lat"],
        provenance=Provenance(*doc["src"]),
        names=doc.get("n", {}),
        readings=doc.get("r", {}),
        derived=tuple(doc.get("d", ())),
        completeness=_completeness(doc.get("k")),
    )


def _completeness(raw: list[Any] | None) -> Completeness:
    if not raw:
        return UNASSESSED
    return Completeness(bool(raw[0]), tuple(raw[1]), tuple(raw[2]))


def location_to_doc(loc: Location) -> dict[str, Any]:
    return {
        "id": loc.id,
        "t": loc.type.value,
        "v": loc.value,
        "pt": loc.parent_type,
        "p": loc.parent_id,
        "s": [
            [*(bound for r in s.ranges for bound in (r.start, r.end)), s.region_id, s.city_id, s.district_id]
            for s in loc.spans
        ],
        "n": loc.names,
        "a": sorted(loc.aliases),
    }


def location_from_doc(doc: dict[str, Any]) -> Location:
    spans = [
        Span((Range(s[0], s[1]), Range(s[2], s[3]), Range(s[4], s[5]), Range(s[6], s[7])), s[8], s[9], s[10])
        for s in doc["s"]
    ]
    return Location(
        id=doc["id"],
        type=LocationType(doc["t"]),
        value=doc["v"],
        parent_type=doc["pt"],
        parent_id=doc["p"],
        spans=spans,
        names=doc.get("n", {}),
        aliases=set(doc.get("a", [])),
    )


def coverage_to_doc(c: Coverage) -> dict[str, Any]:
    return {
        "total": [c.total.current, c.total.target],
        "admin": [c.administrative.actual, c.administrative.target],
        "regional": [c.regional_minimums.actual, c.regional_minimums.target],
    }


def coverage_from_doc(country: str, doc: dict[str, Any]) -> Coverage:
    return Coverage(
        country=country,
        total=CountRule(*doc["total"]),
        administrative=FractionRule(*doc["admin"]),
        regional_minimums=FractionRule(*doc["regional"]),
    )
