"""The catalog a sync publishes: lookups by value and alias, children in pages, listings by type."""

from __future__ import annotations

from pathlib import Path

import pytest

from chalicelib import deps
from chalicelib.domain.locations import LocationType
from chalicelib.domain.snapshots import PublishedSnapshot
from tests.support.factories import SOURCES
from tests.support.sync import sync, write_manifest

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")


@pytest.fixture
def poland(tmp_path: Path, dependencies: deps.Dependencies) -> PublishedSnapshot:
    sync(dependencies, write_manifest(tmp_path, ["pl-gliwice-prg", "pl-wroclaw-prg"]))
    active = dependencies.stores.catalog.active_snapshot("PL")
    assert active is not None
    return active


def test_values_and_aliases_find_the_same_location(
    dependencies: deps.Dependencies, poland: PublishedSnapshot
) -> None:
    catalog = dependencies.stores.catalog

    def find(kind: LocationType, text: str) -> list[str]:
        return catalog.find_location_ids(poland.snapshot_id, poland.layout, kind, text)

    region = find(LocationType.REGION, "Dolnośląskie")
    assert len(region) == 1
    assert find(LocationType.REGION, "DOLNOŚLĄSKIE") == find(LocationType.REGION, "pl-02") == region
    assert find(LocationType.CITY, "wrocław") == find(LocationType.CITY, "Wrocław")
    assert find(LocationType.CITY, "Atlantis") == []
    location = catalog.get_location(poland.snapshot_id, poland.layout, region[0])
    assert location is not None
    assert location.count == sum(s.count for s in location.spans) == 992 - 14


def test_children_page_in_name_order_without_loss_or_repeat(
    dependencies: deps.Dependencies, poland: PublishedSnapshot
) -> None:
    catalog = dependencies.stores.catalog
    seen, after = [], None
    while True:
        page, after = catalog.list_children(
            poland.snapshot_id, poland.layout, "PL", LocationType.REGION, limit=1, after=after
        )
        seen += [item["v"] for item in page]
        if after is None:
            break
    assert seen == ["Dolnośląskie", "Śląskie"]


def test_every_location_of_a_type_by_accent_insensitive_prefix(
    dependencies: deps.Dependencies, poland: PublishedSnapshot
) -> None:
    catalog = dependencies.stores.catalog
    cities, _ = catalog.list_of_type(poland.snapshot_id, poland.layout, LocationType.CITY, limit=50)
    assert [c["v"] for c in cities] == ["Gliwice", "Wrocław"]
    found, _ = catalog.list_of_type(
        poland.snapshot_id, poland.layout, LocationType.CITY, prefix="WROC", limit=50
    )
    assert [c["v"] for c in found] == ["Wrocław"]
