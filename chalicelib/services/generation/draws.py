"""Drawing addresses from a selection: exactly uniform, reproducible with a seed, bounded in reads.

- One address: k uniform in [0, total) → its ordinal → one GetItem.
- A batch: distinct ordinals (when unique) drawn in rounds, fetched with BatchGetItem, excluded ids
  rejected (each round asks for more in proportion to what exclusions may reject); when the
  selection is small next to what is asked plus excluded, every ordinal is taken in a seeded
  shuffle instead, so a batch comes back short only when fewer addresses match.
- Free text q: matches are looked for among Q_WINDOW distinct positions of the selection drawn
  uniformly (not a consecutive window: the order clusters a street's addresses), read 100 at a time;
  every match is equally likely to be seen, and the search is exhaustive (and exact) when the
  selection is that small."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.locations import search_key
from chalicelib.services.generation.selection import Selection

MAX_ROUNDS = 8
# A unique batch from a selection at most this many times (count + excluded) takes a seeded shuffle
# of the whole selection: exact, and at most a few reads of 100.
SHUFFLE_FACTOR = 2
Q_WINDOW = 300
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


def window_matches(selection: Selection, rng: random.Random, fetch: Fetch, q: str) -> list[PublishedAddress]:
    """Addresses containing q among up to Q_WINDOW uniformly chosen positions of the selection."""
    needle = search_key(q)
    positions = rng.sample(range(selection.total), min(Q_WINDOW, selection.total))
    matches: list[PublishedAddress] = []
    for first in range(0, len(positions), READ_CHUNK):
        ordinals = [selection.ordinal_at(k) for k in positions[first : first + READ_CHUNK]]
        fetched = fetch(ordinals)
        matches += [fetched[o] for o in ordinals if o in fetched and needle in searchable(fetched[o])]
    return matches


def searchable(address: PublishedAddress) -> str:
    """The text q is matched against: every component, the one-line form, and names in other languages."""
    texts = [*address.components.values(), address.formatted]
    texts += [name for names in address.names.values() for name in names.values()]
    return search_key(" ".join(t for t in texts if t))
