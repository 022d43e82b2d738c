"""The source manifest: which published files to read, in which format, under which licence."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from chalicelib.errors import ConfigurationError

SourceFormat = Literal["osm-pbf", "osm-xml", "openaddresses-csv", "openaddresses-geojson", "overture-parquet"]
_VARIANT_SUFFIX = re.compile(r"^(?P<family>.+)-(?P<lang>[a-z]{2,3})$")
MANIFEST_NAME = "manifest.json"  # in a source store: what the acquisition and the build read


class SourceEntry(BaseModel):
    """One manifest entry (see shared/sources/README.md)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str = Field(min_length=1)
    country: str = Field(pattern=r"^[A-Z]{2}$")
    format: SourceFormat
    files: tuple[str, ...] = Field(min_length=1)
    language: str
    license: str
    attribution: str
    upstream: str = ""
    records: int = 0
    # Overture: the part's row groups [start, stop) this entry reads (None: all of them), and the
    # publication its entries split (`overture-DK`): tallied and deduplicated as one source.
    row_groups: tuple[int, int] | None = None
    family: str = ""


class SourceGroup(BaseModel):
    """Sources read together: one entry, or the language variants of one source (same record ids)."""

    model_config = ConfigDict(frozen=True)

    family: str
    entries: tuple[SourceEntry, ...]

    @property
    def country(self) -> str:
        return self.entries[0].country

    @property
    def primary(self) -> SourceEntry:
        return self.entries[0]


def load_manifest(path: Path) -> list[SourceEntry]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return [SourceEntry.model_validate(item) for item in raw]
    except (OSError, ValueError, ValidationError) as exc:
        raise ConfigurationError(f"unreadable source manifest {path}: {exc}") from exc


def save_manifest(entries: Iterable[SourceEntry], path: Path) -> None:
    path.write_text(manifest_text(entries), encoding="utf-8")


def manifest_text(entries: Iterable[SourceEntry]) -> str:
    """The manifest as load_manifest reads it, one field a line where set, for an operator to diff."""
    docs = [e.model_dump(mode="json", exclude_defaults=True) for e in entries]
    return json.dumps(docs, indent=1, ensure_ascii=False) + "\n"


def group_variants(entries: Iterable[SourceEntry], primary_languages: dict[str, str]) -> list[SourceGroup]:
    """Group OpenAddresses language variants (`...-ja`/`...-en`): same country, format and family.
    The variant in the country's primary language leads; the others add names."""
    families: dict[tuple[str, str, str], list[SourceEntry]] = {}
    groups = []
    for entry in entries:
        if entry.family:  # one task's share of a publication: read alone, counted with the rest
            groups.append(SourceGroup(family=entry.family, entries=(entry,)))
            continue
        match = _VARIANT_SUFFIX.match(entry.id)
        family = match.group("family") if match and entry.format == "openaddresses-geojson" else entry.id
        families.setdefault((family, entry.country, entry.format), []).append(entry)
    for (family, country, _), members in families.items():
        if len(members) == 1:
            family = members[0].id
        primary = primary_languages.get(country, "")
        members.sort(key=lambda e: (not e.language.startswith(primary) if primary else False, e.id))
        groups.append(SourceGroup(family=family, entries=tuple(members)))
    return groups
