"""sort: per part of an order cell, its rows in snapshot order (an external merge sort: memory
holds `sort_chunk` rows), digested, and its locations indexed as if it started at ordinal 0; its
rows new to the epoch (route.py named them; all of them in a new epoch) written out in that order,
with their own locations, for the write stage."""

from __future__ import annotations

import json
from collections.abc import Iterator

from pydantic import Field

from chalicelib.domain.codecs import address_to_doc, location_to_doc
from chalicelib.domain.digests import CellDigest
from chalicelib.domain.location_index import LocationIndex
from chalicelib.domain.ordering import stratum_of
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.generations import lineages
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.sharding import order_cell_name
from chalicelib.services.sync.stages.base import Stage, StageItem, TaskResult
from chalicelib.services.sync.stages.route import STAGE as ROUTE
from chalicelib.services.sync.stages.route import Routed
from chalicelib.services.sync.task_files import CellStats, sorted_addresses


class SortItem(StageItem):
    country: str
    key: tuple[int, str]  # (stratum, region)
    part: int

    @property
    def cell(self) -> str:
        return order_cell_name(self.key, self.part)

    def task(self) -> str:
        return f"{self.country}-{self.cell}"


class SortedPart(TaskResult):
    country: str
    key: tuple[int, str]
    part: int
    name: str
    digest: str
    offsets: list[int]  # byte offsets of the new rows' lines 0, shard_rows, 2·shard_rows… and the end
    count: int
    born: tuple[int, int, int, int] = (0, 0, 0, 0)  # rows new to the epoch (written out), per stratum
    regions: dict[str, int]
    incomplete: dict[str, int]
    sources: list[str]
    marked: dict[str, int] = Field(default_factory=dict)  # addresses per mark


def plan(run: SyncRun) -> list[SortItem]:
    """A task per part some street cell fed; its inputs, the parts' byte ranges in the route
    tasks' objects, written beside it (a list per part, in street-cell order)."""
    rows: dict[tuple[str, tuple[int, str], int], list[list[int]]] = {}
    for routed in sorted(run.results(ROUTE.name, Routed), key=lambda r: r.cell):
        for country, key, part, start, end, count in routed.spans:
            rows.setdefault((country, (key[0], key[1]), part), []).append([routed.cell, start, end, count])
    for (country, key, part), inputs in rows.items():
        run.work.write_json(keys.sort_inputs(country, order_cell_name(key, part)), inputs)
    return [SortItem(country=country, key=key, part=part) for country, key, part in sorted(rows)]


def sort_cell(run: SyncRun, item: SortItem) -> SortedPart:
    work, country, name = run.work, item.country, item.cell
    spans = work.read_json(keys.sort_inputs(country, name))
    digest, index, born_index, stats = CellDigest(), LocationIndex(), LocationIndex(), CellStats()
    refresh = bool(lineages(run)[country].parent)
    named: set[str] = set()  # the rows new to the epoch, in a refresh (all are in a new epoch)
    born_strata = [0, 0, 0, 0]

    def rows() -> Iterator[str]:
        """Each range's address lines; the ids after them go to `named`. The sort takes in every
        line before it yields its first address, so `named` is whole by then."""
        for cell, start, end, count in spans:
            for n, line in enumerate(work.read_lines(keys.routed(cell), start, end)):
                if n < count:
                    yield line
                else:
                    named.add(line)

    born = named if refresh else None

    def lines() -> Iterator[str]:
        for address in sorted_addresses(rows(), run.job.sort_chunk):
            digest.add(address)
            index.add(address)
            stats.add(address)
            if born is None or address.id in born:
                if born is not None:  # in a new epoch every row is new: `index` holds them all
                    born_index.add(address)
                born_strata[stratum_of(address)] += 1
                yield json.dumps(address_to_doc(address), ensure_ascii=False)

    offsets = work.write_lines(keys.sorted_part(country, name), lines(), every=run.job.shard_rows)
    written = [(keys.locations, index)] + ([(keys.born_locations, born_index)] if born is not None else [])
    for key, found in written:
        docs = (json.dumps(location_to_doc(loc), ensure_ascii=False) for loc in found.locations.values())
        work.write_lines(key(country, name), docs)
    return SortedPart(
        country=country,
        key=item.key,
        part=item.part,
        name=name,
        digest=digest.hexdigest(),
        offsets=offsets,
        count=stats.count,
        born=(born_strata[0], born_strata[1], born_strata[2], born_strata[3]),
        regions=dict(stats.regions),
        incomplete=dict(stats.incomplete),
        sources=sorted(stats.sources),
        marked=dict(stats.marked),
    )


def sorted_parts(run: SyncRun, country: str) -> list[SortedPart]:
    """A country's sorted parts in snapshot order."""
    found = run.results(STAGE.name, SortedPart, f"{country}-")
    return sorted(found, key=lambda p: (p.key, p.part))


STAGE = Stage("sort", SortItem, SortedPart, plan, sort_cell)
