"""The sync as an AWS Step Functions state machine (Amazon States Language), produced from
the same stage list the local executor runs: a `start` task, then per stage a Distributed Map over
the stage's items (a JSON list in S3, read by the Map's ItemReader) with one Lambda task per item,
then the stage's `close` task. The infrastructure deploys this definition as it is built here.

Every Lambda call carries the execution's name as `run`, which names the work prefix all its tasks
share; tasks are idempotent, so Step Functions may retry any of them.

Items too large for a Lambda's 15 minutes (`"runner": "container"`, see `job.runner_for`) run
as a Fargate task instead, when the deployment gives a `Container`: the same step, started by
`python -m chalicelib.cli sync-step` with the event in `SYNC_STEP_EVENT`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chalicelib.services.sync import work_layout
from chalicelib.services.sync.pipeline import COUNTRY_FAILURES, COUNTRY_STAGES
from chalicelib.services.sync.stages import STAGES

# A task re-run after an error rewrites the same output (each is idempotent); throttles and
# Lambda's own transient errors are the usual causes.
_RETRY = [
    {
        "ErrorEquals": ["States.ALL"],
        "IntervalSeconds": 5,
        "BackoffRate": 2.0,
        "MaxAttempts": 3,
        "JitterStrategy": "FULL",
    }
]


STEP_EVENT_VARIABLE = "SYNC_STEP_EVENT"
# The errors (a Lambda's `errorType`: the exception's class name) that fail a country, not the run.
_COUNTRY_ERRORS = [failure.__name__ for failure in COUNTRY_FAILURES]
_VERDICT = "All published?"  # after the last close: a failed country fails the execution


@dataclass(frozen=True)
class Container:
    """The Fargate task that runs the steps a Lambda cannot finish in time."""

    cluster_arn: str
    task_definition_arn: str
    container_name: str
    subnets: tuple[str, ...]
    security_groups: tuple[str, ...]
    public_ip: bool = False  # public subnets without a NAT gateway need one to reach ECR and S3


ACQUIRE_CONCURRENCY = 8  # requests at once to the publishers: polite, and enough for a daily fetch
# Writers the pool table's default on-demand quota (40,000 WRU/s) keeps busy: one writer puts some
# 8,000 units a second (make bench-planet measured 6 for Overture's first load; make
# bench-sync-scale found 4 to 8 saturate it).
WRITE_CONCURRENCY = 8
WRITING_STAGES = ("write", "index")


@dataclass(frozen=True)
class Manifest:
    """The manifest in the source store: the Acquire state's items, one per entry."""

    bucket: str
    key: str


