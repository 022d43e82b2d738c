"""The registry table's one item model and what its concepts share: the batch writer and the
per-snapshot shards that hold a snapshot's locations and directories.

A snapshot's catalog lives in `L#<snapshot id>#<shard>` partitions; the shard is a hash of the
location id, the value or the directory block, so one snapshot's catalog is deleted by querying
its shards, never by a scan."""

from __future__ import annotations

import math
import zlib

from pynamodb.attributes import BinaryAttribute, NumberAttribute, UnicodeAttribute, UnicodeSetAttribute
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.storage.dynamodb._batches import BatchWriter
from chalicelib.storage.dynamodb._dynamo import TableStore
from chalicelib.storage.dynamodb._wire import DynamoWire

LOCATIONS_PER_SHARD = 2000


class RegistryItem(Model):
    class Meta:
        table_name: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    doc = UnicodeAttribute()
    snapshot = UnicodeAttribute(null=True)  # on pointers: the active id, for conditional publishing
    blob = BinaryAttribute(null=True, legacy_encoding=False)  # on directory blocks: the entries
    counter = NumberAttribute(null=True)  # on epochs: the slots handed out
    claim = UnicodeAttribute(null=True)  # on a snapshot record: the generation that claimed its id
    keys = UnicodeSetAttribute(null=True)  # on a country's withdrawn keys: every one of them


def shards_for(location_count: int) -> int:
    return max(1, math.ceil(location_count / LOCATIONS_PER_SHARD))


def snapshot_partition(snapshot_id: str, key: str, shards: int) -> str:
    return f"L#{snapshot_id}#{zlib.crc32(key.encode()) % shards}"


def snapshot_partitions(snapshot_id: str, shards: int) -> list[str]:
    return [f"L#{snapshot_id}#{s}" for s in range(shards)]


class RegistryTable(TableStore[RegistryItem]):
    """The bound model and the writer pool every concept of the registry table uses."""

    def __init__(self, table: TableSettings, writers: int = 8, wire: DynamoWire | None = None) -> None:
        super().__init__(RegistryItem, table, wire)
        self._writer = BatchWriter(self._model, workers=writers)

    def _write_all(self, items: list[RegistryItem]) -> int:
        return self._writer.put(items)
