"""OSM files whose objects are not sorted by type and id (API `map` downloads, files saved by
editors). libosmium's area assembly needs sorted input and stops at the first object out of order,
so such a file is read again from a sorted copy, as `osmium sort` would write it."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import osmium


def is_unsorted(error: RuntimeError) -> bool:
    """libosmium's words when area assembly meets an object out of order."""
    return "out of order" in str(error)


@contextmanager
def sorted_copy(path: Path) -> Iterator[Path]:
    """A temporary PBF of the file's objects, nodes then ways then relations, each by id. The copy
    holds the whole file in memory while it is written: unsorted files are small editor or API
    downloads, never the large sorted extracts."""
    nodes: list[Any] = []
    ways: list[Any] = []
    relations: list[Any] = []
    for obj in osmium.FileProcessor(str(path)):
        tags = [(tag.k, tag.v) for tag in obj.tags]
        if isinstance(obj, osmium.osm.Node):
            location = (obj.location.lon, obj.location.lat) if obj.location.valid() else None
            nodes.append(osmium.osm.mutable.Node(obj, tags=tags, location=location))
        elif isinstance(obj, osmium.osm.Way):
            ways.append(osmium.osm.mutable.Way(obj, tags=tags, nodes=[n.ref for n in obj.nodes]))
        elif isinstance(obj, osmium.osm.Relation):
            members = [(m.type, m.ref, m.role) for m in obj.members]
            relations.append(osmium.osm.mutable.Relation(obj, tags=tags, members=members))
    with tempfile.TemporaryDirectory(prefix="osm-sorted-") as folder:
        copy = Path(folder) / "sorted.osm.pbf"
        writer = osmium.SimpleWriter(str(copy))
        try:
            for node in sorted(nodes, key=_id):
                writer.add_node(node)
            for way in sorted(ways, key=_id):
                writer.add_way(way)
            for relation in sorted(relations, key=_id):
                writer.add_relation(relation)
        finally:
            writer.close()
        yield copy


def _id(obj: Any) -> int:
    return int(obj.id)
