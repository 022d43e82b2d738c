"""Drawing addresses that match free text `q`: exactly uniform over every match in the selection,
read through the snapshot's text index (domain/text_search.py).

Every match is among the postings of q's rarest token, so those postings within the selection's
ranges are the candidates. When all of q's tokens are few, their postings are in their heads and
the candidates are their intersection: for words, exactly the matches. A candidate is drawn
uniformly, its address read, and kept when it matches q and is not excluded; rejection keeps the
draw uniform over the matches. Reads: the heads (one BatchGetItem), the chunks the ranges' ends
cut (one), the chunks holding the drawn postings (one), the addresses (one).

Only when rounds of draws find fewer matches than asked (q's words are all common, its matches
rare among them) does the draw fall back to intersecting every token's postings within the
selection, which reads as many chunks as those postings fill; so no match at all is the only
reason a q draw comes back empty."""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Callable, Sequence
from typing import Protocol

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.ordering import Range
from chalicelib.domain.published import Layout
from chalicelib.domain.text_search import Query, TokenHead, in_ranges, matches, searchable
from chalicelib.services.generation.selection import Selection

MAX_ROUNDS = 4
READ_CHUNK = 100
TAKE_ALL = 300  # candidates read in full (in a seeded order) rather than drawn in rounds

Fetch = Callable[[Sequence[int]], dict[int, PublishedAddress]]
ReadChunks = Callable[[Sequence[tuple[str, int]]], dict[tuple[str, int], list[int]]]
_INLINE = -1  # the chunk number of postings kept in a token's head


class TextIndexReader(Protocol):
    def get_token_heads(
        self, snapshot_id: str, layout: Layout, tokens: Sequence[str]
    ) -> dict[str, TokenHead]: ...
    def get_token_chunks(
        self, snapshot_id: str, layout: Layout, wanted: Sequence[tuple[str, int]]
    ) -> dict[tuple[str, int], list[int]]: ...


class Candidates:
    """One token's postings within a selection's ranges, counted from its head and the chunks the
    ranges' ends cut; other chunks are read only when a drawn posting falls in them."""

    def __init__(self, token: str, head: TokenHead, ranges: Sequence[Range], read: ReadChunks) -> None:
        self.token, self._read = token, read
        self._known: dict[int, list[int]] = {}
        counted: list[tuple[int, int]] = []  # (chunk number, postings in the ranges)
        if not head.chunks:
            self._known[_INLINE] = in_ranges(head.inline, ranges)
            counted.append((_INLINE, len(self._known[_INLINE])))
        else:
            cut = [i for i, c in enumerate(head.chunks) if _overlaps(c.first, c.last, ranges)]
            inside = {i for i in cut if _inside_one(head.chunks[i].first, head.chunks[i].last, ranges)}
            self._load([i for i in cut if i not in inside], ranges)
            counted = [(i, head.chunks[i].count if i in inside else len(self._known[i])) for i in cut]
        self._chunks = [i for i, n in counted if n]
        self._starts = list(itertools.accumulate((n for _, n in counted if n), initial=0))
        self.total = self._starts[-1]

    def ordinals_at(self, positions: Sequence[int]) -> list[int]:
        """The postings at these positions (0 <= position < total), reading the chunks they need."""
        places = [self._place(p) for p in positions]
        self._load(sorted({chunk for chunk, _ in places if chunk not in self._known}), None)
        return [self._known[chunk][offset] for chunk, offset in places]

    def every(self) -> list[int]:
        return self.ordinals_at(range(self.total))

    def _place(self, position: int) -> tuple[int, int]:
        index = bisect.bisect_right(self._starts, position) - 1
        return self._chunks[index], position - self._starts[index]

    def _load(self, chunks: Sequence[int], ranges: Sequence[Range] | None) -> None:
        if not chunks:
            return
        read = self._read([(self.token, i) for i in chunks])
        for i in chunks:
            ordinals = read[(self.token, i)]
            self._known[i] = ordinals if ranges is None else in_ranges(ordinals, ranges)


class Listed:
    """Candidates already known in full (the intersection of postings kept in heads)."""

    def __init__(self, ordinals: list[int]) -> None:
        self._ordinals, self.total = ordinals, len(ordinals)

    def ordinals_at(self, positions: Sequence[int]) -> list[int]:
        return [self._ordinals[p] for p in positions]

    def every(self) -> list[int]:
        return list(self._ordinals)


class Pool(Protocol):
    total: int

    def ordinals_at(self, positions: Sequence[int]) -> list[int]: ...
    def every(self) -> list[int]: ...


