"""A sync run: its job, manifest and sizes, the tables and stores it writes, the results its
tasks recorded. Every stage's task takes one; each worker process builds its own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from chalicelib.clock import Clock
from chalicelib.reference.pool_config import PoolConfig
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.job import SyncJob
from chalicelib.services.sync.ports import (
    LayoutPolicy,
    PoolWriter,
    RegistryWriter,
    SourceFiles,
    SourceOpener,
    WorkStore,
)
from chalicelib.services.sync.reading import source_order
from chalicelib.sources.manifest import SourceEntry, SourceGroup, load_manifest

Model = TypeVar("Model", bound=BaseModel)
T = TypeVar("T")


@dataclass
class SyncRun:
    work: WorkStore
    config: PoolConfig
    pool: PoolWriter
    registry: RegistryWriter
    clock: Clock
    layout_for: LayoutPolicy
    open_sources: SourceOpener
    retention: timedelta = timedelta(days=30)  # a replaced snapshot is kept this long for pins
    _job: SyncJob | None = field(default=None, repr=False)
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)  # read once per process

    @property
    def job(self) -> SyncJob:
        if self._job is None:
            self._job = SyncJob.model_validate(self.work.read_json(keys.JOB))
        return self._job

    def begin(self, job: SyncJob) -> None:
        """A fresh run: the work store emptied, the job recorded."""
        self.work.clear()
        self.work.write_json(keys.JOB, job.model_dump(mode="json"))
        self._job, self._memo = job, {}

    def memo(self, name: str, build: Callable[[], T]) -> T:
        if name not in self._memo:
            self._memo[name] = build()
        return cast(T, self._memo[name])

    def sources(self) -> SourceFiles:
        return self.open_sources(self.job.root)

    def entries(self) -> list[SourceEntry]:
        """The manifest's entries of the job's countries, in manifest order."""

        def read() -> list[SourceEntry]:
            job = self.job
            manifest = self.sources().local([job.manifest]) / job.manifest  # an absolute path stays one
            return [e for e in load_manifest(manifest) if e.country in job.countries]

        return self.memo("entries", read)

    def groups(self) -> list[SourceGroup]:
        """The source groups in read order: a group's rank is its place here."""
        return self.memo("groups", lambda: source_order(self.entries(), self.config))

    def write_items(self, stage: str, items: Sequence[BaseModel]) -> None:
        self.work.write_json(keys.items(stage), [i.model_dump(mode="json") for i in items])

    def read_items(self, stage: str, model: type[Model]) -> list[Model]:
        return [model.model_validate(doc) for doc in self.work.read_json(keys.items(stage))]

    def results(self, stage: str, model: type[Model], task_prefix: str = "") -> list[Model]:
        found = self.work.keys(keys.done_prefix(stage, task_prefix))
        return [model.model_validate(self.work.read_json(k)) for k in found]
