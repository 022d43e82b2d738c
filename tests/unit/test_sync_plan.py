"""The sharded build's arithmetic and its state machine, as pure functions."""

from __future__ import annotations

import pytest

from chalicelib.errors import ConfigurationError
from chalicelib.services.sync.plan import (
    SortedCell,
    cell_of_key,
    cell_starts,
    cells_for,
    order_cell_name,
    shards_of,
)
from chalicelib.services.sync.sharded import STAGES
from chalicelib.services.sync.state_machine import definition
from chalicelib.services.sync.steps import parse_step


def test_prefix_sums_place_each_cell_after_the_ones_before_it() -> None:
    assert cell_starts([3, 0, 5, 2]) == [0, 3, 3, 8]
    assert cell_starts([]) == []


def test_cells_are_sized_to_bound_a_worker_and_keys_land_in_the_same_cell_every_time() -> None:
    assert cells_for(0, 100) == 1
    assert cells_for(250, 100) == 3
    assert cell_of_key("PL|ulica witolda|12|", 7) == cell_of_key("PL|ulica witolda|12|", 7)
    assert {cell_of_key(f"k{i}", 7) for i in range(200)} == set(range(7))
    assert order_cell_name((0, "US-CA")) != order_cell_name((0, "US-CA "))  # no two regions share a file


def test_shards_cover_every_ordinal_once_in_snapshot_order() -> None:
    cells = [
        SortedCell((2, "PL-02"), "c", 5, (0, 40, 90, 120)),  # rows 0-1, 2-3, 4
        SortedCell((0, "PL-24"), "b", 2, (0, 70)),
        SortedCell((0, "PL-02"), "a", 3, (0, 60, 80)),
    ]
    shards = shards_of(cells, shard_rows=2)
    assert [(s.cell, s.first_ordinal, s.rows, s.start, s.end) for s in shards] == [
        ("a", 0, 2, 0, 60),
        ("a", 2, 1, 60, 80),
        ("b", 3, 2, 0, 70),
        ("c", 5, 2, 0, 40),
        ("c", 7, 2, 40, 90),
        ("c", 9, 1, 90, 120),
    ]


def test_the_state_machine_maps_each_stage_over_its_items_in_s3_then_closes_it() -> None:
    machine = definition("arn:aws:lambda:us-east-1:123456789012:function:sync_step", max_concurrency=8)
    states = machine["States"]
    order, name = [], states["Current?"]["Default"]
    while name != "Done":
        state = states[name]
        order.append(name)
        name = state["Next"]
    assert order == [step for stage in STAGES for step in (f"Stage {stage}", f"Close {stage}")]
    for stage in STAGES:
        mapped = states[f"Stage {stage}"]
        assert mapped["ItemProcessor"]["ProcessorConfig"]["Mode"] == "DISTRIBUTED"
        assert mapped["ItemReader"]["Resource"] == "arn:aws:states:::s3:getObject"
        assert f"items/{stage}.json" in mapped["ItemReader"]["Parameters"]["Key.$"]
        assert mapped["MaxConcurrency"] == 8


@pytest.mark.parametrize(
    "event",
    [
        {},
        {"action": "task", "run": "r1", "stage": "map"},  # no item
        {"action": "close", "run": "r1"},  # no stage
        {"action": "task", "run": "r1", "stage": "shuffle", "item": {}},
        {"action": "start", "run": "../other-run"},
        {"action": "start", "run": "r1", "extra": 1},
    ],
)
def test_a_step_event_the_state_machine_would_not_send_is_refused(event: dict[str, object]) -> None:
    with pytest.raises(ConfigurationError):
        parse_step(event)


def test_a_step_event_of_the_state_machine_is_accepted() -> None:
    step = parse_step({"action": "task", "run": "sync-20261123T000000Z", "stage": "write", "item": {"x": 1}})
    assert (step.stage, step.item) == ("write", {"x": 1})