def draw_text(
    query: Query,
    selection: Selection,
    rng: random.Random,
    fetch: Fetch,
    index: TextIndexReader,
    *,
    count: int,
    unique: bool,
    excluded: frozenset[str],
) -> list[PublishedAddress]:
    ranges = selection.ranges
    opened = _open(query, selection, index)
    if opened is None:
        return []  # a token no address has: nothing matches
    heads, read = opened

    def keep(address: PublishedAddress) -> bool:
        return address.id not in excluded and matches(query, searchable(address))

    pool: Pool
    if all(not h.chunks for h in heads.values()):
        pool = Listed(_intersection(heads, ranges, read))
    else:
        rarest = min(sorted(heads), key=lambda t: heads[t].count)
        pool = Candidates(rarest, heads[rarest], ranges, read)
    if unique and pool.total <= TAKE_ALL:
        return _take_all(pool.every(), rng, fetch, keep, count, unique)
    found, exhausted = _rounds(pool, rng, fetch, keep, count, unique)
    if exhausted or len(found) == count:
        return found
    return _take_all(_intersection(heads, ranges, read), rng, fetch, keep, count, unique)


def every_candidate(query: Query, selection: Selection, index: TextIndexReader) -> list[int]:
    """Every ordinal in the selection whose address holds all of q's tokens, in ordinal order:
    exactly the matches for words, a superset (each to be checked with `matches`) for CJK runs."""
    opened = _open(query, selection, index)
    return _intersection(opened[0], selection.ranges, opened[1]) if opened else []


def _open(
    query: Query, selection: Selection, index: TextIndexReader
) -> tuple[dict[str, TokenHead], ReadChunks] | None:
    """q's tokens' heads (one read) and a reader of their chunks; None when a token is in no
    address, so nothing matches."""
    snapshot = selection.snapshot
    heads = index.get_token_heads(snapshot.snapshot_id, snapshot.layout, sorted(query.tokens))
    if not query.tokens or len(heads) < len(query.tokens):
        return None

    def read(wanted: Sequence[tuple[str, int]]) -> dict[tuple[str, int], list[int]]:
        return index.get_token_chunks(snapshot.snapshot_id, snapshot.layout, wanted)

    return heads, read


def _rounds(
    pool: Pool,
    rng: random.Random,
    fetch: Fetch,
    keep: Callable[[PublishedAddress], bool],
    count: int,
    unique: bool,
) -> tuple[list[PublishedAddress], bool]:
    """Draws in rounds; and whether every candidate was tried (the matches found are then all)."""
    found: list[PublishedAddress] = []
    tried: set[int] = set()
    if pool.total == 0:
        return found, True
    for round_number in range(MAX_ROUNDS):
        need = count - len(found)
        if need == 0:
            break
        # Twice as many as needed, then eight times more each round: a q whose every word
        # matches costs no more than it must, one whose rarest word's addresses seldom match
        # tries a few hundred candidates before the fallback.
        ask = min(READ_CHUNK, 2 * need * 8**round_number)
        positions: list[int] = []
        while len(positions) < ask and (not unique or len(tried) < pool.total):
            position = rng.randrange(pool.total)
            if not unique or position not in tried:
                tried.add(position)
                positions.append(position)
        if not positions:
            break
        ordinals = pool.ordinals_at(positions)
        fetched = fetch(ordinals)
        found += [fetched[o] for o in ordinals if o in fetched and keep(fetched[o])][:need]
    return found, unique and len(tried) >= pool.total


def _take_all(
    ordinals: list[int],
    rng: random.Random,
    fetch: Fetch,
    keep: Callable[[PublishedAddress], bool],
    count: int,
    unique: bool,
) -> list[PublishedAddress]:
    """Candidates read in a seeded order until enough match (all of them when drawing with
    replacement, to choose from)."""
    order = list(ordinals)
    rng.shuffle(order)
    matched: list[PublishedAddress] = []
    # The first read asks for just what is wanted: where every candidate matches (whole words
    # whose postings were intersected), one address costs one read of one item.
    first = min(READ_CHUNK, count) if unique else READ_CHUNK
    for start, end in _reads(len(order), first):
        chunk = order[start:end]
        fetched = fetch(chunk)
        matched += [fetched[o] for o in chunk if o in fetched and keep(fetched[o])]
        if unique and len(matched) >= count:
            break
    if unique:
        return matched[:count]
    return [rng.choice(matched) for _ in range(count)] if matched else []


def _reads(total: int, first: int) -> list[tuple[int, int]]:
    bounds = [0, *range(first, total, READ_CHUNK), total]
    return [(a, b) for a, b in itertools.pairwise(bounds) if b > a]


def _intersection(heads: dict[str, TokenHead], ranges: Sequence[Range], read: ReadChunks) -> list[int]:
    """The ordinals within the ranges that every token's postings hold."""
    common: set[int] | None = None
    for token in sorted(heads, key=lambda t: heads[t].count):
        postings = Candidates(token, heads[token], ranges, read).every()
        common = set(postings) if common is None else common.intersection(postings)
        if not common:
            return []
    return sorted(common or ())


def _overlaps(first: int, last: int, ranges: Sequence[Range]) -> bool:
    return any(r.start <= last and first < r.end for r in ranges)


def _inside_one(first: int, last: int, ranges: Sequence[Range]) -> bool:
    return any(r.start <= first and last < r.end for r in ranges)
