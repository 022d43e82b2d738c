"""The sync's stages run on this machine: in this process (`workers=0`: the scheduled Lambda
without a state machine, the tests on moto, the benches) or by N spawned worker processes (`make
run`, the CLI). The local counterpart of the Step Functions execution. A run killed mid-way
resumes where it stopped: a task that recorded its result is not run again, and every other task
rewrites the same output."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from chalicelib.services.sync.pipeline import COUNTRY_FAILURES, COUNTRY_STAGES, SyncPipeline
from chalicelib.services.sync.report import SilentProgress, SyncProgress, SyncReport
from chalicelib.services.sync.stages import STAGES
from chalicelib.services.sync.target import SyncTarget

PipelineFactory = Callable[[], SyncPipeline]  # picklable when workers > 0: each builds its own

_pipeline: SyncPipeline | None = None  # one per worker process


def _start_worker(factory: PipelineFactory) -> None:
    global _pipeline
    _pipeline = factory()


def _run_in_worker(stage: str, item: dict[str, Any]) -> dict[str, Any]:
    assert _pipeline is not None, "worker started without a pipeline"
    return _pipeline.run_task(stage, item)


@dataclass
class LocalExecutor:
    """`workers=0` runs every task in this process (on moto, other processes would not see the
    mocked AWS); otherwise that many spawned processes (no fork: boto3's connections and threads
    must not be shared)."""

    factory: PipelineFactory
    workers: int = 0
    sizes: Mapping[str, Any] = field(default_factory=dict)  # cell and shard sizes (tests make them small)

    def is_current(self, target: SyncTarget) -> bool:
        return self.factory().is_current(target)

    def run(
        self, target: SyncTarget, *, first: Iterable[str] = (), progress: SyncProgress | None = None
    ) -> SyncReport:
        """Build and publish `target`; countries in `first` are written and published before
        the others (a local start serves the US sooner)."""
        told = progress or SilentProgress()
        with self._pool() as pool:
            pipeline = self._build(target, pool, told)
            self._write_and_publish(pipeline, pool, list(first), told)
        return pipeline.report()

    def build(self, target: SyncTarget, progress: SyncProgress | None = None) -> SyncPipeline:
        """Every stage up to the plan (catalogs written, shards planned), nothing of the pool yet:
        what the scale bench times on its own."""
        with self._pool() as pool:
            return self._build(target, pool, progress or SilentProgress())

    def _build(self, target: SyncTarget, pool: Executor | None, progress: SyncProgress) -> SyncPipeline:
        pipeline = self.factory()
        if not pipeline.is_resumable(target):
            pipeline.start(target, **self.sizes)
        for stage in STAGES[: STAGES.index("write")]:
            progress.stage(stage)
            self._fail(pipeline, self._stage(pipeline, pool, stage, pipeline.items(stage), progress))
            pipeline.close(stage)
        return pipeline

    def _write_and_publish(
        self, pipeline: SyncPipeline, pool: Executor | None, first: list[str], progress: SyncProgress
    ) -> None:
        """Country by country, so each is served as soon as its own items are written."""
        countries = [c for c in first if c in pipeline.job.countries]
        countries += [c for c in pipeline.job.countries if c not in countries]
        shards = pipeline.items("write")
        for country in countries:
            own = [s for s in shards if s["country"] == country]
            pipeline.save_running_report(building=country)
            failed: dict[str, str] = {}
            if own:
                progress.country_stage(country, f"writing {sum(s['shard']['rows'] for s in own)} addresses")
                failed = self._stage(pipeline, pool, "write", own, progress)
                if not failed:
                    progress.country_stage(country, "writing the text index")
                    failed = self._stage(pipeline, pool, "index", pipeline.index_items(country), progress)
            self._fail(pipeline, failed)
            progress.country_stage(country, "publishing")
            self._stage(pipeline, None, "publish", [{"country": country}], progress)
        for stage in ("write", "index", "publish"):
            progress.stage(stage)
            pipeline.close(stage)

    def _stage(
        self,
        pipeline: SyncPipeline,
        pool: Executor | None,
        stage: str,
        items: list[dict[str, Any]],
        progress: SyncProgress,
    ) -> dict[str, str]:
        """Run the stage's pending tasks; the countries whose tasks failed to write, with why."""
        pending = [item for item in items if not pipeline.is_done(stage, item)]
        progress.planned(stage, [pipeline.work_of(stage, item) for item in pending])
        runs: list[tuple[dict[str, Any], Callable[[], dict[str, Any]]]]
        if pool is None or len(pending) < 2:
            runs = [(item, partial(pipeline.run_task, stage, item)) for item in pending]
        else:
            futures = [(item, pool.submit(_run_in_worker, stage, item)) for item in pending]
            runs = [(item, future.result) for item, future in futures]
        failed: dict[str, str] = {}
        for item, run in runs:
            try:
                run()  # results are recorded by the tasks; a task's error is raised here
            except COUNTRY_FAILURES as exc:
                if stage not in COUNTRY_STAGES:
                    raise
                failed.setdefault(str(item["country"]), f"{type(exc).__name__}: {exc}")
            progress.done(stage, pipeline.work_of(stage, item))
        return failed

    @staticmethod
    def _fail(pipeline: SyncPipeline, failed: dict[str, str]) -> None:
        for country, error in failed.items():
            pipeline.fail_country(country, error)

    def _pool(self) -> Any:
        if self.workers <= 0:
            return _NoPool()
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(self.factory,),
        )


class _NoPool:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
