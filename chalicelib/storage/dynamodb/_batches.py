"""The one batch writer of every table: BatchWriteItem requests of 25 items spread over parallel
writers. DynamoDB answers a throttled batch by handing items back unprocessed, item by item, not
with an error; those are sent again after a jittered exponential pause (full jitter, so a hundred
writers throttled together do not come back together), restarting from the shortest pause when a
resend made progress. A request's pauses add up to at most `Backoff.total_seconds`: past that the
table is unavailable (StorageUnavailable), which fails the country being synced, not the sync.
PynamoDB's own batch resends unprocessed items at once, without a pause."""

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
        self._jitter = jitter or (lambda ceiling: random.uniform(0, ceiling))  # noqa: S311 (not a secret)

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
        waited, attempt = 0.0, 0
        with storage_errors(table):
            while True:
                sent = len(requests)
                answer = self._model._get_connection().batch_write_item(
                    put_items=requests.puts or None, delete_items=requests.deletes or None
                )
                requests = _unprocessed(answer, table)
                if not requests:
                    return
                if len(requests) < sent:
                    attempt = 0  # progress: the shortest pause again
                ceiling = min(self._backoff.longest_seconds, self._backoff.first_seconds * 2**attempt)
                pause = self._jitter(ceiling)
                if waited + pause > self._backoff.total_seconds:
                    raise unavailable(table, "UnprocessedItems")
                self._sleep(pause)
                waited += pause
                attempt += 1


def _unprocessed(answer: dict[str, Any] | None, table: str) -> _Requests:
    handed_back = (answer or {}).get("UnprocessedItems", {}).get(table, [])
    puts = [r["PutRequest"]["Item"] for r in handed_back if "PutRequest" in r]
    deletes = [r["DeleteRequest"]["Key"] for r in handed_back if "DeleteRequest" in r]
    return _Requests(puts, deletes)
