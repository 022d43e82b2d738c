"""Reports on the published pool: supported countries, availability, coverage, data health."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any, Protocol

from chalicelib.clock import Clock
from chalicelib.domain.coverage import CountRule, Coverage, FractionRule
from chalicelib.domain.published import PublishedSnapshot
from chalicelib.errors import NoPoolCoverage
from chalicelib.reference.pool_config import ConfigIssue, PoolConfig
from chalicelib.services.marks import length_thresholds, licence_counts, property_type_counts, trait_counts
from chalicelib.services.sync.report import SyncReport


class Snapshots(Protocol):
    def all(self) -> dict[str, PublishedSnapshot]: ...


class SyncReports(Protocol):
    def latest_sync_report(self) -> dict[str, Any] | None: ...


@dataclass(frozen=True)
class ReportPorts:
    """What the reports read: the published pointers, the pool configuration, sync reports, time."""

    snapshots: Snapshots
    config: PoolConfig
    sync_reports: SyncReports
    clock: Clock


@dataclass(frozen=True)
class CountryStatus:
    code: str
    enabled: bool
    snapshot: PublishedSnapshot | None

    @property
    def count(self) -> int:
        return self.snapshot.count if self.snapshot else 0

    @property
    def residential_count(self) -> int:
        return self.snapshot.residential_count if self.snapshot else 0

    @property
    def complete_count(self) -> int:
        return self.snapshot.complete_count if self.snapshot else 0

    @property
    def trait_counts(self) -> dict[str, int]:
        return trait_counts(self.snapshot.marked if self.snapshot else {})

    @property
    def length_thresholds(self) -> dict[str, int]:
        return length_thresholds(self.snapshot.marked if self.snapshot else {})

    @property
    def property_type_counts(self) -> dict[str, int]:
        return property_type_counts(self.snapshot.marked if self.snapshot else {})

    @property
    def license_counts(self) -> dict[str, int]:
        return licence_counts(self.snapshot.marked if self.snapshot else {})

    @property
    def ready(self) -> bool:
        return self.count > 0


def published_countries(snapshots: Snapshots) -> list[CountryStatus]:
    """Countries with a published pool, by code."""
    return [CountryStatus(code, True, s) for code, s in sorted(snapshots.all().items()) if s.count > 0]


def country_statuses(snapshots: Snapshots, config: PoolConfig) -> list[CountryStatus]:
    """Every enabled country, published or not, by code."""
    active = snapshots.all()
    return [CountryStatus(code, True, active.get(code)) for code in config.enabled]


def coverage(
    snapshots: Snapshots, config: PoolConfig, *, country: str | None, include_complete: bool
) -> list[Coverage]:
    statuses = country_statuses(snapshots, config)
    if country is not None:
        statuses = [s for s in statuses if s.code == country]
        if not statuses:
            raise NoPoolCoverage(f"country {country} is not enabled for synchronization")
    results = [_coverage_of(s, config) for s in statuses]
    return [c for c in results if include_complete or not c.complete]


def _coverage_of(status: CountryStatus, config: PoolConfig) -> Coverage:
    if status.snapshot is not None:
        return status.snapshot.coverage
    targets = config.countries[status.code].coverage
    return Coverage(
        country=status.code,
        total=CountRule(0, targets.total),
        administrative=FractionRule(0.0, targets.administrative_coverage),
        regional_minimums=FractionRule(0.0, targets.regional_minimum.share),
    )


class SyncState(StrEnum):
    """Where a country stands in the running sync, for /data-health (and the console)."""

    WAITING = "waiting"  # no pool yet; the running sync will build one
    BUILDING = "building"  # the running sync is writing it now (a pool it had is still served)
    PUBLISHED = "published"  # its pool is served, and the running sync (if any) is not writing it now
    MISSING = "missing"  # no pool, and no running sync will build one: not synced yet, or its sources failed


# A running sync's report older than this belongs to a sync that died (as the sync's own sweep assumes).
SYNC_ABANDONED_AFTER = timedelta(hours=6)


@dataclass
class DataHealth:
    countries: list[CountryStatus]
    configuration_errors: list[ConfigIssue]
    sync_states: dict[str, SyncState]
    sync_report: SyncReport | None  # the latest sync's report, running or finished
    sync_running: bool

    @property
    def healthy(self) -> bool:
        return all(c.ready for c in self.countries) and not self.configuration_errors


def data_health(snapshots: Snapshots, config: PoolConfig, reports: SyncReports, now: datetime) -> DataHealth:
    """Ready countries, where each stands in a running sync, and the configuration errors the last
    sync found (or, before any sync, those of the configuration deployed with this code)."""
    latest = latest_report(reports)
    issues: list[ConfigIssue] = list(config.issues) if latest is None else latest.configuration_errors
    statuses = country_statuses(snapshots, config)
    running = latest if latest is not None and is_running(latest, now) else None
    states = {s.code: _sync_state(s, running) for s in statuses}
    return DataHealth(statuses, issues, states, latest, running is not None)


def latest_report(reports: SyncReports) -> SyncReport | None:
    stored = reports.latest_sync_report()
    return SyncReport.from_dict(stored) if stored is not None else None


def is_running(report: SyncReport, now: datetime) -> bool:
    """A report not finished, and not so old that its sync must have died."""
    if report.finished_at:
        return False
    try:
        started = datetime.fromisoformat(report.started_at)
    except ValueError:
        return False
    return now - started < SYNC_ABANDONED_AFTER


def _sync_state(status: CountryStatus, running: SyncReport | None) -> SyncState:
    if running is not None and status.code == running.building:
        return SyncState.BUILDING
    if status.ready:
        return SyncState.PUBLISHED  # served, even while a sync plans to look at it again
    if running is not None and status.code in running.planned and status.code not in running.countries:
        return SyncState.WAITING
    return SyncState.MISSING
