"""The pool table: every published address of every snapshot, twice: by ordinal (for sampling with
one GetItem) and by address id (for lookup); and the snapshot's text index, each token's ordinals
(a head item, and chunks when it has many: domain/text_search.py). Keys carry the snapshot id, so
snapshots never mix.

Partition keys are bucketed (ordinal % buckets, hash(id) % buckets, hash(token) % buckets, about
1,000 addresses a bucket): consecutive writes land on different partitions, and a superseded
snapshot is deleted by querying its buckets instead of scanning the table."""

from __future__ import annotations

import base64
import json
import math
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pynamodb.attributes import UnicodeAttribute
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.codecs import address_from_doc, address_to_doc, dumps, loads
from chalicelib.domain.published import Layout
from chalicelib.domain.text_search import Chunk, TokenHead, decode, encode, split
from chalicelib.storage.dynamodb._dynamo import TableStore, delete_partitions, storage_errors
from chalicelib.storage.dynamodb._wire import Document, DynamoUnreachable, DynamoWire

ITEMS_PER_BUCKET = 1000
_ORDINAL_WIDTH = 12
_BATCH_GET_LIMIT = 100
# Pauses before asking again for keys DynamoDB left unprocessed (it does so when throttled).
_UNPROCESSED_PAUSES = (0.05, 0.1, 0.2, 0.4, 0.8)


class _PoolItem(Model):
    class Meta:
        table_name: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    doc = UnicodeAttribute()


def buckets_for(count: int) -> int:
    return max(1, math.ceil(count / ITEMS_PER_BUCKET))


def _bucket_of_id(address_id: str, buckets: int) -> int:
    return zlib.crc32(address_id.encode()) % buckets


def _ordinal_key(snapshot_id: str, buckets: int, ordinal: int) -> tuple[str, str]:
    return f"O#{snapshot_id}#{ordinal % buckets}", f"{ordinal:0{_ORDINAL_WIDTH}d}"


def _id_key(snapshot_id: str, buckets: int, address_id: str) -> tuple[str, str]:
    return f"I#{snapshot_id}#{_bucket_of_id(address_id, buckets)}", address_id


def _token_key(snapshot_id: str, buckets: int, token: str, chunk: int | None = None) -> tuple[str, str]:
    pk = f"Q#{snapshot_id}#{zlib.crc32(token.encode()) % buckets}"
    return pk, token if chunk is None else f"{token}#{chunk:06d}"


def _head_doc(head: TokenHead) -> str:
    if head.chunks:
        return json.dumps({"n": head.count, "c": [[c.first, c.last, c.count] for c in head.chunks]})
    return json.dumps({"n": head.count, "p": _packed(head.inline)})


def _head_of(doc: str) -> TokenHead:
    parsed = json.loads(doc)
    if "c" in parsed:
        return TokenHead(parsed["n"], chunks=tuple(Chunk(*c) for c in parsed["c"]))
    return TokenHead(parsed["n"], inline=tuple(_unpacked(parsed["p"])))


def _packed(ordinals: Sequence[int]) -> str:
    return base64.b64encode(encode(ordinals)).decode()


def _unpacked(text: str) -> list[int]:
    return decode(base64.b64decode(text))


def _key(pk: str, sk: str) -> Document:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


