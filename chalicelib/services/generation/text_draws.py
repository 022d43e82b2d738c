"""Drawing addresses that match free text `q`: exactly uniform over every match in the selection,
read through the snapshot's text index (domain/text_search.py).

Every match is among the postings of q's rarest token, so those postings within the selection's
ranges are the candidates. When all of q's tokens are few, their postings are in their heads and
the candidates are their intersection: for words, exactly the matches. Candidates are drawn as
in draws.py (a seeded shuffle walked in turn, or seeded tries per place), each address read and
kept when it matches q and is not excluded; rejection keeps the draw uniform over the matches and
the i-th address a function of the key and i. Reads: the heads (one BatchGetItem), the chunks the
ranges' ends cut (one), the chunks holding the drawn postings (one), the addresses (one).

Only when rounds of draws find fewer matches than asked (q's words are all common, its matches
rare among them) does the draw narrow to the ordinals every token's postings hold within the
selection, which reads as many chunks as those postings fill; so no match at all is the only
reason a q draw comes back empty."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.geo import Area, cover
from chalicelib.domain.ordering import Range
from chalicelib.domain.published import Placement
from chalicelib.domain.text_search import Query, TokenHead, matches, searchable
from chalicelib.domain.withdrawals import NOTHING_WITHDRAWN, Withdrawn
from chalicelib.services.generation.draws import (
    READ_CHUNK,
    Fetch,
    Keep,
    Walk,
    from_remaining,
    in_place_order,
    kept_in_order,
    with_replacement,
)
from chalicelib.services.generation.selection import Selection
from chalicelib.services.marks import geo_marks, marks_of

MAX_ROUNDS = 4
# With replacement, tries per place before the rest is drawn from every match: the slots of removed
# addresses make misses common (a quarter of the slots at the sync's bound), and 16 tries, read in
# five rounds at most (1, 2, 4, 8, 1 per place), leave a place to the fallback with a chance of
# 2^-32 there, where 4 left one in 256 and made the fallback (every match read) routine.
TEXT_ATTEMPTS = 16
ReadChunks = Callable[[Sequence[tuple[str, int]]], dict[tuple[str, int], list[int]]]
_INLINE = -1  # the chunk number of postings kept in a token's head


class TextIndexReader(Protocol):
    def get_token_heads(self, place: Placement, tokens: Sequence[str]) -> dict[str, TokenHead]: ...
    def get_token_chunks(
        self, place: Placement, wanted: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], list[int]]: ...


class Candidates:
    """One token's postings within a selection's ranges, counted from its head and the chunks the
    ranges' ends cut; other chunks are read only when a drawn posting falls in them."""

    def __init__(self, token: str, head: TokenHead, ranges: Sequence[Range], read: ReadChunks) -> None:
        self.token, self._read = token, read
        self._known: dict[int, list[int]] = {}
        self._firsts: list[int] = []  # the first posting of each counted chunk (chunked heads)
        counted: list[tuple[int, int]] = []  # (chunk number, postings in the ranges)
        if not head.chunks:
            self._known[_INLINE] = in_ranges(head.inline, ranges)
            counted.append((_INLINE, len(self._known[_INLINE])))
        else:
            cut, inside = _cut(head, ranges)
            self._load([i for i in cut if i not in inside], ranges)
            counted = [(i, head.chunks[i].count if i in inside else len(self._known[i])) for i in cut]
        self._chunks = [i for i, n in counted if n]
        self._firsts = [head.chunks[i].first for i in self._chunks] if head.chunks else []
        self._starts = list(itertools.accumulate((n for _, n in counted if n), initial=0))
        self.total = self._starts[-1]

    def ordinals_at(self, positions: Sequence[int]) -> list[int]:
        """The postings at these positions (0 <= position < total), reading the chunks they need."""
        places = [self._place(p) for p in positions]
        self._load(sorted({chunk for chunk, _ in places if chunk not in self._known}), None)
        return [self._known[chunk][offset] for chunk, offset in places]

    def every(self) -> list[int]:
        return self.ordinals_at(range(self.total))

    def positions_of(self, ordinals: Sequence[int]) -> list[int]:
        """Where each of these postings (all within the ranges) comes: `ordinals_at` reversed."""
        indexes = [max(0, bisect.bisect_right(self._firsts, o) - 1) for o in ordinals]
        self._load(sorted({self._chunks[i] for i in indexes} - set(self._known)), None)
        return [
            self._starts[i] + bisect.bisect_left(self._known[self._chunks[i]], o)
            for i, o in zip(indexes, ordinals, strict=True)
        ]

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


