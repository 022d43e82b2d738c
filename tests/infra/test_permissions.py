"""Permissions derived from the code's own AWS calls. The code runs its workloads in a moto world laid
out as the stack lays out its data (one bucket with its prefixes, the five tables, the secret, the
state machine from the repo's definition), each call recorded as botocore sends it and attributed
to who made it: the API function (the routes, the admin API's Start sync), the schedule's function,
the state machine (moto's interpreter: its Lambda invocations and item readers) and the sync_step
Lambda it invokes. Each call becomes the IAM action and resource kind it needs, and the synthesized
policies of the dev stage must grant every one of them (nothing the deployed code does is denied)
and nothing else but what `UNEXERCISED` lists with its reason (no grant is broader than the code)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from chalice.test import Client
from moto import mock_aws
from moto.awslambda_simple.models import lambda_simple_backends
from moto.core.config import DefaultConfig

from chalicelib import deps
from chalicelib.jobs import sync_pool, sync_step
from chalicelib.reference import japan_post
from chalicelib.services.sync.state_machine import Manifest, definition
from chalicelib.storage.dynamodb.tables import create_missing_tables
from infra.aws.data import IP_DATABASE_PREFIX, JAPAN_POST_KEY, SOURCES_PREFIX, WORK_PREFIX
from infra.aws.service import API_FUNCTION, STEP_FUNCTION, SYNC_FUNCTION, ServiceStack
from infra.emulator.smoke import upload_sources
from tests.support.aws_calls import Call, Recorder, recording
from tests.support.factories import SOURCES, bearer, issue_token, make_settings, needs_sources
from tests.support.fakes import FakeClock
from tests.support.ipdb import write_ip_database

ACCOUNT, REGION = "123456789012", "us-east-1"
BUCKET = "ags-files"
STEP_ARN = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:ags-dev-sync_step"
MACHINE = "StateMachine"
SETUP = "the test's own setup"
MOTO_CONFIG: DefaultConfig = {
    "stepfunctions": {"execute_state_machine": True},
    "lambda": {"use_docker": False},
}

# Granted, though the workloads here never call them: each with the reason it is needed.
UNEXERCISED: dict[str, dict[tuple[str, str], str]] = {
    API_FUNCTION: {
        ("s3:GetObject", "objects:japan-post"): "kana readings when translating a Japanese address",
        ("dynamodb:BatchGetItem", "table:catalog"): "a directory of more than one block (a large country's)",
        (
            "dynamodb:Query",
            "table:pool",
        ): "an address by id in a snapshot of several generations (its versions)",
    },
    STEP_FUNCTION: {
        ("s3:PutObject", "objects:sources/"): "the Acquire state keeps a fetched file (no publisher here)",
        ("s3:AbortMultipartUpload", "objects:sources/"): "an upload of a large fetched file that fails",
        ("s3:GetObject", "objects:japan-post"): "one-code neighbourhoods' postcodes when syncing Japan",
        (
            "dynamodb:Query",
            "table:pool",
        ): "a later generation reads the ledger; the sweep lists an old epoch's items",
        ("dynamodb:UpdateItem", "table:pool"): "a later generation tags the addresses it removed",
        ("dynamodb:DeleteItem", "table:catalog"): "the sweep forgets an expired snapshot's record",
        (
            "s3:DeleteObject",
            "objects:sync-work/",
        ): "a run that starts again under the same name clears its files",
    },
    MACHINE: {
        ("states:StartExecution", "state-machine:own"): "the Distributed Map starts its child executions",
        ("states:DescribeExecution", "executions"): "the Distributed Map follows its child executions",
        ("states:StopExecution", "executions"): "the Distributed Map stops its children on failure",
    },
}
# Statements that are not the code's calls: log delivery and traces, and the container task's run.
NOT_CALLS = {"logs", "*", "ecs", "iam:PassRole", "events"}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[Call], dict[str, str]]]:
    tmp = tmp_path_factory.mktemp("permissions")
    with pytest.MonkeyPatch.context() as patch:
        for name in ("AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL", "AWS_PROFILE"):
            patch.delenv(name, raising=False)
        for name, value in (("AWS_ACCESS_KEY_ID", "testing"), ("AWS_SECRET_ACCESS_KEY", "testing")):
            patch.setenv(name, value)
        patch.setenv("AWS_DEFAULT_REGION", REGION)
        patch.setattr("tempfile.tempdir", str(tmp))
        # A fresh "/tmp" for the IP database's copy: a Lambda's first lookup downloads it.
        patch.setattr("chalicelib.storage.files.ip_database._LAMBDA_COPY", tmp / "lambda-tmp" / "ip-database")
        patch.setattr("chalicelib.storage.files.s3_files.LAMBDA_TMP", tmp / "lambda-tmp")
        with mock_aws(config=MOTO_CONFIG), recording(moto_as=MACHINE) as recorder:
            with recorder.acting_as(SETUP):
                settings = _world(tmp)
            tables = _cold_start(recorder, settings)
            _sync_through_the_state_machine(recorder)
            _use_the_api(recorder)
            with recorder.acting_as(SYNC_FUNCTION):
                sync_pool(_schedule_event(), None)
            yield recorder.calls, tables
    deps.use(None)
    japan_post.locate_database(None)  # process-wide: the next tests read the installed table


def _world(tmp: Path) -> Any:
    s3 = boto3.client("s3", region_name=REGION)
    s3.create_bucket(Bucket=BUCKET)
    for path in write_ip_database(tmp / "ipdb").iterdir():
        s3.upload_file(str(path), BUCKET, f"{IP_DATABASE_PREFIX}{path.name}")
    s3.put_object(Bucket=BUCKET, Key=JAPAN_POST_KEY, Body=b"not read here")
    upload_sources(BUCKET, SOURCES)  # what make deploy-local uploads: the two Andorra extracts
    secret = boto3.client("secretsmanager", region_name=REGION).create_secret(
        Name="ags-dev/cursor-secret", SecretString="k" * 64
    )["ARN"]
    machine = boto3.client("stepfunctions", region_name=REGION).create_state_machine(
        name="ags-dev-sync",
        definition=json.dumps(
            definition(STEP_ARN, max_concurrency=4, manifest=Manifest(BUCKET, "sources/manifest.json"))
        ),
        roleArn=f"arn:aws:iam::{ACCOUNT}:role/ags-dev-sync",
    )["stateMachineArn"]
    settings = make_settings(
        cursor_secret=None,
        cursor_secret_arn=secret,
        ip_database=f"s3://{BUCKET}/{IP_DATABASE_PREFIX}",
        japan_post_database=f"s3://{BUCKET}/{JAPAN_POST_KEY}",
        sync_sources=f"s3://{BUCKET}/{SOURCES_PREFIX}",
        sync_work=f"s3://{BUCKET}/{WORK_PREFIX}",
        sync_state_machine=machine,
    )
    create_missing_tables(deps.build(settings, clock=FakeClock()).stores)
    return settings


def _cold_start(recorder: Recorder, settings: Any) -> dict[str, str]:
    """The dependencies a Lambda builds at cold start (the cursor secret is read there)."""
    with recorder.acting_as(API_FUNCTION):
        deps.use(deps.build(settings, clock=FakeClock()))
    return {
        settings.tokens_table: "tokens",
        settings.rate_limits_table: "rate_limits",
        settings.pool_table: "pool",
        settings.catalog_table: "catalog",
        settings.audit_table: "audit",
    }


def _sync_through_the_state_machine(recorder: Recorder) -> None:
    def run_sync_step(function_name: str, qualifier: str | None, body: Any, *args: object) -> bytes:
        with recorder.acting_as(STEP_FUNCTION):
            return json.dumps(sync_step(json.loads(body), None)).encode()

    backend = lambda_simple_backends[ACCOUNT][REGION]
    backend.invoke = run_sync_step  # type: ignore[method-assign,assignment]
    with recorder.acting_as(SETUP):  # the schedule's start, made as SyncPool later
        client = boto3.client("stepfunctions", region_name=REGION)
        machine = deps.get().settings.sync_state_machine
        execution = client.start_execution(stateMachineArn=machine, name="sync-1", input="{}")["executionArn"]
        _wait(client, execution)


def _use_the_api(recorder: Recorder) -> None:
    dependencies = deps.get()
    with recorder.acting_as(SETUP):
        generate = bearer(issue_token(dependencies.stores.tokens, dependencies.clock, scope="generate"))
        admin = bearer(issue_token(dependencies.stores.tokens, dependencies.clock, scope="admin"))
    with recorder.acting_as(API_FUNCTION), Client(_app()) as client:
        http = client.http
        for path in ("/api/v1/health", "/api/v1/ready"):
            assert http.get(path).status_code == 200
        found = json.loads(http.get("/api/v1/generate?country=AD&seed=p", headers=generate).body)
        address = found["data"]["result"]["address"]
        reads = [
            f"/api/v1/addresses/{address['id']}",
            "/api/v1/countries",
            "/api/v1/coverage",
            "/api/v1/availability?country=AD",
            "/api/v1/data-health",
            "/api/v1/locations/search?country=AD&field=city&limit=20",
            "/api/v1/locations/hierarchy?country=AD&childType=region",
        ]
        for path in reads:
            assert http.get(path, headers=generate).status_code == 200, path
        located = http.get(
            "/api/v1/client-context?ip=31.0.4.20", headers=generate
        )  # the IP database, from S3
        assert located.status_code in (200, 404), located.body  # 404: Poland has no pool here
        texts = http.get("/api/v1/generate?country=AD&q=Andorra", headers=generate)  # the text index
        assert texts.status_code in (200, 404), texts.body
        batch = json.dumps({"count": 3, "filters": {"country": "AD"}})
        assert http.post("/api/v1/generate/batch", headers=_json(generate), body=batch).status_code == 200
        translate = json.dumps({"addressId": address["id"], "targetLocale": "en"})
        assert (
            http.post("/api/v1/address-translation", headers=_json(generate), body=translate).status_code
            == 200
        )
        created = http.post("/api/v1/admin/tokens", headers=_json(admin), body=json.dumps(_new_token()))
        token_id = json.loads(created.body)["data"]["token"]["id"]
        assert http.get("/api/v1/admin/tokens", headers=admin).status_code == 200
        assert http.post(f"/api/v1/admin/tokens/{token_id}/revoke", headers=admin).status_code == 200
        assert http.post("/api/v1/admin/sync", headers=admin).status_code == 202
        for path in ("/api/v1/admin/data", "/api/v1/admin/audit"):
            assert http.get(path, headers=admin).status_code == 200
        asked = json.dumps({"addressId": address["id"], "reason": "a resident asked"})
        withdrawn = http.post("/api/v1/admin/withdrawals", headers=_json(admin), body=asked)
        assert withdrawn.status_code == 201, withdrawn.body
        assert http.get(f"/api/v1/addresses/{address['id']}", headers=generate).status_code == 410
        assert http.get("/api/v1/admin/withdrawals", headers=admin).status_code == 200
        key = json.loads(withdrawn.body)["data"]["id"]
        assert http.delete(f"/api/v1/admin/withdrawals/{key}", headers=admin).status_code == 200


def _app() -> Any:
    from app import app

    return app


def _new_token() -> dict[str, Any]:
    return {"scope": "read", "ratePerMinute": 10, "expiresIn": "1d", "label": "permissions"}


def _json(headers: dict[str, str]) -> dict[str, str]:
    return {**headers, "Content-Type": "application/json"}


def _schedule_event() -> dict[str, Any]:
    return {
        "version": "0", "id": "tick", "detail-type": "Scheduled Event", "source": "aws.events",
        "account": ACCOUNT, "time": "2026-11-24T00:00:00Z", "region": REGION, "resources": [], "detail": {},
    }  # fmt: skip


def _wait(client: Any, execution: str) -> None:
    import time

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        described = client.describe_execution(executionArn=execution)
        if described["status"] != "RUNNING":
            assert described["status"] == "SUCCEEDED", described.get("cause")
            return
        time.sleep(0.2)
    raise AssertionError("the sync did not finish")


# --- the calls, as IAM actions on kinds of resource -----------------------------------------------

_S3_ACTIONS = {
    "HeadObject": "s3:GetObject",
    "GetObject": "s3:GetObject",
    "PutObject": "s3:PutObject",
    "CreateMultipartUpload": "s3:PutObject",
    "UploadPart": "s3:PutObject",
    "CompleteMultipartUpload": "s3:PutObject",
    "AbortMultipartUpload": "s3:AbortMultipartUpload",
    "CopyObject": "s3:PutObject",
    "ListObjectsV2": "s3:ListBucket",
    "ListObjects": "s3:ListBucket",
    "DeleteObjects": "s3:DeleteObject",
    "DeleteObject": "s3:DeleteObject",
}
_TRANSACT = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
    "Get": "GetItem",
}
_PREFIXES = {"dynamodb": "dynamodb", "sfn": "states", "secrets-manager": "secretsmanager"}


def needed(call: Call, tables: dict[str, str]) -> set[tuple[str, str]]:
    if call.service == "s3":
        target, *source = call.resources
        found = {(_S3_ACTIONS[call.operation], _object_kind(target, call.operation))}
        return found | {("s3:GetObject", _object_kind(s, "GetObject")) for s in source}
    if call.service == "lambda":
        return {("lambda:InvokeFunction", "function:sync_step")}
    action = f"{_PREFIXES[call.service]}:{call.operation}"
    if call.operation in ("TransactWriteItems", "TransactGetItems"):
        items = (r.split(":", 1) for r in call.resources)
        return {(f"dynamodb:{_TRANSACT[kind]}", f"table:{tables[name]}") for kind, name in items}
    if call.service == "dynamodb":
        return {(action, f"table:{tables[name]}") for name in call.resources}
    if call.service == "secrets-manager":
        return {(action, "secret")}
    return {(action, "executions" if "execution:" in r else "state-machine") for r in call.resources}


def _object_kind(located: str, operation: str) -> str:
    bucket, _, key = located.partition("/")
    assert bucket == BUCKET, located
    if operation in ("ListObjectsV2", "ListObjects"):
        return "bucket"
    if key == JAPAN_POST_KEY:
        return "objects:japan-post"
    for prefix in (SOURCES_PREFIX, WORK_PREFIX, IP_DATABASE_PREFIX):
        if key.startswith(prefix):
            return f"objects:{prefix}"
    raise AssertionError(f"an object outside the stack's prefixes: {located}")


def granted(stack: ServiceStack, role: Any) -> set[tuple[str, str]]:
    template = stack.resolve  # tokens to the template's own JSON
    kinds = {
        _key(template(stack.data.tokens.table_arn)): "table:tokens",
        _key(template(stack.data.rate_limits.table_arn)): "table:rate_limits",
        _key(template(stack.data.pool.table_arn)): "table:pool",
        _key(template(stack.data.catalog.table_arn)): "table:catalog",
        _key(template(stack.data.audit.table_arn)): "table:audit",
        _key(template(stack.data.bucket.bucket_arn)): "bucket",
        _key(template(stack.data.cursor_secret.secret_arn)): "secret",
        _key(template(stack.state_machine.state_machine_arn)): "state-machine",
        _key(
            template(stack.app.get_resource(STEP_FUNCTION).get_att("Arn").to_string())
        ): "function:sync_step",
        _key(template(stack.data.bucket.arn_for_objects(JAPAN_POST_KEY))): "objects:japan-post",
        _key(
            template(stack.data.bucket.arn_for_objects(f"{SOURCES_PREFIX}{'manifest.json'}"))
        ): "objects:sources/",
        '"*"': "*",
    }
    for prefix in (SOURCES_PREFIX, WORK_PREFIX, IP_DATABASE_PREFIX):
        kinds[_key(template(stack.data.bucket.arn_for_objects(f"{prefix}*")))] = f"objects:{prefix}"
    for group in stack.log_groups.values():
        kinds[_key(template(group.log_group_arn))] = "logs"
    role_ref = template(role.role_name)
    found = set()
    for policy in _template(stack)["Resources"].values():
        if policy["Type"] != "AWS::IAM::Policy" or role_ref not in policy["Properties"]["Roles"]:
            continue
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            actions = statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
            resources = (
                statement["Resource"] if isinstance(statement["Resource"], list) else [statement["Resource"]]
            )
            for action in actions:
                for resource in resources:
                    found.add((action, _kind_of(action, resource, kinds, stack)))
    return found


def _kind_of(action: str, resource: Any, kinds: dict[str, str], stack: ServiceStack) -> str:
    key = _key(resource)
    if key in kinds:
        return kinds[key]
    text = json.dumps(resource)
    if action.startswith(("ecs:", "events:")) or action == "iam:PassRole":
        return action.split(":")[0] if action != "iam:PassRole" else "iam:PassRole"
    if "execution:" in text:
        return "executions"
    if "stateMachine:" in text and stack.state_machine_name in text:
        return "state-machine:own"
    return f"unknown:{text}"


def _key(resource: Any) -> str:
    return json.dumps(resource, sort_keys=True)


def _template(stack: ServiceStack) -> dict[str, Any]:
    out = Path(stack.node.root.outdir)  # type: ignore[attr-defined]
    return dict(json.loads((out / f"{stack.artifact_id}.template.json").read_text()))


def _principals(stack: ServiceStack) -> dict[str, Any]:
    return {
        API_FUNCTION: stack.roles[API_FUNCTION],
        SYNC_FUNCTION: stack.roles[SYNC_FUNCTION],
        STEP_FUNCTION: stack.roles[STEP_FUNCTION],
        MACHINE: stack.state_machine.role,
    }


@needs_sources
@pytest.mark.parametrize("principal", [API_FUNCTION, SYNC_FUNCTION, STEP_FUNCTION, MACHINE])
def test_the_synthesized_policies_grant_every_call_the_code_makes_and_nothing_more(
    principal: str, recorded: tuple[list[Call], dict[str, str]], synthesized: dict[str, ServiceStack]
) -> None:
    calls, tables = recorded
    stack = synthesized["dev"]
    need = {n for c in calls if c.principal == principal for n in needed(c, tables)}
    assert need, f"the workloads made no call as {principal}"
    grants = granted(stack, _principals(stack)[principal])
    missing = sorted(need - grants)
    assert not missing, f"called but not granted: {missing}"
    broader = {
        g
        for g in grants - need - set(UNEXERCISED.get(principal, {}))
        if g[1] not in NOT_CALLS and not g[0].startswith(("logs:", "xray:"))
    }
    assert not broader, f"granted but never called: {sorted(broader)}"
    stale = {g for g in UNEXERCISED.get(principal, {}) if g not in grants or g in need}
    assert not stale, f"listed as unexercised, but called or not granted: {sorted(stale)}"