class PoolStore(TableStore[_PoolItem]):
    """Verbs on the pool table."""

    def __init__(
        self, table: TableSettings, writers: int = 8, sleep: Callable[[float], None] = time.sleep
    ) -> None:
        super().__init__(_PoolItem, table)
        self._wire = DynamoWire(table)  # the reads on a request's critical path
        self._writers = writers
        self._sleep = sleep

    def put_addresses(
        self, snapshot_id: str, layout: Layout, addresses: Sequence[PublishedAddress], first_ordinal: int = 0
    ) -> int:
        """Write addresses (the first at `first_ordinal`) by ordinal and by id with parallel batch
        writers; returns items written. Rewriting the same range writes the same items."""
        slices = [range(start, len(addresses), self._writers) for start in range(self._writers)]

        def write(indexes: range) -> int:
            written = 0
            with storage_errors(self.table_name), self._model.batch_write() as batch:
                for index in indexes:
                    address, ordinal = addresses[index], first_ordinal + index
                    doc = dumps(address_to_doc(address))
                    batch.save(self._model(*_ordinal_key(snapshot_id, layout.buckets, ordinal), doc=doc))
                    batch.save(self._model(*_id_key(snapshot_id, layout.buckets, address.id), doc=doc))
                    written += 2
            return written

        with ThreadPoolExecutor(max_workers=self._writers) as pool:
            return sum(pool.map(write, slices))

    def put_text_index(self, snapshot_id: str, layout: Layout, postings: Mapping[str, Sequence[int]]) -> int:
        """Write tokens' postings (each token's ordinals, ascending, all of them) as heads and
        chunks; returns items written. Rewriting the same tokens writes the same items."""
        items: list[tuple[str, str, str]] = []
        for token, ordinals in postings.items():
            head, chunks = split(ordinals)
            items.append((*_token_key(snapshot_id, layout.buckets, token), _head_doc(head)))
            for i, chunk in enumerate(chunks):
                items.append((*_token_key(snapshot_id, layout.buckets, token, i), _packed(chunk)))
        slices = [items[start :: self._writers] for start in range(self._writers)]

        def write(part: list[tuple[str, str, str]]) -> int:
            with storage_errors(self.table_name), self._model.batch_write() as batch:
                for pk, sk, doc in part:
                    batch.save(self._model(pk, sk, doc=doc))
            return len(part)

        with ThreadPoolExecutor(max_workers=self._writers) as pool:
            return sum(pool.map(write, slices))

    def get_token_heads(
        self, snapshot_id: str, layout: Layout, tokens: Sequence[str]
    ) -> dict[str, TokenHead]:
        """The heads of the tokens the snapshot has (a token it lacks is absent): one BatchGetItem."""
        keys = {_token_key(snapshot_id, layout.buckets, t): t for t in tokens}
        return {keys[(pk, sk)]: _head_of(doc) for pk, sk, doc in self._docs(list(keys))}

    def get_token_chunks(
        self, snapshot_id: str, layout: Layout, wanted: Sequence[tuple[str, int]]
    ) -> dict[tuple[str, int], list[int]]:
        """Chunks of tokens' postings, by (token, chunk number)."""
        keys = {_token_key(snapshot_id, layout.buckets, t, i): (t, i) for t, i in wanted}
        return {keys[(pk, sk)]: _unpacked(doc) for pk, sk, doc in self._docs(list(keys))}

    def _docs(self, keys: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
        items: list[Document] = []
        with storage_errors(self.table_name):
            for start in range(0, len(keys), _BATCH_GET_LIMIT):
                items += self._batch_get([_key(*k) for k in keys[start : start + _BATCH_GET_LIMIT]])
        return [(i["pk"]["S"], i["sk"]["S"], i["doc"]["S"]) for i in items]

    def get_by_ordinal(self, snapshot_id: str, layout: Layout, ordinal: int) -> PublishedAddress | None:
        return self._get(*_ordinal_key(snapshot_id, layout.buckets, ordinal))

    def get_many_by_ordinal(
        self, snapshot_id: str, layout: Layout, ordinals: Sequence[int]
    ) -> dict[int, PublishedAddress]:
        """Many addresses by ordinal with BatchGetItem: 100 keys a request, and what DynamoDB leaves
        unprocessed asked again (after a pause) until every key is answered. One key is one GetItem:
        the same read for less work on both ends."""
        keys = [_ordinal_key(snapshot_id, layout.buckets, o) for o in dict.fromkeys(ordinals)]
        if len(keys) == 1:
            address = self._get(*keys[0])
            return {ordinals[0]: address} if address else {}
        items: list[Document] = []
        with storage_errors(self.table_name):
            for start in range(0, len(keys), _BATCH_GET_LIMIT):
                items += self._batch_get([_key(*k) for k in keys[start : start + _BATCH_GET_LIMIT]])
        return {int(item["sk"]["S"]): address_from_doc(loads(item["doc"]["S"])) for item in items}

    def _batch_get(self, keys: list[Document]) -> list[Document]:
        items: list[Document] = []
        pauses = iter(_UNPROCESSED_PAUSES)
        while True:
            answer = self._wire.call("BatchGetItem", {"RequestItems": {self.table_name: {"Keys": keys}}})
            items += answer.get("Responses", {}).get(self.table_name, [])
            keys = answer.get("UnprocessedKeys", {}).get(self.table_name, {}).get("Keys", [])
            if not keys:
                return items
            pause = next(pauses, None)
            if pause is None:
                raise DynamoUnreachable(f"{len(keys)} keys still unprocessed")
            self._sleep(pause)

    def id_key(self, snapshot_id: str, layout: Layout, address_id: str) -> dict[str, Any]:
        """The low-level DynamoDB key of an address by id (for benchmarks' bare reads)."""
        return _key(*_id_key(snapshot_id, layout.buckets, address_id))

    def get_by_id(self, snapshot_id: str, layout: Layout, address_id: str) -> PublishedAddress | None:
        return self._get(*_id_key(snapshot_id, layout.buckets, address_id))

    def _get(self, pk: str, sk: str) -> PublishedAddress | None:
        with storage_errors(self.table_name):
            answer = self._wire.call("GetItem", {"TableName": self.table_name, "Key": _key(pk, sk)})
        item = answer.get("Item")
        return address_from_doc(loads(item["doc"]["S"])) if item else None

    def delete_snapshot(self, snapshot_id: str, layout: Layout) -> int:
        """Delete every item of a snapshot, bucket by bucket; returns items deleted."""
        partitions = [f"{kind}#{snapshot_id}#{b}" for kind in ("O", "I", "Q") for b in range(layout.buckets)]
        return delete_partitions(self._model, partitions, workers=self._writers)

    def count_items(self, snapshot_id: str, layout: Layout) -> int:
        """How many items a snapshot holds (for tests and the sync report)."""
        with storage_errors(self.table_name):
            return sum(
                self._model.count(f"{kind}#{snapshot_id}#{b}")
                for kind in ("O", "I", "Q")
                for b in range(layout.buckets)
            )
