"""The catalog a sync publishes: lookups by value and alias, and location directories."""

from __future__ import annotations

from pathlib import Path

import pytest

from chalicelib import deps
from chalicelib.domain.directories import COUNTRY_SCOPE, Entry
from chalicelib.domain.locations import LocationType
from chalicelib.domain.published import Layout, PublishedSnapshot
from chalicelib.storage.dynamodb.registry import directories as catalog_directories
from tests.support.factories import SOURCES
from tests.support.sync import sync, write_manifest

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")


@pytest.fixture
def poland(tmp_path: Path, dependencies: deps.Dependencies) -> PublishedSnapshot:
    sync(dependencies, write_manifest(tmp_path, ["pl-gliwice-prg", "pl-wroclaw-prg"]))
    active = dependencies.stores.registry.active_snapshot("PL")
    assert active is not None
    return active


def test_values_and_aliases_find_the_same_location(
    dependencies: deps.Dependencies, poland: PublishedSnapshot
) -> None:
    registry = dependencies.stores.registry

    def find(kind: LocationType, text: str) -> list[str]:
        return registry.find_location_ids(poland.snapshot_id, poland.layout, kind, text)

    region = find(LocationType.REGION, "Dolnośląskie")
    assert len(region) == 1
    assert find(LocationType.REGION, "DOLNOŚLĄSKIE") == find(LocationType.REGION, "pl-02") == region
    assert find(LocationType.CITY, "wrocław") == find(LocationType.CITY, "Wrocław")
    assert find(LocationType.CITY, "Atlantis") == []
    location = registry.get_location(poland.snapshot_id, poland.layout, region[0])
    assert location is not None
    assert location.count == sum(s.count for s in location.spans) == 992 - 14


def test_directories_list_each_scope_in_name_order_with_counts_inside_it(
    dependencies: deps.Dependencies, poland: PublishedSnapshot
) -> None:
    registry = dependencies.stores.registry

    def directory(scope: str, kind: LocationType) -> list[Entry]:
        return registry.get_directory(poland.snapshot_id, poland.layout, scope, kind)

    regions = directory(COUNTRY_SCOPE, LocationType.REGION)
    assert [r.value for r in regions] == ["Dolnośląskie", "Śląskie"]
    assert sum(r.count for r in regions) == poland.count
    (lower_silesia, _) = regions
    cities = directory(lower_silesia.id, LocationType.CITY)
    assert [(c.value, c.count) for c in cities] == [("Wrocław", lower_silesia.count)]
    assert directory(cities[0].id, LocationType.REGION) == []  # no such directory: empty, not an error


def test_a_directory_larger_than_a_block_reads_back_whole_and_in_order(
    dependencies: deps.Dependencies, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(catalog_directories, "BLOCK_BYTES", 200)  # a few entries per block
    registry = dependencies.stores.registry
    layout = Layout(buckets=1, shards=3)
    entries = [Entry.of(LocationType.POSTCODE, f"pos-{n:04d}", f"{n:05d}", n + 1, n) for n in range(250)]
    registry.put_directories("snap", layout, {(COUNTRY_SCOPE, LocationType.POSTCODE): entries})
    assert registry.get_directory("snap", layout, COUNTRY_SCOPE, LocationType.POSTCODE) == entries
