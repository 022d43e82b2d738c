"""The sync as one pipeline of stages bound to a run (SyncRun): what the local executor (in this
process or in worker processes) and the Step Functions steps call. Every method but `start` is
one task or one stage's close, safe to run again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chalicelib.errors import PublishConflict, StorageUnavailable
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.job import CLAIMS_PER_CELL, ROWS_PER_CELL, WORK_FORMAT, SyncJob
from chalicelib.services.sync.report import SyncReport, Work
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.sharding import cells_for, street_layout
from chalicelib.services.sync.stages import BY_NAME, PIPELINE, STAGES, bounds, publish
from chalicelib.services.sync.stages.index import items_of
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.manifest import SourceEntry, load_manifest

# The stages whose tasks write a country's tables: a storage failure there fails that country only
# (reported `failed`, its served snapshot untouched), and the others go on.
COUNTRY_STAGES = ("plan", "write", "index")
COUNTRY_FAILURES = (StorageUnavailable, PublishConflict)


@dataclass
class SyncPipeline:
    run: SyncRun

    def start(
        self,
        target: SyncTarget,
        *,
        per_cell: int = ROWS_PER_CELL,
        claims_per_cell: int = CLAIMS_PER_CELL,
        sources: str | None = None,
        **sizes: int,
    ) -> SyncJob:
        """A fresh job: its cells sized from the manifest's record counts, and the running report
        that /data-health shows. `sources`: where the tasks find the files when not at
        `target.root` (the source store's `s3://bucket/prefix/` in AWS)."""
        run = self.run
        countries = target.chosen(run.config.enabled)
        withdrawn = run.registry.withdrawn_keys()
        entries = [e for e in load_manifest(target.manifest) if e.country in countries]
        rows = sum(e.records for e in entries)
        country_cells, street_cells = street_layout(counted_rows(entries), per_cell)
        job = SyncJob(
            manifest=str(target.manifest.resolve()) if sources is None else target.manifest.name,
            root=sources or str(target.root),
            countries=countries,
            fingerprint=self._fingerprint(target, sources, withdrawn),
            started_at=run.clock.now().isoformat(),
            # Powers of two per country, as the ledger buckets are (domain/epochs.py).
            street_cells=street_cells,
            country_cells=country_cells,
            object_cells=cells_for(rows, claims_per_cell),
            text_cells=cells_for(rows, claims_per_cell),
            withdrawn=sorted(k for c in countries for k in withdrawn.get(c, ())),
            **sizes,
        )
        run.begin(job)
        run.write_items(bounds.STAGE.name, bounds.STAGE.plan(run))
        run.registry.save_sync_report(publish.report(run).as_dict())
        return job

    def fingerprint(self, target: SyncTarget, sources: str | None = None) -> str:
        return self._fingerprint(target, sources, self.run.registry.withdrawn_keys())

    def _fingerprint(
        self, target: SyncTarget, sources: str | None, withdrawn: dict[str, frozenset[str]]
    ) -> str:
        """The inputs' fingerprint, the withdrawals among them: a withdrawal makes the next sync
        rebuild, so the snapshot it publishes no longer holds (nor counts) the address."""
        files = self.run.open_sources(sources or str(target.root))
        keys = sorted(k for keys in withdrawn.values() for k in keys)
        return target.fingerprint(self.run.config.text + "|" + ",".join(keys), files.stamp)

    def is_current(self, target: SyncTarget, sources: str | None = None) -> bool:
        """The last sync succeeded on exactly these inputs: a new run would publish nothing new."""
        latest = self._latest_report()
        return latest is not None and latest.ok and latest.fingerprint == self.fingerprint(target, sources)

    def is_resumable(self, target: SyncTarget) -> bool:
        """The work store holds an unfinished job of the same inputs."""
        work = self.run.work
        if not work.exists(keys.JOB) or work.exists(keys.FINISHED):
            return False
        if work.read_json(keys.JOB).get("work_format") != WORK_FORMAT:
            return False  # a run of an earlier release: its files are not this release's
        job = self.run.job
        return job.fingerprint == self.fingerprint(target) and job.manifest == str(target.manifest.resolve())

    @property
    def job(self) -> SyncJob:
        return self.run.job

    def items(self, stage: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.run.work.read_json(keys.items(stage))
        return found

    def run_task(self, stage: str, item: dict[str, Any]) -> dict[str, Any]:
        """One task; its result is recorded, so a rerun of the stage can skip it."""
        parsed, result = BY_NAME[stage].run_raw(self.run, item)
        doc: dict[str, Any] = result.model_dump(mode="json")
        self.run.work.write_json(keys.done(stage, parsed.task()), doc)
        return doc

    def run_once(self, stage: str, item: dict[str, Any]) -> dict[str, Any]:
        """One task as a state machine's Map runs it, every item whatever happened to the others:
        a task that recorded its result (a retried one, a failed country's publish) is not run
        again."""
        if self.is_done(stage, item):
            recorded: dict[str, Any] = self.run.work.read_json(self._done(stage, item))
            return recorded
        return self.run_task(stage, item)

    def published_all(self) -> bool:
        """The finished run's report, as its publish stage recorded it: no country failed."""
        latest = self._latest_report()
        return latest is not None and latest.ok

    def _latest_report(self) -> SyncReport | None:
        stored = self.run.registry.latest_sync_report()
        return SyncReport.from_dict(stored) if stored is not None else None

    def fail_task(self, stage: str, item: dict[str, Any], error: str) -> str:
        """A country stage's task that failed for good (its retries spent): its country fails, the
        run goes on. Returns the country."""
        if stage not in COUNTRY_STAGES:
            raise ValueError(f"a {stage} task's failure is the run's, not a country's")
        BY_NAME[stage].item.model_validate(item)  # every country stage's item names its country
        country = str(item["country"])
        self.fail_country(country, error)
        return country

    def is_done(self, stage: str, item: dict[str, Any]) -> bool:
        return self.run.work.exists(self._done(stage, item))

    @staticmethod
    def _done(stage: str, item: dict[str, Any]) -> str:
        return keys.done(stage, BY_NAME[stage].item.model_validate(item).task())

    def close(self, stage: str) -> None:
        """After the stage's last task: its finish, then the next stage's items."""
        BY_NAME[stage].finish(self.run)
        following = STAGES.index(stage) + 1
        if following < len(PIPELINE):
            upcoming = PIPELINE[following]
            self.run.write_items(upcoming.name, upcoming.plan(self.run))

    def work_of(self, stage: str, item: dict[str, Any]) -> Work:
        """What a task is of its stage, for progress: a map task's country and rows (its manifest
        entries' counts), a write task's addresses; any other task is one."""
        if stage == "map":
            group = self.run.groups()[int(item["rank"])]
            return Work(group.country, max(1, sum(e.records for e in group.entries)))
        if stage == "write":
            return Work(str(item["country"]), int(item["shard"]["rows"]))
        country = item.get("country")
        return Work(str(country) if country else None, 1)

    def index_items(self, country: str) -> list[dict[str, Any]]:
        return [item.model_dump(mode="json") for item in items_of(self.run, country)]

    def fail_country(self, country: str, error: str) -> None:
        """Record the country's outcome as failed: its later tasks are not run, its publish is done."""
        publish.record_failure(self.run, country, error)

    def report(self) -> SyncReport:
        return publish.report(self.run)

    def save_running_report(self, building: str | None) -> None:
        """What /data-health shows while the sync runs: the country being written now."""
        running = self.report()
        running.building = building
        self.run.registry.save_sync_report(running.as_dict())


def counted_rows(entries: list[SourceEntry]) -> dict[str, int | None]:
    """Each country's rows as its manifest entries count them; None where one does not say."""
    rows: dict[str, int | None] = {}
    for entry in entries:
        held = rows.get(entry.country, 0)
        rows[entry.country] = None if held is None or entry.records == 0 else held + entry.records
    return rows
