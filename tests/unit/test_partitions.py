"""A part's ordinals in a range, counted and indexed without listing them, agree with the list."""

from __future__ import annotations

import random

from chalicelib.domain.ordering import Range
from chalicelib.domain.partitions import Partition


def test_counting_and_indexing_a_part_agree_with_listing_it() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        start = rng.randrange(0, 500)
        r = Range(start, start + rng.randrange(0, 60))
        count = rng.randrange(1, 12)
        part = Partition(rng.randrange(count), count)
        listed = [o for o in range(r.start, r.end) if part.holds(o)]
        assert part.count_in(r) == len(listed)
        assert [part.nth_in(r, k) for k in range(part.count_in(r))] == listed


def test_every_ordinal_is_in_exactly_one_part() -> None:
    for count in (1, 2, 5, 1024):
        assert all(sum(Partition(i, count).holds(o) for i in range(count)) == 1 for o in range(3000))
