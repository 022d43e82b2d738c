from __future__ import annotations

from datetime import UTC, datetime

import pytest

from chalicelib.domain.tokens import Quota, Scope, hash_secret, new_bearer, parse_bearer, window_start


def test_new_bearer_has_prefix_id_and_256_bit_secret() -> None:
    token = new_bearer()
    prefix, token_id, secret = token.value.split("_", 2)
    assert prefix == "ags"
    assert token_id == token.token_id
    assert len(token_id) == 12
    assert len(secret) == 43


def test_bearers_are_unique() -> None:
    assert len({new_bearer().value for _ in range(200)}) == 200


def test_parse_bearer_round_trips() -> None:
    token = new_bearer()
    parsed = parse_bearer(token.value)
    assert parsed is not None
    assert parsed.token_id == token.token_id


@pytest.mark.parametrize(
    "text",
    [
        "",
        "ags_",
        "xyz_abcdefghijkl_" + "a" * 43,
        "ags_ABCDEFGHIJKL_" + "a" * 43,
        "ags_abcdefghijk_" + "a" * 43,
        "ags_abcdefghijkl_" + "a" * 42,
        "ags_abcdefghijkl_" + "a" * 42 + "!",
        "ags_abcdefghijkl_" + "a" * 43 + "\n",
    ],
)
def test_parse_bearer_rejects_other_shapes(text: str) -> None:
    assert parse_bearer(text) is None


def test_matches_only_its_own_hash() -> None:
    token, other = new_bearer(), new_bearer()
    assert token.matches(hash_secret(token.value))
    assert not token.matches(hash_secret(other.value))


def test_hash_is_sha256_hex_and_not_the_secret() -> None:
    token = new_bearer()
    digest = hash_secret(token.value)
    assert len(digest) == 64
    assert token.value not in digest


@pytest.mark.parametrize(
    ("held", "required", "allowed"),
    [
        (Scope.GENERATE, Scope.GENERATE, True),
        (Scope.GENERATE, Scope.READ, True),
        (Scope.READ, Scope.READ, True),
        (Scope.READ, Scope.GENERATE, False),
    ],
)
def test_scope_rules(held: Scope, required: Scope, allowed: bool) -> None:
    assert held.satisfies(required) is allowed


def test_window_start_is_the_utc_minute() -> None:
    now = datetime(2026, 11, 22, 10, 0, 59, 999, tzinfo=UTC)
    assert window_start(now) == int(datetime(2026, 11, 22, 10, 0, tzinfo=UTC).timestamp())


def test_quota_remaining_never_negative() -> None:
    assert Quota(limit=5, used=2, resets_at=0).remaining == 3
    assert Quota(limit=5, used=7, resets_at=0).remaining == 0
