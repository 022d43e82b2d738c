"""The catalog table: per country the active-snapshot pointer and the snapshot records; per snapshot
the location catalog (locations by id, children of each parent in name order, and a value index).

Keys:
  POINTERS            | <CC>                                   the active snapshot (one Query lists all)
  SNAPSHOTS#<CC>      | <snapshot id>                          every snapshot written, with its state
  SYNC                | latest                                 the last sync's report and config errors
  L#<snap>#<shard>    | LOC#<location id>                      a location with its spans
  L#<snap>#<shard>    | VAL#<type>#<hash of value key>#<id>    value (and alias) → location
  L#<snap>#<shard>    | DIR#<scope>#<type>#<block>             a directory block (compressed entries)
The shard is a hash of the location id, the value, or the directory block, so one snapshot's
catalog is deleted by querying its shards.

A directory (see domain/directories.py) is stored in blocks of compressed entries; block 0 also
says how many blocks there are. Reading one is a GetItem, plus for the few directories larger than
a block one BatchGetItem per 100 further blocks (about 5,000 entries each)."""

from __future__ import annotations

import hashlib
import math
import zlib
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pynamodb.attributes import BinaryAttribute, UnicodeAttribute
from pynamodb.exceptions import PutError
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.domain.codecs import (
    coverage_from_doc,
    coverage_to_doc,
    dumps,
    loads,
    location_from_doc,
    location_to_doc,
)
from chalicelib.domain.directories import DirectoryKey, Entry
from chalicelib.domain.location_index import Location
from chalicelib.domain.locations import LocationType, value_key
from chalicelib.domain.published import Layout, PublishedSnapshot
from chalicelib.errors import PublishConflict
from chalicelib.storage.dynamodb._dynamo import (
    TableStore,
    delete_partitions,
    is_condition_failure,
    storage_errors,
)

LOCATIONS_PER_SHARD = 2000
# Raw JSON per directory block before compression: compressed, a block stays far below DynamoDB's
# 400 KB item limit, and 100 blocks (one BatchGetItem) stay below its 16 MB response limit.
BLOCK_BYTES = 256 * 1024
_BATCH_KEYS = 100
_POINTERS = "POINTERS"


class _CatalogItem(Model):
    class Meta:
        table_name: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    doc = UnicodeAttribute()
    snapshot = UnicodeAttribute(null=True)  # on pointers: the active id, for conditional publishing
    blob = BinaryAttribute(null=True, legacy_encoding=False)  # on directory blocks: the entries


def shards_for(location_count: int) -> int:
    return max(1, math.ceil(location_count / LOCATIONS_PER_SHARD))


def _shard(key: str, shards: int) -> int:
    return zlib.crc32(key.encode()) % shards


def _partition(snapshot_id: str, key: str, shards: int) -> str:
    return f"L#{snapshot_id}#{_shard(key, shards)}"


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


def _value_hash(kind: LocationType, text: str) -> str:
    return hashlib.sha1(f"{kind.value}|{value_key(text)}".encode(), usedforsecurity=False).hexdigest()[:20]


