"""Administrative boundaries (`boundary=administrative` relations, assembled into areas) read from
the same OSM extracts as the addresses, so a missing city or district can be found by
point-in-polygon, as Pelias does with Who's On First. Only complete relations assemble: an area cut
at the extract's edge is left out, never guessed."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import osmium

from chalicelib.sources.osm_order import is_unsorted, sorted_copy

Ring = tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Boundary:
    level: int
    name: str
    outer: tuple[Ring, ...]
    inner: tuple[Ring, ...]
    box: tuple[float, float, float, float]  # west, south, east, north

    def contains(self, lon: float, lat: float) -> bool:
        west, south, east, north = self.box
        if not (west <= lon <= east and south <= lat <= north):
            return False
        return any(_inside(lon, lat, r) for r in self.outer) and not any(
            _inside(lon, lat, r) for r in self.inner
        )


def read_boundaries(path: Path, levels: Iterable[int]) -> list[Boundary]:
    wanted = {str(level) for level in levels}
    if not wanted:
        return []
    try:
        return list(_read(path, wanted))
    except RuntimeError as exc:
        if not is_unsorted(exc):
            raise
        with sorted_copy(path) as copy:
            return list(_read(copy, wanted))


def _read(path: Path, wanted: set[str]) -> Iterator[Boundary]:
    processor = osmium.FileProcessor(str(path)).with_locations().with_areas()
    for obj in processor:
        if not isinstance(obj, osmium.osm.Area) or obj.from_way():
            continue
        tags = obj.tags
        if tags.get("boundary") != "administrative" or tags.get("admin_level") not in wanted:
            continue
        name = tags.get("name")
        if not name:
            continue
        outer = tuple(tuple((n.lon, n.lat) for n in ring) for ring in obj.outer_rings())
        inner = tuple(
            tuple((n.lon, n.lat) for n in ring) for o in obj.outer_rings() for ring in obj.inner_rings(o)
        )
        points = [p for ring in outer for p in ring]
        if not points:
            continue
        box = (
            min(p[0] for p in points),
            min(p[1] for p in points),
            max(p[0] for p in points),
            max(p[1] for p in points),
        )
        yield Boundary(int(tags["admin_level"]), name, outer, inner, box)


def _inside(lon: float, lat: float, ring: Ring) -> bool:
    """Even-odd ray casting."""
    inside = False
    j = len(ring) - 1
    for i in range(len(ring)):
        (xi, yi), (xj, yj) = ring[i], ring[j]
        if (yi > lat) != (yj > lat) and lon < (xj - xi) * (lat - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside
