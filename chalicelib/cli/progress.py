"""A sync's progress on a terminal (tqdm, MIT): a bar per stage with its rate and time left, and a
line per country as the stage finishes it: its rows, and the stage's rate and time left then. Off a
terminal (a pipe, CI, a file) the bars are not drawn and the lines remain."""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from chalicelib.services.sync.report import Work

# What a stage's bar counts.
_UNITS = {"map": "rows", "write": "addresses"}
# What a country's line says it did in a stage (the stages a country's own tasks make up).
_DONE = {"map": "read", "write": "written"}


class TerminalProgress:
    def __init__(self, out: TextIO | None = None, clock: Any = time.monotonic) -> None:
        self._out = out or sys.stderr
        self._clock = clock
        self._bar: Any = None
        self._left: Counter[str] = Counter()
        self._rows: Counter[str] = Counter()
        self._began = 0.0  # when the stage's tasks were planned: its rate is since then
        self._total = 0

    def stage(self, name: str) -> None:
        self._close()
        self._say(f"{name}")

    def country_stage(self, country: str, stage: str) -> None:
        self._say(f"  {country}: {stage}")

    def planned(self, stage: str, work: Sequence[Work]) -> None:
        from tqdm import tqdm  # lazy: the sync's command alone draws bars

        self._close()
        if not work:
            return
        self._left = Counter()
        for task in work:
            self._left[task.country or ""] += task.rows
        self._rows, self._began = Counter(), self._clock()
        unit = _UNITS.get(stage, "tasks")
        total = sum(task.rows for task in work) if stage in _UNITS else len(work)
        self._total = sum(task.rows for task in work)
        self._bar = tqdm(
            total=total, desc=f"  {stage}", unit=f" {unit}", file=self._out, disable=None, leave=False
        )

    def done(self, stage: str, work: Work) -> None:
        country = work.country or ""
        if self._bar is not None:
            self._bar.update(work.rows if stage in _UNITS else 1)
            if country:
                self._bar.set_postfix_str(country, refresh=False)
        self._rows[country] += work.rows
        self._left[country] -= work.rows
        if country and self._left[country] <= 0 and stage in _DONE:
            self._say(
                f"  {country}: {self._rows[country]:,} {_UNITS[stage]} {_DONE[stage]}; {self._pace(stage)}"
            )

    def _pace(self, stage: str) -> str:
        """The stage's rate so far, and the time left at that rate."""
        seconds = max(self._clock() - self._began, 1e-3)
        done = sum(self._rows.values())
        rate = done / seconds
        left = max(self._total - done, 0) / rate if rate else 0.0
        return f"{stage} at {rate:,.0f} {_UNITS[stage]}/s, {_duration(left)} left"

    def _say(self, line: str) -> None:
        from tqdm import tqdm

        tqdm.write(line, file=self._out)
        self._out.flush()

    def _close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def _duration(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{whole} s"
