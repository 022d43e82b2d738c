"""The sharded build's arithmetic and its state machine, as pure functions."""

from __future__ import annotations

import json

import pytest

from chalicelib.errors import ConfigurationError
from chalicelib.services.sync.job import LAMBDA_ROWS, SyncJob, runner_for
from chalicelib.services.sync.sharding import (
    SortedCell,
    cell_of_key,
    cell_starts,
    cells_for,
    is_sampled,
    order_cell_name,
    part_of,
    shards_of,
    splitters,
    street_layout,
)
from chalicelib.services.sync.stages import STAGES
from chalicelib.services.sync.stages.map_sources import runner_of
from chalicelib.services.sync.state_machine import STEP_EVENT_VARIABLE, Container, Manifest, definition
from chalicelib.services.sync.steps import parse_step
from chalicelib.sources.manifest import SourceEntry, SourceGroup


def test_prefix_sums_place_each_cell_after_the_ones_before_it() -> None:
    assert cell_starts([3, 0, 5, 2]) == [0, 3, 3, 8]
    assert cell_starts([]) == []


def test_cells_are_sized_to_bound_a_worker_and_keys_land_in_the_same_cell_every_time() -> None:
    assert cells_for(0, 100) == 1
    assert cells_for(250, 100) == 3
    assert cell_of_key("PL|ulica witolda|12|", 7) == cell_of_key("PL|ulica witolda|12|", 7)
    assert {cell_of_key(f"k{i}", 7) for i in range(200)} == set(range(7))
    assert order_cell_name((0, "US-CA")) != order_cell_name((0, "US-CA "))  # no two regions share a file
    assert order_cell_name((0, "US-CA"), 1) != order_cell_name((0, "US-CA"), 0)


def test_each_counted_country_hashes_its_streets_into_cells_of_its_own() -> None:
    ranges, cells = street_layout({"US": 2_500, "IS": 90, "NO": 0, "GB": None, "RU": None}, per_cell=1000)
    assert ranges == {"IS": (0, 1), "NO": (1, 1), "US": (2, 4)}  # 3 cells' worth of US, a power of two
    assert cells == 6 + 4  # the uncounted extracts share as many cells as the counted rows take
    job = SyncJob(
        manifest="m", root="r", countries=["GB", "IS", "US"], fingerprint="f", started_at="",
        street_cells=cells, country_cells=ranges, object_cells=1, text_cells=1,
    )  # fmt: skip
    assert {job.street_cell("US", street) for street in range(100)} == {2, 3, 4, 5}
    assert {job.street_cell("IS", street) for street in range(100)} == {0}
    assert {job.street_cell(c, street) for c in ("GB", "RU", "SE") for street in range(100)} == {6, 7, 8, 9}
    assert street_layout({"US": 2_500, "IS": 90}, per_cell=1000) == ({"IS": (0, 1), "US": (1, 4)}, 6)


def test_a_large_cell_is_cut_into_parts_of_about_the_asked_size_at_its_sampled_quantiles() -> None:
    sample = [(0, "US-CA", f"{n:04d}") for n in range(0, 1000, 10)]  # 100 of 1,000 keys
    cuts = splitters(list(reversed(sample)), count=1000, part_rows=250)
    assert cuts == [(0, "US-CA", "0250"), (0, "US-CA", "0500"), (0, "US-CA", "0750")]
    parts = [part_of(cuts, (0, "US-CA", f"{n:04d}")) for n in range(1000)]
    assert parts == sorted(parts)  # parts follow the order, so their prefix sums place them
    assert [parts.count(p) for p in range(4)] == [250, 250, 250, 250]
    assert splitters(sample, count=250, part_rows=250) == []  # one task sorts it whole
    assert splitters([], count=10_000, part_rows=250) == []  # no sample, no cut
    assert splitters([(1,), (1,), (1,), (2,)], count=4, part_rows=1) == [(1,), (2,)]  # no empty part


def test_the_sample_is_a_fixed_share_of_ids_whatever_the_partitioning() -> None:
    chosen = [i for i in range(10_000) if is_sampled(f"oa-us-{i}", 100)]
    assert 60 <= len(chosen) <= 140
    assert chosen == [i for i in range(10_000) if is_sampled(f"oa-us-{i}", 100)]
    assert all(is_sampled(f"x{i}", 1) for i in range(10))


