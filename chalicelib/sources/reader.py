"""Read a source group (one manifest entry, or its language variants) as one stream of records."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from chalicelib.reference.countries import facts
from chalicelib.sources.boundaries import Boundary, read_boundaries
from chalicelib.sources.manifest import SourceEntry, SourceGroup
from chalicelib.sources.openaddresses import read_csv, read_geojson_lines
from chalicelib.sources.osm import read_osm
from chalicelib.sources.records import RawRecord
from chalicelib.sources.variants import merge_variants

_READERS = {
    "openaddresses-geojson": read_geojson_lines,
    "openaddresses-csv": read_csv,
    "osm-pbf": read_osm,
    "osm-xml": read_osm,
}


def read_entry(entry: SourceEntry, root: Path) -> Iterator[RawRecord]:
    reader = _READERS[entry.format]
    for name in entry.files:
        yield from reader(root / name, source_id=entry.id, country=entry.country, language=entry.language)


def read_country_boundaries(entries: Iterable[SourceEntry], root: Path) -> dict[str, list[Boundary]]:
    """The administrative boundaries of every OSM extract, per country, at the levels that country
    names its cities and districts by."""
    found: dict[str, list[Boundary]] = {}
    for entry in entries:
        if not entry.format.startswith("osm"):
            continue
        levels = facts(entry.country).admin_levels
        for name in entry.files:
            found.setdefault(entry.country, []).extend(
                read_boundaries(root / name, (*levels.city, *levels.district))
            )
    return found


def read_group(group: SourceGroup, root: Path) -> Iterator[RawRecord]:
    streams = [read_entry(entry, root) for entry in group.entries]
    return merge_variants(streams[0], streams[1:]) if len(streams) > 1 else streams[0]
