"""Factories that build test data through the real code."""

from __future__ import annotations

from datetime import timedelta

from chalicelib.clock import Clock
from chalicelib.config import Settings
from chalicelib.services.tokens import IssuedToken, TokenAdminStore, create_token


def make_settings(**overrides: object) -> Settings:
    values: dict[str, object] = {
        "stage": "test",
        "tokens_table": "test-tokens",
        "rate_limits_table": "test-rate-limits",
        "token_cache_seconds": 0,
    }
    values.update(overrides)
    return Settings.model_validate(values)


def issue_token(
    tokens: TokenAdminStore,
    clock: Clock,
    *,
    scope: str = "generate",
    rate_per_minute: int = 100,
    lifetime: timedelta = timedelta(hours=1),
    label: str = "test",
) -> IssuedToken:
    return create_token(
        tokens, clock, scope=scope, rate_per_minute=rate_per_minute, lifetime=lifetime, label=label
    )


def bearer(issued: IssuedToken) -> dict[str, str]:
    return {"Authorization": f"Bearer {issued.bearer}"}
