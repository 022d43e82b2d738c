"""Read a source group (one manifest entry, or its language variants) as one stream of records."""

from __future__ import annotations

import csv
import logging
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO

from chalicelib.errors import StorageUnavailable
from chalicelib.logs import log_event
from chalicelib.reference.countries import facts
from chalicelib.sources.boundaries import Boundary, read_boundaries
from chalicelib.sources.manifest import SourceEntry, SourceGroup
from chalicelib.sources.openaddresses import read_csv, read_geojson_lines
from chalicelib.sources.osm import read_osm
from chalicelib.sources.overture import RowGroups, read_overture
from chalicelib.sources.records import UNREADABLE_FILE, RawRecord
from chalicelib.sources.variants import merge_variants

RemoteOpener = Callable[[str], IO[bytes]]

_READERS = {
    "openaddresses-geojson": read_geojson_lines,
    "openaddresses-csv": read_csv,
    "osm-pbf": read_osm,
    "osm-xml": read_osm,
}


# What a damaged file raises while read: a truncated gzip (EOFError), a bad zip or gzip header
# (OSError), bytes that are not UTF-8 (ValueError), csv's own limits, zlib's checks, and libosmium's
# errors on a damaged PBF block or broken XML (RuntimeError).
_READ_ERRORS = (OSError, EOFError, ValueError, RuntimeError, csv.Error, zlib.error)


def read_entry(
    entry: SourceEntry, root: Path, open_remote: RemoteOpener | None = None
) -> Iterator[RawRecord]:
    """The entry's records, file by file. A file that breaks off keeps what was read before the break
    and adds one UNREADABLE_FILE record, which the sync counts: the other files and sources go on.
    A file named by URL (an Overture part in Overture's bucket) is read in place through
    `open_remote`, by ranges."""
    for name in entry.files:
        try:
            yield from _read_file(entry, root, name, open_remote)
        except _READ_ERRORS as exc:
            log_event("source_unreadable", level=logging.WARNING, source=entry.id, file=name, error=repr(exc))
            yield RawRecord(
                entry.id, f"{name}#unreadable", entry.country, entry.language, defect=UNREADABLE_FILE
            )


def _read_file(
    entry: SourceEntry, root: Path, name: str, open_remote: RemoteOpener | None
) -> Iterator[RawRecord]:
    language = entry.language
    if entry.format != "overture-parquet":
        yield from _READERS[entry.format](
            root / name, source_id=entry.id, country=entry.country, language=language
        )
        return
    groups = RowGroups(*entry.row_groups) if entry.row_groups else None
    if "://" not in name:
        yield from read_overture(
            root / name, source_id=entry.id, country=entry.country, language=language, row_groups=groups
        )
        return
    if open_remote is None:
        raise OSError(f"{name} is named by URL, and this reader has no way to open one")
    try:
        with open_remote(name) as part:
            yield from read_overture(
                part, source_id=entry.id, country=entry.country, language=language, row_groups=groups
            )
    except _READ_ERRORS as exc:
        # A lost connection or a timeout half-way: the task fails (and is retried) rather than
        # publish the country without the rest of its rows, as a damaged local file would.
        raise StorageUnavailable(f"{name} could not be read whole ({type(exc).__name__})") from exc


def read_country_boundaries(entries: Iterable[SourceEntry], root: Path) -> dict[str, list[Boundary]]:
    """The administrative boundaries of every OSM extract, per country, at the levels that country
    names its cities and districts by."""
    found: dict[str, list[Boundary]] = {}
    for entry in entries:
        if not entry.format.startswith("osm"):
            continue
        levels = facts(entry.country).admin_levels
        for name in entry.files:
            try:
                boundaries = list(read_boundaries(root / name, (*levels.city, *levels.district)))
            except _READ_ERRORS:
                continue  # read_entry counts the file as unreadable; no boundaries from it
            found.setdefault(entry.country, []).extend(boundaries)
    return found


def read_group(
    group: SourceGroup, root: Path, open_remote: RemoteOpener | None = None
) -> Iterator[RawRecord]:
    streams = [read_entry(entry, root, open_remote) for entry in group.entries]
    return merge_variants(streams[0], streams[1:]) if len(streams) > 1 else streams[0]
