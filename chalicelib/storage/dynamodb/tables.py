"""Every table the service uses, built from settings, for wiring, readiness and local set-up."""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.config import Settings
from chalicelib.domain.published import Layout
from chalicelib.storage.dynamodb._wire import DynamoWire
from chalicelib.storage.dynamodb.audit import AuditStore
from chalicelib.storage.dynamodb.pool import PoolStore, buckets_for
from chalicelib.storage.dynamodb.rate_limits import RateLimitStore
from chalicelib.storage.dynamodb.registry import RegistryStore, shards_for
from chalicelib.storage.dynamodb.tokens import TokenStore

Store = TokenStore | RateLimitStore | PoolStore | RegistryStore | AuditStore


@dataclass(frozen=True)
class Stores:
    tokens: TokenStore
    rate_limits: RateLimitStore
    pool: PoolStore
    registry: RegistryStore
    audit: AuditStore

    def all(self) -> tuple[Store, ...]:
        return (self.tokens, self.rate_limits, self.pool, self.registry, self.audit)


def build_stores(settings: Settings) -> Stores:
    # Every table shares the endpoint, region and timeouts, so one wire serves them all.
    wire = DynamoWire(settings.table(settings.pool_table))
    audit = AuditStore(settings.table(settings.audit_table), wire=wire)
    return Stores(
        tokens=TokenStore(settings.table(settings.tokens_table), audit, wire=wire),
        rate_limits=RateLimitStore(settings.table(settings.rate_limits_table), wire=wire),
        pool=PoolStore(settings.table(settings.pool_table), wire=wire),
        registry=RegistryStore(settings.table(settings.catalog_table), wire=wire),
        audit=audit,
    )


def create_missing_tables(stores: Stores) -> list[str]:
    """Create any table that does not exist yet; returns the names created."""
    return [store.table_name for store in stores.all() if store.create_table()]


def snapshot_layout(addresses: int, locations: int) -> Layout:
    """How a snapshot of this size spreads over partition keys."""
    return Layout(buckets=buckets_for(addresses), shards=shards_for(locations))
