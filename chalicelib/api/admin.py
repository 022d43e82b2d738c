"""The administrators' API under /api/v1/admin/ (admin tokens only): tokens, the pool's state,
starting a sync, the audit log. The console at /admin calls it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from chalicelib.api.endpoint import Call, Operation, endpoint
from chalicelib.api.models import admin as models
from chalicelib.api.presenters.reports import configuration_issues, coverage_entry
from chalicelib.clock import Clock
from chalicelib.domain.tokens import Scope
from chalicelib.services import admin as service
from chalicelib.services.reports import ReportPorts
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.tokens import parse_duration

TOKENS = "/api/v1/admin/tokens"


def _admin(call: Call[Any, Any], clock: Clock) -> service.Admin:
    assert call.token is not None  # admin operations always authenticate
    return service.Admin(actor=call.token.token_id, clock=clock)


@endpoint(
    Operation(
        method="GET",
        path=TOKENS,
        name="listTokens",
        tag="admin",
        summary="Every token (never its secret), newest first, with its use today",
        description="Tokens are stored as hashes: the list shows each token's id, label, scope, "
        "limit, dates and status, never a secret.",
        response=models.TokensResponse,
        scope=Scope.ADMIN,
    ),
    needs=lambda d: d.token_admin(),
)
def list_tokens(call: Call[None, None], admin: service.TokenAdmin) -> models.TokensResponse:
    views = service.list_tokens(admin.tokens, admin.usage, admin.clock)
    now = admin.clock.now()
    return models.TokensResponse(data=[_token_entry(v, now) for v in views])


@endpoint(
    Operation(
        method="POST",
        path=TOKENS,
        name="createToken",
        tag="admin",
        summary="Create a token; its secret is in this response only",
        description="201 with the bearer value, shown once: only its hash is stored. The creation is "
        "written to the audit log.",
        response=models.CreatedTokenResponse,
        scope=Scope.ADMIN,
        body=models.CreateTokenBody,
        status=201,
    ),
    needs=lambda d: d.token_admin(),
)
def create_token(
    call: Call[None, models.CreateTokenBody], admin: service.TokenAdmin
) -> models.CreatedTokenResponse:
    body = call.body
    issued = service.create(
        admin.tokens,
        _admin(call, admin.clock),
        scope=body.scope,
        rate_per_minute=body.rate_per_minute,
        lifetime=parse_duration(body.expires_in),
        label=body.label,
    )
    view = service.TokenView(issued.token, requests_today=0, last_used_at=None)
    created = models.CreatedToken(token=_token_entry(view, admin.clock.now()), secret=issued.bearer)
    return models.CreatedTokenResponse(data=created)


@endpoint(
    Operation(
        method="POST",
        path=TOKENS + "/{tokenId}/revoke",
        name="revokeToken",
        tag="admin",
        summary="Revoke a token: refused at once by this process, by every API process within the "
        "token cache time (TOKEN_CACHE_SECONDS, 30 s by default)",
        description="Revoking a revoked token keeps its first revocation time. "
        "404 TOKEN_NOT_FOUND when no token has the id.",
        response=models.TokenResponse,
        scope=Scope.ADMIN,
        path_params=models.TokenPath,
        errors=(404,),
        not_found="TOKEN_NOT_FOUND",
    ),
    needs=lambda d: d.token_admin(),
)
def revoke_token(call: Call[None, None], admin: service.TokenAdmin) -> models.TokenResponse:
    token = service.revoke(admin.tokens, admin.cache, _admin(call, admin.clock), call.path["token_id"])
    view = service.TokenView(token, requests_today=0, last_used_at=token.last_used_at)
    return models.TokenResponse(data=_token_entry(view, admin.clock.now()))


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/admin/data",
        name="getDataStatus",
        tag="admin",
        summary="Per enabled country its pool, coverage and sync state; the last sync's report",
        description="What the console's data page shows: each enabled country's published snapshot, "
        "counts, coverage rules and whether a sync is running, with the last sync's report.",
        response=models.DataStatusResponse,
        scope=Scope.ADMIN,
    ),
    needs=lambda d: d.report_ports(),
)
def data_status(call: Call[None, None], ports: ReportPorts) -> models.DataStatusResponse:
    status = service.data_status(ports.snapshots, ports.config, ports.sync_reports, ports.clock)
    health = status.health
    return models.DataStatusResponse(
        data=models.DataStatus(
            healthy=health.healthy,
            countries=[
                models.CountryState(
                    code=c.code,
                    ready=c.ready,
                    sync_state=health.sync_states[c.code].value,
                    snapshot_id=c.snapshot.snapshot_id if c.snapshot else None,
                    published_at=c.snapshot.published_at if c.snapshot else None,
                    address_count=c.count,
                    residential_count=c.residential_count,
                    complete_count=c.complete_count,
                    coverage=coverage_entry(status.coverage[c.code]),
                )
                for c in health.countries
            ],
            configuration_errors=configuration_issues(health.configuration_errors),
            sync=models.SyncState(running=health.sync_running, last_report=_sync_report(health.sync_report)),
        )
    )


@endpoint(
    Operation(
        method="POST",
        path="/api/v1/admin/sync",
        name="startSync",
        tag="admin",
        summary="Start a sync of every enabled country now (in AWS, an execution of the sync's state "
        "machine; locally, a process beside the server); GET /api/v1/admin/data shows its progress",
        description="409 SYNC_RUNNING when a sync is running already.",
        response=models.SyncStartedResponse,
        scope=Scope.ADMIN,
        errors=(409,),
        status=202,
    ),
    needs=lambda d: d.sync_control(),
)
def start_sync(call: Call[None, None], control: service.SyncControl) -> models.SyncStartedResponse:
    admin = _admin(call, control.clock)
    started = service.start_sync(control.launcher, control.sync_reports, control.audit, admin)
    return models.SyncStartedResponse(data=models.SyncStarted(run=started.run, started_at=started.started_at))


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/admin/audit",
        name="listAuditEntries",
        tag="admin",
        summary="The audit log: every administrator action, newest first (kept 13 months)",
        description="Token creations and revocations and sync starts, each with the acting token's id "
        "and the time; `limit` newest entries.",
        response=models.AuditResponse,
        scope=Scope.ADMIN,
        query=models.AuditQuery,
    ),
    needs=lambda d: d.audit_reader(),
)
def audit_log(call: Call[models.AuditQuery, None], reader: service.AuditReader) -> models.AuditResponse:
    entries = service.audit_entries(reader.log, reader.clock, call.query.limit)
    return models.AuditResponse(
        data=[models.AuditEntry.model_validate(e, from_attributes=True) for e in entries]
    )


def _token_entry(view: service.TokenView, now: datetime) -> models.TokenEntry:
    t = view.token
    return models.TokenEntry(
        id=t.token_id,
        label=t.label,
        scope=t.scope.value,
        rate_per_minute=t.rate_per_minute,
        created_at=t.created_at,
        expires_at=t.expires_at,
        revoked_at=t.revoked_at,
        status=t.status(now),
        last_used_at=view.last_used_at,
        requests_today=view.requests_today,
    )


def _sync_report(report: SyncReport | None) -> models.SyncReport | None:
    """The last sync's report as the API shows it (a run still going has no finish time)."""
    if report is None:
        return None
    shown = models.SyncReport.model_validate(report, from_attributes=True)
    return shown.model_copy(update={"finished_at": report.finished_at or None})
