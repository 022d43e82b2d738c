"""Drawing addresses from a selection: exactly uniform, reproducible with a seed, prefix-stable,
bounded in reads.

A draw is keyed by the seed and what the filters select (not by how many are asked), and the
i-th address of a batch depends on that key and i alone, so the first five of a seeded batch of
50 are the seeded batch of five:

- Unique: the selection's positions in a seeded shuffle (`SeededPermutation`), walked in turn;
  an excluded or withdrawn address is passed over. The walk reads in rounds (what is still needed, more when
  exclusions may reject), so one address costs one GetItem and a batch of 50 one BatchGetItem.
- With replacement: place i tries seeded positions (key, i, attempt) until one is kept. Where
  exclusions leave little of a small selection, the places pick from what remains instead.
- Free text q: through the snapshot's text index (text_draws.py), in the same two ways."""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable, Sequence

from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.permutation import SeededPermutation
from chalicelib.domain.withdrawals import NOTHING_WITHDRAWN, Withdrawn
from chalicelib.services.generation.selection import Selection

READ_CHUNK = 100
# With replacement, tries per place: exclusions leave at least half a large selection (see SMALL),
# and the sync keeps most of a selection's slots served (pool.md), so a place misses every try
# with a chance under 2^-64 unless a location lost nearly all its addresses since its epoch began.
ATTEMPTS = 1024
# Places that missed every try (a location a sync left nearly empty: the next begins a new epoch)
# pick from a selection this small read whole, or from a seeded walk of a larger one.
READ_WHOLE = 20 * READ_CHUNK

Fetch = Callable[[Sequence[int]], dict[int, PublishedAddress]]
Keep = Callable[[PublishedAddress], bool]
OrdinalsAt = Callable[[Sequence[int]], list[int]]


def draw_key(seed: str | None, *parts: str) -> bytes:
    """Seeded: the same seed and parts give the same draws on any process; unseeded: fresh."""
    if seed is None:
        return secrets.token_bytes(16)
    return hashlib.sha256("\x1f".join((seed, *parts)).encode()).digest()[:16]


def make_rng(seed: str | None, *parts: str) -> random.Random:
    """A generator keyed like `draw_key` (for what is drawn per address, e.g. its test profile)."""
    return random.Random(int.from_bytes(draw_key(seed, *parts), "big"))  # noqa: S311 - test data


def pick(key: bytes, place: int, attempt: int, total: int) -> int:
    """Place `place`'s try number `attempt`: uniform in [0, total), from the key and both numbers."""
    digest = hashlib.blake2b(f"{place}.{attempt}".encode(), key=key, digest_size=16).digest()
    return random.Random(int.from_bytes(digest, "big")).randrange(total)  # noqa: S311


class Walk:
    """Positions [0, total) in a seeded shuffle, read round by round in that order: the kept
    addresses come in shuffle order whatever the rounds, so a larger count extends a smaller."""

    def __init__(self, total: int, key: bytes, ordinals_at: OrdinalsAt, fetch: Fetch, keep: Keep) -> None:
        self.order = SeededPermutation(total, key)
        self.next = 0  # the first position not yet read
        self._ordinals_at, self._fetch, self._keep = ordinals_at, fetch, keep

    @property
    def exhausted(self) -> bool:
        return self.next >= len(self.order)

    def take(
        self, found: list[PublishedAddress], count: int, ask: Callable[[int, int], int], rounds: int
    ) -> None:
        """Extend `found` towards `count` in at most `rounds` reads, asking `ask(need, round)`."""
        for round_number in range(rounds):
            need = count - len(found)
            if need <= 0 or self.exhausted:
                return
            end = min(len(self.order), self.next + ask(need, round_number))
            positions = [self.order[p] for p in range(self.next, end)]
            self.next = end
            self.read(found, count, self._ordinals_at(positions))

    def read(self, found: list[PublishedAddress], count: int, ordinals: Sequence[int]) -> None:
        fetched = self._fetch(ordinals)
        for ordinal in ordinals:
            address = fetched.get(ordinal)
            if address is not None and self._keep(address):
                found.append(address)
                if len(found) == count:
                    return


def asking(excluded: int, share: float = 1.0) -> Callable[[int, int], int]:
    """How many positions a round reads: what is needed, or what should hold that many served
    addresses where some slots are no longer served; twice that when exclusions may reject, and
    more each round when either may, never more than one BatchGetItem."""

    def ask(need: int, round_number: int) -> int:
        expected = max(need, int(need / share + 0.5))
        if not excluded and share >= 1.0:
            return min(READ_CHUNK, need)
        wanted = min(2 * expected, expected + excluded) if excluded else expected
        return min(READ_CHUNK, wanted << round_number)

    return ask


