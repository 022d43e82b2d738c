"""What a sync tells its operator: rows read, kept and dropped by reason, fields removed, per source
and per country, what each country's publication did, and the configuration errors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from chalicelib.domain.ordering import StrataTotals
from chalicelib.reference.pool_config import ConfigIssue


@dataclass
class SourceTally:
    country: str = ""  # the manifest's country of the source
    read: int = 0
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    removed_fields: Counter[str] = field(default_factory=Counter)


@dataclass
class CountryOutcome:
    country: str
    status: str  # published | unchanged | empty | failed
    snapshot_id: str | None = None
    addresses: int = 0
    residential: int = 0
    complete: int = 0
    # Per component, how many addresses lack it (or carry one the country's rules reject).
    incomplete: dict[str, int] = field(default_factory=dict)
    locations: int = 0
    items_written: int = 0
    items_deleted: int = 0
    # Against the snapshot the run's generation appends to: addresses stored already, new, removed.
    kept: int = 0
    added: int = 0
    removed: int = 0
    error: str | None = None

    @classmethod
    def published(
        cls, snapshot_id: str, totals: StrataTotals, country: str, incomplete: dict[str, int], locations: int
    ) -> CountryOutcome:
        """A country built into `snapshot_id`, before its publication is tried."""
        return cls(
            country,
            "published",
            snapshot_id,
            addresses=totals.count,
            residential=totals.residential_count,
            complete=totals.complete_count,
            incomplete=incomplete,
            locations=locations,
        )


@dataclass
class SyncReport:
    started_at: str
    finished_at: str = ""
    sources: dict[str, SourceTally] = field(default_factory=dict)
    countries: dict[str, CountryOutcome] = field(default_factory=dict)
    configuration_errors: list[ConfigIssue] = field(default_factory=list)
    fingerprint: str = ""
    planned: list[str] = field(default_factory=list)  # the countries this sync builds, in order
    building: str | None = None  # the one being written now

    def tally(self, family: str, country: str) -> SourceTally:
        return self.sources.setdefault(family, SourceTally(country=country))

    def country_tally(self, country: str) -> SourceTally:
        """Rows read and dropped across the sources of one country."""
        total = SourceTally(country=country)
        for tally in self.sources.values():
            if tally.country == country:
                total.read += tally.read
                total.kept += tally.kept
                total.dropped.update(tally.dropped)
                total.removed_fields.update(tally.removed_fields)
        return total

    @property
    def ok(self) -> bool:
        """Finished, and no country failed (a sync that died mid-way never reads as ok)."""
        return bool(self.finished_at) and all(o.status != "failed" for o in self.countries.values())

    def as_dict(self) -> dict[str, Any]:
        """The stored form (the registry's sync report item), camelCase throughout; `from_dict` reads it."""
        return {
            "startedAt": self.started_at,
            "finishedAt": self.finished_at,
            "sources": {
                k: {
                    "country": t.country,
                    "read": t.read,
                    "kept": t.kept,
                    "dropped": dict(t.dropped),
                    "removedFields": dict(+t.removed_fields),  # + drops zeros
                }
                for k, t in sorted(self.sources.items())
            },
            "countries": {k: _outcome_doc(o) for k, o in sorted(self.countries.items())},
            "configurationErrors": [vars(i) for i in self.configuration_errors],
            "planned": list(self.planned),
            "building": self.building,
            "fingerprint": self.fingerprint,
            "ok": self.ok,
        }

    @classmethod
    def from_dict(cls, doc: dict[str, Any]) -> SyncReport:
        return cls(
            started_at=str(doc.get("startedAt", "")),
            finished_at=str(doc.get("finishedAt") or ""),
            sources={
                family: SourceTally(
                    t.get("country", ""),
                    t.get("read", 0),
                    t.get("kept", 0),
                    Counter(t.get("dropped", {})),
                    Counter(t.get("removedFields", {})),
                )
                for family, t in doc.get("sources", {}).items()
            },
            countries={code: _outcome_of(code, o) for code, o in doc.get("countries", {}).items()},
            configuration_errors=[
                ConfigIssue(i.get("country"), i["field"], i["message"])
                for i in doc.get("configurationErrors", [])
            ],
            fingerprint=str(doc.get("fingerprint", "")),
            planned=list(doc.get("planned", [])),
            building=doc.get("building"),
        )


_OUTCOME_FIELDS = {  # CountryOutcome's fields as stored
    "status": "status",
    "snapshot_id": "snapshotId",
    "addresses": "addresses",
    "residential": "residential",
    "complete": "complete",
    "incomplete": "incomplete",
    "locations": "locations",
    "items_written": "itemsWritten",
    "items_deleted": "itemsDeleted",
    "kept": "kept",
    "added": "added",
    "removed": "removed",
    "error": "error",
}


def _outcome_doc(outcome: CountryOutcome) -> dict[str, Any]:
    return {stored: getattr(outcome, name) for name, stored in _OUTCOME_FIELDS.items()}


def _outcome_of(country: str, doc: dict[str, Any]) -> CountryOutcome:
    defaults = CountryOutcome(country, str(doc.get("status", "")))
    # A report stored before the one casing kept its outcomes' field names as they are in Python.
    found = {
        name: doc.get(stored, doc.get(name, getattr(defaults, name)))
        for name, stored in _OUTCOME_FIELDS.items()
    }
    return CountryOutcome(country, **found)


@dataclass(frozen=True)
class Work:
    """One task's share of a stage: its country (None: a task of every country's), and its rows
    (the rows its sources hold for a map task, the addresses it writes for a write task; 1 else)."""

    country: str | None
    rows: int


class SyncProgress(Protocol):
    """Where a sync reports progress: bars on the CLI's terminal, log lines in Lambda, a test's probe."""

    def stage(self, name: str) -> None: ...
    def country_stage(self, country: str, stage: str) -> None: ...
    def planned(self, stage: str, work: Sequence[Work]) -> None: ...
    def done(self, stage: str, work: Work) -> None: ...


class SilentProgress:
    def stage(self, name: str) -> None:
        pass

    def country_stage(self, country: str, stage: str) -> None:
        pass

    def planned(self, stage: str, work: Sequence[Work]) -> None:
        pass

    def done(self, stage: str, work: Work) -> None:
        pass
