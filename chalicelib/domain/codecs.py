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
from chalicelib.domain.ordering import Range, Ranges, Span


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
        "s": [[*(_bounds(r) for r in s.ranges), list(s.live), *s.ancestors] for s in loc.spans],
        "n": loc.names,
        "a": sorted(loc.aliases),
    }


def location_from_doc(doc: dict[str, Any]) -> Location:
    spans = [_span_of(s) for s in doc["s"]]
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


def _span_of(s: list[Any]) -> Span:
    if len(s) == 11:  # format 4: one range per stratum (start, end), every slot served
        ranges = [tuple(r for r in (Range(s[i], s[i + 1]),) if r.size) for i in (0, 2, 4, 6)]
        live = (s[1] - s[0], s[3] - s[2], s[5] - s[4], s[7] - s[6])
        return Span((ranges[0], ranges[1], ranges[2], ranges[3]), live, s[8], s[9], s[10])
    ranges = [_ranges(s[i]) for i in range(4)]
    return Span((ranges[0], ranges[1], ranges[2], ranges[3]), (s[4][0], s[4][1], s[4][2], s[4][3]), *s[5:8])


def _bounds(ranges: Ranges) -> list[int]:
    return [bound for r in ranges for bound in (r.start, r.end)]


def _ranges(bounds: list[int]) -> Ranges:
    return tuple(Range(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2))


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
