"""Sync progress for a person at a terminal: one bar per source, then a line per country stage."""

from __future__ import annotations

import sys
from typing import NoReturn, TextIO

from tqdm import tqdm

from chalicelib.services.sync.report import SourceTally


class TerminalProgress:
    def __init__(self, out: TextIO = sys.stderr) -> None:
        self._out = out
        self._bar: tqdm[NoReturn] | None = None  # a bar fed by update(), not by iterating

    def source_started(self, family: str, expected_rows: int) -> None:
        self._bar = tqdm(
            total=expected_rows or None,
            desc=family[:40].ljust(40),
            unit=" rows",
            file=self._out,
            leave=True,
            dynamic_ncols=True,
        )

    def rows_read(self, count: int) -> None:
        if self._bar is not None:
            self._bar.update(count)

    def source_finished(self, family: str, tally: SourceTally) -> None:
        if self._bar is not None:
            self._bar.set_postfix(kept=tally.kept, dropped=sum(tally.dropped.values()))
            self._bar.close()
            self._bar = None

    def country_stage(self, country: str, stage: str) -> None:
        print(f"{country}: {stage}", file=self._out, flush=True)
