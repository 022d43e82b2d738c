"""Batch draws: short only when fewer addresses match, whatever the exclusions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.ordering import Range
from chalicelib.domain.snapshots import build_snapshot
from chalicelib.services.generation.draws import draw_batch, draw_key, make_rng
from chalicelib.services.generation.selection import Selection
from tests.support.factories import make_address
from tests.support.fakes import FakeRegistryStore

POOL = [make_address(record_id=str(n), number=str(n)) for n in range(1, 301)]


def _fetch(ordinals: Sequence[int]) -> dict[int, PublishedAddress]:
    return {o: POOL[o] for o in ordinals}


@pytest.mark.parametrize(
    ("total", "excluded"), [(116, 50), (116, 60), (300, 80), (300, 99), (300, 120), (300, 149), (300, 0)]
)
def test_a_unique_batch_is_full_whenever_enough_addresses_remain(total: int, excluded: int) -> None:
    published = FakeRegistryStore().add(build_snapshot("PL", POOL))
    selection = Selection(published, (Range(0, total),), total)
    for seed in range(200):
        rng = make_rng(f"s{seed}")
        excluded_ids = frozenset(a.id for a in rng.sample(POOL[:total], excluded))
        batch = draw_batch(
            selection, draw_key(f"s{seed}"), _fetch, count=50, unique=True, excluded=excluded_ids
        )
        ids = [a.id for a in batch]
        assert len(ids) == len(set(ids)) == min(50, total - excluded)
        assert not set(ids) & excluded_ids


@pytest.mark.parametrize("unique", [True, False])
@pytest.mark.parametrize(("total", "excluded"), [(300, 0), (300, 40), (116, 60), (30, 0)])
def test_a_seeded_batch_is_the_prefix_of_a_larger_one(unique: bool, total: int, excluded: int) -> None:
    published = FakeRegistryStore().add(build_snapshot("PL", POOL))
    half = total // 2
    selection = Selection(published, (Range(0, half), Range(300 - (total - half), 300)), total)
    chosen = [POOL[selection.ordinal_at(k)] for k in range(total)]
    for seed in range(40):
        key = draw_key(f"p{seed}")
        excluded_ids = frozenset(a.id for a in make_rng(f"x{seed}").sample(chosen, excluded))

        def batch(count: int, key: bytes = key, excluded_ids: frozenset[str] = excluded_ids) -> list[str]:
            drawn = draw_batch(selection, key, _fetch, count=count, unique=unique, excluded=excluded_ids)
            return [a.id for a in drawn]

        five, fifty = batch(5), batch(50)
        assert five == fifty[:5]
        assert batch(1) == five[:1]
        assert not set(fifty) & excluded_ids
        if unique:
            assert len(set(fifty)) == len(fifty)


def test_unseeded_draws_differ_and_seeded_ones_repeat() -> None:
    published = FakeRegistryStore().add(build_snapshot("PL", POOL))
    selection = Selection(published, (Range(0, 300),), 300)

    def ids(key: bytes) -> list[str]:
        return [a.id for a in draw_batch(selection, key, _fetch, count=10, unique=True, excluded=frozenset())]

    assert ids(draw_key("same")) == ids(draw_key("same"))
    assert ids(draw_key(None)) != ids(draw_key(None))


@pytest.mark.parametrize("unique", [True, False])
@pytest.mark.parametrize("hidden_share", [0.25, 0.97])
def test_slots_no_longer_served_are_passed_over_and_draws_stay_prefix_stable(
    unique: bool, hidden_share: float
) -> None:
    """Slots whose addresses a later generation removed (the store answers nothing there): a
    batch holds only served addresses, is full while enough are served, and is the prefix of a
    larger one; a sparse selection still fills with replacement."""
    published = FakeRegistryStore().add(build_snapshot("PL", POOL))
    hidden = set(make_rng("hidden").sample(range(300), int(300 * hidden_share)))
    served = 300 - len(hidden)
    selection = Selection(published, (Range(0, 300),), served)
    reads: list[int] = []

    def fetch(ordinals: Sequence[int]) -> dict[int, PublishedAddress]:
        reads.append(len(ordinals))
        return {o: POOL[o] for o in ordinals if o not in hidden}

    for seed in range(20):
        key = draw_key(f"h{seed}")

        def batch(count: int, key: bytes = key) -> list[str]:
            drawn = draw_batch(selection, key, fetch, count=count, unique=unique, excluded=frozenset())
            return [a.id for a in drawn]

        five, fifty = batch(5), batch(50)
        assert five == fifty[:5]
        assert len(fifty) == (min(50, served) if unique else 50)
        assert not {POOL[o].id for o in hidden} & set(fifty)
        if unique:
            assert len(set(fifty)) == len(fifty)
    assert max(reads) <= 100  # one BatchGetItem a round


def test_a_large_selection_a_sync_left_nearly_empty_still_fills_a_batch_with_replacement() -> None:
    """6,000 slots, 5 served (1 in 1,200): places that miss every try take the next served
    addresses of a seeded walk, so the batch is full and still the prefix of a larger one."""
    published = FakeRegistryStore().add(build_snapshot("PL", POOL))
    served = {17: POOL[0], 2500: POOL[1], 4000: POOL[2], 5123: POOL[3], 5999: POOL[4]}
    selection = Selection(published, (Range(0, 6000),), len(served))

    def fetch(ordinals: Sequence[int]) -> dict[int, PublishedAddress]:
        return {o: served[o] for o in ordinals if o in served}

    def batch(count: int) -> list[str]:
        drawn = draw_batch(
            selection, draw_key("sparse"), fetch, count=count, unique=False, excluded=frozenset()
        )
        return [a.id for a in drawn]

    three, twelve = batch(3), batch(12)
    assert len(twelve) == 12
    assert three == twelve[:3]
    assert set(twelve) <= {a.id for a in served.values()}
