"""The one batch writer of every table: BatchWriteItem requests of 25 items spread over parallel
writers. DynamoDB answers a throttled batch by handing items back unprocessed, item by item, not
with an error; those are sent again after a jittered exponential pause (full jitter, so a hundred
writers throttled together do not come back together), restarting from the shortest pause when a
resend made progress. A request's pauses add up to at most `Backoff.total_seconds`: past that the
table is unavailable (StorageUnavailable), which fails the country being synced, not the sync.
PynamoDB's own batch resends unprocessed items at once, without a pause.

BatchGetItem hands back unprocessed keys the same way, and the pool's reads ask again after the
same pauses (`Pauses`), bounded by a request's patience (READ_BACKOFF) rather than a sync's."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import islice
from typing import Any, Generic, TypeVar

from pynamodb.models import Model

from chalicelib.storage.dynamodb._dynamo import storage_errors, unavailable

BATCH_WRITE_LIMIT = 25  # DynamoDB's limit of requests in one BatchWriteItem

Item = TypeVar("Item", bound=Model)


@dataclass(frozen=True)
class Backoff:
    first_seconds: float = 0.05
    longest_seconds: float = 5.0
    total_seconds: float = 60.0  # the most one request waits in all for its unprocessed items


# A request's reads: resends of keys BatchGetItem left unprocessed wait at most this in all (as the
# fixed pauses before them did: 1.55 s), then the request answers 503.
READ_BACKOFF = Backoff(first_seconds=0.05, longest_seconds=0.8, total_seconds=1.6)


def full_jitter(ceiling: float) -> float:
    return random.uniform(0, ceiling)  # noqa: S311 - spreading retries, not a secret


class Pauses:
    """The pauses before resending what DynamoDB handed back unprocessed: jittered exponential
    (full jitter), from the shortest again after a resend that made progress, adding up to at most
    the backoff's total."""

    def __init__(self, backoff: Backoff, sleep: Callable[[float], None], jitter: Callable[[float], float]):
        self._backoff, self._sleep, self._jitter = backoff, sleep, jitter
        self._waited, self._attempt = 0.0, 0

    def wait(self, progressed: bool) -> bool:
        """Pause before the next resend; False (no pause) when it would pass the total: give up."""
        if progressed:
            self._attempt = 0
        backoff = self._backoff
        pause = self._jitter(min(backoff.longest_seconds, backoff.first_seconds * 2**self._attempt))
        if self._waited + pause > backoff.total_seconds:
            return False
        self._sleep(pause)
        self._waited += pause
        self._attempt += 1
        return True


@dataclass(frozen=True)
class _Requests:
    puts: list[dict[str, Any]]
    deletes: list[dict[str, Any]]

    def __len__(self) -> int:
        return len(self.puts) + len(self.deletes)


class BatchWriter(Generic[Item]):
    """Puts and deletes of one table's items, `workers` requests in flight."""

    def __init__(
        self,
        model: type[Item],
        *,
        workers: int = 8,
        backoff: Backoff | None = None,
        sleep: Callable[[float], None] = time.sleep,
        jitter: Callable[[float], float] | None = None,
    ) -> None:
        self._model = model
        self._workers = workers
        self._backoff = backoff or Backoff()
        self._sleep = sleep
        self._jitter = jitter or full_jitter

    def put(self, items: Sequence[Item]) -> int:
        """Write the items, each slice of them by its own writer; returns items written."""
        slices = [items[start :: self._workers] for start in range(self._workers)]
        with ThreadPoolExecutor(max_workers=self._workers) as pool:
            return sum(pool.map(self.put_serially, slices))

    def put_serially(self, items: Iterable[Item]) -> int:
        """Write the items in this thread, 25 a request; returns items written."""
        return self._each_request(items, lambda chunk: _Requests([i.serialize() for i in chunk], []))

    def delete_serially(self, items: Iterable[Item]) -> int:
        """Delete the items (only their keys are read) in this thread; returns items deleted."""
        return self._each_request(items, lambda chunk: _Requests([], [i._get_keys() for i in chunk]))  # type: ignore[no-untyped-call]

    def delete_partitions(self, partition_keys: Sequence[str]) -> int:
        """Delete every item under these partition keys (queried, never scanned), a writer per
        partition; returns items deleted."""

        def delete(pk: str) -> int:
            with storage_errors(self._model.Meta.table_name):
                return self.delete_serially(self._model.query(pk, attributes_to_get=["pk", "sk"]))

        with ThreadPoolExecutor(max_workers=self._workers) as pool:
            return sum(pool.map(delete, partition_keys))

    def _each_request(self, items: Iterable[Item], build: Callable[[list[Item]], _Requests]) -> int:
        done = 0
        iterator = iter(items)
        while chunk := list(islice(iterator, BATCH_WRITE_LIMIT)):
            self._send(build(chunk))
            done += len(chunk)
        return done

    def _send(self, requests: _Requests) -> None:
        table = self._model.Meta.table_name
        pauses = Pauses(self._backoff, self._sleep, self._jitter)
        with storage_errors(table):
            while True:
                sent = len(requests)
                answer = self._model._get_connection().batch_write_item(
                    put_items=requests.puts or None, delete_items=requests.deletes or None
                )
                requests = _unprocessed(answer, table)
                if not requests:
                    return
                if not pauses.wait(progressed=len(requests) < sent):
                    raise unavailable(table, "UnprocessedItems")


def _unprocessed(answer: dict[str, Any] | None, table: str) -> _Requests:
    handed_back = (answer or {}).get("UnprocessedItems", {}).get(table, [])
    puts = [r["PutRequest"]["Item"] for r in handed_back if "PutRequest" in r]
    deletes = [r["DeleteRequest"]["Key"] for r in handed_back if "DeleteRequest" in r]
    return _Requests(puts, deletes)
