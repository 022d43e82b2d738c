"""bounds: per OSM extract, the administrative boundaries that enrichment places rows in."""

from __future__ import annotations

from dataclasses import asdict

from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.job import Runner, runner_of_entries
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.stages.base import Stage, StageItem, TaskResult
from chalicelib.services.sync.task_files import boundary_of
from chalicelib.sources.boundaries import Boundary
from chalicelib.sources.reader import read_country_boundaries


class BoundsItem(StageItem):
    entry: int  # the extract's place among the job's manifest entries
    runner: Runner

    def task(self) -> str:
        return str(self.entry)


class BoundsResult(TaskResult):
    country: str
    boundaries: int


def plan(run: SyncRun) -> list[BoundsItem]:
    entries = run.entries()
    return [
        BoundsItem(entry=i, runner=runner_of_entries([e]))
        for i, e in enumerate(entries)
        if e.format.startswith("osm")
    ]


def read_bounds(run: SyncRun, item: BoundsItem) -> BoundsResult:
    entry = run.entries()[item.entry]
    root = run.sources().local(list(entry.files))
    found = read_country_boundaries([entry], root).get(entry.country, [])
    run.work.write_json(keys.bounds(item.entry), [asdict(b) for b in found])
    return BoundsResult(country=entry.country, boundaries=len(found))


def boundaries(run: SyncRun) -> dict[str, list[Boundary]]:
    """Every extract's boundaries per country, in manifest order (as the whole-sync oracle has them)."""

    def read() -> dict[str, list[Boundary]]:
        found: dict[str, list[Boundary]] = {}
        for item in run.read_items(STAGE.name, BoundsItem):
            country = run.entries()[item.entry].country
            doc = run.work.read_json(keys.bounds(item.entry))
            found.setdefault(country, []).extend(boundary_of(b) for b in doc)
        return found

    return run.memo("boundaries", read)


STAGE = Stage("bounds", BoundsItem, BoundsResult, plan, read_bounds)
