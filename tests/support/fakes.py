"""Fakes of the service's collaborators: in-memory, behaving like the real ones, no mocks."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from chalicelib.domain.tokens import Token
from chalicelib.errors import TokenNotFound


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, now: datetime | None = None) -> None:
        self._now = now or datetime(2026, 11, 22, 10, 0, 5, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)


class FakeTokenStore:
    """The tokens table's verbs over a dict, counting reads so caching can be observed."""

    def __init__(self) -> None:
        self.tokens: dict[str, Token] = {}
        self.reads = 0

    def put_new(self, token: Token) -> None:
        assert token.token_id not in self.tokens
        self.tokens[token.token_id] = token

    def get(self, token_id: str) -> Token | None:
        self.reads += 1
        return self.tokens.get(token_id)

    def list_all(self) -> list[Token]:
        return sorted(self.tokens.values(), key=lambda t: t.created_at)

    def revoke(self, token_id: str, at: datetime) -> Token:
        if token_id not in self.tokens:
            raise TokenNotFound(token_id)
        token = self.tokens[token_id]
        self.tokens[token_id] = replace(token, revoked_at=token.revoked_at or at)
        return self.tokens[token_id]


class BrokenTokenStore(FakeTokenStore):
    """A token store whose reads fail with an error nobody planned for."""

    def get(self, token_id: str) -> Token | None:
        raise RuntimeError("disk on fire: secret-internal-detail")
