"""Overture Maps' addresses theme: GeoParquet parts (Spark-written, zstd, row groups of up to ~100k
rows, WKB points), read a row group at a time so memory is bounded by the row group, not the part
(a real part holds ~14.7 M rows). A part is spatial, not national: a task reads a range of its row
groups and keeps one country's rows.

Each row maps to a RawRecord: `number`, `street`, `unit`, `postcode` one to one, `address_levels`
by the country's table (reference/overture_levels.py), `postal_city` as the city where published,
the point from the WKB geometry, and the provenance from the `sources` item describing the whole
row: its dataset (`dataset`, or where a release has dropped it, its successors `provider` and
`resource`), its own `license` where given, else the licence and attribution Overture's
attribution page gives that dataset (reference/overture_licences.py).

Parts are read by column name, and Parquet answers only the columns a part has: REQUIRED columns
missing from a part is schema drift, named by `missing_columns` (discovery refuses the release
before anything is written); OPTIONAL ones missing read as null, and columns a release adds are
never read."""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from chalicelib.errors import ConfigurationError
from chalicelib.reference.overture_levels import assign
from chalicelib.reference.overture_licences import dataset_terms
from chalicelib.sources.records import MALFORMED_ROW, RawRecord

# Without these a part's rows cannot be read as addresses (a country's rows found, placed, named
# and attributed); without the optional ones they are addresses with fewer components.
REQUIRED = ("id", "geometry", "country", "street", "number", "sources")
OPTIONAL = ("postcode", "unit", "address_levels", "postal_city")
COLUMNS = (*REQUIRED, *OPTIONAL)
_BATCH_ROWS = 4_096  # rows turned into Python objects at a time, within the row group being read
_WKB_POINT = 1


@dataclass(frozen=True)
class RowGroups:
    """Row groups [start, stop) of one part: what one task reads."""

    start: int
    stop: int

    def indices(self) -> list[int]:
        return list(range(self.start, self.stop))


def missing_columns(names: Sequence[str]) -> list[str]:
    """The required columns a part's schema (its top-level column names) lacks."""
    return [column for column in REQUIRED if column not in names]


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
    present = parquet.schema_arrow.names
    if missing := missing_columns(present):
        # A manifest written before the release changed shape: the task fails, naming the column.
        raise ConfigurationError(f"Overture part {_name(part)} has no column {', '.join(missing)}")
    chosen = row_groups.indices() if row_groups else list(range(parquet.metadata.num_row_groups))
    columns = [c for c in COLUMNS if c in present]
    for batch in parquet.iter_batches(batch_size=_BATCH_ROWS, row_groups=chosen, columns=columns):
        # The other countries' rows never become Python objects.
        for row in batch.filter(pc.equal(batch.column("country"), country)).to_pylist():
            yield to_record(row, source_id=source_id, language=language)


def _name(part: Path | IO[bytes]) -> str:
    return part.name if isinstance(part, Path) else str(getattr(part, "name", "(stream)"))


def to_record(row: dict[str, Any], *, source_id: str, language: str) -> RawRecord:
    country = row["country"]
    record = RawRecord(source_id, "", country, language, overture_id=str(row["id"]))
    record.dataset, record.license, upstream_id = _provenance(row.get("sources") or (), country)
    if record.dataset and (terms := dataset_terms(country, record.dataset)):
        record.attribution = terms.attribution
    point = _point(row["geometry"])
    if point is None:
        record.record_id, record.defect = record.overture_id, MALFORMED_ROW
        return record
    record.lon, record.lat = (repr(value) for value in point)
    record.record_id = upstream_id or f"@{record.lon},{record.lat}"
    for name in ("number", "street", "unit", "postcode"):
        setattr(record, name, _text(row.get(name)))
    values = [_text((level or {}).get("value")) for level in row.get("address_levels") or ()]
    for field_name, value in assign(country, values).items():
        setattr(record, field_name, value)
    if postal_city := _text(row.get("postal_city")):
        record.city = postal_city
    return record


def _point(wkb: bytes | None) -> tuple[float, float] | None:
    """A WKB Point's (x, y), either byte order; None for anything else."""
    if not wkb or len(wkb) != 21:
        return None
    order = "<" if wkb[0] == 1 else ">"
    kind, x, y = struct.unpack(f"{order}Idd", wkb[1:])
    return (x, y) if kind == _WKB_POINT else None


def _provenance(sources: Sequence[dict[str, Any]], country: str) -> tuple[str, str, str]:
    """The dataset and record id of the item describing the whole feature (property ""); the
    licence of every item, since a row built from several datasets is under all their terms
    (an SPDX `AND` expression, which the licence policy reads part by part). An item's licence is
    its own where it states one, else the one Overture's attribution page gives its dataset."""
    whole = [s for s in sources if not s.get("property")] or list(sources)
    if not whole:
        return "", "", ""
    first = whole[0]
    others = [x for x in dict.fromkeys(_licence(s, country) for s in sources) if x]
    own = _licence(first, country)
    if own or not others:
        licences = list(dict.fromkeys([own, *others])) if own else []
    else:  # the whole row's dataset states none: SPDX's NOASSERTION keeps that beside the others'
        licences = ["NOASSERTION", *others]
    if len(licences) > 1:  # an item's own expression kept whole: `(A OR B) AND C`
        licences = [f"({x})" if " " in x else x for x in licences]
    licence = " AND ".join(licences)
    return _dataset(first), licence, _text(first.get("record_id"))


def _licence(item: dict[str, Any], country: str) -> str:
    if own := _text(item.get("license")):
        return own
    terms = dataset_terms(country, _dataset(item)) if _dataset(item) else None
    return (terms.licence or "") if terms else ""


def _dataset(item: dict[str, Any]) -> str:
    """`dataset`, or once a release drops it (schema 9c2e8265 made it optional "ahead of the
    planned removal"), its successors `provider/resource` (`version` names a snapshot of the
    resource, not the resource)."""
    named = _text(item.get("dataset"))
    if named:
        return named
    return "/".join(p for p in (_text(item.get("provider")), _text(item.get("resource"))) if p)


def _text(value: object) -> str:
    return "" if value is None else str(value).strip()
