"""Locations of a snapshot's catalog: each location by id, and a value (and alias) index.

Keys (partition `L#<snapshot id>#<shard>`, see _table.py):
  LOC#<location id>                      a location with its spans, names and aliases
  VAL#<type>#<hash of value key>#<id>    value (or alias) → location"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

from chalicelib.domain.codecs import dumps, loads, location_from_doc, location_to_doc
from chalicelib.domain.location_index import Location
from chalicelib.domain.locations import LocationType, value_key
from chalicelib.domain.published import Layout
from chalicelib.storage.dynamodb._dynamo import storage_errors
from chalicelib.storage.dynamodb.registry._table import (
    RegistryItem,
    RegistryTable,
    snapshot_partition,
    snapshot_partitions,
)


def _value_hash(kind: LocationType, text: str) -> str:
    return hashlib.sha1(f"{kind.value}|{value_key(text)}".encode(), usedforsecurity=False).hexdigest()[:20]


class LocationRecords(RegistryTable):
    def put_locations(self, snapshot_id: str, layout: Layout, locations: Sequence[Location]) -> int:
        items = [item for loc in locations for item in self._location_items(snapshot_id, layout, loc)]
        return self._write_all(items)

    def _location_items(self, snapshot_id: str, layout: Layout, loc: Location) -> Iterator[RegistryItem]:
        shards = layout.shards
        yield self._model(
            snapshot_partition(snapshot_id, loc.id, shards), f"LOC#{loc.id}", doc=dumps(location_to_doc(loc))
        )
        summary = dumps({"id": loc.id})
        for alias in sorted(loc.aliases):
            digest = _value_hash(loc.type, alias)
            yield self._model(
                snapshot_partition(snapshot_id, digest, shards),
                f"VAL#{loc.type.value}#{digest}#{loc.id}",
                doc=summary,
            )

    def get_location(self, snapshot_id: str, layout: Layout, location_id: str) -> Location | None:
        with storage_errors(self.table_name):
            try:
                item = self._model.get(
                    snapshot_partition(snapshot_id, location_id, layout.shards), f"LOC#{location_id}"
                )
            except self._model.DoesNotExist:
                return None
        return location_from_doc(loads(item.doc))

    def all_locations(self, snapshot_id: str, layout: Layout) -> list[Location]:
        """Every location of a snapshot (what the next generation's catalog starts from)."""
        with storage_errors(self.table_name):
            return [
                location_from_doc(loads(item.doc))
                for pk in snapshot_partitions(snapshot_id, layout.shards)
                for item in self._model.query(pk, self._model.sk.startswith("LOC#"))
            ]

    def find_location_ids(
        self, snapshot_id: str, layout: Layout, kind: LocationType, value: str
    ) -> list[str]:
        """Ids of the locations of `kind` whose value (or an alias) equals `value`, compared by value_key."""
        digest = _value_hash(kind, value)
        with storage_errors(self.table_name):
            items = self._model.query(
                snapshot_partition(snapshot_id, digest, layout.shards),
                self._model.sk.startswith(f"VAL#{kind.value}#{digest}#"),
            )
            return [loads(item.doc)["id"] for item in items]
