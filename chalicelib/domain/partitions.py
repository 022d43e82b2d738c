"""Disjoint parts of a pool, one per parallel test worker: part i of n holds the addresses whose slot
ordinal is i modulo n. Each address is in exactly one part whatever the filters, so workers drawing
with different filters still never receive the same address; a part is spread over the whole pool
(ordinals follow the snapshot's order), and part 0 of 1 is the whole pool."""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.domain.ordering import Range

MAX_PARTS = 1024


@dataclass(frozen=True, slots=True)
class Partition:
    index: int = 0
    count: int = 1

    @property
    def whole(self) -> bool:
        return self.count == 1

    @property
    def said(self) -> str:
        return f"{self.index}/{self.count}"

    def holds(self, ordinal: int) -> bool:
        return ordinal % self.count == self.index

    def count_in(self, r: Range) -> int:
        """How many of the range's ordinals are in this part."""
        return max(0, -(-(r.end - self._first_in(r)) // self.count))

    def nth_in(self, r: Range, k: int) -> int:
        """The k-th ordinal of the range in this part (0 <= k < count_in(r))."""
        return self._first_in(r) + k * self.count

    def _first_in(self, r: Range) -> int:
        return r.start + (self.index - r.start) % self.count


WHOLE = Partition()
