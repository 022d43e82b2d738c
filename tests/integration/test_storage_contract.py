"""One contract for the tables' verbs, run against moto and against the real DynamoDB Local."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from pynamodb.exceptions import PutError

from chalicelib import deps
from chalicelib.domain.audit import AuditAction, AuditEntry
from chalicelib.domain.tokens import usage_day
from chalicelib.errors import StorageUnavailable, TokenNotFound
from chalicelib.services.tokens import new_token
from chalicelib.storage.dynamodb.tables import build_stores
from tests.support.factories import issue_token, make_settings

pytestmark = pytest.mark.integration


def _today(backend: deps.Dependencies) -> int:
    """00:00 UTC of the backend's clock, which holds the real day: usage items expire by TTL days
    after their window, and DynamoDB Local's sweeper deletes expired ones mid-test."""
    now = int(backend.clock.now().timestamp())
    return now - now % 86_400


def test_token_round_trip(backend: deps.Dependencies) -> None:
    tokens = backend.stores.tokens
    issued = issue_token(tokens, backend.clock, scope="read", rate_per_minute=7, label="contract")
    assert tokens.get(issued.token.token_id) == issued.token
    assert tokens.get("nosuchtoken0") is None
    assert [t.token_id for t in tokens.list_all()] == [issued.token.token_id]


def test_token_ids_are_never_overwritten(backend: deps.Dependencies) -> None:
    tokens = backend.stores.tokens
    issued = issue_token(tokens, backend.clock)
    with pytest.raises(PutError):
        tokens.put_new(replace(issued.token, label="impostor"))
    stored = tokens.get(issued.token.token_id)
    assert stored is not None
    assert stored.label == "test"


def test_revoke_keeps_the_first_time(backend: deps.Dependencies) -> None:
    tokens, clock = backend.stores.tokens, backend.clock
    issued = issue_token(tokens, clock)
    first = tokens.revoke(issued.token.token_id, clock.now())
    later = tokens.revoke(issued.token.token_id, clock.now().replace(year=2030))
    assert first.revoked_at == later.revoked_at == clock.now()
    with pytest.raises(TokenNotFound):
        tokens.revoke("nosuchtoken0", clock.now())


def test_rate_window_boundary(backend: deps.Dependencies) -> None:
    counter, day = backend.stores.rate_limits, _today(backend)
    used = [counter.try_consume("tok", day + 120, 3) for _ in range(4)]
    assert [q.used if q else None for q in used] == [1, 2, 3, None]
    next_window = counter.try_consume("tok", day + 180, 3)
    assert next_window is not None
    assert next_window.used == 1


def test_a_late_request_counts_into_the_newer_window_never_past_its_limit(backend: deps.Dependencies) -> None:
    """A Lambda whose clock lags still counts against the window another has opened."""
    counter, day = backend.stores.rate_limits, _today(backend)
    assert counter.try_consume("skew", day + 240, 2) is not None
    late = counter.try_consume("skew", day + 180, 2)
    assert late is not None
    assert (late.used, late.resets_at) == (2, day + 300)
    assert counter.try_consume("skew", day + 180, 2) is None


def test_usage_counts_the_days_requests_and_the_last_one(backend: deps.Dependencies) -> None:
    counter, day = backend.stores.rate_limits, _today(backend)
    for minute in range(3):
        for second in (1, 2):
            counter.try_consume("used", day + 60 * minute, 100, day + 60 * minute + second)
    counter.try_consume("used", day + 86_400, 100, day + 86_400 + 1)  # the next day counts apart
    counter.try_consume("other", day, 1)
    counter.try_consume("other", day, 1)  # refused: not a request served
    usage = counter.usage(["used", "other", "never"], usage_day(day))
    assert set(usage) == {"used", "other"}
    assert usage["used"].requests == 6
    assert usage["used"].last_used_at == datetime.fromtimestamp(day + 122, UTC)
    assert usage["other"].requests == 1


def test_record_use_notes_the_time_on_the_token(backend: deps.Dependencies) -> None:
    tokens, clock = backend.stores.tokens, backend.clock
    issued = issue_token(tokens, clock)
    tokens.record_use(issued.token.token_id, clock.now())
    tokens.record_use("nosuchtoken0", clock.now())  # a token deleted meanwhile: nothing happens
    stored = tokens.get(issued.token.token_id)
    assert stored is not None
    assert stored.last_used_at == clock.now()
    assert tokens.get("nosuchtoken0") is None


def test_audit_entries_come_back_newest_first_across_months(backend: deps.Dependencies) -> None:
    audit, now = backend.stores.audit, backend.clock.now()
    last_month = now - timedelta(days=40)
    audit.append(AuditEntry(last_month, "admin0000001", AuditAction.SYNC_STARTED, "run-1"))
    audit.append(AuditEntry(now, "admin0000001", AuditAction.TOKEN_CREATED, "t1", {"label": "<qa>"}))
    audit.append(AuditEntry(now, "admin0000002", AuditAction.TOKEN_REVOKED, "t1"))
    entries = audit.recent(now, 10)
    assert [e.target for e in entries][-1] == "run-1"
    assert {e.action for e in entries[:2]} == {AuditAction.TOKEN_CREATED, AuditAction.TOKEN_REVOKED}
    assert next(e for e in entries if e.target == "run-1").at == last_month
    assert [e.details for e in entries if e.action is AuditAction.TOKEN_CREATED] == [{"label": "<qa>"}]
    assert len(audit.recent(now, 2)) == 2


def test_rate_limit_holds_under_concurrency(
    request: pytest.FixtureRequest, backend: deps.Dependencies
) -> None:
    """Many writers racing on one window: exactly `limit` requests get through. Only a real engine can
    show this: moto does not apply conditional updates atomically across threads (seen: 11 of 10)."""
    if request.node.callspec.params["backend"] == "moto":
        pytest.skip("moto does not make conditional updates atomic across threads; checked on DynamoDB Local")
    counter, window = backend.stores.rate_limits, _today(backend) + 600
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: counter.try_consume("race", window, 10), range(40)))
    admitted = [q for q in results if q is not None]
    assert len(admitted) == 10
    assert sorted(q.used for q in admitted) == list(range(1, 11))


def test_missing_table_is_unavailable(backend: deps.Dependencies) -> None:
    settings = backend.settings.model_copy(update={"tokens_table": "never-created-tokens"})
    stores = build_stores(settings)
    with pytest.raises(StorageUnavailable):
        stores.tokens.ping()
    with pytest.raises(StorageUnavailable):
        stores.tokens.get("abcdefghijkl")


def test_unreachable_engine_is_unavailable(aws_env: None) -> None:
    settings = make_settings(dynamodb_endpoint="http://127.0.0.1:9")  # discard port: nothing listens
    with pytest.raises(StorageUnavailable):
        build_stores(settings).rate_limits.ping()


def test_revoking_a_token_gone_in_between_records_nothing(backend: deps.Dependencies) -> None:
    clock = backend.clock
    unstored = new_token(clock, scope="read", rate_per_minute=5, lifetime=timedelta(hours=1), label="gone")
    entry = AuditEntry(clock.now(), "admin0000001", AuditAction.TOKEN_REVOKED, unstored.token.token_id)
    with pytest.raises(TokenNotFound):
        backend.stores.tokens.revoke_audited(unstored.token, clock.now(), entry)
    assert backend.stores.audit.recent(clock.now(), 10) == []
    assert backend.stores.tokens.get(unstored.token.token_id) is None
