"""objects: per object cell, every claim of an OSM object after the first in read order loses."""

from __future__ import annotations

import json

from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.stages.base import CellItem, Stage, TaskResult
from chalicelib.services.sync.stages.map_sources import mapped_spans
from chalicelib.services.sync.task_files import mapped_lines, write_cell_inputs


class ObjectsResult(TaskResult):
    repeats: int


def plan(run: SyncRun) -> list[CellItem]:
    write_cell_inputs(run.work, "objects", run.job.object_cells, mapped_spans(run, "objects"))
    return [CellItem(cell=c) for c in range(run.job.object_cells)]


def claim_objects(run: SyncRun, item: CellItem) -> ObjectsResult:
    work, cell = run.work, item.cell
    first: dict[str, tuple[tuple[int, int], int]] = {}
    losers: dict[int, list[list[int]]] = {}
    for line in mapped_lines(work, "objects", cell):
        name, raw_seq, street_cell = json.loads(line)
        seq = (raw_seq[0], raw_seq[1])
        held = first.get(name)
        if held is None or seq < held[0]:
            first[name] = (seq, street_cell)
            if held is not None:
                losers.setdefault(held[1], []).append(list(held[0]))
        else:
            losers.setdefault(street_cell, []).append(list(seq))
    for street_cell, seqs in losers.items():
        work.write_json(keys.repeats(street_cell, cell), seqs)
    return ObjectsResult(repeats=sum(len(s) for s in losers.values()))


STAGE = Stage("objects", CellItem, ObjectsResult, plan, claim_objects)
