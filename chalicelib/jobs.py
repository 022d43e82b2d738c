"""Scheduled work: the pool sync (and with it coverage) on a fixed rate.

The rate is a deploy-time parameter (Chalice reads schedule expressions when it packages the
app), so it comes from SYNC_RATE_HOURS in the deploying environment, default 24."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from chalice.app import Blueprint, CloudWatchEvent, Rate

from chalicelib.errors import SyncAlreadyRunning
from chalicelib.logs import log_event

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chalicelib.services.admin import SyncLauncher
    from chalicelib.services.sync.report import Work

SYNC_RATE_HOURS = int(os.environ.get("SYNC_RATE_HOURS", "24"))

jobs = Blueprint(__name__)


class LogProgress:
    """Sync progress as structured log lines (CloudWatch)."""

    def stage(self, name: str) -> None:
        log_event("sync_stage", stage=name)

    def country_stage(self, country: str, stage: str) -> None:
        log_event("sync_country_stage", country=country, stage=stage)

    def planned(self, stage: str, work: Sequence[Work]) -> None:
        log_event("sync_stage_tasks", stage=stage, tasks=len(work), rows=sum(w.rows for w in work))

    def done(self, stage: str, work: Work) -> None:
        pass  # a line a task would flood the log: the stages' and countries' lines tell the run


@jobs.schedule(Rate(SYNC_RATE_HOURS, unit=Rate.HOURS), name="sync_pool")
def sync_pool(event: CloudWatchEvent) -> dict[str, object]:
    # Imported here: every Lambda of the app loads this module, and only this one syncs (pyosmium,
    # the importers and the pipeline would otherwise add to each cold start).
    from chalicelib import deps
    from chalicelib.services.sync.target import SyncTarget
    from chalicelib.sync_wiring import sync_in_process

    d = deps.get()
    if d.settings.sync_state_machine:
        return _start_execution(d.launcher(), event.time)
    if not d.settings.sync_manifest:
        log_event("sync_skipped", level=logging.ERROR, reason="SYNC_MANIFEST is not set")
        return {"status": "not-configured"}
    manifest = Path(d.settings.sync_manifest)
    target = SyncTarget(manifest=manifest, root=manifest.parent)
    report = sync_in_process(d, target, progress=LogProgress(), if_changed=True)
    if report is None:
        log_event("sync_skipped", reason="inputs unchanged since the last successful sync")
        return {"status": "current"}
    outcome = {code: o.status for code, o in report.countries.items()}
    log_event(
        "sync_finished",
        level=logging.INFO if report.ok else logging.ERROR,
        countries=outcome,
        configurationErrors=len(report.configuration_errors),
    )
    return {"status": "ok" if report.ok else "failed", "countries": outcome}


def _start_execution(launcher: SyncLauncher, scheduled_at: str) -> dict[str, object]:
    """The sync as one Step Functions execution (the console's launcher); its name (one per
    schedule tick, so a retried event cannot start a second) names the run's work folder."""
    name = "sync-" + "".join(ch for ch in scheduled_at if ch.isalnum())
    try:
        execution = launcher.start(name)
    except SyncAlreadyRunning:
        log_event("sync_skipped", reason="this schedule tick's execution exists already", execution=name)
        return {"status": "running", "execution": name}
    log_event("sync_started", execution=execution)
    return {"status": "started", "execution": execution}


@jobs.lambda_function(name="sync_step")
def sync_step(event: dict[str, object], context: object) -> dict[str, object]:
    """One step of the sync's pipeline, called by the state machine (see state_machine.py)."""
    from chalicelib import deps
    from chalicelib.sync_wiring import sync_step as run_sync_step

    return run_sync_step(deps.get(), event)
