"""The administrator API's models: tokens, the pool's state, syncs and the audit log."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from chalicelib.api.models.common import ApiModel, BodyModel, QueryModel, WholeNumber
from chalicelib.api.models.reports import ConfigurationIssue, CoverageEntry
from chalicelib.domain.tokens import MAX_LABEL_LENGTH, MAX_RATE_PER_MINUTE, TOKEN_ID_LENGTH

TokenScope = Literal["read", "generate", "admin"]
MAX_AUDIT_PAGE, DEFAULT_AUDIT_PAGE = 200, 50


class TokenEntry(ApiModel):
    """A token as the administrators see it: never its secret, which only its hash stores"""

    id: str
    """The token's public id (the part of the bearer value after ags_)"""
    label: str
    """What the token is for, as its creator wrote it"""
    scope: TokenScope
    """read, generate or admin"""
    rate_per_minute: int
    """Requests allowed per minute"""
    created_at: datetime
    """When it was created (UTC)"""
    expires_at: datetime
    """When it stops working (UTC)"""
    revoked_at: datetime | None
    """When it was revoked (UTC); null if it was not"""
    status: Literal["active", "expired", "revoked"]
    """active, expired or revoked"""
    last_used_at: datetime | None = Field(description="Minute precision; null if never used")
    requests_today: int = Field(description="Requests counted against its limit since 00:00 UTC")


class TokensResponse(ApiModel):
    """The answer of GET /api/v1/admin/tokens"""

    data: list[TokenEntry]
    """Every token, newest first"""


class CreateTokenBody(BodyModel):
    """The token to create"""

    label: Annotated[str, StringConstraints(min_length=1, max_length=MAX_LABEL_LENGTH)] = Field(
        description="Who or what the token is for (printable text)"
    )
    scope: TokenScope
    """read, generate or admin"""
    rate_per_minute: WholeNumber = Field(ge=1, le=MAX_RATE_PER_MINUTE)
    """Requests allowed per minute"""
    expires_in: Annotated[str, StringConstraints(pattern=r"^\d{1,7}[smhd]$")] = Field(
        description="Lifetime: a whole number with s, m, h or d (90s, 2h, 30d), at most 366d",
        examples=["30d"],
    )


class CreatedToken(ApiModel):
    """The new token, with its secret shown this once"""

    token: TokenEntry
    """The token as listed"""
    secret: str = Field(description="The bearer token: shown in this response only, never again")


class CreatedTokenResponse(ApiModel):
    """The answer of POST /api/v1/admin/tokens"""

    data: CreatedToken
    """The new token"""


class TokenPath(ApiModel):
    token_id: Annotated[str, StringConstraints(pattern=rf"^[a-z0-9]{{{TOKEN_ID_LENGTH}}}$")] = Field(
        alias="tokenId"
    )
    """The token's id, as listed"""


class TokenResponse(ApiModel):
    """The token as it now stands"""

    data: TokenEntry
    """The token"""


class CountryState(ApiModel):
    """One enabled country's pool, coverage and place in a running sync"""

    code: str
    """ISO 3166-1 alpha-2"""
    ready: bool
    """Whether its pool is published and can serve"""
    sync_state: Literal["waiting", "building", "published", "missing"]
    """Where it stands in a running sync: waiting, building, published or missing"""
    snapshot_id: str | None
    """The published snapshot; null before the first"""
    published_at: str | None
    """When that snapshot was published (ISO 8601, UTC)"""
    address_count: int
    """Published addresses"""
    residential_count: int
    """Published residential addresses"""
    complete_count: int
    """Published addresses a form with the country's postal rules accepts"""
    coverage: CoverageEntry
    """Its coverage rules"""


class SourceReport(ApiModel):
    """What a sync made of one source's rows"""

    country: str
    """The source's country"""
    read: int
    """Rows read"""
    kept: int
    """Rows kept as addresses"""
    dropped: dict[str, int] = Field(description="Rows dropped, by reason")
    removed_fields: dict[str, int] = Field(description="Values removed from kept rows, by field")


class CountryReport(ApiModel):
    """What a sync did to one country's pool"""

    status: str = Field(description="published, unchanged, empty or failed")
    snapshot_id: str | None
    """The snapshot published or kept; null if none"""
    addresses: int
    """Addresses in the snapshot"""
    residential: int
    """Residential addresses in it"""
    complete: int
    """Addresses in it a form accepts"""
    locations: int
    """Catalog locations in it"""
    kept: int
    """Addresses the snapshot shares with the one its sync appended to (stored already)"""
    added: int
    """Addresses new or changed since that snapshot (written)"""
    removed: int
    """Addresses of that snapshot this one no longer serves"""
    items_written: int
    """DynamoDB items written"""
    items_deleted: int
    """DynamoDB items of expired snapshots and unused epochs deleted"""
    error: str | None
    """Why it failed; null unless it did"""


class SyncReport(ApiModel):
    """A sync run's report"""

    started_at: str
    """When the run started (ISO 8601, UTC)"""
    finished_at: str | None
    """When it finished; null while it runs"""
    ok: bool
    """Whether every country and source went through"""
    planned: list[str]
    """The countries the run syncs, in order"""
    building: str | None
    """The country being built now; null when none is"""
    countries: dict[str, CountryReport]
    """Per country, what the run did"""
    sources: dict[str, SourceReport]
    """Per source, what the run read and kept"""


class SyncState(ApiModel):
    """Whether a sync runs, with its report"""

    running: bool
    """Whether a sync runs now"""
    last_report: SyncReport | None = Field(description="The running sync's report, else the last one's")


class DataStatus(ApiModel):
    """The pool's state for the console's data page"""

    healthy: bool
    """Every enabled country is ready and the configuration has no error"""
    countries: list[CountryState]
    """Each enabled country's state"""
    configuration_errors: list[ConfigurationIssue]
    """The configuration's errors; empty when there are none"""
    sync: SyncState
    """The running or last sync"""


class DataStatusResponse(ApiModel):
    """The answer of GET /api/v1/admin/data"""

    data: DataStatus
    """The pool's state"""


class SyncStarted(ApiModel):
    """The sync just started"""

    run: str
    """The run's id (the Step Functions execution, or the local run)"""
    started_at: datetime
    """When it started (UTC)"""


class SyncStartedResponse(ApiModel):
    """The answer of POST /api/v1/admin/sync"""

    data: SyncStarted
    """The run"""


class AuditQuery(QueryModel):
    limit: int = Field(
        default=DEFAULT_AUDIT_PAGE, ge=1, le=MAX_AUDIT_PAGE, description="Newest entries, 1 to 200"
    )


class AuditEntry(ApiModel):
    """One administrator action"""

    at: datetime
    """When it happened (UTC)"""
    actor: str = Field(description="The administrator's token id")
    action: Literal["token.create", "token.revoke", "sync.start", "address.withdraw", "address.reinstate"]
    """token.create, token.revoke, sync.start, address.withdraw or address.reinstate"""
    target: str | None
    """What it acted on (a token id, a run); null if nothing"""
    details: dict[str, str]
    """What else was recorded (a label, a scope)"""


class AuditResponse(ApiModel):
    """The answer of GET /api/v1/admin/audit"""

    data: list[AuditEntry]
    """The entries, newest first"""
