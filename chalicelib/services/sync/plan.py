"""The arithmetic of a sharded build, as pure functions: how many cells a step's input is split
into, where each sorted cell starts in its country's order (prefix sums of the cell sizes), and
the shards the write step takes, each one ranged read of one sorted cell."""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from chalicelib.domain.snapshots import CellKey


def cells_for(rows: int, per_cell: int) -> int:
    """Enough cells that none holds much more than `per_cell` rows: what bounds a worker's memory."""
    return max(1, math.ceil(rows / per_cell))


def cell_of_key(key: str, cells: int) -> int:
    """A stable cell for a key (street, text, OSM object): the same in every process and run."""
    return zlib.crc32(key.encode()) % cells


def order_cell_name(key: CellKey) -> str:
    """A file-safe name for a (stratum, region) cell."""
    stratum, region = key
    return f"{stratum}-{zlib.crc32(region.encode()):08x}-{len(region)}"


@dataclass(frozen=True)
class SortedCell:
    key: CellKey
    name: str
    count: int
    offsets: tuple[int, ...]  # byte offsets of lines 0, rows, 2·rows… and the end


@dataclass(frozen=True)
class Shard:
    """Addresses [first_ordinal, first_ordinal + rows) of a country: bytes [start, end) of one
    sorted cell."""

    cell: str
    first_ordinal: int
    rows: int
    start: int
    end: int


def cell_starts(counts: Sequence[int]) -> list[int]:
    """Each cell's first ordinal: the sum of the sizes of the cells before it."""
    starts, total = [], 0
    for count in counts:
        starts.append(total)
        total += count
    return starts


def shards_of(cells: Sequence[SortedCell], shard_rows: int) -> list[Shard]:
    """Cells in snapshot order, cut every `shard_rows` rows at the offsets their sort recorded."""
    ordered = sorted(cells, key=lambda c: c.key)
    found = []
    for cell, start in zip(ordered, cell_starts([c.count for c in ordered]), strict=True):
        for index in range(len(cell.offsets) - 1):
            first = index * shard_rows
            rows = min(shard_rows, cell.count - first)
            if rows <= 0:
                break
            found.append(Shard(cell.name, start + first, rows, cell.offsets[index], cell.offsets[index + 1]))
    return found
