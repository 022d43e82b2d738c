"""Time as a dependency, so services can be tested at any instant."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    """The real clock, always timezone-aware UTC."""

    def now(self) -> datetime:
        return datetime.now(UTC)
