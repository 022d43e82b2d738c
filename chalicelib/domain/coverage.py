"""The three completion rules of a country's pool."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CountRule:
    current: int
    target: int

    @property
    def met(self) -> bool:
        return self.current >= self.target


@dataclass(frozen=True)
class FractionRule:
    actual: float
    target: float

    @property
    def met(self) -> bool:
        return self.actual >= self.target


@dataclass(frozen=True)
class Coverage:
    country: str
    total: CountRule
    administrative: FractionRule  # share of first-level ISO 3166-2 subdivisions with an address
    regional_minimums: FractionRule  # share of covered subdivisions holding at least the minimum

    @property
    def complete(self) -> bool:
        return self.total.met and self.administrative.met and self.regional_minimums.met
