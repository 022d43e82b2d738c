"""API tokens: scopes, the token record, the bearer format and per-minute quotas."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Literal

TOKEN_PREFIX = "ags"  # noqa: S105 - a public, recognizable prefix, not a secret
TOKEN_ID_LENGTH = 12
_ID_ALPHABET = string.ascii_lowercase + string.digits
# 32 random bytes, URL-safe base64 without padding: 43 characters, 256 bits of entropy.
_SECRET_BYTES = 32
_BEARER = re.compile(rf"^{TOKEN_PREFIX}_([a-z0-9]{{{TOKEN_ID_LENGTH}}})_([A-Za-z0-9_-]{{43}})$")

MAX_RATE_PER_MINUTE = 100_000
MAX_LIFETIME = timedelta(days=366)
MAX_LABEL_LENGTH = 100
WINDOW_SECONDS = 60


class Scope(StrEnum):
    READ = "read"
    GENERATE = "generate"
    ADMIN = "admin"

    def satisfies(self, required: Scope) -> bool:
        """A generate token may also read; a read token may not generate. Administration is apart:
        an admin token only administers, and only an admin token does (a leaked test token cannot
        mint others, and the console's token is not spent on test traffic)."""
        if Scope.ADMIN in (self, required):
            return self is required
        return self is Scope.GENERATE or required is Scope.READ


@dataclass(frozen=True)
class Token:
    """A token as stored: never the secret, only its hash."""

    token_id: str
    secret_hash: str
    scope: Scope
    rate_per_minute: int
    label: str
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None = None
    last_used_at: datetime | None = None  # minute precision: recorded once per rate window

    def is_expired(self, now: datetime) -> bool:
        return now >= self.expires_at

    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def status(self, now: datetime) -> Literal["active", "expired", "revoked"]:
        if self.is_revoked():
            return "revoked"
        return "expired" if self.is_expired(now) else "active"


@dataclass(frozen=True)
class BearerToken:
    """A bearer string split into its public id and the whole secret value."""

    token_id: str
    value: str

    def matches(self, secret_hash: str) -> bool:
        """Constant-time comparison of this token's hash with a stored one."""
        return hmac.compare_digest(hash_secret(self.value), secret_hash)


def hash_secret(value: str) -> str:
    return hashlib.sha256(value.encode("ascii")).hexdigest()


def new_bearer() -> BearerToken:
    token_id = "".join(secrets.choice(_ID_ALPHABET) for _ in range(TOKEN_ID_LENGTH))
    value = f"{TOKEN_PREFIX}_{token_id}_{secrets.token_urlsafe(_SECRET_BYTES)}"
    return BearerToken(token_id=token_id, value=value)


def parse_bearer(value: str) -> BearerToken | None:
    """The token in `value`, or None when it does not have our format."""
    match = _BEARER.fullmatch(value)
    return BearerToken(token_id=match.group(1), value=value) if match else None


@dataclass(frozen=True)
class Quota:
    """Where a token stands in its current one-minute window."""

    limit: int
    used: int
    resets_at: int  # epoch seconds at which the window ends

    @property
    def remaining(self) -> int:
        return max(self.limit - self.used, 0)


@dataclass(frozen=True)
class TokenUsage:
    """How much a token was used on one UTC day."""

    requests: int
    last_used_at: datetime | None


def usage_day(epoch_seconds: int) -> str:
    """The UTC day (YYYY-MM-DD) holding an instant: "requests today" count per UTC day."""
    return datetime.fromtimestamp(epoch_seconds, UTC).strftime("%Y-%m-%d")


def window_start(now: datetime) -> int:
    """Epoch second at which the fixed one-minute window holding `now` began."""
    epoch = int(now.timestamp())
    return epoch - epoch % WINDOW_SECONDS