class Union:
    """The candidates of several tokens whose postings are disjoint (the cells of a cover), one
    token's after another; the chunks a draw's positions fall in are read in one request."""

    def __init__(self, parts: Sequence[Candidates], read: ReadChunks) -> None:
        self._parts = [p for p in parts if p.total]
        self._starts = list(itertools.accumulate((p.total for p in self._parts), initial=0))
        self.total, self._read = self._starts[-1], read

    def ordinals_at(self, positions: Sequence[int]) -> list[int]:
        places = []
        for position in positions:
            i = bisect.bisect_right(self._starts, position) - 1
            places.append((self._parts[i], *self._parts[i]._place(position - self._starts[i])))
        wanted = sorted({(part.token, chunk) for part, chunk, _ in places if chunk not in part._known})
        read = self._read(wanted) if wanted else {}
        for part, chunk, _ in places:
            if chunk not in part._known:
                part._known[chunk] = read[(part.token, chunk)]
        return [part._known[chunk][offset] for part, chunk, offset in places]

    def every(self) -> list[int]:
        return self.ordinals_at(range(self.total))

    def positions_of(self, ordinals: Sequence[int]) -> list[int]:
        owner = {o: i for i, part in enumerate(self._parts) for o in part.every()}
        return [self._starts[owner[o]] + self._parts[owner[o]].positions_of([o])[0] for o in ordinals]


class Listed:
    """Candidates already known in full (the intersection of postings kept in heads)."""

    def __init__(self, ordinals: list[int]) -> None:
        self._ordinals, self.total = ordinals, len(ordinals)

    def ordinals_at(self, positions: Sequence[int]) -> list[int]:
        return [self._ordinals[p] for p in positions]

    def every(self) -> list[int]:
        return list(self._ordinals)

    def positions_of(self, ordinals: Sequence[int]) -> list[int]:
        return [bisect.bisect_left(self._ordinals, o) for o in ordinals]


class Pool(Protocol):
    total: int

    def ordinals_at(self, positions: Sequence[int]) -> list[int]: ...
    def every(self) -> list[int]: ...
    def positions_of(self, ordinals: Sequence[int]) -> list[int]: ...


def draw_text(
    query: Query,
    selection: Selection,
    key: bytes,
    fetch: Fetch,
    index: TextIndexReader,
    *,
    count: int,
    unique: bool,
    excluded: frozenset[str],
    withdrawn: Withdrawn = NOTHING_WITHDRAWN,
    area: Area | None = None,
) -> list[PublishedAddress]:
    """`fetch` reads only the ordinals of the selection's partition (service.draw): a candidate of
    another part is passed over unread, as a slot no longer served is, so each try and round
    looks at `spread` times more candidates to read as many."""
    ranges, spread = selection.ranges, selection.partition.count
    opened = _open(query, selection, index, area)
    if opened is None:
        return []  # a token no address has, or no address in the area: nothing matches
    heads, groups, read = opened

    def keep(address: PublishedAddress) -> bool:
        return (
            address.id not in excluded
            and not withdrawn.holds(address)
            and (area is None or area.contains(address.lat, address.lon))
            and matches(query, searchable(address), marks_of(address))
        )

    pool = _pool(heads, groups, ranges, read)
    if pool.total == 0:
        return []

    def every_match() -> list[int]:
        return pool.every() if isinstance(pool, Listed) else _every_candidate(heads, groups, ranges, read)

    if unique:
        return _unique(pool, key, fetch, keep, count, every_match, spread)
    chosen, pending = with_replacement(
        pool.total,
        key,
        pool.ordinals_at,
        fetch,
        keep,
        count=count,
        attempts=TEXT_ATTEMPTS * spread,
        width=spread,
    )
    if pending:
        from_remaining(chosen, pending, key, kept_in_order(every_match(), fetch, keep))
    return in_place_order(chosen, count)