def test_shards_cover_every_ordinal_once_in_snapshot_order() -> None:
    cells = [
        SortedCell((2, "PL-02"), "c", 5, (0, 40, 90, 120)),  # rows 0-1, 2-3, 4
        SortedCell((0, "PL-24"), "b", 2, (0, 70)),
        SortedCell((0, "PL-02"), "a2", 1, (0, 30), part=1),
        SortedCell((0, "PL-02"), "a", 3, (0, 60, 80)),
    ]
    shards = shards_of(cells, shard_rows=2)
    assert [(s.cell, s.first_ordinal, s.rows, s.start, s.end) for s in shards] == [
        ("a", 0, 2, 0, 60),
        ("a", 2, 1, 60, 80),
        ("a2", 3, 1, 0, 30),
        ("b", 4, 2, 0, 70),
        ("c", 6, 2, 0, 40),
        ("c", 8, 2, 40, 90),
        ("c", 10, 1, 90, 120),
    ]


def test_the_state_machine_maps_each_stage_over_its_items_in_s3_then_closes_it() -> None:
    machine = definition("arn:aws:lambda:us-east-1:123456789012:function:sync_step", max_concurrency=8)
    states = machine["States"]
    order, name = [], states["Current?"]["Default"]
    while name != "All published?":
        state = states[name]
        order.append(name)
        name = state["Next"]
    assert order == [step for stage in STAGES for step in (f"Stage {stage}", f"Close {stage}")]
    assert states["All published?"]["Default"] == "Done"
    [failed] = states["All published?"]["Choices"]
    assert (failed["Variable"], failed["BooleanEquals"]) == ("$.closed.Payload.ok", False)
    assert states[failed["Next"]] == {**states[failed["Next"]], "Type": "Fail", "Error": "CountriesFailed"}
    for stage in STAGES:
        mapped = states[f"Stage {stage}"]
        assert mapped["ItemProcessor"]["ProcessorConfig"]["Mode"] == "DISTRIBUTED"
        assert mapped["ItemReader"]["Resource"] == "arn:aws:states:::s3:getObject"
        assert f"items/{stage}.json" in mapped["ItemReader"]["Parameters"]["Key.$"]
        assert mapped["MaxConcurrency"] == 8


def test_items_past_a_lambdas_limits_run_as_a_container_task_when_the_deployment_has_one() -> None:
    assert (runner_for(LAMBDA_ROWS), runner_for(LAMBDA_ROWS + 1)) == ("lambda", "container")
    function = "arn:aws:lambda:us-east-1:123456789012:function:sync_step"
    container = Container("cluster-arn", "task-arn", "sync-step", ("subnet-a",), ("sg-a",))
    processor = definition(function, container=container)["States"]["Stage map"]["ItemProcessor"]
    choice = processor["States"][processor["StartAt"]]
    assert choice["Default"] == "Task"
    [marked] = choice["Choices"]
    assert marked["Next"] == "Container task"
    assert {"Variable": "$.item.runner", "StringEquals": "container"} in marked["And"]
    task = processor["States"]["Container task"]
    assert task["Resource"] == "arn:aws:states:::ecs:runTask.sync"
    assert task["Parameters"]["LaunchType"] == "FARGATE"
    [override] = task["Parameters"]["Overrides"]["ContainerOverrides"]
    assert override["Name"] == "sync-step"
    assert override["Environment"] == [{"Name": STEP_EVENT_VARIABLE, "Value.$": "States.JsonToString($)"}]
    alone = definition(function)["States"]["Stage map"]["ItemProcessor"]
    assert list(alone["States"]) == ["Task"]


COMMON = {"language": "", "license": "x", "attribution": "x", "records": 10}


def test_an_overture_task_runs_in_the_container_whatever_its_size() -> None:
    """pyarrow is in the container image only (too large for the Lambda package)."""
    overture = SourceEntry.model_validate(
        {
            "id": "o",
            "country": "NO",
            "format": "overture-parquet",
            "files": ["p.parquet"],
            "row_groups": [0, 1],
        }
        | COMMON
    )
    csv = SourceEntry.model_validate(
        {"id": "c", "country": "NO", "format": "openaddresses-csv", "files": ["c"]} | COMMON
    )
    assert runner_of(SourceGroup(family="overture-NO", entries=(overture,))) == "container"
    assert runner_of(SourceGroup(family="c", entries=(csv,))) == "lambda"


def test_an_extract_of_unknown_size_runs_in_the_container() -> None:
    """Discovery's Geofabrik extracts carry no row count (GB's or Russia's may be among them):
    their map and bounds tasks run where there is no time limit."""
    extract = SourceEntry.model_validate(
        {"id": "osm-great-britain-gb", "country": "GB", "format": "osm-pbf", "files": ["gb.osm.pbf"]}
        | COMMON
        | {"records": 0}
    )
    assert extract.records == 0
    assert runner_of(SourceGroup(family=extract.id, entries=(extract,))) == "container"
    counted = extract.model_copy(update={"records": 40_000})
    assert runner_of(SourceGroup(family=extract.id, entries=(counted,))) == "lambda"


