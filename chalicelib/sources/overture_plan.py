"""Which Overture release to read, and how to split it into tasks: each task one country's rows in
a range of one part's row groups, so no task reads a whole part and no row group is read for a
country it does not hold.

A part's footer says, per row group, its rows and the least and greatest `country` (Parquet column
statistics). Parts are spatial, so most row groups hold one country; for the few that straddle a
border the `country` column alone is read (dictionary-encoded: a few KB) to know exactly which."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from chalicelib.errors import ConfigurationError
from chalicelib.sources.manifest import SourceEntry
from chalicelib.sources.overture import RowGroups, missing_columns

_RELEASE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\.(\d+)$")


@dataclass(frozen=True)
class RowGroupFacts:
    rows: int
    countries: frozenset[str]


@dataclass(frozen=True)
class OvertureTask:
    part: str  # the part's file name within the release
    country: str
    row_groups: RowGroups
    rows: int  # the row groups' rows, all countries: what the task reads


def newest_release(names: Iterable[str]) -> str | None:
    """The newest of the release folders' names (`2026-11-18.0`); other names are ignored."""
    releases = [(tuple(int(g) for g in m.groups()), name) for name in names if (m := _RELEASE.match(name))]
    return max(releases)[1] if releases else None


def row_group_facts(part: Path | IO[bytes], label: str = "part") -> list[RowGroupFacts]:
    """Each row group's rows and countries, from the footer and, where a row group straddles
    countries, its `country` column. A part without a column the reader needs is refused here,
    naming it (`label`: which release and part), before any task is planned or row written."""
    import pyarrow.parquet as pq  # lazy: only discovery and the Overture tasks read Parquet

    parquet = pq.ParquetFile(part)
    if missing := missing_columns(parquet.schema_arrow.names):
        raise ConfigurationError(
            f"Overture {label} has no column {', '.join(missing)}, which the reader needs: "
            "the release's schema has changed; nothing was planned or written"
        )
    metadata = parquet.metadata
    # The footer's statistics are per leaf column: `bbox` alone is four, so the leaf is found by its
    # path, not by the field's place in the Arrow schema.
    column = next(i for i in range(metadata.num_columns) if metadata.schema.column(i).path == "country")
    facts = []
    for index in range(metadata.num_row_groups):
        group = metadata.row_group(index)
        stats = group.column(column).statistics
        if stats is not None and stats.has_min_max and stats.min == stats.max:
            countries = frozenset({str(stats.min)})
        else:
            read = parquet.read_row_group(index, columns=["country"]).column("country")
            countries = frozenset(str(c) for c in read.unique().to_pylist() if c)
        facts.append(RowGroupFacts(group.num_rows, countries))
    return facts


def plan_tasks(
    parts: Mapping[str, Sequence[RowGroupFacts]], countries: Iterable[str], max_rows: int
) -> list[OvertureTask]:
    """Per part and country, the runs of consecutive row groups holding the country, cut so a task
    reads at most `max_rows` rows (a single larger row group is a task of its own)."""
    wanted = set(countries)
    tasks = []
    for part, groups in sorted(parts.items()):
        held = set().union(*(g.countries for g in groups))
        for country in sorted(wanted & held):
            tasks += _runs(part, country, groups, max_rows)
    return tasks


def _runs(part: str, country: str, groups: Sequence[RowGroupFacts], max_rows: int) -> list[OvertureTask]:
    tasks: list[OvertureTask] = []
    start, rows = None, 0
    for index, group in enumerate([*groups, RowGroupFacts(0, frozenset())]):
        holds = country in group.countries
        if start is not None and (not holds or rows + group.rows > max_rows):
            tasks.append(OvertureTask(part, country, RowGroups(start, index), rows))
            start, rows = None, 0
        if holds:
            start = index if start is None else start
            rows += group.rows
    return tasks


def countries_of(parts: Mapping[str, Sequence[RowGroupFacts]]) -> set[str]:
    """Every country the release holds."""
    return {c for groups in parts.values() for g in groups for c in g.countries}


@dataclass(frozen=True)
class Publication:
    """Where a release's parts are and under which terms its rows are served."""

    release: str
    folder: str  # the release's part folder, as the manifest names files (relative to its root)
    license: str  # for a row whose `sources` item gives no SPDX licence
    attribution: str
    upstream: str = ""  # the folder's URL where it is fetched from (s3://overturemaps-us-west-2/...)


def manifest_entries(publication: Publication, tasks: Iterable[OvertureTask]) -> list[SourceEntry]:
    """One manifest entry per task, each country's entries one source (`overture-<CC>`)."""
    entries = []
    for task in tasks:
        part = task.part.split("-")[1] if task.part.startswith("part-") else task.part
        groups = task.row_groups
        entries.append(
            SourceEntry(
                id=f"overture-{publication.release}-{task.country}-p{part}-{groups.start}-{groups.stop}",
                family=f"overture-{task.country}",
                country=task.country,
                format="overture-parquet",
                files=(f"{publication.folder}/{task.part}",),
                row_groups=(groups.start, groups.stop),
                language="",
                license=publication.license,
                attribution=publication.attribution,
                upstream=f"{publication.upstream}/{task.part}" if publication.upstream else "",
                records=task.rows,
            )
        )
    return entries
