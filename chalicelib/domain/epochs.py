"""An epoch of a country's pool: slots appended generation by generation, each address stored once
and shared by every snapshot of the epoch that serves it (`published.Placement`), and the ledger
of what each generation added and removed, which the next sync compares its content with."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Epoch:
    """An epoch's name and partitions: what every key of its items is built from."""

    name: str
    buckets: int


@dataclass(frozen=True)
class BegunEpoch:
    """An epoch as the registry records it, from before its first item is written."""

    epoch: Epoch
    began_at: str  # ISO 8601 UTC


@dataclass(frozen=True)
class Generation:
    """What a sync writes into: a generation of an epoch, named by a tag no other attempt uses."""

    epoch: Epoch
    tag: str


@dataclass(frozen=True)
class LedgerEntry:
    """An address as the ledger knows it: its id, its content's hash, the hash of its street (the
    sync's partition of rows), and the generation that added it."""

    address_id: str
    content: str
    street: int
    born: str


@dataclass(frozen=True)
class LedgerPage:
    """What one generation added and removed in one ledger bucket."""

    generation: str
    born: list[LedgerEntry]
    removed: list[LedgerEntry]


def ledger_buckets(buckets: int) -> int:
    """The epoch's ledger buckets: a power of two, so that a sync's street cells (a power of two
    too) each read whole buckets, or filter one."""
    return 1 << max(0, buckets - 1).bit_length()


def buckets_of_cell(cell: int, cells: int, buckets: int) -> list[int]:
    """The ledger buckets that hold the streets of street cell `cell` of `cells` (both powers of
    two): every `cells`-th bucket when there are more buckets, else the one bucket holding them."""
    return list(range(cell, buckets, cells)) if buckets >= cells else [cell % buckets]


def live_entries(pages: list[LedgerPage], lineage: frozenset[str]) -> dict[tuple[str, str], LedgerEntry]:
    """The entries a snapshot of `lineage` serves, by (address id, content hash): added by a
    generation of the lineage and not removed by one."""
    born = {(e.address_id, e.content, e.born): e for p in pages if p.generation in lineage for e in p.born}
    for page in pages:
        if page.generation in lineage:
            for e in page.removed:
                born.pop((e.address_id, e.content, e.born), None)
    return {(e.address_id, e.content): e for e in born.values()}