def test_with_a_manifest_the_machine_first_acquires_each_entry_then_starts() -> None:
    function = "arn:aws:lambda:us-east-1:123456789012:function:sync_step"
    machine = definition(function, manifest=Manifest("ags-files", "sources/manifest.json"))
    assert machine["StartAt"] == "Acquire"
    acquire = machine["States"]["Acquire"]
    assert acquire["ItemReader"]["Parameters"] == {"Bucket": "ags-files", "Key": "sources/manifest.json"}
    assert acquire["ItemSelector"]["action"] == "acquire"
    assert acquire["Next"] == "Start"
    assert definition(function)["StartAt"] == "Start"


def test_the_stages_writing_the_pool_run_at_most_the_writers_the_table_keeps_busy() -> None:
    function = "arn:aws:lambda:us-east-1:123456789012:function:sync_step"
    machine = definition(function, max_concurrency=100, write_concurrency=6)
    limits = {stage: machine["States"][f"Stage {stage}"]["MaxConcurrency"] for stage in STAGES}
    assert limits == {stage: 6 if stage in ("write", "index") else 100 for stage in STAGES}
    small = definition(function, max_concurrency=4, write_concurrency=6)
    assert {small["States"][f"Stage {stage}"]["MaxConcurrency"] for stage in STAGES} == {4}


def test_with_discovery_the_machine_first_writes_the_manifest_and_goes_on_if_it_fails() -> None:
    function = "arn:aws:lambda:us-east-1:123456789012:function:sync_step"
    machine = definition(function, manifest=Manifest("ags-files", "sources/manifest.json"), discovery=True)
    states = machine["States"]
    assert states[machine["StartAt"]]["Parameters"] == {"action": "discover", "run.$": "$$.Execution.Name"}
    discover = states[states[machine["StartAt"]]["Next"]]
    assert discover["Next"] == "Acquire"
    assert discover["Catch"] == [
        {"ErrorEquals": ["States.ALL"], "ResultPath": "$.discovery_error", "Next": "Acquire"}
    ]
    assert definition(function, manifest=Manifest("b", "k"))["StartAt"] == "Acquire"  # without it
    with pytest.raises(ValueError, match="manifest"):
        definition(function, discovery=True)  # nowhere to write the manifest


@pytest.mark.parametrize(
    "event",
    [
        {},
        {"action": "task", "run": "r1", "stage": "map"},  # no item
        {"action": "acquire", "run": "r1"},  # no entry
        {"action": "close", "run": "r1"},  # no stage
        {"action": "task", "run": "r1", "stage": "shuffle", "item": {}},
        {"action": "start", "run": "../other-run"},
        {"action": "start", "run": "r1", "extra": 1},
        {"action": "fail", "run": "r1", "stage": "write", "item": {"country": "NL"}},  # no failure
        {"action": "fail", "run": "r1", "stage": "map", "item": {}, "failure": {"Error": "X"}},  # a run's
        {"action": "fail", "run": "r1", "stage": "write", "item": {}, "failure": {"Cause": "{}"}},
    ],
)
def test_a_step_event_the_state_machine_would_not_send_is_refused(event: dict[str, object]) -> None:
    with pytest.raises(ConfigurationError):
        parse_step(event)


def test_a_step_event_of_the_state_machine_is_accepted() -> None:
    step = parse_step({"action": "task", "run": "sync-20261123T000000Z", "stage": "write", "item": {"x": 1}})
    assert (step.stage, step.item) == ("write", {"x": 1})


@pytest.mark.parametrize(
    ("cause", "described"),
    [
        (
            json.dumps({"errorType": "StorageUnavailable", "errorMessage": "try again"}),
            "StorageUnavailable: try again",
        ),
        ("not json", "StorageUnavailable"),
        ("[1]", "StorageUnavailable"),
    ],
)
def test_a_caught_failure_is_described_by_its_name_and_lambdas_message(cause: str, described: str) -> None:
    step = parse_step(
        {
            "action": "fail",
            "run": "sync-1",
            "stage": "write",
            "item": {"country": "NL"},
            "failure": {"Error": "StorageUnavailable", "Cause": cause},
        }
    )
    assert step.failure is not None
    assert step.failure.describe() == described
