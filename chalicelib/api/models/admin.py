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
    id: str
    label: str
    scope: TokenScope
    rate_per_minute: int
    created_at: datetime
    expires_at: datetime
    revoked_at: datetime | None
    status: Literal["active", "expired", "revoked"]
    last_used_at: datetime | None = Field(description="Minute precision; null if never used")
    requests_today: int = Field(description="Requests counted against its limit since 00:00 UTC")


class TokensResponse(ApiModel):
    data: list[TokenEntry]


class CreateTokenBody(BodyModel):
    label: Annotated[str, StringConstraints(min_length=1, max_length=MAX_LABEL_LENGTH)] = Field(
        description="Who or what the token is for (printable text)"
    )
    scope: TokenScope
    rate_per_minute: WholeNumber = Field(ge=1, le=MAX_RATE_PER_MINUTE)
    expires_in: Annotated[str, StringConstraints(pattern=r"^\d{1,7}[smhd]$")] = Field(
        description="Lifetime: a whole number with s, m, h or d (90s, 2h, 30d), at most 366d",
        examples=["30d"],
    )


class CreatedToken(ApiModel):
    token: TokenEntry
    secret: str = Field(description="The bearer token: shown in this response only, never again")


class CreatedTokenResponse(ApiModel):
    data: CreatedToken


class TokenPath(ApiModel):
    token_id: Annotated[str, StringConstraints(pattern=rf"^[a-z0-9]{{{TOKEN_ID_LENGTH}}}$")] = Field(
        alias="tokenId"
    )


class TokenResponse(ApiModel):
    data: TokenEntry


class CountryState(ApiModel):
    code: str
    ready: bool
    sync_state: Literal["waiting", "building", "published", "missing"]
    snapshot_id: str | None
    published_at: str | None
    address_count: int
    residential_count: int
    complete_count: int
    coverage: CoverageEntry


class SourceReport(ApiModel):
    country: str
    read: int
    kept: int
    dropped: dict[str, int] = Field(description="Rows dropped, by reason")
    removed_fields: dict[str, int] = Field(description="Values removed from kept rows, by field")


class CountryReport(ApiModel):
    status: str = Field(description="published, unchanged, empty or failed")
    snapshot_id: str | None
    addresses: int
    residential: int
    complete: int
    locations: int
    items_written: int
    items_deleted: int
    error: str | None


class SyncReport(ApiModel):
    started_at: str
    finished_at: str | None
    ok: bool
    planned: list[str]
    building: str | None
    countries: dict[str, CountryReport]
    sources: dict[str, SourceReport]


class SyncState(ApiModel):
    running: bool
    last_report: SyncReport | None = Field(description="The running sync's report, else the last one's")


class DataStatus(ApiModel):
    healthy: bool
    countries: list[CountryState]
    configuration_errors: list[ConfigurationIssue]
    sync: SyncState


class DataStatusResponse(ApiModel):
    data: DataStatus


class SyncStarted(ApiModel):
    run: str
    started_at: datetime


class SyncStartedResponse(ApiModel):
    data: SyncStarted


class AuditQuery(QueryModel):
    limit: int = Field(
        default=DEFAULT_AUDIT_PAGE, ge=1, le=MAX_AUDIT_PAGE, description="Newest entries, 1 to 200"
    )


class AuditEntry(ApiModel):
    at: datetime
    actor: str = Field(description="The administrator's token id")
    action: Literal["token.create", "token.revoke", "sync.start"]
    target: str | None
    details: dict[str, str]


class AuditResponse(ApiModel):
    data: list[AuditEntry]
