"""The administrators' audit log: who (a token id) did what, to what, and when."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum


class AuditAction(StrEnum):
    TOKEN_CREATED = "token.create"  # noqa: S105 - an action name, not a secret
    TOKEN_REVOKED = "token.revoke"  # noqa: S105 - an action name, not a secret
    SYNC_STARTED = "sync.start"
    ADDRESS_WITHDRAWN = "address.withdraw"
    ADDRESS_REINSTATED = "address.reinstate"


@dataclass(frozen=True)
class AuditEntry:
    at: datetime
    actor: str  # the administrator's token id
    action: AuditAction
    target: str | None = None  # the token or sync run acted on
    details: dict[str, str] = field(default_factory=dict)
