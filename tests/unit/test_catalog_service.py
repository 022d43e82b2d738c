"""The catalog use cases over in-memory snapshots: caching, and cursors across a republication."""

from __future__ import annotations

import pytest

from chalicelib.domain.locations import LocationType
from chalicelib.domain.snapshots import Snapshot, build_snapshot
from chalicelib.errors import InvalidRequest
from chalicelib.services.catalog.cursors import CursorSigner
from chalicelib.services.catalog.directory_cache import CachedDirectories
from chalicelib.services.catalog.service import CatalogPorts, SearchRequest, search
from chalicelib.services.generation.catalog_cache import CachedCatalog
from tests.support.factories import make_address
from tests.support.fakes import FakeRegistryStore, FakeSnapshots


def _poland(postcodes: int) -> Snapshot:
    addresses = [
        make_address(record_id=str(n), number=str(n), postcode=f"50-{n:03d}") for n in range(1, postcodes + 1)
    ]
    return build_snapshot("PL", addresses)


@pytest.fixture
def store() -> FakeRegistryStore:
    return FakeRegistryStore()


@pytest.fixture
def snapshots() -> FakeSnapshots:
    return FakeSnapshots()


@pytest.fixture
def sources(store: FakeRegistryStore, snapshots: FakeSnapshots) -> CatalogPorts:
    return CatalogPorts(snapshots, CachedCatalog(store), CachedDirectories(store), CursorSigner(b"s" * 32))


def test_paging_reads_the_directory_once(
    store: FakeRegistryStore, snapshots: FakeSnapshots, sources: CatalogPorts
) -> None:
    snapshots.active["PL"] = store.add(_poland(45))
    request = SearchRequest("PL", LocationType.POSTCODE, limit=20)
    seen: list[str] = []
    cursor: str | None = None
    while True:
        page = search(SearchRequest("PL", LocationType.POSTCODE, limit=20, cursor=cursor), sources)
        seen += [e.value for e in page.entries]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert seen == [f"50-{n:03d}" for n in range(1, 46)]
    assert store.directory_reads == 1
    assert search(request, sources).total == 45


def test_a_cursor_from_before_a_republication_is_refused(
    store: FakeRegistryStore, snapshots: FakeSnapshots, sources: CatalogPorts
) -> None:
    snapshots.active["PL"] = store.add(_poland(45))
    cursor = search(SearchRequest("PL", LocationType.POSTCODE, limit=20), sources).next_cursor
    snapshots.active["PL"] = store.add(_poland(46))
    with pytest.raises(InvalidRequest, match="republished"):
        search(SearchRequest("PL", LocationType.POSTCODE, limit=20, cursor=cursor), sources)