def definition(
    function_arn: str,
    *,
    max_concurrency: int = 100,
    write_concurrency: int = WRITE_CONCURRENCY,
    container: Container | None = None,
    manifest: Manifest | None = None,
    discovery: bool = False,
) -> dict[str, Any]:
    """`function_arn`: the `sync_step` Lambda. `max_concurrency`: Lambda workers per stage;
    `write_concurrency`: the stages writing the pool (write, index) take at most this many, what
    the table's write quota keeps busy: more would only wait on it, billed (make bench-planet,
    docs/benchmarks.md). `container`: where
    items marked for a container run; without it every item runs in the Lambda. `manifest`: fetch
    each entry's file from its publisher first (without it, the source store is filled by hand).
    `discovery`: before that, write the manifest from the upstreams' newest data (docs/overture.md)."""
    states: dict[str, Any] = {
        "Start": {
            **_invoke(function_arn, {"action": "start", "run.$": "$$.Execution.Name"}),
            "ResultSelector": {
                "run.$": "$.Payload.run",
                "current.$": "$.Payload.current",
                "work.$": "$.Payload.work",
            },
            "Next": "Current?",
        },
        "Current?": {
            "Type": "Choice",
            "Choices": [{"Variable": "$.current", "BooleanEquals": True, "Next": "Unchanged"}],
            "Default": _map_name(STAGES[0]),
        },
        "Unchanged": {"Type": "Succeed"},
    }
    for index, stage in enumerate(STAGES):
        following = _map_name(STAGES[index + 1]) if index + 1 < len(STAGES) else _VERDICT
        processor = _processor(function_arn, container, country_stage=stage in COUNTRY_STAGES)
        concurrency = min(max_concurrency, write_concurrency) if stage in WRITING_STAGES else max_concurrency
        states[_map_name(stage)] = _stage_map(stage, processor, concurrency, _close_name(stage))
        states[_close_name(stage)] = {
            **_invoke(function_arn, {"action": "close", "stage": stage, "run.$": "$.run"}),
            "ResultPath": "$.closed" if following == _VERDICT else None,
            "Next": following,
        }
    # The last close answers whether every country was published: a country that failed (its
    # report recorded, the others published) fails the execution, so the sync's alarm goes off.
    states[_VERDICT] = {
        "Type": "Choice",
        "Choices": [{"Variable": "$.closed.Payload.ok", "BooleanEquals": False, "Next": "Countries failed"}],
        "Default": "Done",
    }
    states["Countries failed"] = {
        "Type": "Fail",
        "Error": "CountriesFailed",
        "Cause": "a country's sync failed; the others are published (the sync report: /data-health)",
    }
    states["Done"] = {"Type": "Succeed"}
    if discovery and manifest is None:
        raise ValueError("discovery writes the manifest the Acquire state reads: name it")
    start = "Start"
    if manifest is not None:
        states["Acquire"] = _acquire_map(function_arn, manifest)
        start = "Acquire"
        if discovery:
            states.update(_discover(function_arn, container))
            start = _DISCOVER_EVENT
    return {
        "Comment": "Address pool sync: the pipeline's stages (chalicelib/services/sync/stages/)",
        "StartAt": start,
        "States": states,
    }


_DISCOVER_EVENT = "Discover event"


def _discover(function_arn: str, container: Container | None) -> dict[str, Any]:
    """Discovery reads Parquet footers, so it runs where pyarrow is: the container when there is
    one. A discovery that fails (an upstream's outage, nothing found) is caught: the acquisition
    and the build go on with the manifest the source store holds."""
    event = {"action": "discover", "run.$": "$$.Execution.Name"}
    go_on = {
        "ResultPath": None,
        # The error kept in the state's output: the execution's history shows why.
        "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": "$.discovery_error", "Next": "Acquire"}],
    }
    task = _run_task(container) if container is not None else _invoke(function_arn, None)
    return {
        _DISCOVER_EVENT: {"Type": "Pass", "Parameters": event, "Next": "Discover"},
        "Discover": {**task, **go_on, "Next": "Acquire"},
    }


# A failure the task could not report itself (a timeout, a denied write, a manifest that cannot be
# read) is caught, not fatal: the sync goes on with what the source store holds, as after a
# publisher's outage, and the execution's history keeps the error.
_GO_ON = [{"ErrorEquals": ["States.ALL"], "ResultPath": None, "Next": "Start"}]


def _acquire_map(function_arn: str, manifest: Manifest) -> dict[str, Any]:
    """One task per manifest entry: its file from the publisher into the source store, unless
    unchanged. A failed fetch keeps what the store held and is reported by the task, so the
    state never fails on a publisher's outage; the Start state then decides whether to rebuild.
    An entry whose task fails anyway ends in `Kept`, so the other entries are still fetched."""
    task = {
        **_invoke(function_arn, None),
        "ResultPath": None,
        "Catch": [{"ErrorEquals": ["States.ALL"], "ResultPath": "$.error", "Next": "Kept"}],
        "End": True,
    }
    kept = {"Type": "Pass", "Comment": "the store keeps what it held for this entry", "End": True}
    return {
        "Type": "Map",
        "ItemReader": {
            "Resource": "arn:aws:states:::s3:getObject",
            "ReaderConfig": {"InputType": "JSON"},
            "Parameters": {"Bucket": manifest.bucket, "Key": manifest.key},
        },
        "ItemSelector": {"action": "acquire", "run.$": "$$.Execution.Name", "item.$": "$$.Map.Item.Value"},
        "ItemProcessor": {
            "ProcessorConfig": {"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"},
            "StartAt": "Task",
            "States": {"Task": task, "Kept": kept},
        },
        "MaxConcurrency": ACQUIRE_CONCURRENCY,
        "ResultPath": None,
        "Catch": _GO_ON,
        "Next": "Start",
    }


