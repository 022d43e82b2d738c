"""Running the real sync in tests: manifests that point at real files, and a progress that can crash."""

from __future__ import annotations

import json
from pathlib import Path

from chalicelib import deps
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.report import SilentProgress, SyncProgress, SyncReport
from chalicelib.services.sync.run import SyncTarget
from tests.support.factories import SOURCES

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
# BE fr + nl, a US county).
TRANSLATION_SOURCES = [
    "jp-wakayama_shi-abr-ja",
    "jp-wakayama_shi-abr-en",
    "cn-countrywide-starbucks",
    "tw-kinmen-doorplates-zh",
    "be-brussels-urbis-fr",
    "be-brussels-urbis-nl",
    "us-sevier_county_ut-ugrc",
]


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


def sync(
    wired: deps.Dependencies,
    manifest: Path,
    *,
    config: PoolConfig | None = None,
    progress: SyncProgress | None = None,
) -> SyncReport:
    report = wired.pool_sync(config).run(SyncTarget(manifest=manifest, root=SOURCES), progress=progress)
    assert report is not None
    return report


class CrashWhileWriting(SilentProgress):
    """Stops the sync the way Ctrl-C or a Lambda timeout would: in the middle of writing."""

    def country_stage(self, country: str, stage: str) -> None:
        if stage.startswith("writing") and "locations" in stage:
            raise KeyboardInterrupt
