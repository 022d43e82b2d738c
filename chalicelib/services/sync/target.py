"""What a sync reads: a manifest, the folder or store its file names point into, and optionally
some of its countries; and the fingerprint that says whether a sync of it would publish anything."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from chalicelib.domain.digests import SNAPSHOT_FORMAT
from chalicelib.domain.text_search import MARKS_VERSION
from chalicelib.sources.manifest import load_manifest

Stamp = Callable[[str], str]  # a file's stamp: size and time on disk, the content hash in S3
# Bumped when what the same rows become changes (a reader's positions, enrichment, the dedupe's
# rules): with the sources unchanged, a sync must still rebuild. 2: OSM areas at their true
# centroid, the dedupe's spellings, four countries' rules, Overture's ids and licences.
BUILD_RULES = 2


@dataclass(frozen=True)
class SyncTarget:
    manifest: Path
    root: Path  # where the manifest's relative file paths point
    countries: frozenset[str] | None = None  # None: every enabled country

    def fingerprint(self, config_text: str, stamp: Stamp) -> str:
        """Changes whenever the inputs can: the manifest, each file's stamp, the pool
        configuration, the snapshot format, the marks its index holds (a new mark's filter
        needs every country rewritten) and the build's rules. Equal fingerprints mean a sync
        would publish nothing new."""
        formats = f"{SNAPSHOT_FORMAT}.{MARKS_VERSION}.{BUILD_RULES}"
        digest = hashlib.sha256(f"{formats}|{sorted(self.countries or [])}|{config_text}".encode())
        digest.update(self.manifest.read_bytes())
        for entry in load_manifest(self.manifest):
            for name in entry.files:
                digest.update(f"{name}|{stamp(name)}".encode())
        return digest.hexdigest()[:32]

    def chosen(self, enabled: list[str]) -> list[str]:
        """The countries this sync builds, in order: the target's among the enabled ones."""
        return sorted(self.countries & set(enabled) if self.countries else enabled)
