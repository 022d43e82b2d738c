"""The sync's progress on a terminal: each stage, and per country its rows as its map or write
tasks finish, with the stage's rate and time left then (tqdm's bars are drawn on a terminal only;
these lines always)."""

from __future__ import annotations

import io
from itertools import count

from chalicelib.cli.progress import TerminalProgress
from chalicelib.services.sync.report import Work


def test_each_country_s_rows_and_rate_are_said_when_its_tasks_finish() -> None:
    out = io.StringIO()
    ticks = count()
    progress = TerminalProgress(out, clock=lambda: float(next(ticks)))
    progress.stage("map")
    work = [Work("FI", 1_451), Work("DK", 35_000), Work("DK", 1_320)]
    progress.planned("map", work)
    for task in work:
        progress.done("map", task)
    progress.stage("dedupe")
    progress.planned("dedupe", [Work(None, 1)] * 3)
    for _ in range(3):
        progress.done("dedupe", Work(None, 1))
    progress.country_stage("FI", "publishing")
    lines = out.getvalue().splitlines()
    assert lines == [
        "map",
        "  FI: 1,451 rows read; map at 1,451 rows/s, 25 s left",
        "  DK: 36,320 rows read; map at 18,886 rows/s, 0 s left",
        "dedupe",
        "  FI: publishing",
    ]
