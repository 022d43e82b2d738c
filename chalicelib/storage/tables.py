"""Every table the service uses, built from settings, for wiring, readiness and local set-up."""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.config import Settings
from chalicelib.storage.rate_limits import RateLimitStore
from chalicelib.storage.tokens import TokenStore


@dataclass(frozen=True)
class Stores:
    tokens: TokenStore
    rate_limits: RateLimitStore

    def all(self) -> tuple[TokenStore | RateLimitStore, ...]:
        return (self.tokens, self.rate_limits)


def build_stores(settings: Settings) -> Stores:
    return Stores(
        tokens=TokenStore(settings.table(settings.tokens_table)),
        rate_limits=RateLimitStore(settings.table(settings.rate_limits_table)),
    )


def create_missing_tables(stores: Stores) -> list[str]:
    """Create any table that does not exist yet; returns the names created."""
    return [store.table_name for store in stores.all() if store.create_table()]