def _stage_map(stage: str, processor: dict[str, Any], max_concurrency: int, following: str) -> dict[str, Any]:
    return {
        "Type": "Map",
        "ItemReader": {
            "Resource": "arn:aws:states:::s3:getObject",
            "ReaderConfig": {"InputType": "JSON"},
            "Parameters": {
                "Bucket.$": "$.work.bucket",
                "Key.$": f"States.Format('{{}}{work_layout.items(stage)}', $.work.prefix)",
            },
        },
        "ItemSelector": {"action": "task", "stage": stage, "run.$": "$.run", "item.$": "$$.Map.Item.Value"},
        "ItemProcessor": {
            "ProcessorConfig": {"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"},
            **processor,
        },
        "MaxConcurrency": max_concurrency,
        "ResultPath": None,  # each task records its result in S3; the state's payload stays small
        "Next": following,
    }


def _processor(function_arn: str, container: Container | None, *, country_stage: bool) -> dict[str, Any]:
    """One item's states: the Lambda task, or a choice between it and the container task. In a
    country stage, a Lambda task whose retries are spent on a storage failure fails its country
    only (the `fail` step records it, the country is not published) and the Map goes on with the
    others, as the local sync does; any other error still fails the Map, and the execution."""
    task: dict[str, Any] = {**_invoke(function_arn, None), "ResultPath": None, "End": True}
    states: dict[str, Any] = {"Task": task}
    if country_stage:
        task["Catch"] = [
            {"ErrorEquals": _COUNTRY_ERRORS, "ResultPath": "$.failure", "Next": "Country failed"}
        ]
        failed = {
            "action": "fail",
            "stage.$": "$.stage",
            "run.$": "$.run",
            "item.$": "$.item",
            "failure.$": "$.failure",
        }
        states["Country failed"] = {**_invoke(function_arn, failed), "ResultPath": None, "End": True}
    if container is None:
        return {"StartAt": "Task", "States": states}
    marked = [
        {"Variable": "$.item.runner", "IsPresent": True},
        {"Variable": "$.item.runner", "StringEquals": "container"},
    ]
    return {
        "StartAt": "Runner?",
        "States": {
            "Runner?": {
                "Type": "Choice",
                "Choices": [{"And": marked, "Next": "Container task"}],
                "Default": "Task",
            },
            **states,
            # ECS reports a failed container as States.TaskFailed, whatever the error: not caught.
            "Container task": {**_run_task(container), "ResultPath": None, "End": True},
        },
    }


def _run_task(container: Container) -> dict[str, Any]:
    """ECS RunTask, waiting for the task to stop (`.sync`); the step records its own result."""
    return {
        "Type": "Task",
        "Resource": "arn:aws:states:::ecs:runTask.sync",
        "Parameters": {
            "LaunchType": "FARGATE",
            "Cluster": container.cluster_arn,
            "TaskDefinition": container.task_definition_arn,
            "NetworkConfiguration": {
                "AwsvpcConfiguration": {
                    "Subnets": list(container.subnets),
                    "SecurityGroups": list(container.security_groups),
                    "AssignPublicIp": "ENABLED" if container.public_ip else "DISABLED",
                }
            },
            "Overrides": {
                "ContainerOverrides": [
                    {
                        "Name": container.container_name,
                        "Environment": [{"Name": STEP_EVENT_VARIABLE, "Value.$": "States.JsonToString($)"}],
                    }
                ]
            },
        },
        "Retry": _RETRY,
    }


def _invoke(function_arn: str, payload: dict[str, Any] | None) -> dict[str, Any]:
    parameters: dict[str, Any] = {"FunctionName": function_arn}
    if payload is None:
        parameters["Payload.$"] = "$"
    else:
        parameters["Payload"] = payload
    return {
        "Type": "Task",
        "Resource": "arn:aws:states:::lambda:invoke",
        "Parameters": parameters,
        "Retry": _RETRY,
    }


def _map_name(stage: str) -> str:
    return f"Stage {stage}"


def _close_name(stage: str) -> str:
    return f"Close {stage}"
