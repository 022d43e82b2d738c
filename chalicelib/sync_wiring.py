"""The composition root of the sync: its pipeline, executors and the state machine's steps, wired
from a process's dependencies (`deps`). Imported by the sync's callers only (the scheduled and
step Lambdas, the CLI, the local stack): the readers (pyosmium) and the pipeline load with it,
never on a request's path."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

from chalicelib.config import Settings
from chalicelib.deps import Dependencies, build
from chalicelib.errors import NotConfigured
from chalicelib.logs import log_event
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync.acquisition import Acquisition, acquire
from chalicelib.services.sync.local_executor import LocalExecutor
from chalicelib.services.sync.pipeline import SyncPipeline
from chalicelib.services.sync.ports import SourceFiles, WorkStore
from chalicelib.services.sync.report import SyncProgress, SyncReport
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.steps import parse_step, run_step
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.manifest import SourceEntry
from chalicelib.sources.upstream import FetchPolicy, Validators, fetch
from chalicelib.storage.dynamodb.tables import snapshot_layout
from chalicelib.storage.files.source_store import S3SourceStore, source_files
from chalicelib.storage.files.sync_work import LocalWorkStore, S3WorkStore, split_s3_url

# What a Lambda's acquisition fetches at most: its /tmp is 10 GB (larger files: `sources fetch`).
LAMBDA_FETCH_BYTES = 9 * 1024**3
INDEX_BYTES = 64 * 1024**2  # Geofabrik's index without geometries is some 2 MB


def sync_pipeline(d: Dependencies, work: WorkStore, config: PoolConfig | None = None) -> SyncPipeline:
    """The sync's stages on this deployment's tables, passing files through `work`."""
    run = SyncRun(
        work,
        config or d.pool_config,
        d.stores.pool,
        d.stores.registry,
        d.clock,
        snapshot_layout,
        open_sources,
        timedelta(days=d.settings.snapshot_retention_days),
    )
    return SyncPipeline(run)


def sync_executor(
    d: Dependencies, work: Path, workers: int = 0, config: PoolConfig | None = None
) -> LocalExecutor:
    """The sync run on this machine with `work` as its work folder: in this process (with this
    wiring, e.g. a test's clock) or by `workers` processes (each wired from the settings)."""
    if workers:
        return LocalExecutor(LocalSteps(work, d.settings, config or d.pool_config), workers)
    return LocalExecutor(partial(sync_pipeline, d, LocalWorkStore(work), config))


def sync_in_process(
    d: Dependencies,
    target: SyncTarget,
    *,
    progress: SyncProgress | None = None,
    config: PoolConfig | None = None,
    if_changed: bool = False,
) -> SyncReport | None:
    """The whole sync in this process on a throwaway work folder; None when `if_changed` and the
    last successful sync read exactly these inputs."""
    with tempfile.TemporaryDirectory(prefix="ags-sync-") as work:
        executor = sync_executor(d, Path(work), config=config)
        if if_changed and executor.is_current(target):
            return None
        return executor.run(target, progress=progress)


def sync_step(d: Dependencies, event: object) -> dict[str, object]:
    """One step of the state machine's sync (see state_machine.py), on the S3 source store and
    work prefix the settings name: what the `sync_step` Lambda and the container task run."""
    sources, work = d.settings.sync_sources, d.settings.sync_work
    if not sources or not work:
        raise NotConfigured("SYNC_SOURCES and SYNC_WORK must be set for the state machine's sync")
    step = parse_step(event)
    bucket, prefix = split_s3_url(work)
    store = S3WorkStore(bucket, f"{prefix}{step.run}/")
    files = open_sources(sources)

    def fetch_file(name: str) -> Path:
        return files.local([name]) / name

    result = run_step(
        step,
        sync_pipeline(d, store),
        sources,
        store.location(""),
        fetch_file,
        _acquirer(d, sources),
        partial(_discover, d, sources),
    )
    log_event("sync_step", action=step.action, stage=step.stage, run=step.run)
    return result


def _acquirer(d: Dependencies, sources: str) -> Callable[[SourceEntry], Acquisition]:
    """One entry's file from its publisher into the S3 source store, as large as a Lambda's /tmp
    holds."""
    store = S3SourceStore(*split_s3_url(sources))
    download = partial(fetch, policy=FetchPolicy(max_bytes=LAMBDA_FETCH_BYTES))

    def acquire_one(entry: SourceEntry) -> Acquisition:
        [result] = acquire([entry], store, download, d.clock)
        return result

    return acquire_one


def _discover(d: Dependencies, sources: str) -> dict[str, Any]:
    """The Discover state: Overture's newest release and Geofabrik's index, as the settings name
    them, made into the manifest of the source store."""
    from chalicelib.services.sync.discovery import Upstreams, discover_manifest
    from chalicelib.storage.files.overture_bucket import S3Releases

    settings = d.settings
    if not settings.overture_releases and not settings.geofabrik_index:
        raise NotConfigured("OVERTURE_RELEASES or GEOFABRIK_INDEX must be set for discovery")
    releases = S3Releases(settings.overture_releases) if settings.overture_releases else None
    index = partial(_fetch_text, settings.geofabrik_index) if settings.geofabrik_index else None
    store = S3SourceStore(*split_s3_url(sources))
    return discover_manifest(Upstreams(releases, index), d.pool_config, store.keep_manifest)


def _fetch_text(url: str) -> str:
    """A small document from a publisher (Geofabrik's index, about 2 MB), by the acquisition's
    guarded fetch: public hosts only, retried, bounded."""
    fetched = fetch(url, Validators(), FetchPolicy(max_bytes=INDEX_BYTES))
    assert fetched.body is not None  # an unconditional request answers with a body
    try:
        return fetched.body.read_text(encoding="utf-8")
    finally:
        fetched.body.unlink(missing_ok=True)


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
        wired = build(self.settings, pool_config=self.pool_config)
        return sync_pipeline(wired, LocalWorkStore(self.work_root))


def open_sources(root: str) -> SourceFiles:
    """A sync job's sources: a local folder, or the source store's s3://… copied to /tmp on use."""
    return source_files(root, Path(tempfile.gettempdir()) / "ags-sources")
