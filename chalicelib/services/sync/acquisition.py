"""Acquisition: bring each manifest entry's file from its publisher (`upstream`) into a source store,
so the sync reads fresh data. A file the publisher has not changed (304, or the same bytes again) is
left as it is, so it triggers no rebuild; a failed fetch keeps what the store held."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from chalicelib.clock import Clock
from chalicelib.services.sync.ports import SourceStore
from chalicelib.sources.manifest import SourceEntry
from chalicelib.sources.stored import StoredSource
from chalicelib.sources.upstream import Fetched, FetchError, FetchStatus, Validators

Fetch = Callable[[str, Validators], Fetched]


class AcquisitionStatus(StrEnum):
    FETCHED = "fetched"  # new or changed: the next sync rebuilds from it
    UNCHANGED = "unchanged"  # not modified, or the same bytes again: nothing rebuilds
    FAILED = "failed"  # the store keeps what it held; `error` says why
    NO_UPSTREAM = "no_upstream"  # the manifest names no http(s) URL


@dataclass(frozen=True)
class Acquisition:
    source_id: str
    key: str
    url: str
    status: AcquisitionStatus
    sha256: str = ""
    size: int = 0
    error: str | None = None


def acquire(
    entries: Iterable[SourceEntry], store: SourceStore, fetch: Fetch, clock: Clock
) -> list[Acquisition]:
    """One request per distinct URL (several entries may share a publisher's file)."""
    by_url: dict[str, list[SourceEntry]] = defaultdict(list)
    results: list[Acquisition] = []
    for entry in entries:
        if entry.upstream.startswith(("http://", "https://")):
            by_url[entry.upstream].append(entry)
        else:
            results.append(
                Acquisition(entry.id, entry.files[0], entry.upstream, AcquisitionStatus.NO_UPSTREAM)
            )
    for url, sharing in by_url.items():
        results += _acquire_url(url, sharing, store, fetch, clock)
    return results


def _acquire_url(
    url: str, entries: list[SourceEntry], store: SourceStore, fetch: Fetch, clock: Clock
) -> list[Acquisition]:
    held = {e.id: store.held(e.files[0]) for e in entries}
    validators = _validators(list(held.values()), url)
    try:
        fetched = fetch(url, validators)
    except FetchError as exc:
        return [Acquisition(e.id, e.files[0], url, AcquisitionStatus.FAILED, error=str(exc)) for e in entries]
    try:
        return [_keep(e, held[e.id], fetched, url, store, clock) for e in entries]
    finally:
        if fetched.body is not None:
            fetched.body.unlink(missing_ok=True)


def _keep(
    entry: SourceEntry,
    held: StoredSource | None,
    fetched: Fetched,
    url: str,
    store: SourceStore,
    clock: Clock,
) -> Acquisition:
    key = entry.files[0]
    if fetched.status is FetchStatus.NOT_MODIFIED and held is not None:
        return Acquisition(entry.id, key, url, AcquisitionStatus.UNCHANGED, held.sha256, held.size)
    assert fetched.body is not None, "a 304 answers only a request that named what we hold"
    record = StoredSource(
        url=url,
        sha256=fetched.sha256,
        size=fetched.size,
        fetched_at=clock.now().isoformat(),
        etag=fetched.etag,
        last_modified=fetched.last_modified,
    )
    if held is not None and held.sha256 == fetched.sha256:
        store.record(key, record)  # new validators, same bytes: the file (and its time) stay
        return Acquisition(entry.id, key, url, AcquisitionStatus.UNCHANGED, record.sha256, record.size)
    store.keep(key, fetched.body, record)
    return Acquisition(entry.id, key, url, AcquisitionStatus.FETCHED, record.sha256, record.size)


def _validators(held: list[StoredSource | None], url: str) -> Validators:
    """Conditional only when every entry holds the same copy of this URL: otherwise fetch it whole."""
    first = held[0]
    if first is None or first.url != url or any(h is None or h.sha256 != first.sha256 for h in held):
        return Validators()
    return Validators(first.etag, first.last_modified)
