"""texts: per text cell, the second round of deduplication: a survivor whose full text an earlier
place already serves loses. Its claims are byte ranges of the dedupe tasks' objects."""

from __future__ import annotations

import json

from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.dedupe import TextClaim, same_text_losers
from chalicelib.services.sync.run import SyncRun
from chalicelib.services.sync.stages.base import CellItem, Stage, TaskResult
from chalicelib.services.sync.stages.dedupe_cells import claimed_spans
from chalicelib.services.sync.task_files import mapped_lines, write_cell_inputs


class TextsResult(TaskResult):
    losers: int


def plan(run: SyncRun) -> list[CellItem]:
    write_cell_inputs(run.work, "claims", run.job.text_cells, claimed_spans(run))
    return [CellItem(cell=c) for c in range(run.job.text_cells)]


def claim_texts(run: SyncRun, item: CellItem) -> TextsResult:
    work, cell = run.work, item.cell
    claims, home = [], {}
    for line in mapped_lines(work, "claims", cell):
        text, raw_seq, address_id, street_cell = json.loads(line)
        seq = (raw_seq[0], raw_seq[1])
        claims.append(TextClaim(text, seq, address_id))
        home[seq] = street_cell
    losers: dict[int, list[list[int]]] = {}
    for seq in same_text_losers(claims):
        losers.setdefault(home[seq], []).append(list(seq))
    for street_cell, seqs in losers.items():
        work.write_json(keys.same_text(street_cell, cell), sorted(seqs))
    return TextsResult(losers=sum(len(s) for s in losers.values()))


STAGE = Stage("texts", CellItem, TextsResult, plan, claim_texts)
