"""Free-text draws through the text index: every match reachable, nothing else, reads bounded."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.ordering import Range
from chalicelib.domain.published import Placement
from chalicelib.domain.snapshots import build_snapshot
from chalicelib.domain.text_search import TokenHead, parse, postings, split
from chalicelib.services.generation import text_draws
from chalicelib.services.generation.draws import draw_key
from chalicelib.services.generation.selection import Selection
from chalicelib.services.generation.text_draws import Candidates, draw_text
from tests.support.factories import make_address
from tests.support.fakes import FakeRegistryStore

# 6,000 addresses: Main Street (odd numbers) and Oak Road (even), so "main" and "road" have too
# many postings for a head and are chunked; one Main Road, at ordinal 4,445.
POOL = [
    make_address(
        record_id=str(n),
        number=str(n),
        street="Main Road" if n == 4445 else ("Main Street" if n % 2 else "Oak Road"),
    )
    for n in range(6000)
]


class FakeTextIndex:
    """The index as the sync writes it (heads and chunks), in memory, counting the reads."""

    def __init__(self, addresses: Sequence[PublishedAddress]) -> None:
        self.heads: dict[str, TokenHead] = {}
        self.chunks: dict[tuple[str, str], list[int]] = {}
        for token, ordinals in postings(enumerate(addresses)).items():
            head, chunks = split(ordinals)
            keyed = tuple(replace(c, key=f"g#{i:06d}") for i, c in enumerate(head.chunks))
            self.heads[token] = replace(head, chunks=keyed)
            self.chunks.update({(token, f"g#{i:06d}"): c for i, c in enumerate(chunks)})
        self.reads: Counter[str] = Counter()

    def get_token_heads(self, place: Placement, tokens: Sequence[str]) -> dict[str, TokenHead]:
        self.reads["heads"] += 1
        return {t: self.heads[t] for t in tokens if t in self.heads}

    def get_token_chunks(
        self, place: Placement, wanted: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], list[int]]:
        self.reads["chunk requests"] += 1
        self.reads["chunks"] += len(wanted)
        return {w: self.chunks[w] for w in wanted}


def _fetch(ordinals: Sequence[int]) -> dict[int, PublishedAddress]:
    return {o: POOL[o] for o in ordinals}


def _draw(
    q: str,
    ranges: tuple[Range, ...],
    seed: str,
    *,
    count: int = 1,
    unique: bool = True,
    excluded: frozenset[str] = frozenset(),
) -> tuple[list[PublishedAddress], FakeTextIndex]:
    index = INDEX
    index.reads.clear()
    selection = Selection(PUBLISHED, ranges, sum(r.size for r in ranges))
    found = draw_text(
        parse(q), selection, draw_key(seed), _fetch, index, count=count, unique=unique, excluded=excluded
    )
    return found, index


EVERYTHING = (Range(0, 6000),)
INDEX = FakeTextIndex(POOL)
PUBLISHED = FakeRegistryStore().add(build_snapshot("PL", POOL))


def test_a_common_word_is_chunked_and_drawn_within_the_selection_s_ranges() -> None:
    ranges = (Range(1000, 1100), Range(5000, 5050))
    inside = {POOL[o].id for r in ranges for o in range(r.start, r.end) if o % 2 and o != 4445}
    found, index = _draw("main street", ranges, "s", count=len(inside) + 10)
    assert {a.id for a in found} == inside  # every match in the ranges, nothing else
    one, index = _draw("main street", ranges, "one")
    assert len(one) == 1
    assert one[0].id in inside
    assert index.reads["heads"] == 1
    assert index.reads["chunk requests"] <= 2  # the chunks the ranges cut, then the drawn one's


def test_candidates_read_only_the_chunks_the_ranges_cut_and_the_drawn_one() -> None:
    evens = list(range(0, 40_000, 2))  # 20,000 postings: 5 chunks of 4,000
    head, chunks = split(evens)
    store = {("w", i): c for i, c in enumerate(chunks)}
    asked: list[list[tuple[str, int]]] = []

    def read(wanted: Sequence[tuple[str, int]]) -> dict[tuple[str, int], list[int]]:
        asked.append(list(wanted))
        return {w: store[w] for w in wanted}

    candidates = Candidates("w", head, (Range(100, 200), Range(9_000, 30_000)), read)
    assert candidates.total == 50 + 10_500
    assert asked == [[("w", 0), ("w", 1), ("w", 3)]]  # chunk 2 lies inside a range: counted, not read
    assert candidates.ordinals_at([0, 49, 50, 3_550]) == [100, 198, 9_000, 16_000]
    assert asked[1:] == [[("w", 2)]]
    assert candidates.every() == [o for o in evens if 100 <= o < 200 or 9_000 <= o < 30_000]


def test_every_match_is_reached_and_draws_spread_over_them() -> None:
    ranges = (Range(2000, 2040),)
    seen = Counter(_draw("main", ranges, f"spread-{seed}")[0][0].id for seed in range(400))
    assert len(seen) == 20  # the 20 odd ordinals
    assert max(seen.values()) < 45  # about 20 each


def test_a_rare_intersection_of_common_words_is_found_by_the_fallback() -> None:
    found, _ = _draw("main road", EVERYTHING, "rare")
    assert [a.components.street for a in found] == ["Main Road"]
    assert _draw("oak street", EVERYTHING, "none")[0] == []  # no match at all: the only empty answer


def test_rare_words_are_intersected_in_their_heads() -> None:
    found, index = _draw("4445", EVERYTHING, "n")
    assert [a.components.house_number for a in found] == ["4445"]
    assert index.reads["chunks"] == 0


def test_exclusions_and_draws_with_replacement() -> None:
    ranges = (Range(100, 110),)
    matches = {POOL[o].id for o in range(101, 110, 2)}
    excluded = frozenset(sorted(matches)[:4])
    found, _ = _draw("main", ranges, "x", count=5, excluded=excluded)
    assert {a.id for a in found} == matches - excluded
    repeated, _ = _draw("main", ranges, "r", count=30, unique=False)
    assert len(repeated) == 30
    assert {a.id for a in repeated} <= matches


@pytest.mark.parametrize("q", ["zzz", "main zzz", " ,. "])
def test_no_match_is_empty(q: str) -> None:
    assert _draw(q, EVERYTHING, "z")[0] == []


def test_draws_with_replacement_fill_the_batch_from_rare_matches_and_stay_empty_without() -> None:
    found, _ = _draw("main road", EVERYTHING, "seed5", count=10, unique=False)
    assert [a.components.street for a in found] == ["Main Road"] * 10
    assert _draw("4445", (Range(0, 10),), "s", count=3, unique=False)[0] == []  # none in the ranges
    assert _draw("main", (Range(0, 1),), "s", count=2, unique=False)[0] == []


@pytest.mark.parametrize("unique", [True, False])
@pytest.mark.parametrize("q", ["main", "main street", "4445", "main road", "oak"])
def test_a_seeded_text_batch_is_the_prefix_of_a_larger_one(q: str, unique: bool) -> None:
    ranges = (Range(0, 3000), Range(4000, 6000))
    for seed in range(5):
        small, _ = _draw(q, ranges, f"t{seed}", count=3, unique=unique)
        large, _ = _draw(q, ranges, f"t{seed}", count=30, unique=unique)
        assert [a.id for a in small] == [a.id for a in large][:3]


# 6,000 addresses where 60 are on Main Road: "main" and "road" are each common (chunked), their
# matches rare among either's postings, so a unique draw narrows to the intersection mid-walk.
RARE_POOL = [
    make_address(
        record_id=str(n),
        number=str(n),
        street="Main Road" if n % 100 == 7 else ("Main Street" if n % 2 else "Oak Road"),
    )
    for n in range(6000)
]
RARE_INDEX = FakeTextIndex(RARE_POOL)
MAIN_ROAD = {a.id for a in RARE_POOL if a.components.street == "Main Road"}


def _rare_draw(seed: str, count: int) -> list[str]:
    selection = Selection(FakeRegistryStore().add(build_snapshot("PL", RARE_POOL)), EVERYTHING, 6000)

    def fetch(ordinals: Sequence[int]) -> dict[int, PublishedAddress]:
        return {o: RARE_POOL[o] for o in ordinals}

    found = draw_text(
        parse("main road"),
        selection,
        draw_key(seed),
        fetch,
        RARE_INDEX,
        count=count,
        unique=True,
        excluded=frozenset(),
    )
    return [a.id for a in found]


def test_narrowing_to_the_intersection_keeps_the_walk_s_order(monkeypatch: pytest.MonkeyPatch) -> None:
    narrowed = {seed: _rare_draw(seed, 40) for seed in ("a", "b", "c")}
    monkeypatch.setattr(text_draws, "MAX_ROUNDS", 10_000)  # walk every candidate in turn instead
    for seed, ids in narrowed.items():
        assert len(ids) == len(set(ids)) == 40
        assert {i for i in ids} <= MAIN_ROAD
        assert ids == _rare_draw(seed, 40)
    assert narrowed["a"][:7] == _rare_draw("a", 7)
