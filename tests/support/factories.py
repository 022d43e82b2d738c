"""Factories that build test data through the real code."""

from __future__ import annotations

import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from chalicelib import deps
from chalicelib.clock import Clock
from chalicelib.config import Settings
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.reference.pool_config import load_pool_config
from chalicelib.services.sync.enrich import SourceFacts, publish
from chalicelib.services.sync.normalize import Candidate, normalize
from chalicelib.services.tokens import IssuedToken, TokenAdminStore, create_token
from chalicelib.sources.manifest import SourceEntry
from chalicelib.sources.records import RawRecord
from chalicelib.storage.dynamodb.tables import create_missing_tables
from tests.support.fakes import FakeClock


def make_settings(**overrides: object) -> Settings:
    values: dict[str, object] = {
        "stage": "test",
        "tokens_table": "test-tokens",
        "rate_limits_table": "test-rate-limits",
        "pool_table": "test-pool",
        "catalog_table": "test-catalog",
        "audit_table": "test-audit",
        "token_cache_seconds": 0,
        "cursor_secret": "test-cursor-secret-" + "x" * 32,
    }
    values.update(overrides)
    return Settings.model_validate(values)


def issue_token(
    tokens: TokenAdminStore,
    clock: Clock,
    *,
    scope: str = "generate",
    rate_per_minute: int = 100,
    lifetime: timedelta = timedelta(hours=1),
    label: str = "test",
) -> IssuedToken:
    return create_token(
        tokens, clock, scope=scope, rate_per_minute=rate_per_minute, lifetime=lifetime, label=label
    )


def bearer(issued: IssuedToken) -> dict[str, str]:
    return {"Authorization": f"Bearer {issued.bearer}"}


SOURCES = Path(__file__).resolve().parents[3] / "shared" / "sources"
# For a test that reads the real sources: skipped without them (CI refuses to run without them).
needs_sources = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")


def make_raw(**overrides: Any) -> RawRecord:
    """A plausible valid source row (Wrocław, PRG style); override what a test is about."""
    values: dict[str, Any] = {
        "source_id": "pl-wroclaw-prg",
        "record_id": "54335066",
        "country": "PL",
        "language": "pl",
        "number": "1",
        "street": "Ulica Księcia Witolda",
        "city": "Wrocław",
        "district": "Wrocław",
        "region": "dolnośląskie",
        "postcode": "50-202",
        "lon": "17.031329",
        "lat": "51.1147939",
    }
    values.update(overrides)
    return RawRecord(**values)


def make_address(**overrides: Any) -> PublishedAddress:
    """A published address built through the real normalize → publish path."""
    raw_fields = {k: v for k, v in overrides.items() if k in RawRecord.__dataclass_fields__}
    raw = make_raw(**raw_fields)
    config = load_pool_config()
    source = SourceFacts(raw.source_id, _entry(raw), config.source(raw.source_id))
    candidate = normalize(raw, config.countries.get(raw.country), source.config)
    assert isinstance(candidate, Candidate), candidate
    return publish(candidate, source)


def _entry(raw: RawRecord) -> SourceEntry:
    return SourceEntry(
        id=raw.source_id,
        country=raw.country,
        format="openaddresses-geojson",
        files=("x",),
        language=raw.language,
        license="CC0-1.0",
        attribution="test",
    )


def wired_on(endpoint: str, name: str, **settings: object) -> deps.Dependencies:
    """The service on DynamoDB Local at `endpoint` with tables of its own (a fresh prefix), created."""
    tables = fresh_tables(name)
    wired = deps.build(
        make_settings(**tables, dynamodb_endpoint=endpoint, **settings), FakeClock.for_a_real_engine()
    )
    create_missing_tables(wired.stores)
    return wired


def fresh_tables(name: str) -> dict[str, str]:
    """Table settings under a prefix no other test uses."""
    prefix = f"{name}-{uuid.uuid4().hex[:8]}"
    return {
        "tokens_table": f"{prefix}-tokens",
        "rate_limits_table": f"{prefix}-rate",
        "pool_table": f"{prefix}-pool",
        "catalog_table": f"{prefix}-catalog",
        "audit_table": f"{prefix}-audit",
    }
