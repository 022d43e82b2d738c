"""Running the real sync in tests: manifests that point at real files, and a progress that can crash."""

from __future__ import annotations

import gzip
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from chalicelib import deps
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.epochs import Epoch, Generation, LedgerEntry, LedgerPage
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.pipeline import SyncPipeline
from chalicelib.services.sync.ports import PoolWriter
from chalicelib.services.sync.report import SilentProgress, SyncProgress, SyncReport
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sync_wiring import LocalSteps, sync_in_process
from tests.support.factories import SOURCES

# Which lines of a GeoJSON-lines source a sample keeps: a slice, or those a pattern finds.
Cut = slice | re.Pattern[bytes]
ALL = slice(None)

# Real sources giving a small pool with every location level, residential and other records, and
# Latin and Han scripts (PL, LI with AT, NL, CN): what the generation, catalog and IP tests sync.
MIXED_SOURCES = [
    "pl-gliwice-prg",
    "pl-wroclaw-prg",
    "osm-liechtenstein-li",
    "nl-countrywide-bag",
    "cn-countrywide-starbucks",
]
# Real sources with the language variants and scripts translation works with (JP ja + en, CN, TW,
# BE fr + nl, a US county, KR, RU), the large ones cut to the lines a test needs (some 1,700
# addresses, not 47,000): the language variants cut alike, so each line keeps its twin.
_WAKAYAMA_641_0056 = re.compile(rb'"postcode":"6410056"')
TRANSLATION_SOURCES: dict[str, Cut] = {
    "jp-wakayama_shi-abr-ja": _WAKAYAMA_641_0056,
    "jp-wakayama_shi-abr-en": _WAKAYAMA_641_0056,
    "cn-countrywide-starbucks": slice(0, 300),
    "tw-kinmen-doorplates-zh": slice(0, 300),
    "be-brussels-urbis-fr": slice(0, 200),
    "be-brussels-urbis-nl": slice(0, 200),
    "us-sevier_county_ut-ugrc": ALL,
    "osm-suwon-kr": ALL,
    "osm-moscow-ru": ALL,
}


def write_manifest(directory: Path, source_ids: list[str], name: str = "manifest.json") -> Path:
    """A manifest holding only these entries of the real one, its file paths made absolute so it
    works from any folder (the real files are read in place)."""
    entries = json.loads((SOURCES / "manifest.json").read_text(encoding="utf-8"))
    chosen = [
        {**e, "files": [str(SOURCES / f) for f in e["files"]]} for e in entries if e["id"] in source_ids
    ]
    assert len(chosen) == len(source_ids), "unknown source id"
    path = directory / name
    path.write_text(json.dumps(chosen), encoding="utf-8")
    return path


def write_sample(directory: Path, sources: Mapping[str, Cut], name: str = "sample") -> Path:
    """A manifest of these real sources, each GeoJSON-lines one cut to the lines its Cut keeps (a
    slice, or the lines a pattern finds), written beside it; no line edited."""
    entries = {e["id"]: e for e in json.loads((SOURCES / "manifest.json").read_text(encoding="utf-8"))}
    chosen = []
    for source_id, cut in sources.items():
        entry = {**entries[source_id], "files": [str(SOURCES / f) for f in entries[source_id]["files"]]}
        if cut != ALL:
            kept = _lines(SOURCES / entries[source_id]["files"][0], cut)
            data = directory / f"{name}-{source_id}.geojson.gz"
            with gzip.open(data, "wb") as out:
                out.writelines(kept)
            entry = {**entry, "files": [str(data)], "records": len(kept)}
        chosen.append(entry)
    path = directory / f"{name}.json"
    path.write_text(json.dumps(chosen), encoding="utf-8")
    return path


def _lines(path: Path, cut: Cut) -> list[bytes]:
    with gzip.open(path, "rb") as published:
        lines = [line for line in published if line.strip()]
    return lines[cut] if isinstance(cut, slice) else [line for line in lines if cut.search(line)]


def write_cut(directory: Path, source_id: str, lines: slice, name: str) -> Path:
    """A manifest of one real GeoJSON-lines source cut to some of its lines, written beside it:
    a source that changed between two syncs, made of real rows, none edited."""
    (entry,) = [
        e for e in json.loads((SOURCES / "manifest.json").read_text(encoding="utf-8")) if e["id"] == source_id
    ]
    with gzip.open(SOURCES / entry["files"][0], "rb") as published:
        kept = [line for line in published if line.strip()][lines]
    data = directory / f"{name}.geojson.gz"
    with gzip.open(data, "wb") as out:
        out.writelines(kept)
    path = directory / f"{name}.json"
    path.write_text(json.dumps([{**entry, "files": [str(data)], "records": len(kept)}]), encoding="utf-8")
    return path


def sync(
    wired: deps.Dependencies,
    manifest: Path,
    *,
    config: PoolConfig | None = None,
    progress: SyncProgress | None = None,
) -> SyncReport:
    target = SyncTarget(manifest=manifest, root=SOURCES)
    report = sync_in_process(wired, target, progress=progress, config=config)
    assert report is not None
    return report


class CrashWhileWriting(SilentProgress):
    """Stops the sync the way Ctrl-C or a Lambda timeout would: in the middle of writing (the
    catalog and the addresses written, the text index not)."""

    def country_stage(self, country: str, stage: str) -> None:
        if stage == "writing the text index":
            raise KeyboardInterrupt


class DyingPool:
    """A pool store whose process dies (as a Lambda times out or a worker is killed) after
    writing part of its first batch: what a rerun must recover from."""

    def __init__(self, pool: PoolWriter) -> None:
        self.pool = pool

    def put_addresses(self, into: Generation, placed: Sequence[tuple[int, PublishedAddress]]) -> int:
        self.pool.put_addresses(into, placed[: len(placed) // 2])
        os._exit(1)

    def put_text_index(self, into: Generation, postings: Mapping[str, Sequence[int]]) -> int:
        return self.pool.put_text_index(into, postings)

    def put_ledger(
        self,
        into: Generation,
        bucket: int,
        cell: int,
        born: Sequence[LedgerEntry],
        removed: Sequence[LedgerEntry],
    ) -> int:
        return self.pool.put_ledger(into, bucket, cell, born, removed)

    def ledger(self, epoch: Epoch, bucket: int) -> list[LedgerPage]:
        return self.pool.ledger(epoch, bucket)

    def mark_removed(self, by: Generation, removed: Sequence[LedgerEntry]) -> int:
        return self.pool.mark_removed(by, removed)

    def delete_epoch(self, epoch: Epoch) -> int:
        return self.pool.delete_epoch(epoch)


@dataclass(frozen=True)
class DyingSteps(LocalSteps):
    """Worker steps whose pool writes kill the worker: a sync that breaks in its write stage."""

    def __call__(self) -> SyncPipeline:
        pipeline = super().__call__()
        pipeline.run.pool = DyingPool(pipeline.run.pool)
        return pipeline
