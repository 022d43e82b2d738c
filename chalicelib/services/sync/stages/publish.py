"""publish: per country, verify the items written, then the conditional pointer write, then the
sweep of expired snapshots. The stage's finish records the sync's report."""

from __future__ import annotations

from chalicelib.errors import PublishConflict, StorageUnavailable
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.publication import publish_snapshot, still_kept, sweep
from chalicelib.services.sync.report import CountryOutcome, SyncReport
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.stages.base import CountryItem, Stage, Tallied, TaskResult
from chalicelib.services.sync.stages.index import indexed, items_of
from chalicelib.services.sync.stages.plan import CountryPlan, Planned, country_plan, planned
from chalicelib.services.sync.stages.route import compared_rows
from chalicelib.services.sync.stages.write import written
from chalicelib.services.sync.survival import Tallies

TALLIED_STAGES = ("map", "dedupe", "route")  # the stages whose results carry rows' tallies


class Outcome(TaskResult):
    outcome: CountryOutcome


def plan(run: SyncRun) -> list[CountryItem]:
    return [CountryItem(country=c) for c in run.job.countries]


def publish_country(run: SyncRun, item: CountryItem) -> Outcome:
    return Outcome(outcome=_publish(run, item.country))


def _publish(run: SyncRun, country: str) -> CountryOutcome:
    shards = planned(run, country)
    if shards.empty:
        return CountryOutcome(country, "empty")
    plan_of = country_plan(run, country)
    published = plan_of.published(run)
    outcome = CountryOutcome.published(
        published.snapshot_id, published, country, plan_of.incomplete, plan_of.locations
    )
    pool_items = sum(w.written for w in written(run, country))
    index_parts = indexed(run, country)
    compared = compared_rows(run, country)
    outcome.items_written = pool_items + sum(i.indexed for i in index_parts) + shards.catalog_items
    if shards.appended:  # a new generation: its ledger and removals count too
        outcome.items_written += compared.items_written
        outcome.kept, outcome.added, outcome.removed = compared.kept, compared.added, compared.removed
    else:  # a snapshot stored already (the active, or a kept one again): all of it is kept
        outcome.kept = published.count
    try:
        if pool_items != 2 * shards.born:
            raise PublishConflict(f"{country}: {pool_items} pool items written, {2 * shards.born} planned")
        if len(index_parts) != len(items_of(run, country)):
            raise PublishConflict(f"{country}: {len(index_parts)} index partitions written")
        active = run.registry.active_snapshot(country)
        if not (active and active.snapshot_id == published.snapshot_id):
            _still_there(run, plan_of, shards)
        outcome.status = publish_snapshot(run.registry, published, active, run.clock)
        outcome.items_deleted = sweep(
            country, published.snapshot_id, run.pool, run.registry, run.clock, run.retention
        )
    except (StorageUnavailable, PublishConflict) as exc:
        outcome.status, outcome.error = "failed", f"{type(exc).__name__}: {exc}"
    return outcome


def _still_there(run: SyncRun, plan_of: CountryPlan, shards: Planned) -> None:
    """What the run is about to point the country at must still be there: a new generation's own
    claim and epoch (a run away longer than a stale write may find both swept by another sync,
    which it then must not publish into; an epoch it began is deleted with it), or the kept
    snapshot it publishes again (its retention may have run out meanwhile)."""
    registry, country, snapshot_id = run.registry, plan_of.country, plan_of.snapshot_id
    record = registry.snapshot_record(country, snapshot_id)
    if shards.again:
        if record is None or not still_kept(record, run.retention, run.clock.now()):
            raise PublishConflict(
                f"{country}: snapshot {snapshot_id} expired before it could be published again"
            )
        return
    writing = plan_of.writing
    ours = record is not None and record.state == "writing" and record.generation == writing.tag
    if ours and writing.epoch.name in registry.list_epochs(country):
        return
    if writing.epoch.name == writing.tag and writing.epoch.name not in registry.list_epochs(country):
        run.pool.delete_epoch(writing.epoch)  # begun by this run, forgotten by a sweep
    raise PublishConflict(f"{country}: snapshot {snapshot_id} was swept while this sync was away")


def record_failure(run: SyncRun, country: str, error: str) -> None:
    """A country whose writes failed: reported `failed`, never published (its pointer never moves)."""
    failed = Outcome(outcome=CountryOutcome(country, "failed", error=error))
    run.work.write_json(keys.outcome(country), failed.model_dump(mode="json"))


def report(run: SyncRun) -> SyncReport:
    """The report as the stages so far tell it (the finished one once the sync has finished)."""
    job = run.job
    found = SyncReport(
        started_at=job.started_at,
        configuration_errors=list(run.config.issues),
        fingerprint=job.fingerprint,
        planned=list(job.countries),
    )
    tallies = Tallies()
    for stage in TALLIED_STAGES:
        for part in run.results(stage, Tallied):
            tallies.add(part.as_tallies())
    found.sources.update(tallies.sources)
    for done in run.results(STAGE.name, Outcome):
        found.countries[done.outcome.country] = done.outcome
    if run.work.exists(keys.FINISHED):
        found.finished_at = run.work.read_json(keys.FINISHED)["finishedAt"]
    return found


def record_report(run: SyncRun) -> None:
    finished = report(run)
    finished.finished_at = run.clock.now().isoformat()
    run.registry.save_sync_report(finished.as_dict())
    run.work.write_json(keys.FINISHED, {"finishedAt": finished.finished_at})


STAGE = Stage("publish", CountryItem, Outcome, plan, publish_country, record_report)
