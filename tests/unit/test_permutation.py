"""The keyed bijection behind the seeded export."""

from __future__ import annotations

import pytest

from chalicelib.domain.permutation import SeededPermutation


@pytest.mark.parametrize("size", [0, 1, 2, 3, 4, 5, 17, 64, 65, 1000, 4097])
def test_it_is_a_bijection_of_its_range(size: int) -> None:
    order = SeededPermutation(size, b"key")
    assert sorted(order[i] for i in range(size)) == list(range(size))


def test_the_key_decides_the_order() -> None:
    a = [SeededPermutation(1000, b"a")[i] for i in range(1000)]
    assert a == [SeededPermutation(1000, b"a")[i] for i in range(1000)]
    assert a != [SeededPermutation(1000, b"b")[i] for i in range(1000)]


def test_a_large_range_is_walked_without_listing_it() -> None:
    order = SeededPermutation(300_000_000, b"k")
    picked = [order[i] for i in range(0, 300_000_000, 3_000_001)]
    assert len(set(picked)) == len(picked)
    assert all(0 <= p < 300_000_000 for p in picked)


def test_positions_outside_the_range_are_refused() -> None:
    with pytest.raises(IndexError):
        SeededPermutation(10, b"k")[10]


def test_the_first_elements_are_spread_not_in_order() -> None:
    order = SeededPermutation(10_000, b"k")
    first = [order[i] for i in range(100)]
    assert first != sorted(first)
    assert max(first) - min(first) > 5_000


@pytest.mark.parametrize("size", [1, 2, 5, 65, 1000, 4097])
def test_index_of_walks_back_to_each_position(size: int) -> None:
    order = SeededPermutation(size, b"back")
    assert [order.index_of(order[i]) for i in range(size)] == list(range(size))
    with pytest.raises(ValueError, match=str(size)):
        order.index_of(size)


def test_index_of_finds_positions_in_a_large_range() -> None:
    order = SeededPermutation(300_000_000, b"k")
    assert all(order.index_of(order[p]) == p for p in range(0, 300_000_000, 29_999_999))