Groups = list[dict[str, TokenHead]]  # heads of tokens of which a match holds one (an area's cells)


def _pool(heads: dict[str, TokenHead], groups: Groups, ranges: Sequence[Range], read: ReadChunks) -> Pool:
    """Where a draw's candidates come from: the smallest group's union (an area's cells, a long
    street's lengths) unless q's rarest token is rarer; q's postings' intersection when all are
    in their heads; else its rarest token's postings."""
    rarest = min(sorted(heads), key=lambda t: heads[t].count, default=None)
    if groups:
        union = min((_union(group, ranges, read) for group in groups), key=lambda u: u.total)
        if rarest is None or heads[rarest].count >= union.total:
            return union
    if rarest is None:
        return Listed([])
    if all(not h.chunks for h in heads.values()):
        return Listed(_intersection(heads, ranges, read))
    return Candidates(rarest, heads[rarest], ranges, read)


def _union(group: dict[str, TokenHead], ranges: Sequence[Range], read: ReadChunks) -> Union:
    return Union([Candidates(t, h, ranges, read) for t, h in sorted(group.items())], read)


def _every_candidate(
    heads: dict[str, TokenHead], groups: Groups, ranges: Sequence[Range], read: ReadChunks
) -> list[int]:
    """The ordinals in the ranges that every token's postings hold and each group's union."""
    found = set(_intersection(heads, ranges, read)) if heads else None
    for group in groups:
        held = set(_union(group, ranges, read).every())
        found = held if found is None else found & held
    return sorted(found or ())


def _unique(
    pool: Pool,
    key: bytes,
    fetch: Fetch,
    keep: Keep,
    count: int,
    every_match: Callable[[], list[int]],
    spread: int = 1,
) -> list[PublishedAddress]:
    """The pool's candidates in a seeded shuffle, kept in turn. When rounds find fewer matches
    than asked (q's words are all common, its matches rare among them), the rest of the shuffle
    is narrowed to the ordinals every token's postings hold, in the same order, so the answer is
    the one the whole walk would give."""
    found: list[PublishedAddress] = []
    walk = Walk(pool.total, key, pool.ordinals_at, fetch, keep)
    walk.take(found, count, lambda need, round_number: spread * _ask(need, round_number), MAX_ROUNDS)
    if len(found) == count or walk.exhausted:
        return found
    matched = every_match()
    narrowed = sorted(
        (at, ordinal)
        for ordinal, position in zip(matched, pool.positions_of(matched), strict=True)
        if (at := walk.order.index_of(position)) >= walk.next
    )
    ordinals = [ordinal for _, ordinal in narrowed]
    for start in range(0, len(ordinals), READ_CHUNK):
        walk.read(found, count, ordinals[start : start + READ_CHUNK])
        if len(found) == count:
            break
    return found


def _ask(need: int, round_number: int) -> int:
    # Twice as many as needed, then eight times more each round: a q whose every word matches
    # costs no more than it must, one whose rarest word's addresses seldom match tries a few
    # hundred candidates before the narrowing.
    return min(READ_CHUNK, need << (1 + 3 * round_number))


def every_candidate(
    query: Query, selection: Selection, index: TextIndexReader, area: Area | None = None
) -> list[int]:
    """Every ordinal in the selection whose address holds all of q's tokens, one of each of its
    groups' and, with an area, a cell of its cover's, in ordinal order: exactly the matches for
    words, a superset (each to be checked with `matches` and the area) for CJK runs and areas."""
    opened = _open(query, selection, index, area)
    return _every_candidate(opened[0], opened[1], selection.ranges, opened[2]) if opened else []


