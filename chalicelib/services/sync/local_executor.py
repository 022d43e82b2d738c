"""The sharded sync's stages run by N local worker processes: what `make run` and the CLI use, the
local counterpart of the Step Functions execution. A run killed mid-way resumes where it stopped:
a task that recorded its result is not run again, and every other task rewrites the same output."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.run import SyncTarget
from chalicelib.services.sync.sharded import STAGES, ShardedSync

StageListener = Callable[[str], None]
StepsFactory = Callable[[], ShardedSync]  # picklable: each worker process builds its own steps

_steps: ShardedSync | None = None  # one per worker process


def _start_worker(factory: StepsFactory) -> None:
    global _steps
    _steps = factory()


def _run_in_worker(stage: str, item: dict[str, Any]) -> dict[str, Any]:
    assert _steps is not None, "worker started without steps"
    return _steps.run_task(stage, item)


@dataclass
class LocalExecutor:
    """`workers=0` runs every task in this process (tests on moto, where other processes would
    not see the mocked AWS); otherwise that many spawned processes (no fork: boto3's connections
    and threads must not be shared)."""

    factory: StepsFactory
    workers: int
    sizes: Mapping[str, Any] = field(default_factory=dict)  # cell and shard sizes (tests make them small)

    def run(
        self, target: SyncTarget, *, first: Iterable[str] = (), on_stage: StageListener | None = None
    ) -> SyncReport:
        """Build and publish `target`; countries in `first` are written and published before
        the others (a local start serves the US sooner)."""
        with self._pool() as pool:
            steps = self._build(target, pool, on_stage)
            self._write_and_publish(steps, pool, list(first), on_stage)
        return steps.report()

    def build(self, target: SyncTarget, on_stage: StageListener | None = None) -> ShardedSync:
        """Every stage up to the plan (catalogs written, shards planned), nothing of the pool yet:
        what the scale bench times on its own."""
        with self._pool() as pool:
            return self._build(target, pool, on_stage)

    def _build(
        self, target: SyncTarget, pool: Executor | None, on_stage: StageListener | None
    ) -> ShardedSync:
        steps = self.factory()
        if not self._resumable(steps, target):
            steps.start(target, **self.sizes)
        for stage in STAGES[: STAGES.index("write")]:
            if on_stage:
                on_stage(stage)
            self._stage(steps, pool, stage, steps.items(stage))
            steps.close(stage)
        return steps

    def _write_and_publish(
        self,
        steps: ShardedSync,
        pool: Executor | None,
        first: list[str],
        on_stage: Callable[[str], None] | None,
    ) -> None:
        """Country by country, so each is served as soon as its own items are written."""
        countries = [c for c in first if c in steps.job.countries]
        countries += [c for c in steps.job.countries if c not in countries]
        shards = steps.items("write")
        for country in countries:
            if on_stage:
                on_stage(f"write {country}")
            steps.save_running_report(building=country)
            self._stage(steps, pool, "write", [s for s in shards if s["country"] == country])
            self._stage(steps, pool, "index", steps.index_items(country))
            self._stage(steps, None, "publish", [{"country": country}])
        steps.close("write")
        steps.close("index")
        steps.close("publish")

    def _stage(
        self, steps: ShardedSync, pool: Executor | None, stage: str, items: list[dict[str, Any]]
    ) -> None:
        pending = [item for item in items if not steps.is_done(stage, item)]
        if pool is None or len(pending) < 2:
            for item in pending:
                steps.run_task(stage, item)
            return
        for _ in pool.map(_run_in_worker, [stage] * len(pending), pending):
            pass  # results are recorded by the tasks; map re-raises a task's error here

    def _pool(self) -> Any:
        if self.workers <= 0:
            return _NoPool()
        return ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(self.factory,),
        )

    @staticmethod
    def _resumable(steps: ShardedSync, target: SyncTarget) -> bool:
        """The work store holds an unfinished job of the same inputs."""
        if not steps.work.exists("job.json"):
            return False
        job = steps.job
        same = job.fingerprint == target.fingerprint(steps.config.text) and job.manifest == str(
            target.manifest
        )
        return same and not steps.work.exists("finished.json")


class _NoPool:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
