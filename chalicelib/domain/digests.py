"""A snapshot's id: its content hashed cell by cell, so a build that sorts each cell apart names the
same content the same way, and a re-run publishes nothing new."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.codecs import address_to_doc, dumps
from chalicelib.domain.ordering import CellKey

# Bump when the stored layout changes, so equal content still gets a new id (4: the text index;
# 5: epochs shared by snapshots; 6: the text index's marks).
SNAPSHOT_FORMAT = 6


def content_id(country: str, cells: Iterable[tuple[CellKey, str]]) -> str:
    """Same published content → same snapshot id, so a re-run publishes nothing new. Hashed cell by
    cell (`cell_digest`), so a sharded build that sorts each cell apart gets the same id."""
    digest = hashlib.sha256(f"{SNAPSHOT_FORMAT}|{country}".encode())
    for (stratum, region), cell in cells:
        digest.update(f"|{stratum}|{region}|{cell}".encode())
    return digest.hexdigest()[:16]


def next_snapshot_id(snapshot_id: str) -> str:
    """The id a content takes when the one before it in its chain names a snapshot it may not
    reuse (expired, or being written by another sync): the chain is the same on every run."""
    return hashlib.sha256(f"{snapshot_id}|next".encode()).hexdigest()[:16]


def cell_digest(ordered: Iterable[PublishedAddress]) -> str:
    digest = CellDigest()
    for address in ordered:
        digest.add(address)
    return digest.hexdigest()


_DIGEST_MODULUS = 1 << 256


class CellDigest:
    """A cell's addresses hashed as a multiset: the count and the sum of each address's SHA-256.
    The order within a cell is a function of its content (the order key ends with the id), so the
    multiset names the ordered cell too, and the digests of a cell's parts, sorted by different
    workers, add up to the digest of the whole (`combined`)."""

    def __init__(self, count: int = 0, total: int = 0) -> None:
        self.count, self.total = count, total

    def add(self, address: PublishedAddress) -> None:
        fingerprint = json.dumps(_fingerprint(address), ensure_ascii=False, sort_keys=True).encode()
        hashed = int.from_bytes(hashlib.sha256(fingerprint).digest(), "big")
        self.total = (self.total + hashed) % _DIGEST_MODULUS
        self.count += 1

    def hexdigest(self) -> str:
        return f"{self.count}-{self.total:064x}"

    @classmethod
    def combined(cls, parts: Iterable[str]) -> str:
        whole = cls()
        for part in parts:
            count, total = part.split("-")
            whole.count += int(count)
            whole.total = (whole.total + int(total, 16)) % _DIGEST_MODULUS
        return whole.hexdigest()


def _fingerprint(a: PublishedAddress) -> list[object]:
    c = a.components
    return [
        a.id,
        a.match_level,
        a.property_type,
        *c.values(),
        a.lon,
        a.lat,
        a.provenance.source_id,
        a.names,
        a.derived,
        a.completeness.missing,
        a.completeness.invalid,
    ]


def content_hash(a: PublishedAddress) -> str:
    """What the ledger compares: a hash of the address exactly as stored, so any change to what is
    served makes it a new address of the epoch."""
    return hashlib.sha256(dumps(address_to_doc(a)).encode()).hexdigest()[:16]
