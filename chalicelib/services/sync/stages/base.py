"""What every stage is made of: typed items (one task each), typed results (recorded per task),
and the three steps the executors call: plan the stage's items once the stage before has closed,
run one task, finish after the last."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from chalicelib.services.sync.report import SourceTally
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.survival import Tallies


class StageItem(BaseModel):
    """One task's input: a JSON object in `items/<stage>.json`, as the Map state hands it on."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    def task(self) -> str:
        """The task's name: where its result is recorded."""
        raise NotImplementedError


class CellItem(StageItem):
    cell: int

    def task(self) -> str:
        return str(self.cell)


class CountryItem(StageItem):
    country: str

    def task(self) -> str:
        return self.country


class TaskResult(BaseModel):
    """Read back leniently: a reader may want only the fields it knows (e.g. the tallies)."""

    model_config = ConfigDict(extra="ignore")


class SourceCounts(BaseModel):
    country: str
    read: int
    kept: int
    dropped: dict[str, int]
    removed: dict[str, int]


class Tallied(TaskResult):
    """A result that carries its rows' tallies per source family (partial: cells add up)."""

    tallies: dict[str, SourceCounts] = Field(default_factory=dict)

    @staticmethod
    def counts(tallies: Tallies) -> dict[str, SourceCounts]:
        return {
            family: SourceCounts(
                country=t.country,
                read=t.read,
                kept=t.kept,
                dropped=dict(t.dropped),
                removed=dict(t.removed_fields),
            )
            for family, t in tallies.sources.items()
        }

    def as_tallies(self) -> Tallies:
        tallies = Tallies()
        for family, t in self.tallies.items():
            tallies.sources[family] = SourceTally(
                t.country, t.read, t.kept, Counter(t.dropped), Counter(t.removed)
            )
        return tallies


Item = TypeVar("Item", bound=StageItem)
Result = TypeVar("Result", bound=TaskResult)


def nothing_to_finish(run: SyncRun) -> None:
    return None


@dataclass(frozen=True)
class Stage(Generic[Item, Result]):
    name: str
    item: type[Item]
    result: type[Result]
    plan: Callable[[SyncRun], Sequence[Item]]  # the items, once the stage before has closed
    run: Callable[[SyncRun, Item], Result]
    finish: Callable[[SyncRun], None] = nothing_to_finish  # after the stage's last task

    def run_raw(self, run: SyncRun, raw: dict[str, Any]) -> tuple[Item, Result]:
        item = self.item.model_validate(raw)
        return item, self.run(run, item)
