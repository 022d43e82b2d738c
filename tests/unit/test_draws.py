"""Batch draws: short only when fewer addresses match, whatever the exclusions."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.ordering import Range
from chalicelib.domain.snapshots import build_snapshot
from chalicelib.services.generation.draws import draw_batch, make_rng
from chalicelib.services.generation.selection import Selection
from tests.support.factories import make_address
from tests.support.fakes import FakeCatalogStore

POOL = [make_address(record_id=str(n), number=str(n)) for n in range(1, 301)]


def _fetch(ordinals: Sequence[int]) -> dict[int, PublishedAddress]:
    return {o: POOL[o] for o in ordinals}


@pytest.mark.parametrize(
    ("total", "excluded"), [(116, 50), (116, 60), (300, 80), (300, 99), (300, 120), (300, 149), (300, 0)]
)
def test_a_unique_batch_is_full_whenever_enough_addresses_remain(total: int, excluded: int) -> None:
    published = FakeCatalogStore().add(build_snapshot("PL", POOL))
    selection = Selection(published, (Range(0, total),))
    for seed in range(200):
        rng = make_rng(f"s{seed}")
        excluded_ids = frozenset(a.id for a in rng.sample(POOL[:total], excluded))
        batch = draw_batch(selection, rng, _fetch, count=50, unique=True, excluded=excluded_ids)
        ids = [a.id for a in batch]
        assert len(ids) == len(set(ids)) == min(50, total - excluded)
        assert not set(ids) & excluded_ids
