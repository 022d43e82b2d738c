"""The sync's work folder: lines written whole, and the byte ranges of groups of them (a map
flush's cells, a route task's parts) read back exactly, one range at a time."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

from chalicelib.storage.files.sync_work import LocalWorkStore


def test_marks_give_each_group_s_byte_range(tmp_path: Path) -> None:
    work = LocalWorkStore(tmp_path)
    groups = [["a", "bb"], ["Ünïcode ł"], ["x", "y", "z"]]
    offsets = work.write_lines("k.jsonl", [line for group in groups for line in group], marks=[0, 2, 3])
    assert len(offsets) == len(groups) + 1
    read = [list(work.read_lines("k.jsonl", start, end)) for start, end in pairwise(offsets)]
    assert read == groups
    assert offsets[-1] == (tmp_path / "k.jsonl").stat().st_size


def test_every_still_gives_runs_of_lines(tmp_path: Path) -> None:
    work = LocalWorkStore(tmp_path)
    offsets = work.write_lines("k.jsonl", [str(n) for n in range(5)], every=2)
    assert [list(work.read_lines("k.jsonl", a, b)) for a, b in pairwise(offsets)] == [
        ["0", "1"],
        ["2", "3"],
        ["4"],
    ]
