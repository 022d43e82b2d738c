"""Request admission: who is calling (authentication), may they (scope), and how often (rate)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from chalicelib.clock import Clock
from chalicelib.domain.tokens import Quota, Scope, Token, parse_bearer, window_start
from chalicelib.errors import Forbidden, RateLimited, Unauthorized

_SCHEME = "bearer "


class TokenReader(Protocol):
    def get(self, token_id: str) -> Token | None: ...


class PendingQuota(Protocol):
    def result(self) -> Quota | None: ...


class RateCounter(Protocol):
    def start_consume(
        self, token_id: str, window_start: int, limit: int, used_at: int | None = None
    ) -> PendingQuota: ...


class UseRecorder(Protocol):
    def record_use(self, token_id: str, at: datetime) -> None: ...


@dataclass(frozen=True)
class Admission:
    """What the request pipeline needs to admit a call."""

    tokens: TokenReader
    counter: RateCounter
    uses: UseRecorder
    clock: Clock


class CachedTokens:
    """Token records cached per process for `ttl_seconds`: saves a read per request, and bounds
    how long a revoked token keeps working on a warm Lambda. Unknown ids are not cached."""

    def __init__(
        self, tokens: TokenReader, ttl_seconds: int, monotonic: Callable[[], float] = time.monotonic
    ) -> None:
        self._tokens = tokens
        self._ttl = ttl_seconds
        self._monotonic = monotonic
        self._entries: dict[str, tuple[float, Token]] = {}

    def get(self, token_id: str) -> Token | None:
        now = self._monotonic()
        entry = self._entries.get(token_id)
        if entry and now - entry[0] < self._ttl:
            return entry[1]
        token = self._tokens.get(token_id)
        if token is None:
            self._entries.pop(token_id, None)
        else:
            self._entries[token_id] = (now, token)
        return token

    def forget(self, token_id: str) -> None:
        """Drop a cached record (after a revocation in this process: it bites at once here)."""
        self._entries.pop(token_id, None)


def authenticate(authorization: str | None, tokens: TokenReader, now: datetime) -> Token:
    """The active token named by an `Authorization: Bearer ...` header, or Unauthorized."""
    if not authorization:
        raise Unauthorized("missing bearer token: send 'Authorization: Bearer <token>'")
    if not authorization.lower().startswith(_SCHEME):
        raise Unauthorized("the Authorization header must use the Bearer scheme")
    bearer = parse_bearer(authorization[len(_SCHEME) :].strip())
    if bearer is None:
        raise Unauthorized("malformed bearer token")
    token = tokens.get(bearer.token_id)
    # One message for unknown and wrong-secret alike, so ids cannot be probed.
    if token is None or not bearer.matches(token.secret_hash):
        raise Unauthorized("invalid bearer token")
    if token.is_revoked():
        raise Unauthorized("this token has been revoked")
    if token.is_expired(now):
        raise Unauthorized("this token has expired")
    return token


def authorize(token: Token, required: Scope) -> None:
    if not token.scope.satisfies(required):
        raise Forbidden(f"this endpoint needs a token with scope '{required.value}'")


def begin_admission(token: Token, counter: RateCounter, uses: UseRecorder, now: datetime) -> Admitting:
    """Count the request against the token's per-minute limit: the counter's write is sent now and
    settled by `result()` (RateLimited when the limit is used up), so a read-only request's own
    reads can go out meanwhile and the two round trips overlap."""
    start = window_start(now)
    pending = counter.start_consume(token.token_id, start, token.rate_per_minute, int(now.timestamp()))
    return Admitting(token, pending, uses, now)


@dataclass(frozen=True)
class Admitting:
    """A request being counted against its token's limit."""

    token: Token
    pending: PendingQuota
    uses: UseRecorder
    now: datetime

    def result(self) -> Quota:
        """The quota after this request, or RateLimited. The first request of each window also
        records the token's last use (at most once a minute, so the token table sees a write per
        token-minute, not per request)."""
        quota = self.pending.result()
        limit = self.token.rate_per_minute
        if quota is None:
            full = Quota(limit=limit, used=limit, resets_at=window_start(self.now) + 60)
            raise RateLimited(f"rate limit of {limit} requests per minute exceeded", full)
        if quota.used == 1:
            self.uses.record_use(self.token.token_id, self.now)
        return quota
