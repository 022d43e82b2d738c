from __future__ import annotations

from datetime import timedelta

import pytest

from chalicelib.errors import InvalidRequest, TokenNotFound
from chalicelib.services.tokens import create_token, list_tokens, parse_duration, revoke_token
from tests.support.fakes import FakeClock, FakeTokenStore


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90s", 90), ("15m", 900), ("2h", 7200), ("30d", 2_592_000), (" 1s ", 1), ("366d", 31_622_400)],
)
def test_parse_duration(text: str, seconds: int) -> None:
    assert parse_duration(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("text", ["", "0s", "10", "2 h", "1y", "-5m", "367d", "1.5h", "99999999d"])
def test_parse_duration_rejects(text: str) -> None:
    with pytest.raises(InvalidRequest):
        parse_duration(text)


def test_created_token_stores_only_a_hash() -> None:
    store, clock = FakeTokenStore(), FakeClock()
    issued = create_token(
        store, clock, scope="read", rate_per_minute=10, lifetime=timedelta(days=1), label=" ci "
    )
    stored = store.tokens[issued.token.token_id]
    assert issued.bearer not in repr(stored)
    assert stored.label == "ci"
    assert stored.expires_at == clock.now() + timedelta(days=1)
    assert stored.scope.value == "read"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"scope": "owner"}, "scope"),
        ({"rate_per_minute": 0}, "rate"),
        ({"rate_per_minute": 100_001}, "rate"),
        ({"label": "  "}, "label"),
        ({"label": "x" * 101}, "label"),
        ({"label": "tab\there"}, "label"),
    ],
)
def test_create_rejects_bad_values(overrides: dict[str, object], field: str) -> None:
    values: dict[str, object] = {"scope": "read", "rate_per_minute": 5, "label": "ok"}
    values.update(overrides)
    store = FakeTokenStore()
    with pytest.raises(InvalidRequest) as caught:
        create_token(store, FakeClock(), lifetime=timedelta(hours=1), **values)  # type: ignore[arg-type]
    assert caught.value.details[0].field == field
    assert store.tokens == {}


def test_list_and_revoke() -> None:
    store, clock = FakeTokenStore(), FakeClock()
    first = create_token(
        store, clock, scope="read", rate_per_minute=1, lifetime=timedelta(hours=1), label="a"
    )
    clock.advance(1)
    create_token(store, clock, scope="generate", rate_per_minute=1, lifetime=timedelta(hours=1), label="b")
    assert [t.label for t in list_tokens(store)] == ["a", "b"]
    revoked = revoke_token(store, clock, first.token.token_id)
    assert revoked.status(clock.now()) == "revoked"
    with pytest.raises(TokenNotFound):
        revoke_token(store, clock, "nosuchtoken0")
