"""Which epoch and generation each country's sync writes, decided once per run before its rows are
routed: the next generation of the active snapshot's epoch while that epoch stays compact, else a
new epoch. And, per street cell, how the run's rows compare with what the active snapshot serves
(the ledger): kept (stored already), new, or removed."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from pydantic import BaseModel

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.digests import content_hash
from chalicelib.domain.epochs import Epoch, Generation, LedgerEntry, LedgerPage, live_entries
from chalicelib.domain.published import PublishedSnapshot
from chalicelib.domain.text_search import MARKS_VERSION
from chalicelib.services.sync import work_layout as keys
from chalicelib.services.sync.job import SyncJob
from chalicelib.services.sync.run import SyncRun

# An epoch takes new generations while its snapshots serve at least this share of its slots (the
# rest cost draws a retry), every location's span at least MIN_SPAN_SHARE of its own (a draw there
# reads twice on average at worst), and it has fewer than this many generations (each adds a range
# per stratum to a location's spans and a head read per token of q).
MIN_LIVE_SHARE = 0.75
MIN_SPAN_SHARE = 0.5
MAX_GENERATIONS = 32


class Lineage(BaseModel):
    """What one country's sync writes into."""

    country: str
    epoch: str
    buckets: int
    generation: str
    parent: str | None = None  # the active snapshot whose epoch it appends to; None: a new epoch
    parent_generations: list[str] = []  # the parent's lineage

    @property
    def writing(self) -> Generation:
        return Generation(Epoch(self.epoch, self.buckets), self.generation)


def generation_tag(job: SyncJob, country: str) -> str:
    """A tag no other run uses (its start and inputs), the same for every task of this run."""
    return hashlib.sha256(f"{job.started_at}|{job.fingerprint}|{country}".encode()).hexdigest()[:12]


def appendable(active: PublishedSnapshot | None) -> bool:
    if active is None:
        return False
    place = active.placement
    return (
        place.appendable
        and place.marks == MARKS_VERSION  # an index without today's marks: rewrite it whole
        and len(place.segments) < MAX_GENERATIONS
        and active.count >= MIN_LIVE_SHARE * place.slots
        and place.min_share >= MIN_SPAN_SHARE
    )


def choose(run: SyncRun, country: str, rows: int) -> Lineage:
    tag = generation_tag(run.job, country)
    active = run.registry.active_snapshot(country)
    if active is not None and appendable(active):
        place = active.placement
        return Lineage(
            country=country,
            epoch=place.epoch,
            buckets=place.buckets,
            generation=tag,
            parent=active.snapshot_id,
            parent_generations=[s.generation for s in place.segments],
        )
    buckets = run.layout_for(rows, 0).buckets
    run.registry.begin_epoch(country, tag, buckets, run.clock.now().isoformat())
    return Lineage(country=country, epoch=tag, buckets=buckets, generation=tag)


def record_lineages(run: SyncRun, rows: dict[str, int]) -> None:
    """Decide the lineage of each country with rows once: a rerun of the run keeps what was
    decided. A country with none publishes nothing, so it begins no epoch."""
    if run.work.exists(keys.LINEAGES):
        return
    chosen = [choose(run, c, rows[c]).model_dump(mode="json") for c in run.job.countries if rows.get(c)]
    run.work.write_json(keys.LINEAGES, chosen)


def lineages(run: SyncRun) -> dict[str, Lineage]:
    def read() -> dict[str, Lineage]:
        found = [Lineage.model_validate(doc) for doc in run.work.read_json(keys.LINEAGES)]
        return {lineage.country: lineage for lineage in found}

    return run.memo("lineages", read)


@dataclass
class Comparison:
    """A street cell's rows of one country against what the parent snapshot serves there."""

    born: list[LedgerEntry] = field(default_factory=list)
    born_ids: set[str] = field(default_factory=set)
    kept: int = 0
    removed: list[LedgerEntry] = field(default_factory=list)


def compare(
    lineage: Lineage,
    addresses: Iterable[tuple[PublishedAddress, int]],
    pages: list[LedgerPage],
    parent_lineage: frozenset[str],
    cell_of: int,
    cells: int,
) -> Comparison:
    """`addresses`: the cell's rows of the country with their street hashes; `pages`: the ledger
    buckets holding the cell's streets. Without a parent every row is new."""
    served = {k: e for k, e in live_entries(pages, parent_lineage).items() if e.street % cells == cell_of}
    found = Comparison()
    for address, street in addresses:
        entry = LedgerEntry(address.id, content_hash(address), street, lineage.generation)
        if served.pop((entry.address_id, entry.content), None) is not None:
            found.kept += 1
        else:
            found.born.append(entry)
            found.born_ids.add(address.id)
    found.removed = sorted(served.values(), key=lambda e: (e.address_id, e.born))
    return found
