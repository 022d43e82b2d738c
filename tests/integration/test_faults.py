"""DynamoDB failing under the service, injected by a proxy in front of the real engine: throttling,
calls slower than the timeout, a table gone. Requests answer 503 with Retry-After and write nothing
half; a sync whose writes fail leaves the served snapshot as it was, and its rerun completes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from chalice.test import Client

from app import app
from chalicelib import deps
from infra.local.dynamodb_local import DynamoDBLocal
from tests.support.factories import SOURCES, bearer, issue_token, wired_on
from tests.support.faulty_dynamodb import FaultyDynamoDB
from tests.support.sync import sync, write_manifest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout"),
]

GENERATE = "/api/v1/generate?country=AD"
READ_TIMEOUT = 1.0  # served calls; a slow fault takes twice as long
BATCH = "/api/v1/generate/batch"
BATCH_BODY = json.dumps({"count": 3, "filters": {"country": "AD"}})


@pytest.fixture
def faulty(dynamodb_local: DynamoDBLocal) -> Iterator[FaultyDynamoDB]:
    proxy = FaultyDynamoDB(dynamodb_local.endpoint)
    yield proxy
    proxy.close()


@pytest.fixture
def wired(aws_env: None, faulty: FaultyDynamoDB, tmp_path: Path) -> deps.Dependencies:
    """Tables created and AD synced with the default timeouts, then served with a short read
    timeout: a busy machine (two test workers) may take longer than that to create a table, and
    a CreateTable retried after its first attempt succeeded fails."""
    setup = wired_on(faulty.endpoint, "fault")
    sync(setup, write_manifest(tmp_path, ["osm-andorra_2021-ad"]))
    serving = setup.settings.model_copy(update={"dynamodb_read_timeout_seconds": READ_TIMEOUT})
    built = deps.build(serving, setup.clock)
    deps.use(built)
    return built


@pytest.fixture
def client(wired: deps.Dependencies) -> Iterator[Client]:
    with Client(app) as test_client:
        yield test_client


def _get(client: Client, path: str, auth: dict[str, str]) -> tuple[int, dict[str, Any], Any]:
    response = client.http.get(path, headers=auth)
    return response.status_code, response.headers, json.loads(response.body)


def _ask(client: Client, request: str, auth: dict[str, str]) -> tuple[int, dict[str, Any], Any]:
    if request == "generate":
        return _get(client, GENERATE, auth)
    response = client.http.post(BATCH, headers={**auth, "Content-Type": "application/json"}, body=BATCH_BODY)
    return response.status_code, response.headers, json.loads(response.body)


@pytest.mark.parametrize(
    ("request_kind", "operation", "kind", "after"),
    [
        ("generate", "UpdateItem", "throttle", 0),  # the rate counter
        ("generate", "GetItem", "throttle", 1),  # the pool read (the token read comes first)
        ("generate", "GetItem", "slow", 1),  # the pool read, past the read timeout on every retry
        ("generate", "GetItem", "missing", 1),  # the pool table is gone
        ("generate", "GetItem", "throttle", 0),  # the token read (no token cache in tests)
        ("batch", "BatchGetItem", "throttle", 0),  # a batch's pool read
    ],
)
def test_a_failing_call_is_503_with_retry_after_and_the_next_request_is_served(
    client: Client,
    wired: deps.Dependencies,
    faulty: FaultyDynamoDB,
    request_kind: str,
    operation: str,
    kind: str,
    after: int,
) -> None:
    auth = bearer(issue_token(wired.stores.tokens, wired.clock, rate_per_minute=1000))
    assert _ask(client, request_kind, auth)[0] == 200
    before = faulty.plan.seen[operation]
    faulty.fail(operation, kind, delay=READ_TIMEOUT * 2, after=after)
    status, headers, body = _ask(client, request_kind, auth)
    assert (status, body["error"]["code"]) == (503, "SERVICE_UNAVAILABLE")
    assert headers["Retry-After"] == "5"
    assert "Traceback" not in json.dumps(body)
    assert faulty.plan.seen[operation] - before > after  # the call meant was reached
    faulty.heal()
    assert _ask(client, request_kind, auth)[0] == 200


def test_a_token_whose_audit_entry_cannot_be_written_is_not_created(
    client: Client, wired: deps.Dependencies, faulty: FaultyDynamoDB
) -> None:
    admin = bearer(issue_token(wired.stores.tokens, wired.clock, scope="admin", rate_per_minute=1000))
    headers = {**admin, "Content-Type": "application/json"}
    body = json.dumps({"label": "qa", "scope": "read", "ratePerMinute": 5, "expiresIn": "1h"}).encode()
    faulty.fail("TransactWriteItems", "throttle")
    assert client.http.post("/api/v1/admin/tokens", headers=headers, body=body).status_code == 503
    faulty.heal()
    labels = [
        t["label"] for t in json.loads(client.http.get("/api/v1/admin/tokens", headers=admin).body)["data"]
    ]
    assert labels == ["test"]  # the administrator's own: no token without its record
    assert json.loads(client.http.get("/api/v1/admin/audit", headers=admin).body)["data"] == []
    created = json.loads(client.http.post("/api/v1/admin/tokens", headers=headers, body=body).body)["data"]
    faulty.fail("TransactWriteItems", "throttle")
    revoke = f"/api/v1/admin/tokens/{created['token']['id']}/revoke"
    assert client.http.post(revoke, headers=headers, body=b"").status_code == 503
    faulty.heal()
    listed = json.loads(client.http.get("/api/v1/admin/tokens", headers=admin).body)["data"]
    assert {t["label"]: t["status"] for t in listed}["qa"] == "active"  # no revocation without its record
    actions = [
        e["action"] for e in json.loads(client.http.get("/api/v1/admin/audit", headers=admin).body)["data"]
    ]
    assert actions == ["token.create"]


def test_a_sync_whose_writes_fail_leaves_the_served_snapshot_and_its_rerun_completes(
    client: Client, wired: deps.Dependencies, faulty: FaultyDynamoDB, tmp_path: Path
) -> None:
    auth = bearer(issue_token(wired.stores.tokens, wired.clock, rate_per_minute=1000))
    sync(wired, write_manifest(tmp_path, ["nl-countrywide-bag"], name="first.json"))
    served = wired.stores.registry.active_snapshot("NL")
    assert served is not None
    grown = write_manifest(tmp_path, ["nl-countrywide-bag", "osm-renkum-nl"], name="grown.json")
    faulty.fail("BatchWriteItem", "throttle", after=1)  # fails part-way through the new snapshot
    failed = sync(wired, grown)
    assert failed.countries["NL"].status == "failed"
    assert wired.stores.registry.active_snapshot("NL") == served
    status, _, body = _get(client, "/api/v1/generate?country=NL", auth)
    assert (status, body["data"]["snapshotId"]) == (200, served.snapshot_id)
    faulty.heal()
    rerun = sync(wired, grown)
    assert rerun.countries["NL"].status == "published"
    now = wired.stores.registry.active_snapshot("NL")
    assert now is not None
    assert now.snapshot_id != served.snapshot_id