def with_replacement(
    total: int,
    key: bytes,
    ordinals_at: OrdinalsAt,
    fetch: Fetch,
    keep: Keep,
    *,
    count: int,
    attempts: int = ATTEMPTS,
    width: int = 1,
) -> tuple[dict[int, PublishedAddress], list[int]]:
    """Each place's first kept try; and the places no try kept. A round reads one try per place
    at first, then twice as many tries per place each round (within one BatchGetItem): where
    misses are common, a place finds its first kept try in a few round trips, and which try it
    keeps is the same whatever the rounds. `width`: the first round's tries per place (more where
    most tries are known to miss unread: another partition's)."""
    chosen: dict[int, PublishedAddress] = {}
    pending, first = list(range(count)), 0
    while pending and first < attempts:
        tries = range(first, min(attempts, first + max(1, min(width, READ_CHUNK // len(pending)))))
        ordinals = ordinals_at([pick(key, p, a, total) for p in pending for a in tries])
        fetched = fetch(list(dict.fromkeys(ordinals)))
        for n, place in enumerate(pending):
            for ordinal in ordinals[n * len(tries) : (n + 1) * len(tries)]:
                address = fetched.get(ordinal)
                if address is not None and keep(address):
                    chosen[place] = address
                    break
        pending = [p for p in pending if p not in chosen]
        first, width = tries.stop, 2 * width
    return chosen, pending


def from_remaining(
    chosen: dict[int, PublishedAddress],
    places: Sequence[int],
    key: bytes,
    remaining: Sequence[PublishedAddress],
) -> None:
    """Each place picks from `remaining` (every kept address, in ordinal order)."""
    for place in places:
        if remaining:
            chosen[place] = remaining[pick(key, place, -1, len(remaining))]


def in_place_order(chosen: dict[int, PublishedAddress], count: int) -> list[PublishedAddress]:
    return [chosen[p] for p in range(count) if p in chosen]


def draw_batch(
    selection: Selection,
    key: bytes,
    fetch: Fetch,
    *,
    count: int,
    unique: bool,
    excluded: frozenset[str],
    withdrawn: Withdrawn = NOTHING_WITHDRAWN,
) -> list[PublishedAddress]:
    total = selection.total
    passed_over = len(excluded) + len(withdrawn)

    def ordinals_at(positions: Sequence[int]) -> list[int]:
        return [selection.ordinal_at(p) for p in positions]

    def keep(address: PublishedAddress) -> bool:
        return address.id not in excluded and not withdrawn.holds(address)

    if unique:
        found: list[PublishedAddress] = []
        ask = asking(passed_over, selection.share)
        Walk(total, key, ordinals_at, fetch, keep).take(found, count, ask, total + 1)
        return found
    if passed_over and total <= small(passed_over):
        chosen: dict[int, PublishedAddress] = {}
        from_remaining(chosen, range(count), key, kept_in_order(ordinals_at(range(total)), fetch, keep))
        return in_place_order(chosen, count)
    chosen, pending = with_replacement(total, key, ordinals_at, fetch, keep, count=count)
    if pending and total <= READ_WHOLE:  # every try missed: what is served, read whole
        from_remaining(chosen, pending, key, kept_in_order(ordinals_at(range(total)), fetch, keep))
    elif pending:  # the served addresses of a seeded walk, in place order (prefix-stable)
        walked: list[PublishedAddress] = []
        ask = asking(0, selection.share)
        Walk(total, key, ordinals_at, fetch, keep).take(walked, len(pending), ask, total + 1)
        for n, place in enumerate(pending if walked else ()):
            chosen[place] = walked[n % len(walked)]
    return in_place_order(chosen, count)


def small(excluded: int) -> int:
    """A selection this small is read whole when drawing with replacement around exclusions: a
    larger one keeps at least half its addresses, so tries seldom miss."""
    return 2 * (excluded + READ_CHUNK)


def kept_in_order(ordinals: Sequence[int], fetch: Fetch, keep: Keep) -> list[PublishedAddress]:
    """The kept addresses at these ordinals, in their order, read 100 at a time."""
    kept: list[PublishedAddress] = []
    for start in range(0, len(ordinals), READ_CHUNK):
        chunk = ordinals[start : start + READ_CHUNK]
        fetched = fetch(chunk)
        kept += [fetched[o] for o in chunk if o in fetched and keep(fetched[o])]
    return kept
