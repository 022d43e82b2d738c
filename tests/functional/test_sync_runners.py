"""The two ways a sync runs: the administrator CLI and the scheduled Lambda."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import boto3
import pytest
from chalice.test import Client

from chalicelib import deps
from chalicelib.cli.main import main
from chalicelib.domain.text_search import MARKS_VERSION
from chalicelib.services.sync import target
from tests.support.factories import SOURCES
from tests.support.sync import write_manifest

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

SMALL = ["nl-countrywide-bag", "is-countrywide-stadfangaskra"]


def _cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def test_cli_sync_prints_sources_and_countries_then_skips_when_unchanged(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    manifest = str(write_manifest(tmp_path, SMALL))
    # In this process: worker processes would not see moto's tables.
    in_process = ("--workers", "0", "--work", str(tmp_path / "work"))
    status, text = _cli("sync", "--manifest", manifest, *in_process)
    assert status == 0
    lines = text.splitlines()
    assert lines[0].startswith("Syncing from ")
    assert lines[1].split() == ["SOURCE", "READ", "KEPT", "DROPPED", "BY", "REASON", "FIELDS", "REMOVED"]
    assert any(line.startswith("nl-countrywide-bag") and " 8 " in line for line in lines)
    is_row = next(line.split() for line in lines if line.startswith("IS "))
    assert is_row[:5] == ["IS", "published", "15", "15", "0"]  # country, status, read, published, residential

    status, text = _cli("sync", "--manifest", manifest, "--if-changed", *in_process)
    assert status == 0
    assert "current" in text


def test_cli_sync_without_a_manifest_is_a_clear_error(
    dependencies: deps.Dependencies, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = _cli("sync")
    assert status == 2
    assert "SYNC_MANIFEST" in capsys.readouterr().err


def test_scheduled_sync_publishes_then_finds_the_pool_current(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    manifest = write_manifest(tmp_path, SMALL)
    deps.use(
        replace(
            dependencies, settings=dependencies.settings.model_copy(update={"sync_manifest": str(manifest)})
        )
    )
    event = client.events.generate_cw_event(
        source="aws.events",
        detail_type="Scheduled Event",
        detail={},
        resources=["arn:aws:events:rule/sync_pool"],
    )
    first = client.lambda_.invoke("sync_pool", event).payload
    assert first["status"] == "ok"
    assert {code: status for code, status in first["countries"].items() if status != "empty"} == {
        "IS": "published",
        "NL": "published",
    }
    assert dependencies.stores.registry.active_snapshot("NL") is not None
    assert client.lambda_.invoke("sync_pool", event).payload == {"status": "current"}
    # A release whose index holds new marks (a new filter) rewrites the pool on its first tick.
    monkeypatch.setattr(target, "MARKS_VERSION", MARKS_VERSION + 1)
    assert client.lambda_.invoke("sync_pool", event).payload["status"] == "ok"


def test_scheduled_sync_without_a_manifest_says_so(dependencies: deps.Dependencies, client: Client) -> None:
    event = client.events.generate_cw_event(
        source="aws.events", detail_type="Scheduled Event", detail={}, resources=[]
    )
    assert client.lambda_.invoke("sync_pool", event).payload == {"status": "not-configured"}


def test_scheduled_sync_starts_one_execution_per_tick_when_a_state_machine_is_set(
    dependencies: deps.Dependencies, client: Client
) -> None:
    stepfunctions = boto3.client("stepfunctions", region_name="us-east-1")
    definition = json.dumps({"StartAt": "Done", "States": {"Done": {"Type": "Succeed"}}})
    role = "arn:aws:iam::123456789012:role/sync"
    arn = stepfunctions.create_state_machine(name="ags-test-sync", definition=definition, roleArn=role)
    settings = dependencies.settings.model_copy(update={"sync_state_machine": arn["stateMachineArn"]})
    deps.use(deps.build(settings, dependencies.clock))
    event = client.events.generate_cw_event(
        source="aws.events", detail_type="Scheduled Event", detail={}, resources=[]
    )
    first = client.lambda_.invoke("sync_pool", event).payload
    assert first["status"] == "started"
    assert first["execution"].startswith(arn["stateMachineArn"].replace(":stateMachine:", ":execution:"))
    # The same tick retried: Step Functions answers a running execution's name and input with that
    # execution (idempotent), and a finished one's with ExecutionAlreadyExists ("running" here).
    again = client.lambda_.invoke("sync_pool", event).payload
    assert again["execution"] == first["execution"] or again["status"] == "running"
    executions = stepfunctions.list_executions(stateMachineArn=arn["stateMachineArn"])["executions"]
    assert len(executions) == 1
