"""Places by distance: a circle (`near` and `radius`) or a box (`bbox`), and the geohash cells
that cover one, which the text index holds as marks (`~geo:<cell>`, services/marks.py).

A draw asks for the cells of a cover: disjoint cells whose union holds every point of the area, as
few as MAX_CELLS allow, fine where the area's edge cuts them. Every address of those cells is a
candidate; the ones outside the area are rejected, so a draw stays exactly uniform over the
addresses inside, with one read of the cells' heads whatever the pool's size."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

_BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz"
# The precisions the index marks: 4 (39 by 20 km at the equator) to 7 (153 by 153 m).
PRECISIONS = (4, 5, 6, 7)
MAX_CELLS = 48  # a cover's cells, read with q's tokens in one BatchGetItem (100 keys)
# Near a pole the coarsest cells an area touches alone outnumber MAX_CELLS (they narrow with the
# meridians); a cover of more than this is refused rather than read.
MAX_COVER = 200
EARTH_RADIUS = 6_371_008.8  # metres: the mean radius (IUGG)
MAX_RADIUS = 50_000  # metres
MAX_SIDE = 100_000  # metres: a box's longest side, as a circle's diameter


def geohash(lat: float, lon: float, precision: int) -> str:
    """The cell of this precision holding the point (a point on a cell's edge: the cell east or north)."""
    south, north, west, east = -90.0, 90.0, -180.0, 180.0
    chars: list[str] = []
    bits, value, even = 0, 0, True
    while len(chars) < precision:
        if even:
            middle = (west + east) / 2
            value, west, east = (
                (value << 1 | 1, middle, east) if lon >= middle else (value << 1, west, middle)
            )
        else:
            middle = (south + north) / 2
            value, south, north = (
                (value << 1 | 1, middle, north) if lat >= middle else (value << 1, south, middle)
            )
        even, bits = not even, bits + 1
        if bits == 5:
            chars.append(_BASE32[value])
            bits = value = 0
    return "".join(chars)


@dataclass(frozen=True)
class Bounds:
    south: float
    west: float
    north: float
    east: float

    def overlaps(self, other: Bounds) -> bool:
        return (
            self.south <= other.north
            and other.south <= self.north
            and self.west <= other.east
            and other.west <= self.east
        )


def cell_bounds(cell: str) -> Bounds:
    south, north, west, east = -90.0, 90.0, -180.0, 180.0
    even = True
    for char in cell:
        value = _BASE32.index(char)
        for shift in range(4, -1, -1):
            bit = value >> shift & 1
            if even:
                middle = (west + east) / 2
                west, east = (middle, east) if bit else (west, middle)
            else:
                middle = (south + north) / 2
                south, north = (middle, north) if bit else (south, middle)
            even = not even
    return Bounds(south, west, north, east)


def metres_between(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """The great-circle distance (haversine) on the mean-radius sphere."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1.0, math.sqrt(h)))


class Relation(Enum):
    OUTSIDE = 0
    PARTIAL = 1
    INSIDE = 2


@dataclass(frozen=True)
class Circle:
    lat: float
    lon: float
    radius: float  # metres

    @property
    def said(self) -> str:
        return f"{self.radius:g} m of {self.lat:g},{self.lon:g}"

    def contains(self, lat: float, lon: float) -> bool:
        return metres_between(self.lat, self.lon, lat, lon) <= self.radius

    def bounds(self) -> list[Bounds]:
        """The boxes holding the circle: two where it crosses the antimeridian."""
        dlat = math.degrees(self.radius / EARTH_RADIUS)
        south, north = max(-90.0, self.lat - dlat), min(90.0, self.lat + dlat)
        polar = max(abs(south), abs(north))
        if polar >= 89.9:
            return [Bounds(south, -180.0, north, 180.0)]
        dlon = math.degrees(self.radius / (EARTH_RADIUS * math.cos(math.radians(polar))))
        return _wrapped(south, self.lon - dlon, north, self.lon + dlon)

    def relation(self, box: Bounds) -> Relation:
        if self._metres_to(box) > self.radius * 1.001 + 1:  # a hair's margin for rounding
            return Relation.OUTSIDE
        corners = ((box.south, box.west), (box.south, box.east), (box.north, box.west), (box.north, box.east))
        inside = all(self.contains(lat, lon) for lat, lon in corners) and box.east - box.west < 180
        return Relation.INSIDE if inside else Relation.PARTIAL

    def _metres_to(self, box: Bounds) -> float:
        """The great-circle distance from the centre to the nearest point of the box."""
        # The centre's longitude as seen from the box: across the antimeridian, 179.99 is -180.01.
        seen = min(
            (self.lon + turn for turn in (-360, 0, 360)),
            key=lambda x: abs(min(max(x, box.west), box.east) - x),
        )
        if box.west <= seen <= box.east:  # on the centre's meridian: the nearest parallel's point
            return metres_between(self.lat, self.lon, min(max(self.lat, box.south), box.north), self.lon)
        edge = box.west if seen < box.west else box.east
        apart = math.radians(abs(seen - edge))
        if apart < math.pi / 2:  # the nearest point of the edge's meridian, if the edge holds it
            phi = math.radians(self.lat)
            foot = math.degrees(math.atan2(math.tan(phi), math.cos(apart)))
            if box.south <= foot <= box.north:
                return EARTH_RADIUS * math.asin(min(1.0, abs(math.cos(phi) * math.sin(apart))))
        return min(metres_between(self.lat, self.lon, lat, edge) for lat in (box.south, box.north))


@dataclass(frozen=True)
class Box:
    south: float
    west: float
    north: float
    east: float

    @property
    def said(self) -> str:
        return f"the box {self.west:g},{self.south:g},{self.east:g},{self.north:g}"

    def contains(self, lat: float, lon: float) -> bool:
        return self.south <= lat <= self.north and self.west <= lon <= self.east

    def bounds(self) -> list[Bounds]:
        return [Bounds(self.south, self.west, self.north, self.east)]

    def relation(self, box: Bounds) -> Relation:
        if not Bounds(self.south, self.west, self.north, self.east).overlaps(box):
            return Relation.OUTSIDE
        inside = (
            self.south <= box.south
            and box.north <= self.north
            and self.west <= box.west
            and box.east <= self.east
        )
        return Relation.INSIDE if inside else Relation.PARTIAL

    def longest_side(self) -> float:
        """Metres: the box's height, or its width along the parallel nearer the equator."""
        widest = 0.0 if self.south <= 0 <= self.north else min(abs(self.south), abs(self.north))
        width = (
            EARTH_RADIUS * math.cos(math.radians(widest)) * math.radians(self.east - self.west)
        )  # along it
        return max(metres_between(self.south, self.west, self.north, self.west), width)


Area = Circle | Box


@lru_cache(maxsize=256)  # the filters check a cover's size, the draw reads it
def cover(area: Area, max_cells: int = MAX_CELLS) -> tuple[str, ...]:
    """Disjoint cells of the index's precisions whose union holds the area: the coarsest
    precision's cells it touches, those its edge cuts split into their children while the cover
    stays within max_cells, the coarsest first."""
    cells = sorted(set(_touching(area.bounds(), PRECISIONS[0])))
    relations = {c: area.relation(cell_bounds(c)) for c in cells}
    cells = [c for c in cells if relations[c] is not Relation.OUTSIDE]
    while True:
        cut = sorted(
            (c for c in cells if relations[c] is Relation.PARTIAL and len(c) < PRECISIONS[-1]), key=len
        )
        if not cut:
            return tuple(cells)
        parent = cut[0]
        children = {child: area.relation(cell_bounds(child)) for child in (parent + ch for ch in _BASE32)}
        kept = [child for child, r in children.items() if r is not Relation.OUTSIDE]
        if len(cells) - 1 + len(kept) > max_cells:
            return tuple(cells)
        cells.remove(parent)
        cells += kept
        relations.update(children)


def _touching(boxes: Iterable[Bounds], precision: int) -> Iterable[str]:
    """The cells of a precision that overlap any of the boxes, stepping a cell at a time."""
    sample = cell_bounds(geohash(0.0, 0.0, precision))
    height, width = sample.north - sample.south, sample.east - sample.west
    for box in boxes:
        lat = box.south
        while lat <= box.north + height:
            lon = box.west
            while lon <= box.east + width:
                cell = geohash(min(lat, box.north), min(lon, box.east), precision)
                if cell_bounds(cell).overlaps(box):
                    yield cell
                lon += width
            lat += height


def _wrapped(south: float, west: float, north: float, east: float) -> list[Bounds]:
    if west < -180:
        return [Bounds(south, west + 360, north, 180.0), Bounds(south, -180.0, north, east)]
    if east > 180:
        return [Bounds(south, west, north, 180.0), Bounds(south, -180.0, north, east - 360)]
    return [Bounds(south, west, north, east)]
