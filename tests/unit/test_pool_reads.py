"""The pool's batch reads when DynamoDB leaves keys unprocessed (it does when throttled): they are
asked again after the batch writer's jittered exponential pauses, from the shortest after a
resend that made progress, and a request gives up (503) once its pauses would pass 1.6 s."""

from __future__ import annotations

import random

import pytest

from chalicelib.config import TableSettings
from chalicelib.domain.published import Placement, Segment
from chalicelib.errors import StorageUnavailable
from chalicelib.storage.dynamodb._batches import READ_BACKOFF
from chalicelib.storage.dynamodb._wire import Document, DynamoWire
from chalicelib.storage.dynamodb.pool import PoolStore

TABLE = TableSettings(name="t-pool", region="us-east-1", endpoint="http://127.0.0.1:1")
PLACE = Placement("E1", 4, (Segment("E1", 0, (16, 0, 0, 0)),))


class HandingBack(DynamoWire):
    """A DynamoDB that leaves the first `left[i]` keys of its i-th BatchGetItem unprocessed (the
    last figure from then on) and holds no address."""

    def __init__(self, *left: int) -> None:
        super().__init__(TABLE)
        self.left, self.asked = list(left), list[int]()

    def call(self, operation: str, payload: Document) -> Document:
        keys = payload["RequestItems"][TABLE.name]["Keys"]
        self.asked.append(len(keys))
        left = self.left.pop(0) if len(self.left) > 1 else self.left[0]
        unprocessed = {TABLE.name: {"Keys": keys[:left]}} if left else {}
        return {"Responses": {TABLE.name: []}, "UnprocessedKeys": unprocessed}


def _pool(wire: DynamoWire, pauses: list[float], jitter: float | None = None) -> PoolStore:
    spread = (lambda ceiling: ceiling) if jitter is None else (lambda ceiling: ceiling * jitter)
    return PoolStore(TABLE, sleep=pauses.append, wire=wire, jitter=spread)


def test_keys_handed_back_are_asked_again_each_after_the_shortest_pause_while_some_come_back() -> None:
    wire, pauses = HandingBack(3, 1, 0), list[float]()
    assert _pool(wire, pauses).get_many_by_ordinal(PLACE, range(5)) == {}
    assert wire.asked == [5, 3, 1]
    assert pauses == [READ_BACKOFF.first_seconds] * 2


def test_keys_that_stay_unprocessed_wait_doubling_pauses_then_the_request_is_refused() -> None:
    wire, pauses = HandingBack(5), list[float]()
    with pytest.raises(StorageUnavailable):
        _pool(wire, pauses).get_many_by_ordinal(PLACE, range(5))
    assert pauses == [0.05, 0.1, 0.2, 0.4, 0.8]  # the ceilings; the next would pass 1.6 s
    assert len(wire.asked) == len(pauses) + 1


def test_jittered_pauses_never_add_up_to_more_than_a_request_s_patience() -> None:
    for seed in range(20):
        wire, pauses = HandingBack(5), list[float]()
        with pytest.raises(StorageUnavailable):
            _pool(wire, pauses, jitter=random.Random(seed).random()).get_many_by_ordinal(PLACE, range(5))
        assert sum(pauses) <= READ_BACKOFF.total_seconds
