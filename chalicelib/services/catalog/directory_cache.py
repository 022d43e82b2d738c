"""Directories cached per Lambda. A published snapshot never changes, so a directory read once stays
right for as long as its snapshot id is in the key; paging through a listing then costs no
DynamoDB read after the first page. Bounded by the number of entries held, oldest out first."""

from __future__ import annotations

from collections import OrderedDict
from typing import Protocol

from chalicelib.domain.directories import Entry, match_key, matching
from chalicelib.domain.locations import LocationType
from chalicelib.domain.published import Layout, PublishedSnapshot

MAX_ENTRIES = 1_000_000  # about 200 MB at most; the largest real directories are country postcodes
MAX_LISTINGS = 64  # filtered listings (q, residential) remembered for paging


class DirectoryReader(Protocol):
    def get_directory(
        self, snapshot_id: str, layout: Layout, scope: str, kind: LocationType
    ) -> list[Entry]: ...


class CachedDirectories:
    def __init__(
        self, store: DirectoryReader, max_entries: int = MAX_ENTRIES, max_listings: int = MAX_LISTINGS
    ) -> None:
        self._store = store
        self._max_entries = max_entries
        self._max_listings = max_listings
        self._directories: OrderedDict[tuple[str, str, LocationType], list[Entry]] = OrderedDict()
        self._held = 0
        self._listings: OrderedDict[tuple[object, ...], list[Entry]] = OrderedDict()

    def directory(self, snapshot: PublishedSnapshot, scope: str, kind: LocationType) -> list[Entry]:
        key = (snapshot.snapshot_id, scope, kind)
        found = self._directories.get(key)
        if found is None:
            found = self._store.get_directory(snapshot.snapshot_id, snapshot.layout, scope, kind)
            self._directories[key] = found
            self._held += len(found)
            self._evict()
        self._directories.move_to_end(key)
        return found

    def listing(
        self, snapshot: PublishedSnapshot, scope: str, kind: LocationType, q: str | None, residential: bool
    ) -> list[Entry]:
        """The directory's entries that a listing with this q and residential flag shows, in order."""
        key = (snapshot.snapshot_id, scope, kind, None if q is None else match_key(kind, q), residential)
        found = self._listings.get(key)
        if found is None:
            found = matching(self.directory(snapshot, scope, kind), kind, q, residential)
            self._listings[key] = found
            while len(self._listings) > self._max_listings:
                self._listings.popitem(last=False)
        self._listings.move_to_end(key)
        return found

    def _evict(self) -> None:
        while self._held > self._max_entries and len(self._directories) > 1:
            _, dropped = self._directories.popitem(last=False)
            self._held -= len(dropped)
