"""The state machine the repo builds, executed by moto's Step Functions interpreter: its Distributed
Map states read their items from S3 and call the `sync_step` Lambda, which here runs the app's real
handler in process (moto's own Lambda would need Docker), on moto's S3 and DynamoDB."""

from __future__ import annotations

import io
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import boto3
import pytest
from moto import mock_aws
from moto.awslambda_simple.models import lambda_simple_backends
from moto.core.config import DefaultConfig
from moto.ecs.models import ecs_backends
from moto.stepfunctions.parser.asl.component.common.retry import retrier_decl
from moto.stepfunctions.parser.asl.component.state.exec.state_task.service import state_task_service_ecs

from chalicelib import deps
from chalicelib.cli.main import main
from chalicelib.domain.snapshots import build_snapshot
from chalicelib.jobs import sync_step
from chalicelib.reference.pool_config import PoolConfig, load_pool_config
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.stages import STAGES
from chalicelib.services.sync.state_machine import STEP_EVENT_VARIABLE, Container, Manifest, definition
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.manifest import SourceEntry
from chalicelib.storage.dynamodb.tables import create_missing_tables
from chalicelib.storage.files.overture_bucket import PARTS, S3Releases
from tests.support.factories import SOURCES, make_settings, needs_sources
from tests.support.fakes import FakeClock
from tests.support.sync_oracle import collect
from tests.support.throttled_writes import throttled_writes

ACCOUNT, REGION = "123456789012", "us-east-1"
SOURCE_IDS = ["nl-countrywide-bag", "osm-andorra-ad", "osm-andorra_2021-ad", "it-forte_dei_marmi-civici"]
# Where a test is about a failure, not the build's equivalence: the same countries without the
# 1.7 MB 2021 Andorra extract, which the bounds and map stages read in full (some 3 s a run).
SMALL_SOURCE_IDS = [s for s in SOURCE_IDS if s != "osm-andorra_2021-ad"]
# Every shared source is small enough for a Lambda, so the items all take the Choice's default.
CONTAINER = Container(
    f"arn:aws:ecs:{REGION}:{ACCOUNT}:cluster/ags",
    f"arn:aws:ecs:{REGION}:{ACCOUNT}:task-definition/ags-sync-step:1",
    "sync-step",
    ("subnet-1",),
    ("sg-1",),
)
MANIFEST = Manifest("ags-sources", "sources/manifest.json")
MOTO_CONFIG: DefaultConfig = {
    "stepfunctions": {"execute_state_machine": True},
    "lambda": {"use_docker": False},
}


def _upload_sources(s3: Any, tmp_path: Path, source_ids: list[str] = SOURCE_IDS) -> Path:
    """The chosen entries of the shared manifest, and their files, in a source-store bucket as
    the acquisition leaves them (relative keys, the manifest beside them). Their upstream URLs are
    dropped: this machine has no internet, and the acquisition's fetching is tested on its own."""
    entries = [
        {**e, "upstream": ""}
        for e in json.loads((SOURCES / "manifest.json").read_text())
        if e["id"] in source_ids
    ]
    s3.create_bucket(Bucket="ags-sources")
    for entry in entries:
        for name in entry["files"]:
            s3.upload_file(str(SOURCES / name), "ags-sources", f"sources/{name}")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps(entries), encoding="utf-8")
    s3.upload_file(str(manifest), "ags-sources", "sources/manifest.json")
    return manifest


# The intervals moto's interpreter waited between a task's retries: recorded, not slept (the
# definition's 5 s doubling, which real Step Functions waits, cost this file a minute).
RETRY_WAITS: list[float] = []


@contextmanager
def _wired(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: PoolConfig | None = None, **settings: Any
) -> Iterator[deps.Dependencies]:
    RETRY_WAITS.clear()
    monkeypatch.setattr(retrier_decl, "time", SimpleNamespace(sleep=RETRY_WAITS.append))
    with mock_aws(config=MOTO_CONFIG):
        wired = make_settings(
            sync_sources="s3://ags-sources/sources/", sync_work="s3://ags-work/runs/", **settings
        )
        dependencies = deps.build(wired, clock=FakeClock(), pool_config=config)
        create_missing_tables(dependencies.stores)
        deps.use(dependencies)
        backend = lambda_simple_backends[ACCOUNT][REGION]
        backend.invoke = _run_handler  # type: ignore[method-assign]
        monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "lambda-tmp"))  # Lambda's /tmp
        (tmp_path / "lambda-tmp").mkdir()
        try:
            yield dependencies
        finally:
            backend.__dict__.pop("invoke", None)


