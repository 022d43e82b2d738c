"""Liveness and readiness."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Pingable(Protocol):
    def ping(self) -> None: ...


def check_ready(stores: Iterable[Pingable]) -> None:
    """Returns when every table answers; raises StorageUnavailable otherwise."""
    for store in stores:
        store.ping()
