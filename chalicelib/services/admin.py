"""What the administrator console does: tokens with their use, the pool's state, starting a sync,
and the audit log that records every one of these actions."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from chalicelib.clock import Clock
from chalicelib.domain.audit import AuditAction, AuditEntry
from chalicelib.domain.coverage import Coverage
from chalicelib.domain.tokens import Token, TokenUsage, usage_day
from chalicelib.errors import SyncAlreadyRunning, TokenNotFound
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services import reports
from chalicelib.services.tokens import IssuedToken, new_token


class AuditLog(Protocol):
    def append(self, entry: AuditEntry) -> None: ...
    def recent(self, now: datetime, limit: int) -> list[AuditEntry]: ...


class UsageReader(Protocol):
    def usage(self, token_ids: list[str], day: str) -> dict[str, TokenUsage]: ...


class TokenCache(Protocol):
    def forget(self, token_id: str) -> None: ...


class AuditedTokens(Protocol):
    """Token writes that are stored together with their audit entry, or not at all."""

    def list_all(self) -> list[Token]: ...
    def put_new_audited(self, token: Token, entry: AuditEntry) -> None: ...
    def revoke_audited(self, token: Token, at: datetime, entry: AuditEntry) -> Token: ...
    def get(self, token_id: str) -> Token | None: ...


class SyncLauncher(Protocol):
    def running(self) -> bool: ...
    def start(self, name: str) -> str: ...


@dataclass(frozen=True)
class TokenAdmin:
    """What the token pages use: the tokens (with their audit), their use, this process's cache."""

    tokens: AuditedTokens
    usage: UsageReader
    cache: TokenCache
    clock: Clock


@dataclass(frozen=True)
class SyncControl:
    """What starting a sync uses."""

    launcher: SyncLauncher
    sync_reports: reports.SyncReports
    audit: AuditLog
    clock: Clock


@dataclass(frozen=True)
class AuditReader:
    log: AuditLog
    clock: Clock


@dataclass(frozen=True)
class TokenView:
    """A token as the console lists it: the record and today's use."""

    token: Token
    requests_today: int
    last_used_at: datetime | None


@dataclass(frozen=True)
class Admin:
    """The acting administrator (their token's id) and the clock their actions are stamped with."""

    actor: str
    clock: Clock


def list_tokens(tokens: AuditedTokens, usage: UsageReader, clock: Clock) -> list[TokenView]:
    """Every token, newest first, with its requests today (UTC) and when it was last used."""
    now = clock.now()
    records = sorted(tokens.list_all(), key=lambda t: t.created_at, reverse=True)
    today = usage.usage([t.token_id for t in records], usage_day(int(now.timestamp())))
    views = []
    for token in records:
        used = today.get(token.token_id)
        moments = [m for m in (token.last_used_at, used.last_used_at if used else None) if m]
        views.append(TokenView(token, used.requests if used else 0, max(moments) if moments else None))
    return views


def create(
    tokens: AuditedTokens,
    admin: Admin,
    *,
    scope: str,
    rate_per_minute: int,
    lifetime: timedelta,
    label: str,
) -> IssuedToken:
    issued = new_token(
        admin.clock, scope=scope, rate_per_minute=rate_per_minute, lifetime=lifetime, label=label
    )
    t = issued.token
    details = {"label": t.label, "scope": t.scope.value, "ratePerMinute": str(t.rate_per_minute)}
    tokens.put_new_audited(
        t, AuditEntry(t.created_at, admin.actor, AuditAction.TOKEN_CREATED, t.token_id, details)
    )
    return issued


def revoke(tokens: AuditedTokens, cache: TokenCache, admin: Admin, token_id: str) -> Token:
    """Revoke at once; this process forgets its cached copy, other warm processes within the
    token cache time."""
    known = tokens.get(token_id)
    if known is None:
        raise TokenNotFound(f"no token has the id {token_id!r}")
    now = admin.clock.now()
    details = {"label": known.label, "scope": known.scope.value}
    token = tokens.revoke_audited(
        known, now, AuditEntry(now, admin.actor, AuditAction.TOKEN_REVOKED, token_id, details)
    )
    cache.forget(token_id)
    return token


@dataclass(frozen=True)
class SyncStart:
    run: str
    started_at: datetime


def start_sync(
    launcher: SyncLauncher, sync_reports: reports.SyncReports, audit: AuditLog, admin: Admin
) -> SyncStart:
    """Start a sync unless one is running (by its report, or by the launcher's own knowledge)."""
    now = admin.clock.now()
    latest = reports.latest_report(sync_reports)
    if (latest is not None and reports.is_running(latest, now)) or launcher.running():
        raise SyncAlreadyRunning("a sync is running; wait for it to finish (the Data page shows it)")
    name = f"admin-{now:%Y%m%dT%H%M%S}-{admin.actor}"
    # Recorded first: a start that then fails is in the log too, never the other way round.
    audit.append(AuditEntry(now, admin.actor, AuditAction.SYNC_STARTED, name))
    launcher.start(name)
    return SyncStart(name, now)


def audit_entries(audit: AuditLog, clock: Clock, limit: int) -> list[AuditEntry]:
    return audit.recent(clock.now(), limit)


@dataclass(frozen=True)
class DataStatus:
    health: reports.DataHealth  # with the last sync's report
    coverage: dict[str, Coverage]


def data_status(
    snapshots: reports.Snapshots,
    config: PoolConfig,
    sync_reports: reports.SyncReports,
    clock: Clock,
) -> DataStatus:
    """Per enabled country its pool, coverage and place in a running sync; the last sync's report."""
    health = reports.data_health(snapshots, config, sync_reports, clock.now())
    coverage = reports.coverage(snapshots, config, country=None, include_complete=True)
    return DataStatus(health, {c.country: c for c in coverage})
