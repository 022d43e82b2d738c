"""Drawing addresses from a selection: exactly uniform, reproducible with a seed, bounded in reads.

- One address: k uniform in [0, total) → its ordinal → one GetItem.
- A batch: distinct ordinals (when unique) drawn in rounds, fetched with BatchGetItem, excluded ids
  rejected (each round asks for more in proportion to what exclusions may reject); when the
  selection is small next to what is asked plus excluded, every ordinal is taken in a seeded
  shuffle instead, so a batch comes back short only when fewer addresses match.
- Free text q: through the snapshot's text index (text_draws.py)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.services.generation.selection import Selection

MAX_ROUNDS = 8
# A unique batch from a selection at most this many times (count + excluded) takes a seeded shuffle
# of the whole selection: exact, and at most a few reads of 100.
SHUFFLE_FACTOR = 2
READ_CHUNK = 100

Fetch = Callable[[Sequence[int]], dict[int, PublishedAddress]]


def make_rng(seed: str | None, *parts: str) -> random.Random:
    """Seeded: the same seed, snapshot and request give the same draws on any process."""
    if seed is None:
        return random.Random()  # noqa: S311 - test data, not secrets
    digest = hashlib.sha256("\x1f".join((seed, *parts)).encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))  # noqa: S311


def draw_batch(
    selection: Selection,
    rng: random.Random,
    fetch: Fetch,
    *,
    count: int,
    unique: bool,
    excluded: frozenset[str],
) -> list[PublishedAddress]:
    total = selection.total
    if unique and total <= SHUFFLE_FACTOR * (count + len(excluded)):
        return _take_all(selection, rng, fetch, count=count, excluded=excluded)
    found: list[PublishedAddress] = []
    tried: set[int] = set()
    for _ in range(MAX_ROUNDS):
        need = count - len(found)
        if need == 0:
            break
        # Exclusions are under half the selection here, so asking twice as many always suffices
        # on average; the rounds absorb bad luck.
        ask = need if not excluded else min(2 * need, need + len(excluded))
        ordinals = (
            _fresh(selection, rng, ask, tried)
            if unique
            else [selection.ordinal_at(rng.randrange(total)) for _ in range(need)]
        )
        fetched = fetch(ordinals)
        found += [fetched[o] for o in ordinals if o in fetched and fetched[o].id not in excluded]
    return found[:count]


def _fresh(selection: Selection, rng: random.Random, need: int, tried: set[int]) -> list[int]:
    ordinals: list[int] = []
    while len(ordinals) < need and len(tried) < selection.total:
        ordinal = selection.ordinal_at(rng.randrange(selection.total))
        if ordinal not in tried:
            tried.add(ordinal)
            ordinals.append(ordinal)
    return ordinals


def _take_all(
    selection: Selection, rng: random.Random, fetch: Fetch, *, count: int, excluded: frozenset[str]
) -> list[PublishedAddress]:
    order = [selection.ordinal_at(k) for k in range(selection.total)]
    rng.shuffle(order)
    found: list[PublishedAddress] = []
    for start in range(0, len(order), READ_CHUNK):
        chunk = order[start : start + READ_CHUNK]
        fetched = fetch(chunk)
        found += [fetched[o] for o in chunk if o in fetched and fetched[o].id not in excluded]
        if len(found) >= count:
            break
    return found[:count]
