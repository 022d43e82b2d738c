"""Where each country stands in a sync, as /data-health reports it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, cast

from chalicelib.domain.published import PublishedSnapshot
from chalicelib.reference.pool_config import load_pool_config
from chalicelib.services.reports import SyncState, data_health

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


class NoPools:
    def all(self) -> dict[str, PublishedSnapshot]:
        return {}


class Latest:
    def __init__(self, report: dict[str, Any] | None) -> None:
        self.report = report

    def latest_sync_report(self) -> dict[str, Any] | None:
        return self.report


def _running(started: datetime) -> dict[str, Any]:
    return {"startedAt": started.isoformat(), "finishedAt": "", "planned": ["AD", "NL"], "building": "AD"}


def test_a_running_sync_shows_building_and_waiting_countries() -> None:
    states = data_health(
        NoPools(), load_pool_config(), Latest(_running(NOW - timedelta(hours=1))), NOW
    ).sync_states
    assert (states["AD"], states["NL"], states["US"]) == (
        SyncState.BUILDING,
        SyncState.WAITING,
        SyncState.MISSING,
    )


class USPool:
    def all(self) -> dict[str, PublishedSnapshot]:
        return {"US": cast(PublishedSnapshot, SimpleNamespace(count=23_572))}


def test_a_served_country_the_running_sync_has_yet_to_reach_is_published_not_waiting() -> None:
    """make run publishes the US first, then syncs everything: the US is served meanwhile."""
    report = _running(NOW) | {"planned": ["US", "AD", "NL"], "building": "NL"}
    states = data_health(USPool(), load_pool_config(), Latest(report), NOW).sync_states
    assert (states["US"], states["NL"], states["AD"], states["JP"]) == (
        SyncState.PUBLISHED,
        SyncState.BUILDING,
        SyncState.WAITING,
        SyncState.MISSING,
    )


def test_a_sync_that_died_long_ago_is_not_running() -> None:
    stale = _running(NOW - timedelta(hours=7))
    states = data_health(NoPools(), load_pool_config(), Latest(stale), NOW).sync_states
    assert set(states.values()) == {SyncState.MISSING}


def test_a_finished_sync_leaves_published_or_missing() -> None:
    finished = _running(NOW) | {"finishedAt": NOW.isoformat(), "building": None}
    states = data_health(NoPools(), load_pool_config(), Latest(finished), NOW).sync_states
    assert set(states.values()) == {SyncState.MISSING}
