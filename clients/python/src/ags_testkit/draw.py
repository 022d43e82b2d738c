"""Where an address comes from: the service, an exported file (offline mode), or the service with
the file as its fallback when the service cannot be reached."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from ags_testkit.client import Client, Unreachable
from ags_testkit.records import GeneratedAddress

# Filters a draw understands offline: component equality, case-insensitive.
_OFFLINE_FILTERS = {
    "region": "region",
    "city": "city",
    "district": "district",
    "postcode": "postcode",
}


@dataclass(frozen=True)
class Filters:
    country: str = "US"
    region: str | None = None
    city: str | None = None
    district: str | None = None
    postcode: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)  # q, residential, complete, ids: online only
    partition: str | None = None  # `i/n`: this worker's part of the pool (offline: of the file)

    def given(self) -> dict[str, Any]:
        named = {k: getattr(self, k) for k in ("region", "city", "district", "postcode", "partition")}
        return {k: v for k, v in {**named, **self.extra}.items() if v is not None}


OFFLINE_FORMATS = "an export file offline mode reads: NDJSON or JSON (ags export --format ndjson|json)"


class ExportFileError(ValueError):
    """A file offline mode cannot read, named with the formats it reads."""


class Source(Protocol):
    def draw(self, seed: str, filters: Filters) -> GeneratedAddress: ...


@dataclass(frozen=True)
class Service:
    client: Client

    def draw(self, seed: str, filters: Filters) -> GeneratedAddress:
        return self.client.generate(filters.country, seed=seed, **filters.given())


class Offline:
    """Addresses from files `ags export` wrote (NDJSON or JSON; CSV is refused by name): the same
    seed and filters always pick the same one, here and in the TypeScript kit."""

    def __init__(self, records: Iterable[GeneratedAddress]) -> None:
        self.records = sorted(records, key=lambda r: r["address"]["id"])

    @classmethod
    def load(cls, *paths: str | Path) -> Offline:
        return cls(record for path in paths for record in _read(Path(path)))

    def draw(self, seed: str, filters: Filters) -> GeneratedAddress:
        if filters.extra:
            raise ValueError(
                f"offline mode filters by country and components only, not {sorted(filters.extra)}"
            )
        matching = [r for r in _part(self.records, filters.partition) if _matches(r, filters)]
        if not matching:
            raise LookupError(f"no exported address matches {filters}")
        digest = hashlib.sha256(_draw_key(seed, filters)).digest()
        return matching[int.from_bytes(digest[:8], "big") % len(matching)]


@dataclass(frozen=True)
class Fallback:
    primary: Source
    offline: Source

    def draw(self, seed: str, filters: Filters) -> GeneratedAddress:
        try:
            return self.primary.draw(seed, filters)
        except Unreachable:
            return self.offline.draw(seed, filters)


def fallback(client: Client, offline_file: str | Path | None) -> Source:
    """The service, falling back to the exported file (when one is given) if it is unreachable."""
    service = Service(client)
    return Fallback(service, Offline.load(offline_file)) if offline_file else service


def _draw_key(seed: str, filters: Filters) -> bytes:
    """What the TypeScript kit's offline draw hashes too, so both pick the same record: the seed,
    the country and each component filter (empty when not given), lower-cased as they match."""
    wanted = [(getattr(filters, name) or "").lower() for name in _OFFLINE_FILTERS]
    return "\x1f".join([seed, filters.country.upper(), *wanted]).encode()


def _part(records: list[GeneratedAddress], partition: str | None) -> list[GeneratedAddress]:
    """Part i of n of the file's records (in id order, every n-th from the i-th), as the TypeScript
    kit takes it: workers sharing a file never draw the same record, whatever their filters."""
    if partition is None:
        return records
    index, count = (int(v) for v in partition.split("/"))
    return records[index::count]


def _matches(record: GeneratedAddress, filters: Filters) -> bool:
    address = record["address"]
    if address["countryCode"] != filters.country.upper():
        return False
    components = cast(Mapping[str, Any], address["components"])
    for name, key in _OFFLINE_FILTERS.items():
        wanted = getattr(filters, name, None)
        if wanted is not None and str(components.get(key) or "").lower() != wanted.lower():
            return False
    return True


def _read(path: Path) -> list[GeneratedAddress]:
    """An export's NDJSON (a record a line), a JSON array of records, a batch's answer or one
    /generate answer."""
    text = path.read_text(encoding="utf-8-sig")
    if not text.lstrip().startswith(("{", "[")):
        raise ExportFileError(f"{path} is not {OFFLINE_FORMATS}{_csv_hint(text)}")
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        lines = enumerate(text.split("\n"), 1)  # numbered as an editor numbers them
        return [_ndjson_record(path, number, line) for number, line in lines if line.strip()]
    if isinstance(data, list):
        return cast(list[GeneratedAddress], data)
    answer = data.get("data") if isinstance(data, dict) else None
    if isinstance(answer, dict):  # a batch's answer, or one /generate answer
        return cast(list[GeneratedAddress], answer["results"] if "results" in answer else [answer["result"]])
    return [cast(GeneratedAddress, data)]


def _ndjson_record(path: Path, number: int, line: str) -> GeneratedAddress:
    try:
        return cast(GeneratedAddress, json.loads(line))
    except json.JSONDecodeError as error:
        raise ExportFileError(f"{path} is not {OFFLINE_FORMATS}: line {number}: {error.msg}") from None


def _csv_hint(text: str) -> str:
    first = text.lstrip().split("\n", 1)[0]
    if first.startswith("id,countryCode,"):
        return (
            ": it is the CSV `ags export --format csv` writes, for spreadsheets and load tools;"
            " export again with --format ndjson"
        )
    return ""
