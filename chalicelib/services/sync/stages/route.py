"""route: per street cell, the survivors of both rounds go out by (country, stratum, region)
order cell and part."""

from __future__ import annotations

import json

from chalicelib.domain.codecs import address_to_doc
from chalicelib.domain.ordering import CellKey, cell_of, order_key
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.admission import Tallies, leave
from chalicelib.services.sync.context import RunContext
from chalicelib.services.sync.dedupe import MergeReason
from chalicelib.services.sync.sharding import order_cell_name, part_of
from chalicelib.services.sync.stages.base import CellItem, Stage, Tallied
from chalicelib.services.sync.stages.dedupe_cells import cuts
from chalicelib.services.sync.task_files import row_of


class Routed(Tallied):
    cells: list[tuple[str, tuple[int, str], int]]  # (country, order cell, part) this cell fed


def plan(context: RunContext) -> list[CellItem]:
    return [CellItem(cell=c) for c in range(context.job.street_cells)]


def route_cell(context: RunContext, item: CellItem) -> Routed:
    work, job, cell, split = context.work, context.job, item.cell, cuts(context)
    losers = {(s[0], s[1]) for key in work.keys(keys.same_text_prefix(cell)) for s in work.read_json(key)}
    tallies = Tallies()
    routed: dict[tuple[str, CellKey, int], list[str]] = {}
    for line in work.read_lines(keys.kept(cell)):
        row = row_of(line)
        if row.seq in losers:
            leave(tallies, row.family, row.removed, MergeReason.SAME_TEXT)
        elif row.address.country in job.countries:
            country, key = row.address.country, cell_of(row.address)
            found = split.get((country, key))
            part = part_of(found, order_key(row.address)) if found else 0
            line = json.dumps(address_to_doc(row.address), ensure_ascii=False)
            routed.setdefault((country, key, part), []).append(line)
    for (country, key, part), lines in routed.items():
        work.write_lines(keys.order(country, order_cell_name(key, part), cell), lines)
    return Routed(tallies=Tallied.counts(tallies), cells=sorted(routed))


STAGE = Stage("route", CellItem, Routed, plan, route_cell)
