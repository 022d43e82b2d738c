"""Liveness and readiness."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from chalicelib.errors import NothingPublished


class Pingable(Protocol):
    def ping(self) -> None: ...


class Published(Protocol):
    def all(self) -> Mapping[str, object]: ...


def check_ready(stores: Iterable[Pingable], published: Published) -> None:
    """Returns when every table answers and some country's pool is published: the service can
    then serve addresses. Raises StorageUnavailable or NothingPublished otherwise."""
    for store in stores:
        store.ping()
    if not published.all():
        raise NothingPublished(
            "no country's pool is published yet: the first sync is running or has not run"
            " (GET /api/v1/data-health shows where it stands)"
        )
