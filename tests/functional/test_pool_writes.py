"""The one batch writer, when DynamoDB throttles writes item by item (on moto): items handed back
unprocessed are sent again after jittered exponential pauses, within a bounded total wait."""

from __future__ import annotations

import pytest

from chalicelib import deps
from chalicelib.domain.epochs import Epoch, Generation
from chalicelib.errors import StorageUnavailable
from chalicelib.storage.dynamodb._batches import Backoff, BatchWriter
from chalicelib.storage.dynamodb._dynamo import bind
from chalicelib.storage.dynamodb.pool import PoolStore
from chalicelib.storage.dynamodb.registry._table import RegistryItem
from tests.support.throttled_writes import throttled_item_by_item, throttled_writes

GENERATION = Generation(Epoch("E1", 4), "E1")
TOKENS = {f"weg{i}": [i] for i in range(30)}


def _pool(dependencies: deps.Dependencies, pauses: list[float], writers: int = 8) -> PoolStore:
    """A pool store built after the fault is in place (its clients see it), pausing into a list."""
    settings = dependencies.settings
    return PoolStore(settings.table(settings.pool_table), writers=writers, sleep=pauses.append)


def _catalog_model(dependencies: deps.Dependencies) -> type[RegistryItem]:
    """The registry's item model bound afresh: its client, made from now on, sees the fault."""
    settings = dependencies.settings
    return bind(RegistryItem, settings.table(settings.catalog_table))


def test_items_throttled_one_by_one_are_all_written_each_resend_after_a_short_pause(
    dependencies: deps.Dependencies,
) -> None:
    pauses: list[float] = []
    with throttled_item_by_item(processed=1) as fault:
        written = _pool(dependencies, pauses).put_text_index(GENERATION, TOKENS)
    assert written == 30
    assert fault.requests == 30  # one item got through per request
    assert len(pauses) == 30 - 8  # a pause before each resend (8 writers' first requests had none)
    assert all(0 <= p <= Backoff().first_seconds for p in pauses)  # progress: the shortest pause again
    assert dependencies.stores.pool.count_items(GENERATION.epoch) == 30  # every head stored


def test_items_that_stay_unprocessed_wait_no_longer_than_the_bound_then_the_store_is_unavailable(
    dependencies: deps.Dependencies,
) -> None:
    pauses: list[float] = []
    with throttled_writes(unprocessed=True) as fault, pytest.raises(StorageUnavailable):
        _pool(dependencies, pauses, writers=1).put_text_index(GENERATION, {"haus": [1, 2]})
    backoff = Backoff()
    assert backoff.total_seconds - backoff.longest_seconds < sum(pauses) <= backoff.total_seconds
    assert max(pauses) <= backoff.longest_seconds
    assert fault.throttled == len(pauses) + 1

    assert dependencies.stores.pool.put_text_index(GENERATION, {"haus": [1, 2]}) == 1  # unthrottled


def test_pauses_double_up_to_the_longest_while_nothing_gets_through(dependencies: deps.Dependencies) -> None:
    """Without jitter (its ceiling taken), the pauses are the exponential sequence, capped."""
    pauses: list[float] = []
    backoff = Backoff(first_seconds=0.5, longest_seconds=4.0, total_seconds=20.0)
    with throttled_writes(unprocessed=True):
        model = _catalog_model(dependencies)
        writer = BatchWriter(model, workers=1, backoff=backoff, sleep=pauses.append, jitter=lambda c: c)
        with pytest.raises(StorageUnavailable):
            writer.put_serially([model("L#s#0", "LOC#x", doc="{}")])
    assert pauses == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0]  # an eighth would pass 20 s in all


def test_the_catalog_writes_through_the_same_writer(dependencies: deps.Dependencies) -> None:
    with throttled_item_by_item(processed=3) as fault:
        model = _catalog_model(dependencies)
        items = [model(f"L#s#{i % 3}", f"LOC#{i}", doc="{}") for i in range(40)]
        assert BatchWriter(model, workers=2, sleep=lambda _: None).put(items) == 40
    assert fault.requests == 14  # 20 items a writer, 3 a request: 7 requests each
    assert sum(model.count(f"L#s#{s}") for s in range(3)) == 40
