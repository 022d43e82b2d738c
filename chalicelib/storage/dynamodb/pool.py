"""The pool table: every published address of a country's epoch, stored once and shared by every
snapshot of the epoch that serves it (domain/published.py, `Placement`): by slot (for sampling
with one GetItem) and by address id and generation (for lookup); each generation's text index
(each token's slots: a head item, and chunks when it has many: domain/text_search.py); and the
epoch's ledger, what each generation added and removed, which the next sync compares its content
with. Keys carry the epoch, so epochs never mix, and an expired epoch is deleted by querying its
partitions.

Partition keys are bucketed (slot % buckets, hash(id) % buckets, hash(token) % buckets, about
1,000 addresses a bucket when the epoch begins; the ledger by a hash of the street, the sync's own
partition of the rows): consecutive writes land on different partitions."""

from __future__ import annotations

import base64
import json
import math
import time
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pynamodb.attributes import BinaryAttribute, NumberAttribute, UnicodeAttribute, UnicodeSetAttribute
from pynamodb.expressions.update import Action
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.codecs import address_from_doc, address_to_doc, dumps, loads
from chalicelib.domain.epochs import Epoch, Generation, LedgerEntry, LedgerPage, ledger_buckets
from chalicelib.domain.published import Placement
from chalicelib.domain.text_search import Chunk, TokenHead, decode, encode, split
from chalicelib.storage.dynamodb._batches import READ_BACKOFF, BatchWriter, Pauses, full_jitter
from chalicelib.storage.dynamodb._dynamo import TableStore, storage_errors
from chalicelib.storage.dynamodb._wire import Document, DynamoUnreachable, DynamoWire

ITEMS_PER_BUCKET = 1000
LEDGER_ENTRIES = 4000  # entries per ledger item: some 40 bytes each, compressed, well under 400 KB
_SLOT_WIDTH = 12
_BATCH_GET_LIMIT = 100


class _PoolItem(Model):
    class Meta:
        table_name: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    doc = UnicodeAttribute(null=True)
    slot = NumberAttribute(null=True)  # on an address by id: its slot
    died = UnicodeSetAttribute(null=True)  # on an address: the generations that removed it
    blob = BinaryAttribute(null=True, legacy_encoding=False)  # on a ledger item: its entries


def buckets_for(count: int) -> int:
    return max(1, math.ceil(count / ITEMS_PER_BUCKET))


def _bucket_of_id(address_id: str, buckets: int) -> int:
    return zlib.crc32(address_id.encode()) % buckets


def _epoch(place: Placement) -> Epoch:
    return Epoch(place.epoch, place.buckets)


def _slot_key(epoch: Epoch, slot: int) -> tuple[str, str]:
    return f"O#{epoch.name}#{slot % epoch.buckets}", f"{slot:0{_SLOT_WIDTH}d}"


def _id_key(epoch: Epoch, address_id: str, generation: str) -> tuple[str, str]:
    """An address's version added by `generation`: the epoch's first generation (named as the
    epoch) adds most of them, under the bare id, so a snapshot of one generation reads one by
    GetItem; a later one's versions carry its tag."""
    pk = f"I#{epoch.name}#{_bucket_of_id(address_id, epoch.buckets)}"
    return pk, address_id if generation == epoch.name else f"{address_id}#{generation}"


def _born_of(epoch: Epoch, address_id: str, sk: str) -> str:
    """The generation that added the version stored under sort key `sk` (_id_key reversed)."""
    return epoch.name if sk == address_id else sk.removeprefix(f"{address_id}#")


def _token_pk(epoch: Epoch, token: str) -> str:
    return f"Q#{epoch.name}#{zlib.crc32(token.encode()) % epoch.buckets}"


def _token_sk(epoch: Epoch, token: str, generation: str, chunk: int | None = None) -> str:
    """A generation's head of a token, or one of its chunks: the epoch's first generation's under
    the bare token (as _id_key), a later one's tagged."""
    head = token if generation == epoch.name else f"{token}#{generation}"
    return head if chunk is None else f"{head}#{chunk:06d}"


