"""Overture Maps' addresses theme: GeoParquet parts (Spark-written, zstd, row groups of up to ~100k
rows, WKB points), read a row group at a time so memory is bounded by the row group, not the part
(a real part holds ~14.7 M rows). A part is spatial, not national: a task reads a range of its row
groups and keeps one country's rows.

Each row maps to a RawRecord: `number`, `street`, `unit`, `postcode` one to one, `address_levels`
by the country's table (reference/overture_levels.py), `postal_city` as the city where published,
the point from the WKB geometry, and the provenance from the first `sources` item (its dataset,
its SPDX licence, if any). The record id is the dataset's own id for the row, else its position:
Overture's `id` changes whenever Overture re-ids a row, even unchanged, so our ids (content-derived,
from the dataset, this record id and the address text) do not rest on it; it is kept as
`overture_id` for the changelog."""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from chalicelib.reference.overture_levels import levels_of
from chalicelib.sources.records import MALFORMED_ROW, RawRecord

COLUMNS = (
    "id",
    "geometry",
    "country",
    "postcode",
    "street",
    "number",
    "unit",
    "address_levels",
    "postal_city",
    "sources",
)
_BATCH_ROWS = 4_096  # rows turned into Python objects at a time, within the row group being read
_WKB_POINT = 1


@dataclass(frozen=True)
class RowGroups:
    """Row groups [start, stop) of one part: what one task reads."""

    start: int
    stop: int

    def indices(self) -> list[int]:
        return list(range(self.start, self.stop))


def row_group_count(part: Path | IO[bytes]) -> int:
    """From the part's footer alone."""
    import pyarrow.parquet as pq  # lazy: only the sync's Overture tasks read Parquet

    return int(pq.ParquetFile(part).metadata.num_row_groups)


def read_overture(
    part: Path | IO[bytes],
    *,
    source_id: str,
    country: str,
    language: str,
    row_groups: RowGroups | None = None,
) -> Iterator[RawRecord]:
    """The rows of `country` in the part's row groups (all of them when None), in file order."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq  # lazy: only the sync's Overture tasks read Parquet

    parquet = pq.ParquetFile(part)
    chosen = row_groups.indices() if row_groups else list(range(parquet.metadata.num_row_groups))
    for batch in parquet.iter_batches(batch_size=_BATCH_ROWS, row_groups=chosen, columns=list(COLUMNS)):
        # The other countries' rows never become Python objects.
        for row in batch.filter(pc.equal(batch.column("country"), country)).to_pylist():
            yield to_record(row, source_id=source_id, language=language)


def to_record(row: dict[str, Any], *, source_id: str, language: str) -> RawRecord:
    country = row["country"]
    record = RawRecord(source_id, "", country, language, overture_id=str(row["id"]))
    record.dataset, record.license, upstream_id = _provenance(row["sources"] or ())
    point = _point(row["geometry"])
    if point is None:
        record.record_id, record.defect = record.overture_id, MALFORMED_ROW
        return record
    record.lon, record.lat = (repr(value) for value in point)
    record.record_id = upstream_id or f"@{record.lon},{record.lat}"
    for name in ("number", "street", "unit", "postcode"):
        setattr(record, name, _text(row[name]))
    for field_name, level in zip(levels_of(country), row["address_levels"] or (), strict=False):
        if field_name is not None:
            setattr(record, field_name, _text((level or {}).get("value")))
    if postal_city := _text(row["postal_city"]):
        record.city = postal_city
    return record


def _point(wkb: bytes | None) -> tuple[float, float] | None:
    """A WKB Point's (x, y), either byte order; None for anything else."""
    if not wkb or len(wkb) != 21:
        return None
    order = "<" if wkb[0] == 1 else ">"
    kind, x, y = struct.unpack(f"{order}Idd", wkb[1:])
    return (x, y) if kind == _WKB_POINT else None


def _provenance(sources: Sequence[dict[str, Any]]) -> tuple[str, str, str]:
    """The dataset and record id of the item describing the whole feature (property ""); the
    licence of every item, since a row built from several datasets is under all their terms
    (an SPDX `AND` expression, which the licence policy reads part by part)."""
    whole = [s for s in sources if not s.get("property")] or list(sources)
    if not whole:
        return "", "", ""
    first = whole[0]
    others = [x for x in dict.fromkeys(_text(s.get("license")) for s in sources) if x]
    own = _text(first.get("license"))
    if own or not others:
        licences = list(dict.fromkeys([own, *others])) if own else []
    else:  # the whole row's dataset states none: SPDX's NOASSERTION keeps that beside the others'
        licences = ["NOASSERTION", *others]
    if len(licences) > 1:  # an item's own expression kept whole: `(A OR B) AND C`
        licences = [f"({x})" if " " in x else x for x in licences]
    licence = " AND ".join(licences)
    return _text(first.get("dataset")), licence, _text(first.get("record_id"))


def _text(value: object) -> str:
    return "" if value is None else str(value).strip()
