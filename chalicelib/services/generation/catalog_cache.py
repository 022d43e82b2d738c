"""Catalog reads cached per Lambda: a published snapshot never changes, so a location read once
stays right for as long as its snapshot id is in the key. Steady-state generation with location
filters then costs one read: the address."""

from __future__ import annotations

from collections import OrderedDict
from typing import Protocol

from chalicelib.domain.location_index import Location
from chalicelib.domain.locations import LocationType, value_key
from chalicelib.domain.published import Layout, PublishedSnapshot

MAX_ENTRIES = 20_000


class CatalogStoreReader(Protocol):
    def get_location(self, snapshot_id: str, layout: Layout, location_id: str) -> Location | None: ...
    def find_location_ids(
        self, snapshot_id: str, layout: Layout, kind: LocationType, value: str
    ) -> list[str]: ...


class CachedCatalog:
    def __init__(self, store: CatalogStoreReader, max_entries: int = MAX_ENTRIES) -> None:
        self._store = store
        self._max = max_entries
        self._entries: OrderedDict[tuple[str, ...], object] = OrderedDict()

    def get_location(self, snapshot: PublishedSnapshot, location_id: str) -> Location | None:
        key = ("loc", snapshot.snapshot_id, location_id)
        if key not in self._entries:
            self._remember(key, self._store.get_location(snapshot.snapshot_id, snapshot.layout, location_id))
        self._entries.move_to_end(key)
        found = self._entries[key]
        return found if isinstance(found, Location) else None

    def find_locations(self, snapshot: PublishedSnapshot, kind: LocationType, value: str) -> list[Location]:
        key = ("val", snapshot.snapshot_id, kind.value, value_key(value))
        if key not in self._entries:
            self._remember(
                key, self._store.find_location_ids(snapshot.snapshot_id, snapshot.layout, kind, value)
            )
        self._entries.move_to_end(key)
        ids = self._entries[key]
        assert isinstance(ids, list)
        return [loc for i in ids if (loc := self.get_location(snapshot, i)) is not None]

    def _remember(self, key: tuple[str, ...], value: object) -> None:
        self._entries[key] = value
        while len(self._entries) > self._max:
            self._entries.popitem(last=False)
