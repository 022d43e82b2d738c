"""The sharded sync as an AWS Step Functions state machine (Amazon States Language), produced from
the same stage list the local executor runs: a `start` task, then per stage a Distributed Map over
the stage's items (a JSON list in S3, read by the Map's ItemReader) with one Lambda task per item,
then the stage's `close` task. The infrastructure deploys this definition as it is built here.

Every Lambda call carries the execution's name as `run`, which names the work prefix all its tasks
share; tasks are idempotent, so Step Functions may retry any of them."""

from __future__ import annotations

from typing import Any

from chalicelib.services.sync.sharded import STAGES

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


def definition(function_arn: str, *, max_concurrency: int = 100) -> dict[str, Any]:
    """`function_arn`: the `sync_step` Lambda. `max_concurrency`: Lambda workers per stage (the
    write stage's is what DynamoDB on-demand absorbs; see the README's plan)."""
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
        following = _map_name(STAGES[index + 1]) if index + 1 < len(STAGES) else "Done"
        states[_map_name(stage)] = _stage_map(function_arn, stage, max_concurrency, _close_name(stage))
        states[_close_name(stage)] = {
            **_invoke(function_arn, {"action": "close", "stage": stage, "run.$": "$.run"}),
            "ResultPath": None,
            "Next": following,
        }
    states["Done"] = {"Type": "Succeed"}
    return {
        "Comment": "Address pool sync: the sharded build's stages (chalicelib/services/sync/sharded.py)",
        "StartAt": "Start",
        "States": states,
    }


def _stage_map(function_arn: str, stage: str, max_concurrency: int, following: str) -> dict[str, Any]:
    return {
        "Type": "Map",
        "ItemReader": {
            "Resource": "arn:aws:states:::s3:getObject",
            "ReaderConfig": {"InputType": "JSON"},
            "Parameters": {
                "Bucket.$": "$.work.bucket",
                "Key.$": f"States.Format('{{}}items/{stage}.json', $.work.prefix)",
            },
        },
        "ItemSelector": {"action": "task", "stage": stage, "run.$": "$.run", "item.$": "$$.Map.Item.Value"},
        "ItemProcessor": {
            "ProcessorConfig": {"Mode": "DISTRIBUTED", "ExecutionType": "STANDARD"},
            "StartAt": "Task",
            "States": {"Task": {**_invoke(function_arn, None), "ResultPath": None, "End": True}},
        },
        "MaxConcurrency": max_concurrency,
        "ResultPath": None,  # each task records its result in S3; the state's payload stays small
        "Next": following,
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