def _open(
    query: Query, selection: Selection, index: TextIndexReader, area: Area | None = None
) -> tuple[dict[str, TokenHead], Groups, ReadChunks] | None:
    """The heads of q's tokens, of its groups' and of the area's cover's cells (one read), and a
    reader of their chunks that reads the chunks the selection's ranges cut of all of them at
    its first call; None when a token is in no address or a group's are in none, so nothing
    matches."""
    place = selection.snapshot.placement
    asked = [*query.any_of, *([frozenset(geo_marks(cover(area)))] if area is not None else [])]
    if not query.tokens and not asked:
        return None
    found = index.get_token_heads(place, sorted(query.tokens | {t for group in asked for t in group}))
    heads = {t: h for t, h in found.items() if t in query.tokens}
    groups = [{t: found[t] for t in sorted(group) if t in found} for group in asked]
    if len(heads) < len(query.tokens) or not all(groups):
        return None

    def read(wanted: Sequence[tuple[str, int]]) -> dict[tuple[str, int], list[int]]:
        chunks = {(token, i): found[token].chunks[i] for token, i in wanted}
        stored = [(token, chunk.key) for (token, _), chunk in chunks.items() if not chunk.postings]
        got = index.get_token_chunks(place, stored) if stored else {}
        return {
            (token, i): list(chunk.postings) if chunk.postings else got[(token, chunk.key)]
            for (token, i), chunk in chunks.items()
        }

    return heads, groups, _preloading(read, found, selection.ranges)


def _preloading(read: ReadChunks, heads: dict[str, TokenHead], ranges: Sequence[Range]) -> ReadChunks:
    """A reader that, at its first call, also reads every chunk the ranges cut of all the heads'
    tokens (which each token's Candidates reads first): one request for all of them."""
    cache: dict[tuple[str, int], list[int]] = {}
    pending = [(t, i) for t, h in sorted(heads.items()) if h.chunks for i in _cut_chunks(h, ranges)]

    def preloading(wanted: Sequence[tuple[str, int]]) -> dict[tuple[str, int], list[int]]:
        missing = sorted({*wanted, *pending} - set(cache))
        pending.clear()
        if missing:
            cache.update(read(missing))
        return {w: cache[w] for w in wanted}

    return preloading


def _intersection(heads: dict[str, TokenHead], ranges: Sequence[Range], read: ReadChunks) -> list[int]:
    """The ordinals within the ranges that every token's postings hold."""
    common: set[int] | None = None
    for token in sorted(heads, key=lambda t: heads[t].count):
        postings = Candidates(token, heads[token], ranges, read).every()
        common = set(postings) if common is None else common.intersection(postings)
        if not common:
            return []
    return sorted(common or ())


def _cut(head: TokenHead, ranges: Sequence[Range]) -> tuple[list[int], set[int]]:
    """A chunked head's chunks that overlap the ranges, and those of them inside one range."""
    cut = [i for i, c in enumerate(head.chunks) if _overlaps(c.first, c.last, ranges)]
    return cut, {i for i in cut if _inside_one(head.chunks[i].first, head.chunks[i].last, ranges)}


def _cut_chunks(head: TokenHead, ranges: Sequence[Range]) -> list[int]:
    """The chunks a token's Candidates reads at once: those the ranges' ends cut."""
    cut, inside = _cut(head, ranges)
    return [i for i in cut if i not in inside]


def _overlaps(first: int, last: int, ranges: Sequence[Range]) -> bool:
    return any(r.start <= last and first < r.end for r in ranges)


def _inside_one(first: int, last: int, ranges: Sequence[Range]) -> bool:
    return any(r.start <= first and last < r.end for r in ranges)


def in_ranges(ordinals: Sequence[int], ranges: Iterable[Range]) -> list[int]:
    """The ordinals (ascending) that fall in any of the ranges."""
    kept: list[int] = []
    for r in sorted(ranges, key=lambda r: r.start):
        kept += ordinals[bisect.bisect_left(ordinals, r.start) : bisect.bisect_left(ordinals, r.end)]
    return kept
