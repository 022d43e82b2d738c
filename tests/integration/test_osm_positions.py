"""An OSM area's position is its true area centroid: held to GEOS (shapely) in a metric frame
(pyproj's azimuthal equidistant projection about the area), for every way and relation of every
extract in shared/sources, and to exact rational arithmetic far from (0, 0). With the integration
tests: it reads every extract twice, which the coverage run need not repeat."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import numpy
import osmium
import pytest
import shapely
import shapely.wkb
from pyproj import Transformer

from chalicelib.sources.osm import area_centroid, centroid, read_osm
from chalicelib.sources.osm_order import is_unsorted, sorted_copy
from tests.support.factories import SOURCES, needs_sources

Point = tuple[float, float]


def _metres(a: Point, b: Point) -> float:
    """Haversine distance on the mean Earth radius."""
    (lon1, lat1), (lon2, lat2) = (tuple(map(math.radians, p)) for p in (a, b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(math.sqrt(h))


def _exact_centroid(ring: list[Point]) -> Point:
    """The shoelace centroid in exact rationals: no cancellation, whatever the origin."""
    exact = [(Fraction(x), Fraction(y)) for x, y in ring]
    area = cx = cy = Fraction(0)
    for (x0, y0), (x1, y1) in pairwise(exact):
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    return (float(cx / (3 * area)), float(cy / (3 * area)))


def test_a_building_far_from_the_origin_is_placed_at_its_exact_centroid() -> None:
    # A ~20 m footprint in Manhattan, where raw degrees' cross products are ~3,000.
    ring = [(-74.00155, 40.73647), (-74.00131, 40.73658), (-74.00118, 40.73641), (-74.00142, 40.7363)]
    ring.append(ring[0])
    assert _metres(centroid(ring), _exact_centroid(ring)) < 0.001


def test_a_hole_moves_the_centroid_away_from_it() -> None:
    outer = [(10.0, 50.0), (10.004, 50.0), (10.004, 50.002), (10.0, 50.002), (10.0, 50.0)]
    hole = [
        (10.0025, 50.0005),
        (10.0035, 50.0005),
        (10.0035, 50.0015),
        (10.0025, 50.0015),
        (10.0025, 50.0005),
    ]
    lon, lat = area_centroid([outer], [hole]) or (0.0, 0.0)
    # 8 units of area less 1 centred 1 unit right of the middle: the rest's centre is 1/7 left of it.
    assert lon == pytest.approx(10.002 - 0.001 / 7)
    assert lat == pytest.approx(50.001)


def _areas(path: Path) -> Iterator[tuple[str, shapely.Geometry]]:
    """Every assembled area's multipolygon, as libosmium builds it, by the id our reader gives."""
    wkb = osmium.geom.WKBFactory()
    for obj in osmium.FileProcessor(str(path)).with_locations().with_areas():
        if isinstance(obj, osmium.osm.Area):
            kind = "way" if obj.from_way() else "relation"
            try:
                yield f"{kind}/{obj.orig_id()}", shapely.wkb.loads(wkb.create_multipolygon(obj), hex=True)
            except RuntimeError:
                continue  # libosmium could not build a valid polygon: no area to compare


def _sorted_areas(path: Path) -> list[tuple[str, shapely.Geometry]]:
    """libosmium assembles areas from sorted input only: an unsorted API download (Göppingen's,
    Tsim Sha Tsui's) is compared from a sorted copy, as the reader reads it."""
    try:
        return list(_areas(path))
    except RuntimeError as error:
        if not is_unsorted(error):
            raise
    with sorted_copy(path) as copy:
        return list(_areas(copy))


def _true_centroids(areas: list[shapely.Geometry], metric: Transformer) -> list[Point]:
    """GEOS's centroids in metres (an azimuthal equidistant frame about the extract: within the
    ~20 km of an extract its scale error is under 10^-5, a millimetre on a 100 m building),
    taken back to degrees; every area of an extract in one projection each way."""
    projected = shapely.transform(
        shapely.GeometryCollection(areas), lambda xy: numpy.column_stack(metric.transform(*xy.T))
    )
    centres = shapely.centroid(list(projected.geoms))
    lon, lat = metric.transform(shapely.get_x(centres), shapely.get_y(centres), direction="INVERSE")
    return list(zip(lon.tolist(), lat.tolist(), strict=True))


def _centre(points: list[Point]) -> Transformer:
    lon = sorted(p[0] for p in points)[len(points) // 2]
    lat = sorted(p[1] for p in points)[len(points) // 2]
    return Transformer.from_crs("EPSG:4326", f"+proj=aeqd +lat_0={lat} +lon_0={lon}", always_xy=True)


@needs_sources
def test_every_served_area_lies_within_a_metre_of_its_true_centroid() -> None:
    manifest = json.loads((SOURCES / "manifest.json").read_text("utf-8"))
    extracts = [
        (e["id"], e["country"], name)
        for e in manifest
        if e["format"].startswith("osm")
        for name in e["files"]
    ]
    far: dict[str, float] = {}
    compared = 0
    for source, country, name in extracts:
        path = SOURCES / name
        served = {
            r.record_id: (float(r.lon), float(r.lat))
            for r in read_osm(path, source_id=source, country=country, language="und")
            if not r.record_id.startswith("node/")
        }
        if not served:
            continue
        metric = _centre(list(served.values()))
        areas = [(rid, area) for rid, area in _sorted_areas(path) if rid in served]
        compared += len(areas)
        for (rid, _), centre in zip(areas, _true_centroids([a for _, a in areas], metric), strict=True):
            if (metres := _metres(served[rid], centre)) > 1.0:
                far[f"{name} {rid}"] = round(metres, 1)
    assert compared > 16_000  # every closed way and relation of the 50 extracts; open ways are a line's mean
    assert far == {}
