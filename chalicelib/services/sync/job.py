"""A sync job: what every task of one run reads first, and the sizes that bound a task's work."""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from chalicelib.sources.manifest import SourceEntry

ROWS_PER_CELL = 200_000  # street cells: what one dedupe task holds in memory
CLAIMS_PER_CELL = 2_000_000  # object and text cells: small records
SORT_CHUNK = 100_000  # rows a sort task holds before it spills a sorted run to disk
PART_ROWS = 500_000  # rows one sort task takes, about: a few minutes, well inside Lambda's 15
SAMPLE_EVERY = 1_000  # one kept row in this many gives its order key to the splitters
SHARD_ROWS = 20_000  # addresses one write task writes
INDEX_ROWS = 200_000  # addresses whose tokens one index task merges (some 15 postings each)
MAP_BUFFER = 100_000  # lines a map task holds before it writes them out (a Lambda's 2 GB)
# A container task's (8 GB): each flush writes a file per street cell its rows fall in, and at the
# planet's size nearly every cell gets some (make bench-planet: 11.6 M files at 100,000 lines; at
# 1,000,000 a 500,000-row task flushes once, 2.3 M). A million lines of some 1.2 KB are about
# 1.2 GB held, twice that for CJK text.
CONTAINER_MAP_BUFFER = 1_000_000
# Rows a Lambda task takes in: mapping runs at about 230 µs a row (make bench-sync-scale), so 2 M
# rows take some 8 of Lambda's 15 minutes. A source group, extract or country above it is marked
# for a container task (state_machine.Container), which has no time limit.
LAMBDA_ROWS = 2_000_000

Runner = Literal["lambda", "container"]
WORK_FORMAT = 5  # bump when the work store's files change shape: a run of another format never resumes


class SyncJob(BaseModel):
    """One run's inputs and sizes (`job.json`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    manifest: str
    root: str  # where the sources are: a folder, or the source store's s3://bucket/prefix/
    countries: list[str]
    fingerprint: str
    started_at: str
    street_cells: int  # every country's own range (`country_cells`), then the shared cells
    object_cells: int
    text_cells: int
    sort_chunk: int = SORT_CHUNK
    shard_rows: int = SHARD_ROWS
    part_rows: int = PART_ROWS
    sample_every: int = SAMPLE_EVERY
    map_buffer: int = MAP_BUFFER
    container_map_buffer: int = CONTAINER_MAP_BUFFER
    work_format: int = WORK_FORMAT
    country_cells: dict[str, tuple[int, int]] = Field(default_factory=dict)  # (first, count)
    # The withdrawn addresses' keys of the job's countries when it began: every task withholds these.
    withdrawn: list[str] = Field(default_factory=list)

    def street_range(self, country: str) -> tuple[int, int]:
        """The country's street cells, (first, count): its own, or the shared ones after them all."""
        own = self.country_cells.get(country)
        if own is not None:
            return own
        first = max((start + count for start, count in self.country_cells.values()), default=0)
        return first, self.street_cells - first

    def street_cell(self, country: str, street: int) -> int:
        """The street cell of a street's hash (route.py's `_street`) in its country."""
        first, count = self.street_range(country)
        return first + street % count


def runner_for(rows: int) -> Runner:
    """Where a task of this many input rows runs: a Lambda, or a container past Lambda's limits."""
    return "container" if rows > LAMBDA_ROWS else "lambda"


def runner_of_entries(entries: Iterable[SourceEntry]) -> Runner:
    """Where a task reading these manifest entries runs. An entry that does not say how many rows it
    holds (discovery's Geofabrik extracts: the index gives no counts, and a country's extract may
    be GB's or Russia's) runs in the container, which has no time limit."""
    chosen = list(entries)
    if any(entry.records == 0 for entry in chosen):
        return "container"
    return runner_for(sum(entry.records for entry in chosen))


def index_partitions(count: int) -> int:
    return max(1, -(-count // INDEX_ROWS))


def partition_of(token: str, partitions: int) -> int:
    return zlib.crc32(token.encode()) % partitions
