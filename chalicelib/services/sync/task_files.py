"""What the stages' tasks write and read in the work store: a map task's partitioned output, rows
as JSON lines, the external merge sort of an order cell's part, its statistics and digests."""

from __future__ import annotations

import heapq
import json
import tempfile
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain, groupby, pairwise
from pathlib import Path
from typing import Any, Protocol

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.codecs import address_from_doc, address_to_doc
from chalicelib.domain.digests import CellDigest
from chalicelib.domain.ordering import CellKey, order_key
from chalicelib.services.marks import counted_marks
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.dedupe import Seq
from chalicelib.services.sync.ports import WorkStore
from chalicelib.services.sync.publication import incomplete_counts
from chalicelib.services.sync.survival import Row
from chalicelib.sources.boundaries import Boundary


class Partitioned:
    """A map task's output by cell, flushed whenever `buffer` lines are held as one object per
    kind, cell after cell: memory stays bounded however large the source, and the same input gives
    the same objects. `spans` names each cell's byte range: kind → [cell, flush, start, end]."""

    def __init__(self, work: WorkStore, rank: int, buffer: int) -> None:
        self.work, self.rank, self.buffer = work, rank, buffer
        self.held: dict[tuple[keys.Mapped, int], list[str]] = {}
        self.count = self.part = 0
        self.spans: dict[str, list[list[int]]] = {}

    def add(self, kind: keys.Mapped, cell: int, line: str) -> None:
        self.held.setdefault((kind, cell), []).append(line)
        self.count += 1
        if self.count >= self.buffer:
            self.flush()

    def flush(self) -> None:
        for kind in sorted({kind for kind, _ in self.held}):
            cells = sorted(cell for k, cell in self.held if k == kind)
            key = keys.mapped(kind, self.rank, self.part)
            ranges = write_groups(self.work, key, [self.held[(kind, cell)] for cell in cells])
            self.spans.setdefault(kind, []).extend(
                [cell, self.part, start, end] for cell, (start, end) in zip(cells, ranges, strict=True)
            )
        self.held, self.count, self.part = {}, 0, self.part + 1


def write_groups(work: WorkStore, key: str, groups: Sequence[list[str]]) -> list[tuple[int, int]]:
    """Non-empty groups of lines one after another in one object; each group's byte range."""
    marks = list(accumulate((len(group) for group in groups[:-1]), initial=0))
    offsets = work.write_lines(key, chain.from_iterable(groups), marks=marks)
    return list(pairwise(offsets))


def write_cell_inputs(
    work: WorkStore, kind: keys.Mapped, cells: int, spans: Iterable[tuple[int, list[list[int]]]]
) -> None:
    """Each cell's byte ranges of the map tasks' flushes (`spans`: per map task's rank, its
    [cell, flush, start, end] of this kind), for the tasks of the stage that reads them."""
    found: dict[int, list[list[int]]] = {cell: [] for cell in range(cells)}
    for rank, held in sorted(spans):
        for cell, part, start, end in held:
            found[cell].append([rank, part, start, end])
    for cell, inputs in found.items():
        work.write_json(keys.cell_inputs(kind, cell), inputs)


def mapped_lines(work: WorkStore, kind: keys.Mapped, cell: int) -> Iterator[str]:
    """A cell's lines of one kind, from every map task's flushes, in rank and flush order."""
    for rank, part, start, end in work.read_json(keys.cell_inputs(kind, cell)):
        yield from work.read_lines(keys.mapped(kind, rank, part), start, end)


@dataclass
class CellStats:
    count: int = 0
    regions: Counter[str] = field(default_factory=Counter)
    incomplete: Counter[str] = field(default_factory=Counter)
    sources: set[str] = field(default_factory=set)
    marked: Counter[str] = field(default_factory=Counter)  # addresses per counted mark (services/marks.py)

    def add(self, address: PublishedAddress) -> None:
        self.count += 1
        self.marked.update(counted_marks(address))
        if address.components.region_code:
            self.regions[address.components.region_code] += 1
        self.incomplete.update(incomplete_counts([address]))
        self.sources.add(address.provenance.source_id)


def sorted_addresses(lines: Iterable[str], chunk: int) -> Iterator[PublishedAddress]:
    """The addresses of `lines` (JSON documents) in snapshot order, holding at most `chunk` of
    them at a time: sorted runs spill to temporary files, then merge. Every line is taken in
    before the first address is yielded."""
    runs: list[Path] = []
    held: list[PublishedAddress] = []
    with tempfile.TemporaryDirectory(prefix="ags-sort-") as spill:
        for line in lines:
            held.append(address_from_doc(json.loads(line)))
            if len(held) >= chunk:
                runs.append(_spill(sorted(held, key=order_key), Path(spill), len(runs)))
                held = []
        held.sort(key=order_key)
        if not runs:
            yield from held
            return
        runs.append(_spill(held, Path(spill), len(runs)))
        yield from heapq.merge(*(_read_run(run) for run in runs), key=order_key)


def _spill(ordered: list[PublishedAddress], folder: Path, number: int) -> Path:
    path = folder / f"run-{number:05d}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for address in ordered:
            out.write(json.dumps(address_to_doc(address), ensure_ascii=False) + "\n")
    return path


def _read_run(path: Path) -> Iterator[PublishedAddress]:
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            yield address_from_doc(json.loads(line))


class DigestedPart(Protocol):
    @property
    def key(self) -> CellKey: ...
    @property
    def digest(self) -> str: ...


def cell_digests(parts: Sequence[DigestedPart]) -> list[tuple[CellKey, str]]:
    """The digest of each (stratum, region) cell, from its parts' (which follow one another)."""
    return [
        (key, CellDigest.combined(p.digest for p in group))
        for key, group in groupby(parts, key=lambda p: p.key)
    ]


def tupled(doc: Any) -> Any:
    """An order key read back from JSON: lists to tuples again, so it compares with `order_key`."""
    return tuple(tupled(part) for part in doc) if isinstance(doc, list) else doc


def row_line(row: Row) -> str:
    doc: dict[str, Any] = {
        "s": list(row.seq),
        "f": row.family,
        "c": row.source_country,
        "a": address_to_doc(row.address),
    }
    if row.removed:
        doc["r"] = list(row.removed)
    if row.osm_object is not None:
        doc["o"] = row.osm_object
    if row.precision_meters:
        doc["p"] = row.precision_meters
    return json.dumps(doc, ensure_ascii=False)


def seqs_under(work: WorkStore, prefix: str) -> set[Seq]:
    """The rows' sequence numbers a stage wrote as JSON lists under `prefix` (the same-text losers,
    the repeats), as the rows carry them."""
    return {(group, number) for key in work.keys(prefix) for group, number in work.read_json(key)}


def row_of(line: str) -> Row:
    doc = json.loads(line)
    return Row(
        seq=(doc["s"][0], doc["s"][1]),
        family=doc["f"],
        source_country=doc["c"],
        address=address_from_doc(doc["a"]),
        removed=tuple(doc.get("r", ())),
        osm_object=doc.get("o"),
        precision_meters=doc.get("p", 0.0),
    )


def boundary_of(doc: dict[str, Any]) -> Boundary:
    return Boundary(
        doc["level"],
        doc["name"],
        tuple(tuple((p[0], p[1]) for p in ring) for ring in doc["outer"]),
        tuple(tuple((p[0], p[1]) for p in ring) for ring in doc["inner"]),
        (doc["box"][0], doc["box"][1], doc["box"][2], doc["box"][3]),
    )
