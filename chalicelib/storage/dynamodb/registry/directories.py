"""Directories of a snapshot's catalog (see domain/directories.py), in blocks of compressed entries.

Key (partition `L#<snapshot id>#<shard>`, see _table.py):
  DIR#<scope>#<type>#<block>    a directory block; block 0 also says how many blocks there are

Reading a directory is a GetItem, plus for the few directories larger than a block one
BatchGetItem per 100 further blocks (about 5,000 entries each)."""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from typing import Any

from chalicelib.domain.codecs import dumps, loads
from chalicelib.domain.directories import DirectoryKey, Entry
from chalicelib.domain.locations import LocationType
from chalicelib.domain.published import Layout
from chalicelib.storage.dynamodb._dynamo import storage_errors
from chalicelib.storage.dynamodb.registry._table import RegistryItem, RegistryTable, snapshot_partition

# Raw JSON per directory block before compression: compressed, a block stays far below DynamoDB's
# 400 KB item limit, and 100 blocks (one BatchGetItem) stay below its 16 MB response limit.
BLOCK_BYTES = 256 * 1024


def _block_key(scope: str, kind: LocationType, number: int) -> str:
    return f"DIR#{scope}#{kind.value}#{number:05d}"


def _blocks(entries: Iterable[Entry]) -> Iterator[bytes]:
    """Entries packed into compressed JSON blocks of about BLOCK_BYTES each."""
    rows: list[str] = []
    size = 0
    for e in entries:
        row = dumps([e.id, e.value, e.count, e.residential_count, *([list(e.names)] if e.names else [])])
        rows.append(row)
        size += len(row.encode())
        if size >= BLOCK_BYTES:
            yield _pack(rows)
            rows, size = [], 0
    if rows:
        yield _pack(rows)


def _pack(rows: list[str]) -> bytes:
    return zlib.compress(("[" + ",".join(rows) + "]").encode(), level=6)


def _entries(kind: LocationType, block: bytes) -> list[Entry]:
    return [
        Entry.of(kind, row[0], row[1], row[2], row[3], row[4] if len(row) > 4 else ())
        for row in loads(zlib.decompress(block).decode())
    ]


class DirectoryRecords(RegistryTable):
    def put_directories(
        self, snapshot_id: str, layout: Layout, directories: dict[DirectoryKey, list[Entry]]
    ) -> int:
        items = [
            item
            for (scope, kind), entries in directories.items()
            for item in self._directory_items(snapshot_id, layout, scope, kind, entries)
        ]
        return self._write_all(items)

    def _directory_items(
        self, snapshot_id: str, layout: Layout, scope: str, kind: LocationType, entries: list[Entry]
    ) -> Iterator[RegistryItem]:
        blocks = list(_blocks(entries))
        for number, block in enumerate(blocks):
            sort = _block_key(scope, kind, number)
            doc = dumps({"blocks": len(blocks), "entries": len(entries)} if number == 0 else {})
            yield self._model(snapshot_partition(snapshot_id, sort, layout.shards), sort, doc=doc, blob=block)

    def directory_block_key(
        self, snapshot_id: str, layout: Layout, scope: str, kind: LocationType, number: int
    ) -> dict[str, Any]:
        """The low-level DynamoDB key of one directory block (for benchmarks' bare reads)."""
        sort = _block_key(scope, kind, number)
        return {"pk": {"S": snapshot_partition(snapshot_id, sort, layout.shards)}, "sk": {"S": sort}}

    def get_directory(self, snapshot_id: str, layout: Layout, scope: str, kind: LocationType) -> list[Entry]:
        """The directory's entries in order; empty when the scope has no location of `kind`."""
        first = _block_key(scope, kind, 0)
        with storage_errors(self.table_name):
            try:
                head = self._model.get(snapshot_partition(snapshot_id, first, layout.shards), first)
            except self._model.DoesNotExist:
                return []
            blocks = {0: head.blob or b""}
            rest = [_block_key(scope, kind, n) for n in range(1, loads(head.doc)["blocks"])]
            keys = [(snapshot_partition(snapshot_id, sort, layout.shards), sort) for sort in rest]
            for item in self._model.batch_get(keys) if keys else ():
                blocks[int(item.sk.rsplit("#", 1)[1])] = item.blob or b""
        if len(blocks) != len(rest) + 1:
            raise AssertionError(f"directory {scope}/{kind.value} of {snapshot_id} is missing blocks")
        return [entry for n in sorted(blocks) for entry in _entries(kind, blocks[n])]
