"""OpenAddresses outputs: GeoJSON lines (gzipped) and CSV (zipped or plain), streamed row by row."""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from chalicelib.sources.records import MALFORMED_ROW, TEXT_FIELDS, RawRecord

_READING_SUFFIX = "_kana"


def read_geojson_lines(path: Path, *, source_id: str, country: str, language: str) -> Iterator[RawRecord]:
    """One RawRecord per Feature line; a line that is not a Feature yields a record with no position."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            feature = _parse_line(line)
            if feature is None:
                yield RawRecord(source_id, f"line-{number}", country, language, defect=MALFORMED_ROW)
                continue
            yield _from_feature(feature, number, source_id=source_id, country=country, language=language)


def _parse_line(line: str) -> dict[str, Any] | None:
    """The line's JSON object; None when the line is not JSON (a JSON non-object reads as {})."""
    try:
        feature = json.loads(line)
    except ValueError:
        return None
    return feature if isinstance(feature, dict) else {}


def _from_feature(
    feature: dict[str, Any], line_number: int, *, source_id: str, country: str, language: str
) -> RawRecord:
    props = feature.get("properties") or {}
    coords = (feature.get("geometry") or {}).get("coordinates") or ["", ""]
    record_id = _text(props.get("id")) or f"line-{line_number}"
    record = _with_text(RawRecord(source_id, record_id, country, language), props)
    record.use = _text(props.get("use"))
    record.lon = _text(coords[0]) if len(coords) > 1 else ""
    record.lat = _text(coords[1]) if len(coords) > 1 else ""
    record.readings = {k: _text(v) for k, v in props.items() if k.endswith(_READING_SUFFIX) and _text(v)}
    return record


def _with_text(record: RawRecord, values: dict[str, Any]) -> RawRecord:
    """Fill the address text fields from a mapping keyed by their names."""
    for name in TEXT_FIELDS:
        setattr(record, name, _text(values.get(name)))
    return record


def read_csv(path: Path, *, source_id: str, country: str, language: str) -> Iterator[RawRecord]:
    """OpenAddresses CSV columns LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID[,HASH]."""
    with _csv_stream(path) as stream:
        for number, row in enumerate(csv.DictReader(stream), start=2):  # line 1: the header
            if None in row or None in row.values():  # more or fewer fields than the header names
                yield RawRecord(source_id, f"row-{number}", country, language, defect=MALFORMED_ROW)
                continue
            record = RawRecord(
                source_id=source_id,
                record_id=_text(row.get("ID")) or _text(row.get("HASH")) or _natural_key(row),
                country=country,
                language=language,
                lon=_text(row.get("LON")),
                lat=_text(row.get("LAT")),
            )
            yield _with_text(record, {name: row.get(name.upper()) for name in TEXT_FIELDS})


@contextmanager
def _csv_stream(path: Path) -> Iterator[IO[str]]:
    if path.suffix != ".zip":
        with path.open(encoding="utf-8", newline="") as plain:
            yield plain
        return
    with zipfile.ZipFile(path) as archive:
        members = [n for n in archive.namelist() if n.lower().endswith(".csv")]
        if len(members) != 1:
            raise ValueError(f"{path} holds {len(members)} CSV files; expected exactly one")
        with archive.open(members[0]) as raw:
            yield io.TextIOWrapper(raw, encoding="utf-8", newline="")


def _natural_key(row: dict[str, Any]) -> str:
    """A stable id for a row the source gives none: a hash of its published content."""
    content = json.dumps(row, sort_keys=True, ensure_ascii=False)
    return "row-" + hashlib.sha1(content.encode("utf-8"), usedforsecurity=False).hexdigest()[:16]


def _text(value: object) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)