@pytest.fixture
def wired(aws_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[deps.Dependencies]:
    with _wired(tmp_path, monkeypatch) as dependencies:
        yield dependencies


CALLS: list[dict[str, Any]] = []


# Actions whose Lambda invocation fails as a denied write or a timeout would, before the handler
# can report anything (set by a test).
FAILING: set[str] = set()


def _run_handler(
    function_name: str, qualifier: str | None, body: Any, headers: Any, response_headers: dict[str, str]
) -> bytes:
    """A Lambda runtime for the state machine's calls: the app's real `sync_step` handler. An
    exception it raises is answered as Lambda answers an unhandled one (Step Functions names the
    task's error by its `errorType`)."""
    assert function_name.endswith("sync_step")
    event = json.loads(body)
    if event["action"] in FAILING:
        CALLS.append({"event": event, "result": None})
        raise RuntimeError(f"AccessDenied in the {event['action']} task")
    try:
        result = sync_step(event, None)
    except Exception as exc:  # noqa: BLE001 - Lambda answers any unhandled exception
        CALLS.append({"event": event, "result": None, "error": type(exc).__name__})
        response_headers["x-amz-function-error"] = "Unhandled"
        return json.dumps({"errorType": type(exc).__name__, "errorMessage": str(exc)}).encode()
    CALLS.append({"event": event, "result": result})
    return json.dumps(result).encode()


def _deploy(function_arn: str, *, discovery: bool = False) -> str:
    client = boto3.client("stepfunctions", region_name=REGION)
    body = definition(
        function_arn, max_concurrency=4, container=CONTAINER, manifest=MANIFEST, discovery=discovery
    )
    machine = client.create_state_machine(
        name="ags-sync",
        definition=json.dumps(body),
        roleArn=f"arn:aws:iam::{ACCOUNT}:role/ags-sync",
    )
    return str(machine["stateMachineArn"])


def _run(machine: str, name: str) -> dict[str, Any]:
    client = boto3.client("stepfunctions", region_name=REGION)
    execution = client.start_execution(stateMachineArn=machine, name=name, input="{}")["executionArn"]
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        described: dict[str, Any] = client.describe_execution(executionArn=execution)
        if described["status"] != "RUNNING":
            return described
        time.sleep(0.2)
    raise AssertionError("the execution did not finish")


@needs_sources
def test_the_state_machine_publishes_the_snapshots_of_the_in_process_sync(
    wired: deps.Dependencies, tmp_path: Path
) -> None:
    s3 = boto3.client("s3", region_name=REGION)
    manifest = _upload_sources(s3, tmp_path)
    s3.create_bucket(Bucket="ags-work")
    function_arn = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:ags-sync_step"
    machine = _deploy(function_arn)

    CALLS.clear()
    first = _run(machine, "sync-1")
    assert first["status"] == "SUCCEEDED", first.get("cause")
    acquired = [c["result"] for c in CALLS if c["event"]["action"] == "acquire"]
    assert sorted(a["source_id"] for a in acquired) == sorted(SOURCE_IDS)  # one task per manifest entry
    assert {a["status"] for a in acquired} == {"no_upstream"}
    expected = SyncReport(started_at="")
    target = SyncTarget(manifest=manifest, root=SOURCES)
    collected = collect(target, wired.pool_config, {"NL", "AD", "IT"}, expected)
    registry = wired.stores.registry
    for country, found in collected.items():
        active = registry.active_snapshot(country)
        assert active is not None
        assert active.snapshot_id == build_snapshot(country, found).id
    runs = s3.list_objects_v2(Bucket="ags-work", Prefix="runs/sync-1/items/")["Contents"]
    assert {obj["Key"].rsplit("/", 1)[-1] for obj in runs} >= {"map.json", "sort.json", "write.json"}

    second = _run(machine, "sync-2")  # the inputs are unchanged: the Choice state ends it
    assert second["status"] == "SUCCEEDED"
    assert json.loads(second["output"])["current"] is True


@needs_sources
def test_a_country_whose_writes_fail_is_reported_failed_and_the_others_are_published(
    aws_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write task that cannot write (DynamoDB throttles every try) fails its country, as the
    local sync does: once Step Functions has spent its retries, the Map's catch records the
    country's failure instead of failing the Map (on Step Functions, a Map fails on its first
    failed item), the country's index is not built, its publish reports the failure, and the
    other countries are published. The execution then fails, so the sync's alarm goes off."""
    for stage in STAGES:  # moto's Map goes on past a failed item anyway: the catches, read off
        task = definition("arn:fn")["States"][f"Stage {stage}"]["ItemProcessor"]["States"]["Task"]
        assert ("Catch" in task) == (stage in ("plan", "write", "index"))
    with throttled_writes("NL") as fault, _wired(tmp_path, monkeypatch) as wired:
        s3 = boto3.client("s3", region_name=REGION)
        _upload_sources(s3, tmp_path, SMALL_SOURCE_IDS)
        s3.create_bucket(Bucket="ags-work")
        machine = _deploy(f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:ags-sync_step")
        CALLS.clear()

        run = _run(machine, "sync-nl-throttled")

        assert (run["status"], run.get("error")) == ("FAILED", "CountriesFailed")  # the alarm's metric
        assert fault.throttled > 0
        assert RETRY_WAITS  # Step Functions retried the failing write before the catch took it
        raised = {
            (c["event"]["stage"], c["event"]["item"]["country"], c["error"]) for c in CALLS if "error" in c
        }
        assert raised == {("write", "NL", "StorageUnavailable")}
        failed = [c for c in CALLS if c["event"]["action"] == "fail"]
        assert failed
        assert {(c["event"]["stage"], c["result"]["failed"]) for c in failed} == {("write", "NL")}
        indexed = {
            c["event"]["item"]["country"]
            for c in CALLS
            if c["event"].get("stage") == "index" and c["event"]["action"] == "task"
        }
        assert "NL" not in indexed
        stored = wired.stores.registry.latest_sync_report()
        assert stored is not None
        report = SyncReport.from_dict(stored)
        assert not report.ok
        nl = report.countries["NL"]
        assert nl.status == "failed"
        assert nl.error is not None
        assert nl.error == "StorageUnavailable: the data store is temporarily unavailable; try again shortly"
        published = {c for c, o in report.countries.items() if o.status == "published"}
        assert published == {"AD", "IT"}  # the countries of the sources but NL; the others are empty
        registry = wired.stores.registry
        assert registry.active_snapshot("NL") is None
        assert registry.active_snapshot("AD") is not None
        assert registry.active_snapshot("IT") is not None


@needs_sources
def test_an_acquire_task_that_fails_leaves_the_store_as_it_was_and_the_sync_goes_on(
    wired: deps.Dependencies, tmp_path: Path
) -> None:
    """Every execution used to die at its first state when the acquisition could not write (the
    deployed role lacked s3:PutObject): a failed entry now ends in `Kept`, the others are fetched,
    and the sync builds from what the store holds. moto's Distributed Map does not fail on a
    failed item as Step Functions does, so the catches are read off the definition too."""
    acquire = definition("arn:fn", manifest=MANIFEST)["States"]["Acquire"]
    assert acquire["Catch"] == [{"ErrorEquals": ["States.ALL"], "ResultPath": None, "Next": "Start"}]
    states = acquire["ItemProcessor"]["States"]
    assert states["Task"]["Catch"][0]["ErrorEquals"] == ["States.ALL"]
    assert states[states["Task"]["Catch"][0]["Next"]] == {
        "Type": "Pass",
        "Comment": "the store keeps what it held for this entry",
        "End": True,
    }
    s3 = boto3.client("s3", region_name=REGION)
    _upload_sources(s3, tmp_path, SMALL_SOURCE_IDS)
    s3.create_bucket(Bucket="ags-work")
    machine = _deploy(f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:ags-sync_step")
    CALLS.clear()
    FAILING.add("acquire")
    try:
        run = _run(machine, "sync-acquire-fails")
    finally:
        FAILING.clear()
    assert run["status"] == "SUCCEEDED", run.get("cause")
    tried = [c for c in CALLS if c["event"]["action"] == "acquire"]
    assert len(tried) >= len(SMALL_SOURCE_IDS)  # every entry tried (Step Functions retries each)
    assert any(c["event"]["action"] == "close" for c in CALLS)  # the build went on to its stages
    assert wired.stores.registry.active_snapshot("AD") is not None


@needs_sources
def test_the_container_entry_point_runs_a_step_from_its_environment(
    wired: deps.Dependencies, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    s3 = boto3.client("s3", region_name=REGION)
    _upload_sources(s3, tmp_path)
    s3.create_bucket(Bucket="ags-work")
    monkeypatch.setenv(STEP_EVENT_VARIABLE, json.dumps({"action": "start", "run": "by-hand"}))
    out = io.StringIO()
    assert main(["sync-step"], out) == 0
    assert json.loads(out.getvalue()) == {
        "run": "by-hand",
        "current": False,
        "work": {"bucket": "ags-work", "prefix": "runs/by-hand/"},
    }
    bounds = s3.get_object(Bucket="ags-work", Key="runs/by-hand/items/bounds.json")["Body"].read()
    assert [item["runner"] for item in json.loads(bounds)] == ["lambda", "lambda"]  # two Andorra extracts

    monkeypatch.setenv(STEP_EVENT_VARIABLE, "{not json")
    assert main(["sync-step"], io.StringIO()) == 2
    monkeypatch.setenv(STEP_EVENT_VARIABLE, json.dumps({"action": "task", "run": "../up"}))
    assert main(["sync-step"], io.StringIO()) == 2


def test_the_deployed_acquisition_refuses_a_private_address(wired: deps.Dependencies) -> None:
    """The Lambda fetches whatever URL the manifest names, so it refuses loopback and private
    networks (SSRF): the store keeps what it held and the step reports the failure."""
    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket="ags-sources")
    entry = {
        "id": "osm-andorra-ad",
        "country": "AD",
        "format": "osm-pbf",
        "files": ["osm/andorra-ad.osm.pbf"],
        "language": "ca",
        "license": "ODbL-1.0",
        "attribution": "© OpenStreetMap contributors",
        "upstream": "http://127.0.0.1:9/andorra-ad.osm.pbf",
    }
    result = sync_step({"action": "acquire", "run": "sync-1", "item": entry}, None)
    assert result["status"] == "failed"
    assert "non-public address" in result["error"]
    assert "Contents" not in s3.list_objects_v2(Bucket="ags-sources")  # nothing kept


# The replica's newest release, in a public bucket laid out as Overture's.
OVERTURE_RELEASE = "2026-11-18.0"
OVERTURE_PUBLIC = {"LocationConstraint": "us-west-2"}


def _overture_bucket() -> S3Releases:
    west = boto3.client("s3", region_name="us-west-2")
    west.create_bucket(Bucket="overture-replica", CreateBucketConfiguration=OVERTURE_PUBLIC)
    folder = SOURCES / "overture" / "release" / OVERTURE_RELEASE / PARTS
    for path in sorted(folder.glob("part-*.parquet")):
        key = f"release/{OVERTURE_RELEASE}/{PARTS}/{path.name}"
        west.upload_file(str(path), "overture-replica", key, ExtraArgs={"ACL": "public-read"})
    return S3Releases("s3://overture-replica")


CONTAINER_RUNS: list[tuple[dict[str, Any], int]] = []


def _renamed(value: Any, first: Callable[[str], str]) -> Any:
    """Member names with their first letter changed, all the way down: the ECS API's
    (`launchType`, `containerOverrides`) from the state's (`LaunchType`, `ContainerOverrides`),
    and back for the answer, as Step Functions' ECS integration maps them."""
    if isinstance(value, dict):
        return {first(k[:1]) + k[1:]: _renamed(v, first) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, first) for v in value]
    return value


def _in_place(first: Callable[[str], str]) -> Callable[..., None]:
    def rename(self: Any, *args: Any, **kwargs: Any) -> None:
        members = args[0] if args else kwargs.get("response", kwargs.get("parameters"))
        if isinstance(members, dict):
            renamed = _renamed(members, first)
            members.clear()
            members.update(renamed)

    return rename


@contextmanager
def _fargate(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """ECS for the state machine's container items: RunTask runs the image's entry point
    (`python -m chalicelib.cli sync-step`, its event in the environment) in this process, and
    the task has stopped when Step Functions first describes it. moto's interpreter passes the
    state's parameters to ECS as written; Step Functions maps their names to the API's."""

    ecs_integration = state_task_service_ecs.StateTaskServiceEcs
    monkeypatch.setattr(ecs_integration, "_normalise_parameters", _in_place(str.lower))
    monkeypatch.setattr(ecs_integration, "_normalise_response", _in_place(str.upper))
    ecs = boto3.client("ecs", region_name=REGION)
    ecs.create_cluster(clusterName="ags")
    ecs.register_task_definition(
        family="ags-sync-step",
        containerDefinitions=[{"name": CONTAINER.container_name, "image": "ags-sync-step", "memory": 8192}],
    )
    backend = ecs_backends[ACCOUNT][REGION]
    started = backend.run_task
    one_container = threading.Lock()

    def run_task(cluster: str, definition: str, count: int, overrides: Any, *rest: Any) -> Any:
        environment = overrides["containerOverrides"][0]["environment"]
        event = next(e["value"] for e in environment if e["name"] == STEP_EVENT_VARIABLE)
        with one_container:  # the Map's items run at once, and the event is in the process's environment
            monkeypatch.setenv(STEP_EVENT_VARIABLE, event)
            CONTAINER_RUNS.append((json.loads(event), main(["sync-step"], io.StringIO())))
        tasks = started(cluster, definition, count, overrides, *rest)
        for task in tasks:
            task.last_status = "STOPPED"
        return tasks

    backend.run_task = run_task  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        backend.__dict__.pop("run_task", None)


def _only(config: PoolConfig, countries: set[str]) -> PoolConfig:
    chosen = {c: v.model_copy(update={"enabled": c in countries}) for c, v in config.countries.items()}
    return replace(config, countries=chosen)


@needs_sources
def test_discovery_writes_the_manifest_and_overture_parts_are_read_in_place_by_the_container(
    aws_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Production's Overture path, from the schedule on: the Discover state (in the container:
    it reads Parquet footers) lists the bucket's newest release and writes the manifest into the
    source store, naming the parts by their s3:// URLs and row groups; the Acquire state leaves
    them where they are; each map item runs in the container (pyarrow is not in the Lambda
    package), reading its row groups by ranged GETs. Two countries enabled keep it short."""
    config = _only(load_pool_config(), {"NO", "SG"})
    with _wired(tmp_path, monkeypatch, config, overture_releases="s3://overture-replica") as wired:
        _overture_bucket()
        s3 = boto3.client("s3", region_name=REGION)
        s3.create_bucket(Bucket="ags-sources")
        s3.create_bucket(Bucket="ags-work")
        machine = _deploy(f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:ags-sync_step", discovery=True)
        CALLS.clear()
        CONTAINER_RUNS.clear()

        with _fargate(monkeypatch):
            run = _run(machine, "sync-overture")

        assert run["status"] == "SUCCEEDED", run.get("cause")
        written = s3.get_object(Bucket="ags-sources", Key=MANIFEST.key)["Body"].read().decode()
        entries = [SourceEntry.model_validate(e) for e in json.loads(written)]
        assert {e.country for e in entries} == {"NO", "SG"}
        assert {e.files[0].split("/release/")[0] for e in entries} == {"s3://overture-replica"}
        ran = sorted(
            (e["action"], e.get("stage"), e.get("item", {}).get("rank"), c) for e, c in CONTAINER_RUNS
        )
        # discovery, then each Overture item once, all in the container
        assert ran == [("discover", None, None, 0), *(("task", "map", r, 0) for r in range(len(entries)))]
        in_lambda = [c for c in CALLS if c["event"]["action"] == "task" and c["event"]["stage"] == "map"]
        assert not in_lambda
        stored = wired.stores.registry.latest_sync_report()
        assert stored is not None
        report = SyncReport.from_dict(stored)
        assert {c: report.countries[c].addresses for c in ("NO", "SG")} == {"NO": 19, "SG": 659}
        assert {c: report.countries[c].status for c in ("NO", "SG")} == dict.fromkeys(
            ("NO", "SG"), "published"
        )
