"""plan: per country, place the sorted parts (prefix sums), merge their locations, name the
snapshot by its content, write its catalog, and cut the pool's items into write shards."""

from __future__ import annotations

import json
from collections import Counter

from pydantic import Field

from chalicelib.domain.codecs import location_from_doc
from chalicelib.domain.digests import content_id
from chalicelib.domain.directories import build_directories
from chalicelib.domain.location_index import Location, merge_locations, shift_locations
from chalicelib.domain.published import PublishedSnapshot
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.context import RunContext
from chalicelib.services.sync.job import Runner, runner_for
from chalicelib.services.sync.publication import published_snapshot, record_writing
from chalicelib.services.sync.sharding import Shard, SortedCell, cell_starts, shards_of
from chalicelib.services.sync.stages.base import Stage, StageItem, TaskResult
from chalicelib.services.sync.stages.sort import STAGE as SORT
from chalicelib.services.sync.stages.sort import SortedPart, sorted_parts
from chalicelib.services.sync.task_files import cell_digests


class PlanItem(StageItem):
    country: str
    runner: Runner

    def task(self) -> str:
        return self.country


class CountryPlan(TaskResult):
    """What the write, index and publish tasks of a country read (`plan/<country>.json`)."""

    country: str
    snapshot_id: str
    strata: tuple[int, int, int, int]
    sources: list[str]
    regions: dict[str, int]
    locations: int
    published_at: str
    incomplete: dict[str, int]

    def published(self, context: RunContext) -> PublishedSnapshot:
        return published_snapshot(
            self.country,
            self.snapshot_id,
            self.strata,
            sources=self.sources,
            per_region_code=self.regions,
            locations=self.locations,
            config=context.config,
            published_at=self.published_at,
            layout_for=context.layout_for,
        )


class Planned(TaskResult):
    country: str
    empty: bool = False
    catalog_items: int = 0
    shards: list[Shard] = Field(default_factory=list)


def plan(context: RunContext) -> list[PlanItem]:
    rows: Counter[str] = Counter()
    for part in context.results(SORT.name, SortedPart):
        rows[part.country] += part.count
    return [PlanItem(country=c, runner=runner_for(rows[c])) for c in context.job.countries]


def plan_country(context: RunContext, item: PlanItem) -> Planned:
    """The pool's items are left to the write shards; the catalog is written here."""
    country = item.country
    parts = sorted_parts(context, country)
    if not parts:
        return Planned(country=country, empty=True)
    locations: dict[str, Location] = {}
    for part, start in zip(parts, cell_starts([p.count for p in parts]), strict=True):
        found = [
            location_from_doc(json.loads(line))
            for line in context.work.read_lines(keys.locations(country, part.name))
        ]
        merge_locations(locations, shift_locations(found, start))
    strata = [0, 0, 0, 0]
    per_region: Counter[str] = Counter()
    sources: set[str] = set()
    incomplete: Counter[str] = Counter()
    for part in parts:
        strata[part.key[0]] += part.count
        per_region.update(part.regions)
        sources.update(part.sources)
        incomplete.update(part.incomplete)
    country_plan = CountryPlan(
        country=country,
        snapshot_id=content_id(country, cell_digests(parts)),
        strata=(strata[0], strata[1], strata[2], strata[3]),
        sources=sorted(sources),
        regions=dict(per_region),
        locations=len(locations),
        published_at=context.clock.now().isoformat(),
        incomplete=dict(incomplete.most_common()),
    )
    published = country_plan.published(context)
    active = context.catalog.active_snapshot(country)
    planned = Planned(country=country)
    if not (active and active.snapshot_id == published.snapshot_id):
        record_writing(context.catalog, published)
        values = list(locations.values())
        catalog = context.catalog
        planned.catalog_items = catalog.put_locations(published.snapshot_id, published.layout, values)
        planned.catalog_items += catalog.put_directories(
            published.snapshot_id, published.layout, build_directories(values)
        )
        cells = [SortedCell(p.key, p.name, p.count, tuple(p.offsets), p.part) for p in parts]
        planned.shards = shards_of(cells, context.job.shard_rows)
    context.work.write_json(keys.plan(country), country_plan.model_dump(mode="json"))
    return planned


def country_plan(context: RunContext, country: str) -> CountryPlan:
    return CountryPlan.model_validate(context.work.read_json(keys.plan(country)))


def planned(context: RunContext, country: str) -> Planned:
    """The country's plan; an empty one when its plan task failed (nothing of it is written)."""
    done = keys.done(STAGE.name, country)
    if not context.work.exists(done):
        return Planned(country=country, empty=True)
    return Planned.model_validate(context.work.read_json(done))


STAGE = Stage("plan", PlanItem, Planned, plan, plan_country)
