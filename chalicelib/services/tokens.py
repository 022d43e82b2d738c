"""Token administration: create (secret shown once), list, revoke."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from chalicelib.clock import Clock
from chalicelib.domain.tokens import (
    MAX_LABEL_LENGTH,
    MAX_LIFETIME,
    MAX_RATE_PER_MINUTE,
    Scope,
    Token,
    hash_secret,
    new_bearer,
)
from chalicelib.errors import ErrorDetail, InvalidRequest

_DURATION = re.compile(r"^(\d{1,7})([smhd])$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class TokenAdminStore(Protocol):
    def put_new(self, token: Token) -> None: ...
    def list_all(self) -> list[Token]: ...
    def revoke(self, token_id: str, at: datetime) -> Token: ...


@dataclass(frozen=True)
class IssuedToken:
    """A freshly created token with its bearer value: the only time the secret exists."""

    token: Token
    bearer: str


def parse_duration(text: str) -> timedelta:
    """'90s', '15m', '2h' or '30d' as a timedelta within the allowed token lifetime."""
    match = _DURATION.fullmatch(text.strip())
    if not match:
        raise _invalid("expires", "use a whole number with s, m, h or d, e.g. 90s, 2h, 30d")
    lifetime = timedelta(seconds=int(match.group(1)) * _UNIT_SECONDS[match.group(2)])
    if not timedelta(seconds=1) <= lifetime <= MAX_LIFETIME:
        raise _invalid("expires", f"must be between 1s and {MAX_LIFETIME.days}d")
    return lifetime


def create_token(
    tokens: TokenAdminStore,
    clock: Clock,
    *,
    scope: str,
    rate_per_minute: int,
    lifetime: timedelta,
    label: str,
) -> IssuedToken:
    """Create and store a token; returns its bearer value, which is never stored."""
    issued = new_token(clock, scope=scope, rate_per_minute=rate_per_minute, lifetime=lifetime, label=label)
    tokens.put_new(issued.token)
    return issued


def new_token(
    clock: Clock, *, scope: str, rate_per_minute: int, lifetime: timedelta, label: str
) -> IssuedToken:
    """A checked new token and its bearer value, not stored yet."""
    _check_new_token(scope, rate_per_minute, label)
    bearer = new_bearer()
    now = clock.now()
    token = Token(
        token_id=bearer.token_id,
        secret_hash=hash_secret(bearer.value),
        scope=Scope(scope),
        rate_per_minute=rate_per_minute,
        label=label.strip(),
        created_at=now,
        expires_at=now + lifetime,
    )
    return IssuedToken(token=token, bearer=bearer.value)


def list_tokens(tokens: TokenAdminStore) -> list[Token]:
    return tokens.list_all()


def revoke_token(tokens: TokenAdminStore, clock: Clock, token_id: str) -> Token:
    """Revoke at once in storage; warm Lambdas stop accepting it within the token cache time."""
    return tokens.revoke(token_id, clock.now())


def _check_new_token(scope: str, rate_per_minute: int, label: str) -> None:
    if scope not in {s.value for s in Scope}:
        raise _invalid("scope", "must be read, generate or admin")
    if not 1 <= rate_per_minute <= MAX_RATE_PER_MINUTE:
        raise _invalid("rate", f"must be between 1 and {MAX_RATE_PER_MINUTE} requests per minute")
    if not label.strip() or len(label) > MAX_LABEL_LENGTH or not label.isprintable():
        raise _invalid("label", f"must be 1 to {MAX_LABEL_LENGTH} printable characters")


def _invalid(field: str, message: str) -> InvalidRequest:
    return InvalidRequest(f"{field} {message}", (ErrorDetail(field, message),))
