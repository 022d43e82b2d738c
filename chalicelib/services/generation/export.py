"""The seeded export: page after page of distinct addresses matching the filters, each with its
test profile, the same seed always walking the same sequence until the matches run out.

The sequence is a keyed bijection of the matches' positions (domain/permutation.py): page p is
positions (p-1)·size … p·size-1 of it, computed from (seed, snapshot, filters, p) alone, so any
page is served without state and no address appears twice in one export. With free text `q` the
positions are those of the addresses holding all of q's index tokens (exactly the matches for
words); a candidate that holds every pair of a Han, kana or Hangul run but not the run itself is
left out of its page, so such a page may hold fewer than its size. So may a page whose positions
fall on slots of addresses a later sync removed (pool.md: a snapshot shares its epoch's slots), or
on an address an operator withdrew."""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.geo import Area
from chalicelib.domain.permutation import SeededPermutation
from chalicelib.domain.published import PublishedSnapshot
from chalicelib.domain.text_search import Query, matches, parse, searchable
from chalicelib.services.generation.selection import Filters, Selection, query_of, select
from chalicelib.services.generation.service import Generated, GenerationPorts, serving, with_profiles
from chalicelib.services.generation.text_draws import every_candidate
from chalicelib.services.marks import marks_of


@dataclass(frozen=True)
class PageRequest:
    page: int  # from 1
    size: int
    seed: str | None = None  # None: a fresh one, returned, for the next pages to give
    snapshot: str | None = None  # a pinned snapshot's id; None: the active one
    email_domain: str | None = None  # the profiles' e-mail domain, one the caller owns


@dataclass(frozen=True)
class ExportPage:
    snapshot: PublishedSnapshot
    seed: str
    page: int
    size: int
    total: int  # the matches (with q, the candidates: addresses holding all of q's tokens)
    positions: int  # in the sequence: the slots of the matches, served or not (pool.md)
    results: list[Generated]
    pinned_until: datetime | None = None  # pinned and seeded: the page stands until then at least

    @property
    def pages(self) -> int:
        return math.ceil(self.positions / self.size)

    @property
    def next_page(self) -> int | None:
        return self.page + 1 if self.page < self.pages else None


def export_page(filters: Filters, ports: GenerationPorts, request: PageRequest) -> ExportPage:
    seed = request.seed if request.seed is not None else secrets.token_urlsafe(12)
    served = serving(filters.country, ports, request.snapshot)
    snapshot = served.snapshot
    selection = select(filters, snapshot, ports.catalog)
    query = query_of(filters, snapshot)
    ordinal_at, positions, keep = _sequence(query, filters.area, selection, ports)
    order = SeededPermutation(positions, _key(seed, snapshot, selection, query, filters.area))
    first = (request.page - 1) * request.size
    ordinals = [ordinal_at(order[i]) for i in range(first, min(first + request.size, positions))]
    fetched = ports.pool.get_many_by_ordinal(snapshot.placement, ordinals) if ordinals else {}
    withdrawn = ports.withdrawn.of(filters.country)  # left out of their page, as removed slots are
    addresses = [
        fetched[o] for o in ordinals if o in fetched and keep(fetched[o]) and not withdrawn.holds(fetched[o])
    ]
    pinned_until = served.pinned_until if request.seed is not None else None  # unseeded: a fresh order
    # The served count is known for whole ranges only; a part's, or a q's, is its positions'.
    plain = query is None and filters.area is None and filters.partition.whole
    total = selection.live if plain else positions
    return ExportPage(
        snapshot,
        seed,
        request.page,
        request.size,
        total,
        positions,
        with_profiles(seed, addresses, request.email_domain),
        pinned_until,
    )


def _sequence(
    query: Query | None, area: Area | None, selection: Selection, ports: GenerationPorts
) -> tuple[Callable[[int], int], int, Callable[[PublishedAddress], bool]]:
    """What the export walks: the k-th position's ordinal, how many positions, and which
    addresses read at them are served (with an area: the ones inside it)."""
    if query is None and area is None:
        return selection.ordinal_at, selection.total, lambda _: True
    asked = query or parse("")
    part = selection.partition
    candidates = [o for o in every_candidate(asked, selection, ports.pool, area) if part.holds(o)]

    def keep(a: PublishedAddress) -> bool:
        return (area is None or area.contains(a.lat, a.lon)) and matches(asked, searchable(a), marks_of(a))

    return candidates.__getitem__, len(candidates), keep


def _key(
    seed: str, snapshot: PublishedSnapshot, selection: Selection, query: Query | None, area: Area | None
) -> bytes:
    """What the sequence depends on: the seed and what the filters select (not how they were
    written), in this snapshot."""
    ranges = ",".join(f"{r.start}-{r.end}" for r in selection.ranges)
    # The parsed query, not its text: `Main St` and `main st` are one query.
    said = f"{sorted(query.words)}{sorted(query.runs)}" if query else ""
    said += f"{sorted(query.marks)}" if query and query.marks else ""  # none: the keys they had
    said += "".join(f"{sorted(group)}" for group in query.any_of) if query else ""
    said += repr(area) if area else ""
    text = "\x1f".join(("export", seed, snapshot.snapshot_id, ranges, said))
    return hashlib.sha256(text.encode()).digest()
