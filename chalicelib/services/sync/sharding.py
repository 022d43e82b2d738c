"""The arithmetic of a sharded build, as pure functions: how many cells a step's input is split
into, the splitters that cut a large order cell into parts one sort task can finish, where each
sorted part starts in its country's order (prefix sums of the part sizes), and the shards the
write step takes, each one ranged read of one sorted part."""

from __future__ import annotations

import bisect
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chalicelib.domain.ordering import CellKey


def cells_for(rows: int, per_cell: int) -> int:
    """Enough cells that none holds much more than `per_cell` rows: what bounds a worker's memory."""
    return max(1, math.ceil(rows / per_cell))


def power_of_two(count: int) -> int:
    """The least power of two at least `count` (ledger buckets and street cells split evenly)."""
    return 1 << max(0, count - 1).bit_length()


def street_layout(rows: dict[str, int | None], per_cell: int) -> tuple[dict[str, tuple[int, int]], int]:
    """Street cells by country: each country whose rows are counted (`rows`; None where a source
    does not say, as discovery's OSM extracts) a range of its own, (first, count) with `count` a
    power of two; the rest share the cells after them, as many as the counted rows would take
    (one where every country is counted). Returns the ranges and the number of cells. A route
    task thus meets one country's order cells, and a sort task reads only its country's route
    tasks: hashed over all countries, every street cell fed every part (make bench-planet's
    shuffles)."""
    ranges: dict[str, tuple[int, int]] = {}
    first = 0
    for country, count in sorted(rows.items()):
        if count is not None:
            ranges[country] = (first, power_of_two(cells_for(count, per_cell)))
            first += ranges[country][1]
    counted = sum(count for count in rows.values() if count is not None)
    uncounted = any(count is None for count in rows.values())
    # One shared cell at least: rows whose country has no range of its own (not built) land there.
    return ranges, first + (power_of_two(cells_for(counted, per_cell)) if uncounted else 1)


def cell_of_key(key: str, cells: int) -> int:
    """A stable cell for a key (street, text, OSM object): the same in every process and run."""
    return zlib.crc32(key.encode()) % cells


def order_cell_name(key: CellKey, part: int = 0) -> str:
    """A file-safe name for part `part` of a (stratum, region) cell."""
    stratum, region = key
    return f"{stratum}-{zlib.crc32(region.encode()):08x}-{len(region)}-{part:04d}"


def is_sampled(address_id: str, every: int) -> bool:
    """One address in `every`, chosen by its id: the same rows in every run and every partition."""
    return zlib.crc32(address_id.encode()) % every == 0


def splitters(samples: Sequence[Any], count: int, part_rows: int) -> list[Any]:
    """Order keys that cut a cell of `count` rows into parts of about `part_rows`, read off a
    sample of its keys at even quantiles; none for a cell one task can sort."""
    parts = min(cells_for(count, part_rows), len(samples) + 1)
    if parts <= 1:
        return []
    ordered = sorted(samples)
    cuts = [ordered[len(ordered) * i // parts] for i in range(1, parts)]
    return [cut for i, cut in enumerate(cuts) if i == 0 or cut != cuts[i - 1]]


def part_of(cuts: Sequence[Any], key: Any) -> int:
    """The part of a cell an order key falls in: part i holds keys in [cuts[i-1], cuts[i])."""
    return bisect.bisect_right(cuts, key)


@dataclass(frozen=True)
class SortedCell:
    key: CellKey
    name: str
    count: int
    offsets: tuple[int, ...]  # byte offsets of lines 0, rows, 2·rows… and the end
    part: int = 0


@dataclass(frozen=True)
class Shard:
    """Addresses [first_ordinal, first_ordinal + rows) of a country: bytes [start, end) of one
    sorted cell."""

    cell: str
    first_ordinal: int
    rows: int
    start: int
    end: int


def cell_starts(counts: Sequence[int], first: int = 0) -> list[int]:
    """Each cell's first ordinal: `first` and the sum of the sizes of the cells before it."""
    starts, total = [], first
    for count in counts:
        starts.append(total)
        total += count
    return starts


def shards_of(cells: Sequence[SortedCell], shard_rows: int, first_slot: int = 0) -> list[Shard]:
    """Cells in snapshot order from `first_slot` on, cut every `shard_rows` rows at the offsets
    their sort recorded."""
    ordered = sorted(cells, key=lambda c: (c.key, c.part))
    found = []
    for cell, start in zip(ordered, cell_starts([c.count for c in ordered], first_slot), strict=True):
        for index in range(len(cell.offsets) - 1):
            first = index * shard_rows
            rows = min(shard_rows, cell.count - first)
            if rows <= 0:
                break
            found.append(Shard(cell.name, start + first, rows, cell.offsets[index], cell.offsets[index + 1]))
    return found
