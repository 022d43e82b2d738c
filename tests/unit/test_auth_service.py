from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from chalicelib.domain.tokens import Scope
from chalicelib.errors import Forbidden, Unauthorized
from chalicelib.services.auth import CachedTokens, authenticate, authorize
from tests.support.factories import issue_token
from tests.support.fakes import FakeClock, FakeTokenStore


@pytest.fixture
def store() -> FakeTokenStore:
    return FakeTokenStore()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def test_valid_token_authenticates(store: FakeTokenStore, clock: FakeClock) -> None:
    issued = issue_token(store, clock)
    token = authenticate(f"Bearer {issued.bearer}", store, clock.now())
    assert token.token_id == issued.token.token_id


def test_scheme_is_case_insensitive(store: FakeTokenStore, clock: FakeClock) -> None:
    issued = issue_token(store, clock)
    assert authenticate(f"bearer {issued.bearer}", store, clock.now()).token_id == issued.token.token_id


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (None, "missing bearer token"),
        ("", "missing bearer token"),
        ("Basic dXNlcjpwYXNz", "Bearer scheme"),
        ("Bearer", "Bearer scheme"),
        ("Bearer not-a-token", "malformed"),
    ],
)
def test_unusable_headers_are_unauthorized(
    store: FakeTokenStore, clock: FakeClock, header: str | None, message: str
) -> None:
    with pytest.raises(Unauthorized, match=message):
        authenticate(header, store, clock.now())


def test_unknown_token_is_unauthorized(store: FakeTokenStore, clock: FakeClock) -> None:
    other_store = FakeTokenStore()
    issued = issue_token(other_store, clock)
    with pytest.raises(Unauthorized, match="invalid bearer token"):
        authenticate(f"Bearer {issued.bearer}", store, clock.now())


def test_wrong_secret_for_known_id_is_unauthorized(store: FakeTokenStore, clock: FakeClock) -> None:
    issued = issue_token(store, clock)
    forged = issued.bearer[:-4] + ("AAAA" if not issued.bearer.endswith("AAAA") else "BBBB")
    with pytest.raises(Unauthorized, match="invalid bearer token"):
        authenticate(f"Bearer {forged}", store, clock.now())


def test_revoked_token_is_unauthorized(store: FakeTokenStore, clock: FakeClock) -> None:
    issued = issue_token(store, clock)
    store.revoke(issued.token.token_id, clock.now())
    with pytest.raises(Unauthorized, match="revoked"):
        authenticate(f"Bearer {issued.bearer}", store, clock.now())


def test_token_expires_exactly_at_its_expiry(store: FakeTokenStore, clock: FakeClock) -> None:
    issued = issue_token(store, clock, lifetime=timedelta(seconds=90))
    clock.advance(89)
    authenticate(f"Bearer {issued.bearer}", store, clock.now())
    clock.advance(1)
    with pytest.raises(Unauthorized, match="expired"):
        authenticate(f"Bearer {issued.bearer}", store, clock.now())


def test_read_token_cannot_generate(store: FakeTokenStore, clock: FakeClock) -> None:
    token = issue_token(store, clock, scope="read").token
    authorize(token, Scope.READ)
    with pytest.raises(Forbidden, match="generate"):
        authorize(token, Scope.GENERATE)


def test_cache_serves_within_ttl_and_rereads_after(store: FakeTokenStore, clock: FakeClock) -> None:
    ticks = [0.0]
    cache = CachedTokens(store, ttl_seconds=30, monotonic=lambda: ticks[0])
    token = issue_token(store, clock).token
    cache.get(token.token_id)
    store.tokens[token.token_id] = replace(token, revoked_at=clock.now())
    ticks[0] = 29.9
    assert cache.get(token.token_id) == token  # stale within the documented window
    ticks[0] = 30.0
    cached = cache.get(token.token_id)
    assert cached is not None
    assert cached.is_revoked()
    assert store.reads == 2


def test_cache_does_not_remember_unknown_ids(store: FakeTokenStore, clock: FakeClock) -> None:
    cache = CachedTokens(store, ttl_seconds=30, monotonic=lambda: 0.0)
    assert cache.get("abcdefghijkl") is None
    issued = issue_token(store, clock)
    assert cache.get(issued.token.token_id) is not None
