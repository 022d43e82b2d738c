"""map: per source group, read, validate and enrich every row; rows go out by street cell, OSM
objects by object cell."""

from __future__ import annotations

import json
import zlib

from chalicelib.domain.withdrawals import Withdrawn
from chalicelib.services.sync.dedupe import street_key
from chalicelib.services.sync.enrich import SourceFacts
from chalicelib.services.sync.job import Runner, runner_of_entries
from chalicelib.services.sync.reading import read_rows
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.sharding import cell_of_key
from chalicelib.services.sync.stages.base import Stage, StageItem, Tallied
from chalicelib.services.sync.stages.bounds import boundaries
from chalicelib.services.sync.survival import Tallies
from chalicelib.services.sync.task_files import Partitioned, row_line
from chalicelib.sources.manifest import SourceGroup


class Mapped(Tallied):
    rank: int
    spans: dict[str, list[list[int]]]  # kind → [cell, flush, start, end] of its flushes' objects


class MapItem(StageItem):
    rank: int  # the group's place in read order
    runner: Runner

    def task(self) -> str:
        return str(self.rank)


def plan(run: SyncRun) -> list[MapItem]:
    return [MapItem(rank=rank, runner=runner_of(group)) for rank, group in enumerate(run.groups())]


def runner_of(group: SourceGroup) -> Runner:
    """Overture's parts are read with pyarrow, which is in the sync's container image and not in
    the Lambda package (165 MB past its limit): their tasks run in the container whatever their size."""
    if any(entry.format == "overture-parquet" for entry in group.entries):
        return "container"
    return runner_of_entries(group.entries)


def map_source(run: SyncRun, item: MapItem) -> Mapped:
    job, config = run.job, run.config
    group = run.groups()[item.rank]
    files = run.sources()
    root = files.local([name for entry in group.entries for name in entry.files])
    source = SourceFacts(group.family, group.primary, config.source(group.family), boundaries(run))
    tallies = Tallies()
    tally = tallies.tally(group.family, group.country)
    buffer = job.container_map_buffer if item.runner == "container" else job.map_buffer
    out = Partitioned(run.work, item.rank, buffer)
    withdrawn = run.memo("withdrawn", lambda: Withdrawn.of(job.withdrawn))
    for row in read_rows(group, item.rank, root, config, source, tally, files.open_remote, withdrawn):
        cell = job.street_cell(row.address.country, zlib.crc32("|".join(street_key(row.address)).encode()))
        out.add("rows", cell, row_line(row))
        if row.osm_object is not None:
            key = f"{row.address.country}|{row.osm_object}"
            out.add("objects", cell_of_key(key, job.object_cells), json.dumps([key, list(row.seq), cell]))
    out.flush()
    return Mapped(tallies=Tallied.counts(tallies), rank=item.rank, spans=out.spans)


def mapped_spans(run: SyncRun, kind: str) -> list[tuple[int, list[list[int]]]]:
    """Every map task's [cell, flush, start, end] of one kind, by its rank."""
    return [(m.rank, m.spans.get(kind, [])) for m in run.results(STAGE.name, Mapped)]


STAGE = Stage("map", MapItem, Mapped, plan, map_source)
