"""The administrators' API through the real app on moto: scopes, tokens with their use, revocation,
the pool's state, starting a sync and the audit log."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from chalice.test import Client
from moto import mock_aws

from app import app
from chalicelib import deps
from chalicelib.errors import SyncAlreadyRunning
from chalicelib.storage.aws.sync_launchers import LocalProcessLauncher, StepFunctionsLauncher
from chalicelib.storage.dynamodb.tables import create_missing_tables
from tests.functional.conftest import error_of
from tests.support.factories import bearer, issue_token, make_settings
from tests.support.fakes import FakeClock, FakeSyncLauncher

TOKENS = "/api/v1/admin/tokens"
ADMIN_GETS = [TOKENS, "/api/v1/admin/data", "/api/v1/admin/audit"]


@pytest.fixture
def launcher() -> FakeSyncLauncher:
    return FakeSyncLauncher()


@pytest.fixture
def wired(aws_env: None, clock: FakeClock, launcher: FakeSyncLauncher) -> Iterator[deps.Dependencies]:
    """Tables on moto, a token cache as in production (30 s), a sync launcher that only records."""
    with mock_aws():
        built = deps.build(make_settings(token_cache_seconds=30), clock=clock)
        create_missing_tables(built.stores)
        built = replace(built, sync_launcher=launcher)
        deps.use(built)
        yield built


@pytest.fixture
def admin(wired: deps.Dependencies, clock: FakeClock) -> Iterator[AdminClient]:
    with Client(app) as client:
        issued = issue_token(wired.stores.tokens, clock, scope="admin", rate_per_minute=1000, label="lead")
        yield AdminClient(client, bearer(issued), issued.token.token_id)


class AdminClient:
    def __init__(self, client: Client, auth: dict[str, str], token_id: str) -> None:
        self.client, self.auth, self.token_id = client, auth, token_id

    def get(self, path: str, status: int = 200) -> Any:
        response = self.client.http.get(path, headers=self.auth)
        assert response.status_code == status, response.body
        return json.loads(response.body)

    def post(self, path: str, body: object | None, status: int) -> Any:
        headers = {**self.auth, "Content-Type": "application/json"}
        raw = json.dumps(body).encode() if body is not None else b""
        response = self.client.http.post(path, headers=headers, body=raw)
        assert response.status_code == status, response.body
        return json.loads(response.body)

    def create(self, **overrides: object) -> dict[str, Any]:
        body = {"label": "qa team", "scope": "generate", "ratePerMinute": 30, "expiresIn": "2h", **overrides}
        created: dict[str, Any] = self.post(TOKENS, body, 201)["data"]
        return created


def _call(client: Client, path: str, secret: str) -> int:
    return int(client.http.get(path, headers={"Authorization": f"Bearer {secret}"}).status_code)


@pytest.mark.parametrize("scope", ["read", "generate"])
@pytest.mark.parametrize("path", ADMIN_GETS)
def test_read_and_generate_tokens_are_forbidden_from_the_admin_api(
    wired: deps.Dependencies, clock: FakeClock, scope: str, path: str
) -> None:
    issued = issue_token(wired.stores.tokens, clock, scope=scope)
    with Client(app) as client:
        response = client.http.get(path, headers=bearer(issued))
    assert response.status_code == 403
    assert error_of(response)["code"] == "FORBIDDEN"


@pytest.mark.parametrize("path", ADMIN_GETS)
def test_the_admin_api_needs_a_token(wired: deps.Dependencies, path: str) -> None:
    with Client(app) as client:
        assert client.http.get(path).status_code == 401


def test_an_admin_token_only_administers(admin: AdminClient) -> None:
    response = admin.client.http.get("/api/v1/countries", headers=admin.auth)
    assert response.status_code == 403
    assert "scope 'read'" in error_of(response)["message"]


def test_create_returns_the_secret_once_and_the_new_token_works(admin: AdminClient, clock: FakeClock) -> None:
    clock.advance(1)
    created = admin.create(label="checkout tests", scope="read", ratePerMinute=7, expiresIn="30d")
    token, secret = created["token"], created["secret"]
    assert secret.startswith(f"ags_{token['id']}_")
    assert token | {"createdAt": None, "expiresAt": None} == {
        "id": token["id"],
        "label": "checkout tests",
        "scope": "read",
        "ratePerMinute": 7,
        "createdAt": None,
        "expiresAt": None,
        "revokedAt": None,
        "status": "active",
        "lastUsedAt": None,
        "requestsToday": 0,
    }
    assert _call(admin.client, "/api/v1/countries", secret) == 200
    listed = admin.get(TOKENS)["data"]
    assert secret not in json.dumps(listed)  # listed without the secret, ever
    assert next(t["id"] for t in listed) == token["id"]  # newest first


def test_the_list_shows_each_tokens_requests_today_and_last_use(admin: AdminClient, clock: FakeClock) -> None:
    secret = admin.create()["secret"]
    for _ in range(3):
        assert _call(admin.client, "/api/v1/countries", secret) == 200
        clock.advance(61)  # three windows: the last use is noted in each
    assert _call(admin.client, "/api/v1/availability", secret) == 200
    [entry] = [t for t in admin.get(TOKENS)["data"] if t["label"] == "qa team"]
    assert entry["requestsToday"] == 4
    assert entry["lastUsedAt"] is not None
    assert entry["lastUsedAt"].startswith(clock.now().strftime("%Y-%m-%dT%H:%M"))


def test_revoking_bites_at_once_despite_the_token_cache(admin: AdminClient) -> None:
    created = admin.create()
    secret, token_id = created["secret"], created["token"]["id"]
    assert _call(admin.client, "/api/v1/countries", secret) == 200  # now cached for 30 s
    revoked = admin.post(f"{TOKENS}/{token_id}/revoke", None, 200)["data"]
    assert revoked["status"] == "revoked"
    assert revoked["revokedAt"] is not None
    assert _call(admin.client, "/api/v1/countries", secret) == 401


def test_revoking_an_unknown_or_malformed_id(admin: AdminClient) -> None:
    assert admin.post(f"{TOKENS}/abcdefabcdef/revoke", None, 404)["error"]["code"] == "TOKEN_NOT_FOUND"
    assert admin.post(f"{TOKENS}/NOT-AN-ID/revoke", None, 400)["error"]["code"] == "INVALID_REQUEST"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"scope": "owner"}, "scope"),
        ({"ratePerMinute": 0}, "ratePerMinute"),
        ({"ratePerMinute": "10"}, "ratePerMinute"),
        ({"expiresIn": "1y"}, "expiresIn"),
        ({"expiresIn": "400d"}, "expires"),
        ({"label": ""}, "label"),
        ({"label": "tab\there"}, "label"),
        ({"owner": "me"}, "owner"),
    ],
)
def test_create_names_the_field_it_refuses(
    admin: AdminClient, overrides: dict[str, object], field: str
) -> None:
    error = admin.post(
        TOKENS, {"label": "x", "scope": "read", "ratePerMinute": 5, "expiresIn": "1d", **overrides}, 400
    )
    assert field in [d["field"] for d in error["error"]["details"]]
    assert [t["label"] for t in admin.get(TOKENS)["data"]] == ["lead"]  # nothing was created


def test_every_action_is_in_the_audit_log_newest_first(admin: AdminClient, clock: FakeClock) -> None:
    created = admin.create(label="<b>nightly</b>")
    clock.advance(5)
    admin.post(f"{TOKENS}/{created['token']['id']}/revoke", None, 200)
    clock.advance(5)
    started = admin.post("/api/v1/admin/sync", None, 202)["data"]
    entries = admin.get("/api/v1/admin/audit")["data"]
    assert [(e["action"], e["target"], e["actor"]) for e in entries] == [
        ("sync.start", started["run"], admin.token_id),
        ("token.revoke", created["token"]["id"], admin.token_id),
        ("token.create", created["token"]["id"], admin.token_id),
    ]
    assert entries[2]["details"] == {"label": "<b>nightly</b>", "scope": "generate", "ratePerMinute": "30"}
    assert created["secret"] not in json.dumps(entries)
    assert len(admin.get("/api/v1/admin/audit?limit=1")["data"]) == 1
    admin.get("/api/v1/admin/audit?limit=0", 400)


def test_start_sync_starts_one_and_refuses_a_second_while_it_runs(
    admin: AdminClient, launcher: FakeSyncLauncher
) -> None:
    started = admin.post("/api/v1/admin/sync", None, 202)["data"]
    assert launcher.started == [started["run"]]
    assert started["run"].endswith(admin.token_id)
    refused = admin.post("/api/v1/admin/sync", None, 409)
    assert refused["error"]["code"] == "SYNC_RUNNING"
    assert len(launcher.started) == 1


def test_start_sync_is_503_where_no_sync_is_configured(admin: AdminClient, wired: deps.Dependencies) -> None:
    deps.use(replace(wired, sync_launcher=None))
    assert admin.post("/api/v1/admin/sync", None, 503)["error"]["code"] == "SERVICE_UNAVAILABLE"


def test_data_status_lists_every_enabled_country_before_any_sync(
    admin: AdminClient, wired: deps.Dependencies
) -> None:
    status = admin.get("/api/v1/admin/data")["data"]
    assert [c["code"] for c in status["countries"]] == list(wired.pool_config.enabled)
    assert all(c["syncState"] == "missing" and c["addressCount"] == 0 for c in status["countries"])
    assert status["healthy"] is False
    assert status["sync"] == {"running": False, "lastReport": None}


def test_admin_calls_count_against_the_tokens_limit(wired: deps.Dependencies, clock: FakeClock) -> None:
    issued = issue_token(wired.stores.tokens, clock, scope="admin", rate_per_minute=2)
    with Client(app) as client:
        statuses = [client.http.get(TOKENS, headers=bearer(issued)).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_where_no_state_machine_is_set_the_sync_starts_as_a_local_process_of_the_named_countries(
    aws_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("TOKENS_TABLE", "RATE_LIMITS_TABLE", "POOL_TABLE", "CATALOG_TABLE", "AUDIT_TABLE"):
        monkeypatch.setenv(variable, "t-" + variable.lower())  # the child reads its settings anew
    built = deps.build(make_settings(sync_manifest=str(tmp_path / "missing.json"), sync_countries="NL,AD"))
    launcher = built.sync_launcher
    assert isinstance(launcher, LocalProcessLauncher)
    assert launcher.countries == ("NL", "AD")
    launcher.log = tmp_path / "sync.log"
    launcher.start("admin-test")
    with pytest.raises(SyncAlreadyRunning):
        launcher.start("admin-test-2")  # the child may still be starting: never two at once
    deadline = time.monotonic() + 60
    while launcher.running() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not launcher.running()
    assert "no manifest at" in launcher.log.read_text()  # the CLI ran, and said why it stopped


def test_a_state_machine_wins_over_a_local_process(aws_env: None) -> None:
    arn = "arn:aws:states:us-east-1:123456789012:stateMachine:ags-dev-sync"
    built = deps.build(make_settings(sync_manifest="/m.json", sync_state_machine=arn))
    assert isinstance(built.sync_launcher, StepFunctionsLauncher)
