"""Discovery's plan of an Overture release, on the replica in ../shared/sources/overture: the newest
release by name, each row group's countries from the footer (read whole only where a row group
straddles countries), and tasks that together read every row of every country once, none over
its row budget unless one row group is."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from chalicelib.sources.overture import read_overture
from chalicelib.sources.overture_plan import (
    RowGroupFacts,
    countries_of,
    newest_release,
    plan_tasks,
    row_group_facts,
)
from tests.support.factories import SOURCES, needs_sources
from tests.support.part_files import PartFile

pytestmark = needs_sources

RELEASES = SOURCES / "overture" / "release"
# The replica's README: rows per country in release 2026-11-18.0.
ROWS = {"US": 19_624, "JP": 35_443, "IS": 20_241, "TW": 11_376, "FR": 8_393, "PL": 1_335, "DK": 1_307}
ROWS |= {"SG": 660, "BE": 658, "NO": 19}


def _folder(release: str) -> Path:
    return RELEASES / release / "theme=addresses" / "type=address"


@pytest.fixture(scope="module")
def footers() -> dict[str, list[RowGroupFacts]]:
    release = newest_release(p.name for p in RELEASES.iterdir())
    assert release == "2026-11-18.0"
    return {p.name: row_group_facts(p) for p in sorted(_folder(release).glob("part-*.parquet"))}


def test_the_newest_release_is_read_off_the_names_and_nothing_else_counts() -> None:
    assert (
        newest_release(["2026-10-21.0", "2026-11-18.0", "2026-11-18.1", "latest", "2027-1-1.0"])
        == "2026-11-18.1"
    )
    assert newest_release(["2026-09-24.0", "2026-10-22.0"]) == "2026-10-22.0"
    assert newest_release(["_SUCCESS"]) is None


def test_each_row_group_s_countries_are_exactly_the_ones_it_holds(
    footers: dict[str, list[RowGroupFacts]],
) -> None:
    assert countries_of(footers) == set(ROWS)
    for name, groups in footers.items():
        table = pq.ParquetFile(_folder("2026-11-18.0") / name)
        for index, group in enumerate(groups):
            held = set(table.read_row_group(index, columns=["country"]).column("country").to_pylist())
            assert group.countries == held, (name, index)
            assert group.rows == table.metadata.row_group(index).num_rows
    assert any(len(g.countries) > 1 for groups in footers.values() for g in groups)  # a border was crossed


def test_a_single_country_row_group_is_known_from_the_footer_alone(
    footers: dict[str, list[RowGroupFacts]],
) -> None:
    for name, groups in footers.items():
        counted = PartFile(_folder("2026-11-18.0") / name)
        assert row_group_facts(counted.opened()) == groups
        straddling = sum(len(g.countries) > 1 for g in groups)
        assert straddling < len(groups) // 2
        assert counted.reads <= 2 + straddling  # the footer (its length, then itself), then one read each


def test_the_tasks_read_every_row_of_every_country_once_within_their_budget(
    footers: dict[str, list[RowGroupFacts]],
) -> None:
    tasks = plan_tasks(footers, ROWS, max_rows=10_000)
    assert all(t.rows <= 10_000 for t in tasks)
    read: Counter[str] = Counter()
    seen: set[str] = set()
    for task in tasks:
        part = _folder("2026-11-18.0") / task.part
        for record in read_overture(
            part, source_id="o", country=task.country, language="", row_groups=task.row_groups
        ):
            assert record.overture_id not in seen
            seen.add(record.overture_id)
            read[record.country] += 1
    assert dict(read) == ROWS
    assert {t.country for t in tasks if t.part.startswith("part-00000")} >= {"DK"}
    assert {t.country for t in tasks if t.part.startswith("part-00001")} >= {"DK"}  # split across parts


def test_a_row_group_larger_than_the_budget_is_a_task_of_its_own_and_unwanted_countries_get_none() -> None:
    groups = [
        RowGroupFacts(5, frozenset({"AA"})),
        RowGroupFacts(50, frozenset({"AA", "BB"})),
        RowGroupFacts(5, frozenset({"BB"})),
    ]
    tasks = plan_tasks({"p": groups}, ["AA", "CC"], max_rows=20)
    assert [(t.country, t.row_groups.start, t.row_groups.stop, t.rows) for t in tasks] == [
        ("AA", 0, 1, 5),
        ("AA", 1, 2, 50),
    ]
