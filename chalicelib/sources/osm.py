"""OpenStreetMap extracts (PBF or XML, optionally gz/bz2) read with pyosmium.

Address objects are nodes, ways and multipolygon relations carrying addr:housenumber together with
addr:street or addr:place. Nodes give their own position; a closed way the area centroid of its
outline (an open one the mean of its nodes); a relation the area centroid of its assembled
multipolygon, outer rings less their holes."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import pairwise
from pathlib import Path

import osmium

from chalicelib.domain.premises import PREMISES_KEYS
from chalicelib.sources.osm_order import is_unsorted, sorted_copy
from chalicelib.sources.records import NOT_PREMISES, RawRecord

_TAGS = {
    "number": "addr:housenumber",
    "unit": "addr:unit",
    "city": "addr:city",
    "district": "addr:suburb",
    "region": "addr:state",
    "postcode": "addr:postcode",
}
_NAMED = {"street": "addr:street", "city": "addr:city"}
# Street furniture that carries an address (a bus stop's, a speed camera's): a place on the street,
# not premises anyone is at. Read and dropped as NOT_PREMISES, unless the object is premises too.
_ON_THE_STREET = {
    "highway": None,  # any value: bus_stop, platform, speed_camera, a pedestrian street or a road
    "public_transport": {"platform", "stop_position"},
    "railway": {"subway_entrance", "platform", "tram_stop", "halt", "stop"},
    "amenity": {"taxi"},
}
_PREMISES_TOO = ("building", "shop", "office", "craft", "tourism", "healthcare", "entrance")
# A tag written in two scripts, the Chinese name then the English one (Hong Kong's
# "彌敦道 Nathan Road"): the native form and the Latin one, split, never translated.
_BILINGUAL = re.compile(
    r"^(?P<han>[^\x00-\x7f]*[\u3400-\u9fff][^\x00-\x7f]*?)\s+(?P<latin>[A-Za-z][\x00-\x7f]*)$"
)

Point = tuple[float, float]


def read_osm(path: Path, *, source_id: str, country: str, language: str) -> Iterator[RawRecord]:
    """The file's address objects; an unsorted file is read on from a sorted copy, without
    repeating the objects read before libosmium met the first one out of order."""
    seen: set[str] = set()
    try:
        for record in _read(path, source_id=source_id, country=country, language=language):
            seen.add(record.record_id)
            yield record
    except RuntimeError as exc:
        if not is_unsorted(exc):
            raise
        with sorted_copy(path) as copy:
            for record in _read(copy, source_id=source_id, country=country, language=language):
                if record.record_id not in seen:
                    yield record


def _read(path: Path, *, source_id: str, country: str, language: str) -> Iterator[RawRecord]:
    processor = osmium.FileProcessor(str(path)).with_locations().with_areas()
    for obj in processor:
        tags = obj.tags
        if "addr:housenumber" not in tags or not ("addr:street" in tags or "addr:place" in tags):
            continue
        located = _identity_and_position(obj)
        if located is None:
            continue
        identity, (lon, lat) = located
        record = RawRecord(
            source_id=source_id,
            record_id=identity,
            country=(tags.get("addr:country") or country).upper(),
            language=language,
            street=tags.get("addr:street") or tags.get("addr:place") or "",
            lon=repr(lon),
            lat=repr(lat),
            premises={key: tags[key] for key in PREMISES_KEYS if key in tags},
            names=_names(tags),
            defect=NOT_PREMISES if _on_the_street(tags) else "",
        )
        for field, tag in _TAGS.items():
            setattr(record, field, tags.get(tag) or "")
        # Korean addresses tag the gu (영통구) as addr:district; elsewhere it is a fallback too.
        record.district = record.district or tags.get("addr:district") or ""
        # Canada, Korea and Vietnam tag their first-level unit as addr:province.
        record.region = record.region or tags.get("addr:province") or ""
        # Hong Kong's flats: the door, then the floor, as its English addresses write them ("5B5, 5/F").
        if not record.unit and "addr:door" in tags and "addr:floor" in tags:
            record.unit = f"{tags['addr:door']}, {tags['addr:floor']}"
        _split_scripts(record)
        yield record


def _on_the_street(tags: osmium.osm.TagList) -> bool:
    if any(key in tags for key in _PREMISES_TOO):
        return False
    return any(
        key in tags and (values is None or tags[key] in values) for key, values in _ON_THE_STREET.items()
    )


def _split_scripts(record: RawRecord) -> None:
    """A street or city written in Chinese and English in one tag: the Chinese as the record's
    text, the English as its published English name (unless an addr:*:en tag gives one)."""
    for field in ("street", "city"):
        if match := _BILINGUAL.match(getattr(record, field)):
            setattr(record, field, match["han"])
            record.names.setdefault("en", {}).setdefault(field, match["latin"])


def _identity_and_position(obj: object) -> tuple[str, Point] | None:
    if isinstance(obj, osmium.osm.Node):
        return f"node/{obj.id}", (obj.location.lon, obj.location.lat)
    if isinstance(obj, osmium.osm.Way):
        points = [(n.lon, n.lat) for n in obj.nodes if n.location.valid()]
        return (f"way/{obj.id}", centroid(points)) if points else None
    if isinstance(obj, osmium.osm.Area) and not obj.from_way():
        outers = [[(n.lon, n.lat) for n in ring] for ring in obj.outer_rings()]
        inners = [
            [(n.lon, n.lat) for n in ring] for outer in obj.outer_rings() for ring in obj.inner_rings(outer)
        ]
        located = area_centroid(outers, inners)
        return (f"relation/{obj.orig_id()}", located) if located else None
    return None  # areas built from ways: the way itself is read


def centroid(points: Sequence[Point]) -> Point:
    """Area centroid of a closed ring; the mean of the points for a line or a degenerate ring."""
    closed = len(points) > 3 and points[0] == points[-1]
    return (area_centroid([points]) if closed else None) or _mean(points)


def area_centroid(outers: Sequence[Sequence[Point]], inners: Sequence[Sequence[Point]] = ()) -> Point | None:
    """The area centroid of outer rings less their holes; None when they enclose no area.

    The shoelace sums run in a frame whose origin is the first vertex: on raw degrees, far from
    (0, 0), each cross product is ~10^3 while the building's is ~10^-8, and the sums cancel to
    tens or hundreds of metres of error (New York's 12 Bank St was served 184 m away). A frame
    moved by a constant is exact, and degrees to a local metric frame are affine at a building's
    scale, so this is the centroid a metric projection gives."""
    rings = [r for r in (*outers, *inners) if len(r) > 2]
    if not rings:
        return None
    ox, oy = rings[0][0]
    area = cx = cy = 0.0
    for ring, sign in [(r, 1.0) for r in outers if len(r) > 2] + [(r, -1.0) for r in inners if len(r) > 2]:
        local = [(x - ox, y - oy) for x, y in ring]
        if local[0] != local[-1]:
            local.append(local[0])
        a = rx = ry = 0.0
        for (x0, y0), (x1, y1) in pairwise(local):
            cross = x0 * y1 - x1 * y0
            a += cross
            rx += (x0 + x1) * cross
            ry += (y0 + y1) * cross
        # Outer rings add and holes subtract whatever way round each is drawn.
        orient = sign if a >= 0 else -sign
        area += orient * a / 2
        cx += orient * rx / 6
        cy += orient * ry / 6
    if abs(area) < 1e-18:
        return None
    return (ox + cx / area, oy + cy / area)


def _mean(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def _names(tags: osmium.osm.TagList) -> dict[str, dict[str, str]]:
    """addr:street:<lang> and addr:city:<lang> tags: names the source publishes in other languages."""
    names: dict[str, dict[str, str]] = {}
    for tag in tags:
        for field, prefix in _NAMED.items():
            lang = tag.k[len(prefix) + 1 :] if tag.k.startswith(prefix + ":") else ""
            if lang and lang.replace("-", "").isalpha():
                names.setdefault(lang, {})[field] = tag.v
    return names