def _head_doc(head: TokenHead) -> str:
    if head.chunks:
        return json.dumps({"n": head.count, "c": [[c.first, c.last, c.count] for c in head.chunks]})
    return json.dumps({"n": head.count, "p": _packed(head.inline)})


def _head_of(doc: str, chunk_key: Callable[[int], str]) -> TokenHead:
    parsed = json.loads(doc)
    if "c" in parsed:
        chunks = tuple(Chunk(c[0], c[1], c[2], key=chunk_key(i)) for i, c in enumerate(parsed["c"]))
        return TokenHead(parsed["n"], chunks=chunks)
    return TokenHead(parsed["n"], inline=tuple(_unpacked(parsed["p"])))


def _joined(heads: Sequence[TokenHead]) -> TokenHead:
    """A token's heads over a lineage's generations, oldest first: each generation's slots follow
    the ones before, so the postings stay ascending. Postings all in heads stay in the head; else
    each head's postings become a chunk holding them."""
    if len(heads) == 1:
        return heads[0]
    count = sum(h.count for h in heads)
    if not any(h.chunks for h in heads):
        return TokenHead(count, inline=tuple(p for h in heads for p in h.inline))
    chunks: list[Chunk] = []
    for head in heads:
        if head.chunks:
            chunks += head.chunks
        elif head.inline:
            chunks.append(Chunk(head.inline[0], head.inline[-1], head.count, postings=head.inline))
    return TokenHead(count, chunks=tuple(chunks))


def _packed(ordinals: Sequence[int]) -> str:
    return base64.b64encode(encode(ordinals)).decode()


def _unpacked(text: str) -> list[int]:
    return decode(base64.b64decode(text))


def _partitions(epoch: Epoch) -> list[str]:
    found = [f"{kind}#{epoch.name}#{b}" for kind in ("O", "I", "Q") for b in range(epoch.buckets)]
    return found + [f"G#{epoch.name}#{b}" for b in range(ledger_buckets(epoch.buckets))]


def _key(pk: str, sk: str) -> Document:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _died(item: Document) -> list[str]:
    died: list[str] = item.get("died", {}).get("SS", [])
    return died


def _ledger_blob(entries: Iterable[LedgerEntry], born: bool) -> list[list[Any]]:
    return [
        [e.address_id, e.content, e.street] if born else [e.address_id, e.content, e.street, e.born]
        for e in entries
    ]


