"""dedupe: per street cell, the first round of deduplication. Survivors stay in the cell, their
text claims go out by text cell (one object, a byte range per text cell), and a sample of their
order keys lets the stage's finish cut order cells too large for one sort task into parts (the
splitters)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from typing import Any

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.ordering import CellKey, cell_of, order_key
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.sharding import cell_of_key, is_sampled, splitters
from chalicelib.services.sync.stages.base import CellItem, Stage, Tallied
from chalicelib.services.sync.stages.map_sources import mapped_spans
from chalicelib.services.sync.survival import Row, Survival, Tallies
from chalicelib.services.sync.task_files import (
    mapped_lines,
    row_line,
    row_of,
    seqs_under,
    tupled,
    write_cell_inputs,
    write_groups,
)

Place = tuple[str, CellKey]  # a country's order cell


def plan(run: SyncRun) -> list[CellItem]:
    write_cell_inputs(run.work, "rows", run.job.street_cells, mapped_spans(run, "rows"))
    return [CellItem(cell=c) for c in range(run.job.street_cells)]


class Deduped(Tallied):
    cell: int
    spans: list[list[int]]  # [text cell, 0, start, end] of its text claims, in `mapped("claims", cell, 0)`


def dedupe_cell(run: SyncRun, item: CellItem) -> Deduped:
    work, job, cell = run.work, run.job, item.cell
    rows = [row_of(line) for line in mapped_lines(work, "rows", cell)]
    rows.sort(key=lambda r: r.seq)
    repeats = seqs_under(work, keys.repeats_prefix(cell))
    tallies = Tallies()
    survival = Survival(run.config.supersedes(), tallies, lambda row: row.seq in repeats)
    for row in rows:
        survival.offer(row)
    survivors = survival.survivors()
    work.write_lines(
        keys.kept(cell),
        (row_line(Row(k.seq, k.family, "", k.address, survival.removed_of(k.address))) for k in survivors),
    )
    claims: dict[int, list[str]] = {}
    for claim in survival.text_claims():
        line = json.dumps([claim.text, list(claim.seq), claim.address_id, cell], ensure_ascii=False)
        claims.setdefault(cell_of_key(claim.text, job.text_cells), []).append(line)
    held = sorted(claims.items())
    ranges = write_groups(work, keys.mapped("claims", cell, 0), [lines for _, lines in held]) if held else []
    work.write_json(keys.samples(cell), _samples(run, (k.address for k in survivors)))
    spans = [[text_cell, 0, start, end] for (text_cell, _), (start, end) in zip(held, ranges, strict=True)]
    return Deduped(tallies=Tallied.counts(tallies), cell=cell, spans=spans)


def _samples(run: SyncRun, kept: Iterable[PublishedAddress]) -> list[list[Any]]:
    """Per order cell: how many rows this street cell keeps there, and a sample of their keys."""
    job = run.job
    counts: Counter[Place] = Counter()
    found: dict[Place, list[Any]] = {}
    for address in kept:
        if address.country not in job.countries:
            continue
        place = (address.country, cell_of(address))
        counts[place] += 1
        if is_sampled(address.id, job.sample_every):
            found.setdefault(place, []).append(order_key(address))
    return [[country, list(key), n, found.get((country, key), [])] for (country, key), n in counts.items()]


def cut_large_cells(run: SyncRun) -> None:
    """Cut every order cell too large for one sort task at quantiles of its sampled keys."""
    job = run.job
    counts: Counter[Place] = Counter()
    sampled: dict[Place, list[Any]] = {}
    for cell in range(job.street_cells):
        for country, key, count, found in run.work.read_json(keys.samples(cell)):
            place = (country, (key[0], key[1]))
            counts[place] += count
            sampled.setdefault(place, []).extend(tupled(k) for k in found)
    cuts = [
        [country, list(key), found]
        for (country, key), count in sorted(counts.items())
        if (found := splitters(sampled[(country, key)], count, job.part_rows))
    ]
    run.work.write_json(keys.SPLITTERS, cuts)


def cuts(run: SyncRun) -> dict[Place, list[Any]]:
    def read() -> dict[Place, list[Any]]:
        return {
            (country, (key[0], key[1])): [tupled(cut) for cut in found]
            for country, key, found in run.work.read_json(keys.SPLITTERS)
        }

    return run.memo("splitters", read)


STAGE = Stage("dedupe", CellItem, Deduped, plan, dedupe_cell, cut_large_cells)


def claimed_spans(run: SyncRun) -> list[tuple[int, list[list[int]]]]:
    """Every dedupe task's [text cell, 0, start, end] of its text claims, by its street cell."""
    return [(d.cell, d.spans) for d in run.results(STAGE.name, Deduped)]
