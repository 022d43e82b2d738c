"""A keyed bijection of [0, size): the i-th element of a seeded shuffle, computed alone.

A balanced Feistel network over the smallest even number of bits that covers `size`, walked
until it lands inside [0, size) (cycle walking: the walk stays inside the permutation's cycle, so
the result is still a bijection). Its domain is under four times `size`, so a position takes
fewer than four walks on average. With it, page p of a seeded export is computed from (seed, p)
alone: no state between pages, and no two positions give the same element. `index_of` walks the
other way: the position at which an element comes."""

from __future__ import annotations

import hashlib

ROUNDS = 6


class SeededPermutation:
    def __init__(self, size: int, key: bytes) -> None:
        if size < 0:
            raise ValueError(size)
        self.size = size
        self._half = max(1, (max(size - 1, 1).bit_length() + 1) // 2)
        self._mask = (1 << self._half) - 1
        self._keys = [
            hashlib.blake2b(key, digest_size=16, person=b"perm" + bytes([r])) for r in range(ROUNDS)
        ]

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, position: int) -> int:
        if not 0 <= position < self.size:
            raise IndexError(position)
        value = self._encrypt(position)
        while value >= self.size:
            value = self._encrypt(value)
        return value

    def index_of(self, element: int) -> int:
        """The position whose element this is: `self[self.index_of(e)] == e`."""
        if not 0 <= element < self.size:
            raise ValueError(element)
        value = self._decrypt(element)
        while value >= self.size:
            value = self._decrypt(value)
        return value

    def _encrypt(self, value: int) -> int:
        left, right = value >> self._half, value & self._mask
        for round_key in self._keys:
            left, right = right, left ^ self._round(round_key, right)
        return (left << self._half) | right

    def _decrypt(self, value: int) -> int:
        left, right = value >> self._half, value & self._mask
        for round_key in reversed(self._keys):
            left, right = right ^ self._round(round_key, left), left
        return (left << self._half) | right

    def _round(self, round_key: hashlib.blake2b, right: int) -> int:
        h = round_key.copy()
        h.update(right.to_bytes(8, "big"))
        return int.from_bytes(h.digest()[:8], "big") & self._mask