class PoolStore(TableStore[_PoolItem]):
    """Verbs on the pool table."""

    def __init__(
        self,
        table: TableSettings,
        writers: int = 8,
        sleep: Callable[[float], None] = time.sleep,
        wire: DynamoWire | None = None,
        jitter: Callable[[float], float] = full_jitter,
    ) -> None:
        super().__init__(_PoolItem, table, wire)
        self._writer = BatchWriter(self._model, workers=writers, sleep=sleep, jitter=jitter)
        self._writers = writers
        self._sleep, self._jitter = sleep, jitter

    # --- writes (the sync) ------------------------------------------------------------------

    def put_addresses(self, into: Generation, placed: Sequence[tuple[int, PublishedAddress]]) -> int:
        """Write the generation's new addresses at their slots, by slot and by id, with parallel
        batch writers; returns items written. Rewriting the same slots writes the same items."""
        place, generation = into.epoch, into.tag
        items: list[_PoolItem] = []
        for slot, address in placed:
            doc = dumps(address_to_doc(address))
            items.append(self._model(*_slot_key(place, slot), doc=doc))
            items.append(self._model(*_id_key(place, address.id, generation), doc=doc, slot=slot))
        return self._writer.put(items)

    def put_text_index(self, into: Generation, postings: Mapping[str, Sequence[int]]) -> int:
        """Write the generation's tokens' postings (each token's new slots, ascending) as heads and
        chunks; returns items written. Rewriting the same tokens writes the same items."""
        place, generation = into.epoch, into.tag
        items: list[tuple[str, str, str]] = []
        for token, slots in postings.items():
            head, chunks = split(slots)
            pk = _token_pk(place, token)
            items.append((pk, _token_sk(place, token, generation), _head_doc(head)))
            items += [(pk, _token_sk(place, token, generation, i), _packed(c)) for i, c in enumerate(chunks)]
        return self._writer.put([self._model(pk, sk, doc=doc) for pk, sk, doc in items])

    def put_ledger(
        self,
        into: Generation,
        bucket: int,
        cell: int,
        born: Sequence[LedgerEntry],
        removed: Sequence[LedgerEntry],
    ) -> int:
        """Record what a generation added and removed in one ledger bucket, for the streets of one
        street cell (several cells share a bucket when the epoch has fewer buckets than the run
        has cells: each writes pages of its own); nothing when neither. Returns items written."""
        pages = [("b", born[i : i + LEDGER_ENTRIES]) for i in range(0, len(born), LEDGER_ENTRIES)]
        pages += [("r", removed[i : i + LEDGER_ENTRIES]) for i in range(0, len(removed), LEDGER_ENTRIES)]
        items = []
        for number, (kind, entries) in enumerate(pages):
            blob = zlib.compress(dumps(_ledger_blob(entries, kind == "b")).encode())
            pk, sk = f"G#{into.epoch.name}#{bucket}", f"{into.tag}#{kind}#{cell:05d}#{number:06d}"
            items.append(self._model(pk, sk, blob=blob))
        self._writer.put_serially(items)
        return len(pages)

    def ledger(self, epoch: Epoch, bucket: int) -> list[LedgerPage]:
        """Every generation's pages of one ledger bucket (a Query)."""
        found: dict[str, LedgerPage] = {}
        with storage_errors(self.table_name):
            for item in self._model.query(f"G#{epoch.name}#{bucket}"):
                generation, kind, _, _ = item.sk.split("#")
                page = found.setdefault(generation, LedgerPage(generation, [], []))
                for raw in loads(zlib.decompress(item.blob or b"").decode()):
                    if kind == "b":
                        page.born.append(LedgerEntry(raw[0], raw[1], raw[2], generation))
                    else:
                        page.removed.append(LedgerEntry(*raw))
        return list(found.values())

    def mark_removed(self, by: Generation, removed: Sequence[LedgerEntry]) -> int:
        """Tag each removed address's items with the generation that removed it (a set: retries and
        abandoned attempts add harmlessly); returns items updated."""
        place, generation = by.epoch, by.tag
        tag: list[Action] = [self._model.died.add({generation})]
        stored = self._model.pk.exists()

        def mark(part: Sequence[LedgerEntry]) -> int:
            with storage_errors(self.table_name):
                for entry in part:
                    by_id = self._model(*_id_key(place, entry.address_id, entry.born))
                    by_id.update(actions=tag, condition=stored)  # answers with the item: its slot
                    self._model(*_slot_key(place, int(by_id.slot))).update(actions=tag, condition=stored)
            return 2 * len(part)

        slices = [removed[start :: self._writers] for start in range(self._writers)]
        with ThreadPoolExecutor(max_workers=self._writers) as pool:
            return sum(pool.map(mark, slices))

    def delete_epoch(self, epoch: Epoch) -> int:
        """Delete every item of an epoch, bucket by bucket; returns items deleted."""
        return self._writer.delete_partitions(_partitions(epoch))

    def count_items(self, epoch: Epoch) -> int:
        """How many items an epoch holds (for tests and measurements)."""
        with storage_errors(self.table_name):
            return sum(self._model.count(pk) for pk in _partitions(epoch))

    # --- reads (requests) -------------------------------------------------------------------

    def get_token_heads(self, place: Placement, tokens: Sequence[str]) -> dict[str, TokenHead]:
        """The heads of the tokens the snapshot has (a token it lacks is absent), each joined over
        the lineage's generations: one BatchGetItem per 100 (token, generation) keys."""
        epoch = _epoch(place)
        order = {s.generation: i for i, s in enumerate(place.segments)}
        keys = {(_token_pk(epoch, t), _token_sk(epoch, t, g)): (t, g) for t in tokens for g in order}
        found: dict[str, list[tuple[int, TokenHead]]] = {}
        for pk, sk, doc in self._docs(list(keys)):
            token, generation = keys[(pk, sk)]

            def chunk_key(i: int, token: str = token, generation: str = generation) -> str:
                return _token_sk(epoch, token, generation, i)

            found.setdefault(token, []).append((order[generation], _head_of(doc, chunk_key)))
        return {t: _joined([h for _, h in sorted(heads, key=lambda x: x[0])]) for t, heads in found.items()}

    def get_token_chunks(
        self, place: Placement, wanted: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], list[int]]:
        """Chunks of tokens' postings, by (token, the chunk's key as its head named it)."""
        keys = {(_token_pk(_epoch(place), t), k): (t, k) for t, k in wanted}
        return {keys[(pk, sk)]: _unpacked(doc) for pk, sk, doc in self._docs(list(keys))}

    def _docs(self, keys: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
        items = self._items(keys)
        return [(i["pk"]["S"], i["sk"]["S"], i["doc"]["S"]) for i in items]

    def _items(self, keys: list[tuple[str, str]]) -> list[Document]:
        items: list[Document] = []
        with storage_errors(self.table_name):
            for start in range(0, len(keys), _BATCH_GET_LIMIT):
                items += self._batch_get([_key(*k) for k in keys[start : start + _BATCH_GET_LIMIT]])
        return items

    def get_many_by_ordinal(self, place: Placement, slots: Sequence[int]) -> dict[int, PublishedAddress]:
        """The addresses the snapshot serves at these slots (one a later generation removed is
        absent) with BatchGetItem: 100 keys a request, and what DynamoDB leaves unprocessed asked
        again (after a pause) until every key is answered. One key is one GetItem: the same read for
        less work on both ends."""
        keys = [_slot_key(_epoch(place), s) for s in dict.fromkeys(slots)]
        if len(keys) == 1:
            with storage_errors(self.table_name):
                answer = self._wire.call("GetItem", {"TableName": self.table_name, "Key": _key(*keys[0])})
            items = [answer["Item"]] if "Item" in answer else []
        else:
            items = self._items(keys)
        return {
            int(item["sk"]["S"]): address_from_doc(loads(item["doc"]["S"]))
            for item in items
            if place.lineage.isdisjoint(_died(item))
        }

    def get_by_ordinal(self, place: Placement, slot: int) -> PublishedAddress | None:
        return self.get_many_by_ordinal(place, [slot]).get(slot)

    def _batch_get(self, keys: list[Document]) -> list[Document]:
        items: list[Document] = []
        pauses = Pauses(READ_BACKOFF, self._sleep, self._jitter)
        while True:
            asked = len(keys)
            answer = self._wire.call("BatchGetItem", {"RequestItems": {self.table_name: {"Keys": keys}}})
            items += answer.get("Responses", {}).get(self.table_name, [])
            keys = answer.get("UnprocessedKeys", {}).get(self.table_name, {}).get("Keys", [])
            if not keys:
                return items
            if not pauses.wait(progressed=len(keys) < asked):
                raise DynamoUnreachable(f"{len(keys)} keys still unprocessed")

    def slot_key(self, place: Placement, slot: int) -> dict[str, Any]:
        """The low-level DynamoDB key of an address by slot (for benchmarks' bare reads)."""
        return _key(*_slot_key(_epoch(place), slot))

    def get_by_id(self, place: Placement, address_id: str) -> PublishedAddress | None:
        """The version of the address the snapshot serves: one GetItem in an epoch's first
        generation, else one Query over the id's versions (one per generation that added it,
        usually one; ids have one length, so the prefix names this id's versions alone)."""
        epoch = _epoch(place)
        pk, sk = _id_key(epoch, address_id, place.generation)
        if len(place.segments) == 1:
            request: dict[str, Any] = {"TableName": self.table_name, "Key": _key(pk, sk)}
            with storage_errors(self.table_name):
                answer = self._wire.call("GetItem", request)
            items = [answer["Item"]] if "Item" in answer else []
        else:
            request = {
                "TableName": self.table_name,
                "KeyConditionExpression": "pk = :pk AND begins_with(sk, :id)",
                "ExpressionAttributeValues": {":pk": {"S": pk}, ":id": {"S": address_id}},
            }
            with storage_errors(self.table_name):
                items = self._wire.call("Query", request).get("Items", [])
        for item in items:
            if place.serves(_born_of(epoch, address_id, item["sk"]["S"]), _died(item)):
                return address_from_doc(loads(item["doc"]["S"]))
        return None
