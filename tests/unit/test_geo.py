"""Geohash cells and the covers of circles and boxes a `near` or `bbox` draw reads."""

from __future__ import annotations

import math
import random

import pytest

from chalicelib.domain.geo import (
    MAX_CELLS,
    PRECISIONS,
    Box,
    Circle,
    cell_bounds,
    cover,
    geohash,
    metres_between,
)


def test_geohash_matches_the_published_example_and_its_cell_holds_the_point() -> None:
    assert geohash(57.64911, 10.40744, 11) == "u4pruydqqvj"  # Wikipedia's (Niemeyer's) example
    box = cell_bounds("u4pruydqqvj")
    assert box.south <= 57.64911 <= box.north
    assert box.west <= 10.40744 <= box.east
    assert metres_between(0, 0, 0, 1) == pytest.approx(111_195, rel=1e-4)


@pytest.mark.parametrize("radius", [30, 400, 5_000, 50_000])
def test_a_circle_s_cover_is_disjoint_within_its_budget_and_holds_every_point_inside(radius: int) -> None:
    rng = random.Random(radius)
    for _ in range(25):
        circle = Circle(rng.uniform(-60, 60), rng.uniform(-180, 180), radius)
        cells = cover(circle)
        assert len(cells) <= MAX_CELLS
        assert not [(a, b) for a in cells for b in cells if a != b and b.startswith(a)]  # disjoint
        covered = set(cells)
        for _ in range(100):
            d, bearing = radius * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
            lat = circle.lat + math.degrees(d * math.cos(bearing) / 6_371_008.8)
            lon = circle.lon + math.degrees(
                d * math.sin(bearing) / (6_371_008.8 * math.cos(math.radians(lat)))
            )
            lon = (lon + 540) % 360 - 180
            if circle.contains(lat, lon):
                assert any(geohash(lat, lon, p) in covered for p in PRECISIONS)


def test_a_circle_across_the_antimeridian_is_covered_on_both_sides() -> None:
    cells = cover(Circle(-16.5, 179.99, 5_000))  # Fiji's Taveuni
    assert geohash(-16.5, 179.995, 7)[:4] in {c[:4] for c in cells}
    assert geohash(-16.5, -179.995, 7)[:4] in {c[:4] for c in cells}


def test_a_small_area_is_covered_by_fine_cells_and_a_box_by_the_cells_it_touches() -> None:
    assert {len(c) for c in cover(Circle(48.8584, 2.2945, 60))} == {7}  # the Eiffel Tower's 60 m
    box = Box(south=48.85, west=2.29, north=48.86, east=2.30)
    cells = cover(box)
    assert all(box.relation(cell_bounds(c)).name != "OUTSIDE" for c in cells)
    assert geohash(48.855, 2.295, 7)[: min(len(c) for c in cells)] in {
        c[: min(len(c) for c in cells)] for c in cells
    }
    assert box.longest_side() == pytest.approx(1_112, rel=0.01)  # its height: 0.01 degrees of latitude


def test_a_circle_near_a_pole_keeps_every_cell_holding_a_point_inside() -> None:
    circle = Circle(89.0, 0.0, 50_000)
    assert circle.contains(89.12076, 26.70305)  # 49,990 m away, east of the centre's meridian
    assert any(geohash(89.12076, 26.70305, p) in set(cover(circle)) for p in PRECISIONS)


def test_a_box_s_width_is_measured_along_its_parallel() -> None:
    assert Box(89.6, 0.0, 90.0, 179.9).longest_side() > 100_000  # 140 km along 89.6 degrees north
