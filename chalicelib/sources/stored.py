"""What a source store records beside each fetched file: where it came from, its checksum and size,
and the publisher's validators for the next conditional fetch."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StoredSource:
    url: str
    sha256: str
    size: int
    fetched_at: str
    etag: str | None = None
    last_modified: str | None = None
