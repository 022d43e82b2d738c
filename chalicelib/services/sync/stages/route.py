"""route: per street cell, the survivors of both rounds go out by (country, stratum, region)
order cell and part; and each country's rows are compared with what its active snapshot serves
(the epoch's ledger, by street): the new ones are recorded in the ledger and named for the sort
(their ids after the part's rows, in the same byte range: one ranged read per part and street
cell), the removed ones recorded and tagged on their items (generations.py)."""

from __future__ import annotations

import json
import zlib
from collections import Counter
from typing import NamedTuple

from pydantic import Field

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.codecs import address_to_doc
from chalicelib.domain.epochs import LedgerEntry, buckets_of_cell, ledger_buckets
from chalicelib.domain.ordering import CellKey, cell_of, order_key
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.dedupe import MergeReason, street_key
from chalicelib.services.sync.generations import Comparison, Lineage, compare, lineages, record_lineages
from chalicelib.services.sync.ports import WorkStore
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.sharding import part_of
from chalicelib.services.sync.stages.base import CellItem, Stage, Tallied
from chalicelib.services.sync.stages.dedupe_cells import cuts
from chalicelib.services.sync.survival import Tallies, leave
from chalicelib.services.sync.task_files import row_of, seqs_under, write_groups

Part = tuple[str, CellKey, int]  # (country, order cell, part)


class Compared(NamedTuple):
    """A country's rows compared with what its active snapshot serves (stored as a JSON list)."""

    kept: int
    added: int
    removed: int
    items_written: int  # the ledger's pages and the removed addresses' tags

    def __add__(self, other: object) -> Compared:
        assert isinstance(other, Compared)
        return Compared(*(a + b for a, b in zip(self, other, strict=True)))


NOTHING_COMPARED = Compared(0, 0, 0, 0)


# (country, order cell, part, start, end, rows): a part's byte range in the route task's object,
# its `rows` address lines, then (in a refresh) the ids of those new to the epoch, a line each
Span = tuple[str, tuple[int, str], int, int, int, int]


class Routed(Tallied):
    cell: int
    spans: list[Span]  # of the parts this cell fed, in `routed(cell)`
    compared: dict[str, Compared] = Field(default_factory=dict)  # per country


def plan(run: SyncRun) -> list[CellItem]:
    rows: Counter[str] = Counter()
    for cell in range(run.job.street_cells):
        for country, _, count, _ in run.work.read_json(keys.samples(cell)):
            rows[country] += count
    record_lineages(run, dict(rows))
    return [CellItem(cell=c) for c in range(run.job.street_cells)]


def route_cell(run: SyncRun, item: CellItem) -> Routed:
    work, job, cell, split = run.work, run.job, item.cell, cuts(run)
    losers = seqs_under(work, keys.same_text_prefix(cell))
    tallies = Tallies()
    routed: dict[Part, list[PublishedAddress]] = {}
    for line in work.read_lines(keys.kept(cell)):
        row = row_of(line)
        if row.seq in losers:
            leave(tallies, row.family, row.removed, MergeReason.SAME_TEXT)
        elif row.address.country in job.countries:
            country, key = row.address.country, cell_of(row.address)
            found = split.get((country, key))
            part = part_of(found, order_key(row.address)) if found else 0
            routed.setdefault((country, key, part), []).append(row.address)
    parts = sorted(routed)
    compared: dict[str, Compared] = {}
    born: dict[Part, list[str]] = {}
    for country, lineage in lineages(run).items():
        first, count = job.street_range(country)
        if first <= cell < first + count:  # the country's streets hash here: compare them
            own = {p: routed[p] for p in parts if p[0] == country}
            compared[country], named = _compare(run, lineage, (cell - first, count), own)
            born.update(named)
    groups = [
        (
            p,
            len(routed[p]),
            [json.dumps(address_to_doc(a), ensure_ascii=False) for a in routed[p]] + born.get(p, []),
        )
        for p in parts
    ]
    return Routed(
        tallies=Tallied.counts(tallies),
        cell=cell,
        spans=_write_spans(work, keys.routed(cell), groups),
        compared=compared,
    )


def _write_spans(work: WorkStore, key: str, groups: list[tuple[Part, int, list[str]]]) -> list[Span]:
    """The groups' lines in one object; each one's part, byte range and count of address lines."""
    if not groups:
        return []
    ranges = write_groups(work, key, [lines for _, _, lines in groups])
    return [(c, k, p, start, end, n) for ((c, k, p), n, _), (start, end) in zip(groups, ranges, strict=True)]


def _compare(
    run: SyncRun, lineage: Lineage, place: tuple[int, int], parts: dict[Part, list[PublishedAddress]]
) -> tuple[Compared, dict[Part, list[str]]]:
    """Compare the cell's rows of one country with the parent's; record what changed, and name
    the new rows' ids per part (none when the epoch is new: all of its rows are). `place`: the
    cell among the country's street cells, and their count."""
    pool, (cell, cells) = run.pool, place
    buckets = ledger_buckets(lineage.buckets)
    epoch = lineage.writing.epoch
    pages = (
        [p for b in buckets_of_cell(cell, cells, buckets) for p in pool.ledger(epoch, b)]
        if lineage.parent
        else []
    )
    rows = [(a, _street(a)) for addresses in parts.values() for a in addresses]
    found = compare(lineage, rows, pages, frozenset(lineage.parent_generations), cell, cells)
    written = _record(run, lineage, found, buckets, cell)
    born: dict[Part, list[str]] = {}
    if lineage.parent:
        born = {p: [a.id for a in addresses if a.id in found.born_ids] for p, addresses in parts.items()}
    return Compared(found.kept, len(found.born), len(found.removed), written), born


def _record(run: SyncRun, lineage: Lineage, found: Comparison, buckets: int, cell: int) -> int:
    """The ledger pages of what changed, by bucket; the removed addresses' items tagged."""
    by_bucket: dict[int, tuple[list[LedgerEntry], list[LedgerEntry]]] = {}
    for entry in found.born:
        by_bucket.setdefault(entry.street % buckets, ([], []))[0].append(entry)
    for entry in found.removed:
        by_bucket.setdefault(entry.street % buckets, ([], []))[1].append(entry)
    writing = lineage.writing
    pool = run.pool
    written = sum(pool.put_ledger(writing, b, cell, born, gone) for b, (born, gone) in by_bucket.items())
    return written + (run.pool.mark_removed(writing, found.removed) if found.removed else 0)


def _street(address: PublishedAddress) -> int:
    """The hash that places the address's street in a street cell (map_sources.py)."""
    return zlib.crc32("|".join(street_key(address)).encode())


def compared_rows(run: SyncRun, country: str) -> Compared:
    """The country's rows kept, new and removed, and the ledger items written, over every cell."""
    return sum(
        (routed.compared.get(country, NOTHING_COMPARED) for routed in run.results(STAGE.name, Routed)),
        NOTHING_COMPARED,
    )


STAGE = Stage("route", CellItem, Routed, plan, route_cell)
