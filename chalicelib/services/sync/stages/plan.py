"""plan: per country, name the snapshot by its content; place the rows new to the epoch on slots
the epoch hands out (prefix sums of the parts' new rows); merge the parts' locations and give them
their slots (the parent snapshot's, then the new ones); write the catalog, and cut the new rows
into write shards. A content the active snapshot has is `unchanged`; one a kept snapshot has is
published again as it was stored (its pins and seeds unchanged), nothing written."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from pydantic import Field

from chalicelib.domain.codecs import location_from_doc
from chalicelib.domain.digests import content_id, next_snapshot_id
from chalicelib.domain.directories import build_directories
from chalicelib.domain.epochs import Epoch, Generation
from chalicelib.domain.location_index import Location, merge_locations, place_generation, shift_locations
from chalicelib.domain.published import (
    Layout,
    Placement,
    PublishedSnapshot,
    Segment,
    SegmentRow,
    SnapshotClaim,
    min_share,
)
from chalicelib.domain.text_search import MARKS_VERSION
from chalicelib.errors import PublishConflict
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.generations import Lineage, lineages
from chalicelib.services.sync.job import Runner, runner_for
from chalicelib.services.sync.publication import published_snapshot, still_kept
from chalicelib.services.sync.run import SyncRun
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
    content: str  # the content's id: the snapshot's, or the first of its chain (_claim)
    strata: tuple[int, int, int, int]
    sources: list[str]
    regions: dict[str, int]
    locations: int
    published_at: str
    incomplete: dict[str, int]
    epoch: str = ""
    buckets: int = 1
    segments: list[SegmentRow] = Field(default_factory=list)
    catalog_shards: int = 0  # the catalog's shards, where they were written before (else from `locations`)
    min_share: float = 1.0  # Placement.min_share
    marks: int = MARKS_VERSION  # Placement.marks
    marked: dict[str, int] = Field(default_factory=dict)  # PublishedSnapshot.marked

    @property
    def placement(self) -> Placement:
        segments = tuple(Segment.decoded(g) for g in self.segments)
        return Placement(self.epoch, self.buckets, segments, self.min_share, marks=self.marks)

    @property
    def writing(self) -> Generation:
        return Generation(Epoch(self.epoch, self.buckets), Segment.decoded(self.segments[-1]).generation)

    def published(self, run: SyncRun) -> PublishedSnapshot:
        return published_snapshot(
            self.country,
            self.snapshot_id,
            self.strata,
            sources=self.sources,
            per_region_code=self.regions,
            locations=self.locations,
            config=run.config,
            published_at=self.published_at,
            layout_for=run.layout_for,
            placement=self.placement,
            content=self.content,
            catalog_shards=self.catalog_shards,
            marked=self.marked,
        )


class Planned(TaskResult):
    country: str
    empty: bool = False
    again: bool = False  # a kept snapshot's content: published again as stored
    appended: bool = False  # a new generation: its catalog written, its new rows planned
    born: int = 0  # rows new to the epoch, written by the shards
    catalog_items: int = 0
    shards: list[Shard] = Field(default_factory=list)


def plan(run: SyncRun) -> list[PlanItem]:
    rows: Counter[str] = Counter()
    for part in run.results(SORT.name, SortedPart):
        rows[part.country] += part.count
    return [PlanItem(country=c, runner=runner_for(rows[c])) for c in run.job.countries]


def plan_country(run: SyncRun, item: PlanItem) -> Planned:
    """The pool's items are left to the write shards; the catalog is written here."""
    country = item.country
    parts = sorted_parts(run, country)
    if not parts:
        return Planned(country=country, empty=True)
    country_plan = _content(run, country, parts)
    live = _locations(run, parts, keys.locations, [p.count for p in parts], 0)
    country_plan.locations = len(live)
    active = run.registry.active_snapshot(country)
    kept = _kept_with(run, country, country_plan.content)
    planned = Planned(country=country)
    if active and active.content == country_plan.content and active.placement.marks == MARKS_VERSION:
        _place_as(country_plan, active)
    elif kept is not None:
        _place_as(country_plan, kept)
        planned.again = True
    else:
        planned = _place_new(run, country_plan, parts, live)
    run.work.write_json(keys.plan(country), country_plan.model_dump(mode="json"))
    return planned


def _kept_with(run: SyncRun, country: str, content: str) -> PublishedSnapshot | None:
    """The latest kept snapshot (published, or retired within the retention) of this content."""
    now = run.clock.now()
    found = [
        r.published
        for r in run.registry.snapshot_records(country)
        if r.published
        and r.published.content == content
        and r.published.placement.marks == MARKS_VERSION  # else its index lacks today's marks
        and still_kept(r, run.retention, now)
    ]
    return max(found, key=lambda s: s.published_at, default=None)


def _claim(run: SyncRun, country_plan: CountryPlan, lineage: Lineage) -> str:
    """The id a new generation publishes its content under, claimed before anything is written:
    the first id of the content's chain (digests.next_snapshot_id) whose record no other sync
    holds, written `writing` by one conditional put. A content whose snapshot expired, or that
    another sync is writing, takes the next: an id never names two placements, so a pin on an
    expired id never answers with other addresses and two syncs never share a catalog."""
    shards = run.layout_for(sum(country_plan.strata), country_plan.locations).shards
    claim = SnapshotClaim(
        lineage.country,
        country_plan.content,
        lineage.generation,
        Layout(lineage.buckets, shards),
        lineage.epoch,
        country_plan.published_at,
    )
    while not run.registry.claim_snapshot(claim):
        claim = replace(claim, snapshot_id=next_snapshot_id(claim.snapshot_id))
    return claim.snapshot_id