class CatalogStore(TableStore[_CatalogItem]):
    """Verbs on the catalog table."""

    def __init__(self, table: TableSettings, writers: int = 8) -> None:
        super().__init__(_CatalogItem, table)
        self._writers = writers

    # --- locations -------------------------------------------------------------------------------

    def put_locations(self, snapshot_id: str, layout: Layout, locations: Sequence[Location]) -> int:
        items = [item for loc in locations for item in self._location_items(snapshot_id, layout, loc)]
        return self._write_all(items)

    def _write_all(self, items: list[_CatalogItem]) -> int:
        slices = [items[start :: self._writers] for start in range(self._writers)]

        def write(chunk: list[_CatalogItem]) -> int:
            with storage_errors(self.table_name), self._model.batch_write() as batch:
                for item in chunk:
                    batch.save(item)
            return len(chunk)

        with ThreadPoolExecutor(max_workers=self._writers) as pool:
            return sum(pool.map(write, slices))

    def _location_items(self, snapshot_id: str, layout: Layout, loc: Location) -> Iterator[_CatalogItem]:
        shards = layout.shards
        yield self._model(
            _partition(snapshot_id, loc.id, shards), f"LOC#{loc.id}", doc=dumps(location_to_doc(loc))
        )
        summary = dumps({"id": loc.id})
        for alias in sorted(loc.aliases):
            digest = _value_hash(loc.type, alias)
            yield self._model(
                _partition(snapshot_id, digest, shards),
                f"VAL#{loc.type.value}#{digest}#{loc.id}",
                doc=summary,
            )

    def get_location(self, snapshot_id: str, layout: Layout, location_id: str) -> Location | None:
        with storage_errors(self.table_name):
            try:
                item = self._model.get(
                    _partition(snapshot_id, location_id, layout.shards), f"LOC#{location_id}"
                )
            except self._model.DoesNotExist:
                return None
        return location_from_doc(loads(item.doc))

    def find_location_ids(
        self, snapshot_id: str, layout: Layout, kind: LocationType, value: str
    ) -> list[str]:
        """Ids of the locations of `kind` whose value (or an alias) equals `value`, compared by value_key."""
        digest = _value_hash(kind, value)
        with storage_errors(self.table_name):
            items = self._model.query(
                _partition(snapshot_id, digest, layout.shards),
                self._model.sk.startswith(f"VAL#{kind.value}#{digest}#"),
            )
            return [loads(item.doc)["id"] for item in items]

    # --- directories -----------------------------------------------------------------------------

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
    ) -> Iterator[_CatalogItem]:
        blocks = list(_blocks(entries))
        for number, block in enumerate(blocks):
            sort = _block_key(scope, kind, number)
            doc = dumps({"blocks": len(blocks), "entries": len(entries)} if number == 0 else {})
            yield self._model(_partition(snapshot_id, sort, layout.shards), sort, doc=doc, blob=block)

    def directory_block_key(
        self, snapshot_id: str, layout: Layout, scope: str, kind: LocationType, number: int
    ) -> dict[str, Any]:
        """The low-level DynamoDB key of one directory block (for benchmarks' bare reads)."""
        sort = _block_key(scope, kind, number)
        return {"pk": {"S": _partition(snapshot_id, sort, layout.shards)}, "sk": {"S": sort}}

    def get_directory(self, snapshot_id: str, layout: Layout, scope: str, kind: LocationType) -> list[Entry]:
        """The directory's entries in order; empty when the scope has no location of `kind`."""
        first = _block_key(scope, kind, 0)
        with storage_errors(self.table_name):
            try:
                head = self._model.get(_partition(snapshot_id, first, layout.shards), first)
            except self._model.DoesNotExist:
                return []
            blocks = {0: head.blob or b""}
            rest = [_block_key(scope, kind, n) for n in range(1, loads(head.doc)["blocks"])]
            keys = [(_partition(snapshot_id, sort, layout.shards), sort) for sort in rest]
            for item in self._model.batch_get(keys) if keys else ():
                blocks[int(item.sk.rsplit("#", 1)[1])] = item.blob or b""
        if len(blocks) != len(rest) + 1:
            raise AssertionError(f"directory {scope}/{kind.value} of {snapshot_id} is missing blocks")
        return [entry for n in sorted(blocks) for entry in _entries(kind, blocks[n])]

    def delete_snapshot_catalog(self, snapshot_id: str, layout: Layout) -> int:
        partitions = [f"L#{snapshot_id}#{s}" for s in range(layout.shards)]
        return delete_partitions(self._model, partitions, workers=self._writers)

    # --- snapshots and pointers ------------------------------------------------------------------

    def record_snapshot(self, country: str, snapshot_id: str, state: str, details: dict[str, Any]) -> None:
        item = self._model(f"SNAPSHOTS#{country}", snapshot_id, doc=dumps({"state": state, **details}))
        with storage_errors(self.table_name):
            item.save()

    def list_snapshots(self, country: str) -> list[tuple[str, dict[str, Any]]]:
        with storage_errors(self.table_name):
            return [(i.sk, loads(i.doc)) for i in self._model.query(f"SNAPSHOTS#{country}")]

    def forget_snapshot(self, country: str, snapshot_id: str) -> None:
        with storage_errors(self.table_name):
            self._model(f"SNAPSHOTS#{country}", snapshot_id).delete()

    def publish(self, snapshot: PublishedSnapshot, expected_previous: str | None) -> None:
        """Point the country at `snapshot` in one conditional write: it fails (PublishConflict) if
        another sync published in between, so two syncs can never interleave half their work."""
        doc = _pointer_doc(snapshot)
        item = self._model(_POINTERS, snapshot.country, doc=dumps(doc), snapshot=snapshot.snapshot_id)
        condition = (
            self._model.snapshot == expected_previous
            if expected_previous
            else self._model.pk.does_not_exist()
        )
        with storage_errors(self.table_name):
            try:
                item.save(condition=condition)
            except PutError as exc:
                if is_condition_failure(exc):
                    raise PublishConflict(snapshot.country) from exc
                raise

    def active_snapshots(self) -> dict[str, PublishedSnapshot]:
        with storage_errors(self.table_name):
            return {i.sk: _pointer_from(i.sk, loads(i.doc)) for i in self._model.query(_POINTERS)}

    def active_snapshot(self, country: str) -> PublishedSnapshot | None:
        with storage_errors(self.table_name):
            try:
                item = self._model.get(_POINTERS, country)
            except self._model.DoesNotExist:
                return None
        return _pointer_from(country, loads(item.doc))

    def save_sync_report(self, report: dict[str, Any]) -> None:
        with storage_errors(self.table_name):
            self._model("SYNC", "latest", doc=dumps(report)).save()

    def latest_sync_report(self) -> dict[str, Any] | None:
        with storage_errors(self.table_name):
            try:
                return dict(loads(self._model.get("SYNC", "latest").doc))
            except self._model.DoesNotExist:
                return None


def _pointer_doc(s: PublishedSnapshot) -> dict[str, Any]:
    return {
        "id": s.snapshot_id,
        "at": s.published_at,
        "k": list(s.strata),
        "b": s.layout.buckets,
        "s": s.layout.shards,
        "src": list(s.sources),
        "cov": coverage_to_doc(s.coverage),
    }


def _pointer_from(country: str, doc: dict[str, Any]) -> PublishedSnapshot:
    return PublishedSnapshot(
        country=country,
        snapshot_id=doc["id"],
        published_at=doc["at"],
        strata=(doc["k"][0], doc["k"][1], doc["k"][2], doc["k"][3]),
        layout=Layout(buckets=doc["b"], shards=doc["s"]),
        sources=tuple(doc["src"]),
        coverage=coverage_from_doc(country, doc["cov"]),
    )
