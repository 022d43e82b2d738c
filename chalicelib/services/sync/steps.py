"""One call of the `sync_step` Lambda, as the state machine makes it: discover the upstreams and
write the manifest, acquire one manifest entry's file from its publisher, start a run, run one
task of a stage, record a country stage's task that failed for good (its country fails, the run
goes on), or close a stage. The event is validated like any request: the state machine builds
it, but a hand-made invocation must not reach the steps with anything else."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from chalicelib.errors import ConfigurationError
from chalicelib.services.sync.acquisition import Acquisition
from chalicelib.services.sync.pipeline import COUNTRY_STAGES, SyncPipeline
from chalicelib.services.sync.stages import STAGES
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.manifest import MANIFEST_NAME, SourceEntry

Stage = Literal[STAGES]  # type: ignore[valid-type]


class TaskFailure(BaseModel):
    """A caught error as Step Functions hands it on: the error's name (a Lambda's `errorType`) and
    its cause (for a Lambda, its error answer as JSON)."""

    model_config = ConfigDict(populate_by_name=True, frozen=True)

    error: str = Field(alias="Error", max_length=256)
    cause: str = Field(default="", alias="Cause", max_length=32768)

    def describe(self) -> str:
        try:
            message = json.loads(self.cause).get("errorMessage", "")
        except (ValueError, AttributeError):
            message = ""
        return f"{self.error}: {message}" if message else self.error


class StepEvent(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Literal["discover", "acquire", "start", "task", "fail", "close"]
    run: str = Field(pattern=r"^[A-Za-z0-9_-]{1,80}$")  # the execution's name: the work folder
    stage: Stage | None = None
    item: dict[str, Any] | None = None
    failure: TaskFailure | None = None  # for `fail`: what Step Functions caught


def parse_step(event: object) -> StepEvent:
    try:
        step = StepEvent.model_validate(event)
    except ValidationError as exc:
        raise ConfigurationError(f"not a sync step event: {exc.error_count()} problem(s)") from exc
    if step.action in ("task", "fail", "close") and step.stage is None:
        raise ConfigurationError(f"a {step.action} event names its stage")
    if step.action in ("task", "fail", "acquire") and step.item is None:
        raise ConfigurationError(f"an {step.action} event carries its item")
    if step.action == "fail" and (step.failure is None or step.stage not in COUNTRY_STAGES):
        raise ConfigurationError("a fail event carries the failure of a country stage's task")
    return step


def run_step(
    step: StepEvent,
    pipeline: SyncPipeline,
    sources: str,
    work: dict[str, str],
    fetch: Callable[[str], Path],
    acquire: Callable[[SourceEntry], Acquisition],
    discover: Callable[[], dict[str, Any]],
) -> dict[str, Any]:
    """`sources`: the source store (s3://…); `work`: where the run's files are, for the Map
    states' ItemReader; `fetch(name)`: a local copy of a file of the source store; `acquire`: one
    entry's file from its publisher into the source store; `discover`: the manifest of the
    upstreams' newest data written into the source store."""
    if step.action == "discover":
        return discover()
    if step.action == "acquire":
        try:
            entry = SourceEntry.model_validate(step.item)
        except ValidationError as exc:
            raise ConfigurationError(f"not a manifest entry: {exc.error_count()} problem(s)") from exc
        return asdict(acquire(entry))
    if step.action == "start":
        manifest = fetch(MANIFEST_NAME)
        target = SyncTarget(manifest=manifest, root=manifest.parent)
        current = pipeline.is_current(target, sources)
        if not current:
            pipeline.start(target, sources=sources)
        return {"run": step.run, "current": current, "work": work}
    assert step.stage is not None  # parse_step checked it
    if step.action == "close":
        pipeline.close(step.stage)
        if step.stage == STAGES[-1]:  # the report recorded: did every country publish?
            return {"closed": step.stage, "ok": pipeline.published_all()}
        return {"closed": step.stage}
    assert step.item is not None
    if step.action == "fail":
        assert step.failure is not None
        return {"failed": pipeline.fail_task(step.stage, step.item, step.failure.describe())}
    return pipeline.run_once(step.stage, step.item)
