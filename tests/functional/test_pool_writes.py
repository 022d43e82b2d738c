"""The pool's batch writes when DynamoDB throttles them item by item, on moto."""

from __future__ import annotations

import pytest

from chalicelib import deps
from chalicelib.domain.epochs import Epoch, Generation
from chalicelib.errors import StorageUnavailable
from tests.support.throttled_writes import throttled_writes


def test_items_handed_back_unprocessed_past_the_retries_are_the_store_unavailable(
    dependencies: deps.Dependencies,
) -> None:
    """DynamoDB answers a throttled batch with its items as UnprocessedItems, not an error: past
    the retries that is the store being unavailable, which fails the country being synced (not
    the whole sync, as an unexpected PutError did)."""
    generation = Generation(Epoch("E1", 4), "E1")
    with throttled_writes(unprocessed=True) as fault:
        throttled = deps.build(dependencies.settings, dependencies.clock)  # its clients see the fault
        with pytest.raises(StorageUnavailable):
            throttled.stores.pool.put_text_index(generation, {"haus": [1, 2], "weg": [3]})
    assert fault.throttled >= 2  # sent, then the unprocessed items sent again

    assert dependencies.stores.pool.put_text_index(generation, {"haus": [1, 2], "weg": [3]}) == 2