def _content(run: SyncRun, country: str, parts: list[SortedPart]) -> CountryPlan:
    strata = [0, 0, 0, 0]
    per_region: Counter[str] = Counter()
    sources: set[str] = set()
    incomplete: Counter[str] = Counter()
    marked: Counter[str] = Counter()
    for part in parts:
        marked.update(part.marked)
        strata[part.key[0]] += part.count
        per_region.update(part.regions)
        sources.update(part.sources)
        incomplete.update(part.incomplete)
    content = content_id(country, cell_digests(parts))
    return CountryPlan(
        country=country,
        snapshot_id=content,
        content=content,
        strata=(strata[0], strata[1], strata[2], strata[3]),
        sources=sorted(sources),
        regions=dict(per_region),
        locations=0,
        published_at=run.clock.now().isoformat(),
        incomplete=dict(incomplete.most_common()),
        marked=dict(sorted(marked.items())),
    )


def _place_as(country_plan: CountryPlan, stored: PublishedSnapshot) -> None:
    """The plan of a content stored already: where it is stored, under its id."""
    country_plan.snapshot_id = stored.snapshot_id
    _place(country_plan, stored.placement)
    country_plan.catalog_shards = stored.layout.shards


def _place(country_plan: CountryPlan, place: Placement) -> None:
    country_plan.epoch, country_plan.buckets = place.epoch, place.buckets
    country_plan.segments = [g.encoded() for g in place.segments]
    country_plan.min_share = place.min_share
    country_plan.marks = place.marks


def _place_new(
    run: SyncRun, country_plan: CountryPlan, parts: list[SortedPart], live: dict[str, Location]
) -> Planned:
    """A new generation: slots for its new rows, its catalog written (`live`: the content's
    locations, indexed over it alone), its write shards."""
    country, registry = country_plan.country, run.registry
    lineage = lineages(run)[country]
    born_strata = [sum(p.born[s] for p in parts) for s in range(4)]
    born = sum(born_strata)
    country_plan.snapshot_id = _claim(run, country_plan, lineage)
    start = registry.allocate_slots(country, lineage.epoch, born)
    before: list[Segment] = []
    kept: dict[str, Location] = {}
    if lineage.parent:
        parent = registry.snapshot_record(country, lineage.parent)
        if parent is None or parent.published is None:  # route compared the rows with it: too late
            raise PublishConflict(
                f"{country}: snapshot {lineage.parent}, which this sync appends to, expired"
            )
        before = list(parent.published.placement.segments)
        kept = {loc.id: loc for loc in registry.all_locations(parent.snapshot_id, parent.published.layout)}
    segment = Segment(
        lineage.generation, start, (born_strata[0], born_strata[1], born_strata[2], born_strata[3])
    )
    _place(country_plan, Placement(lineage.epoch, lineage.buckets, (*before, segment)))
    new = _born_locations(run, parts, lineage, live, start)
    locations = list(place_generation(live, kept, new).values())
    country_plan.min_share = min_share(span for location in locations for span in location.spans)
    published = country_plan.published(run)
    planned = Planned(country=country, appended=True, born=born)
    planned.catalog_items = registry.put_locations(published.snapshot_id, published.layout, locations)
    planned.catalog_items += registry.put_directories(
        published.snapshot_id, published.layout, build_directories(locations)
    )
    cells = [SortedCell(p.key, p.name, sum(p.born), tuple(p.offsets), p.part) for p in parts]
    planned.shards = shards_of(cells, run.job.shard_rows, start)
    return planned


def _born_locations(
    run: SyncRun, parts: list[SortedPart], lineage: Lineage, live: dict[str, Location], start: int
) -> dict[str, Location]:
    """The new rows' locations at their slots from `start`. In a new epoch every row is new (the
    sort wrote no separate file): the content's own, as they are from slot 0."""
    if lineage.parent:
        return _locations(run, parts, keys.born_locations, [sum(p.born) for p in parts], start)
    if start == 0:
        return live
    return _locations(run, parts, keys.locations, [p.count for p in parts], start)  # a rerun's


def _locations(
    run: SyncRun,
    parts: list[SortedPart],
    file: Callable[[str, str], str],
    counts: list[int],
    first: int,
) -> dict[str, Location]:
    """The parts' locations (each indexed from 0 over its rows) placed one after another from `first`."""
    merged: dict[str, Location] = {}
    for part, start in zip(parts, cell_starts(counts, first), strict=True):
        found = [
            location_from_doc(json.loads(line)) for line in run.work.read_lines(file(part.country, part.name))
        ]
        merge_locations(merged, shift_locations(found, start))
    return merged


def country_plan(run: SyncRun, country: str) -> CountryPlan:
    return CountryPlan.model_validate(run.work.read_json(keys.plan(country)))


def planned(run: SyncRun, country: str) -> Planned:
    """The country's plan; an empty one when its plan task failed (nothing of it is written)."""
    done = keys.done(STAGE.name, country)
    if not run.work.exists(done):
        return Planned(country=country, empty=True)
    return Planned.model_validate(run.work.read_json(done))


STAGE = Stage("plan", PlanItem, Planned, plan, plan_country)
