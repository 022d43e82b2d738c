"""`propertyType=`: only addresses whose source classifies them so (domain/premises.py), drawn
exactly and uniformly through the text index's marks, counted per country in /countries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from chalicelib.domain.addresses import PropertyType
from tests.support.api import Api, served_addresses, synced_pool
from tests.support.factories import SOURCES
from tests.support.sync import ALL, Cut

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

# Krems's OSM objects hold workshops and plants (industrial); Andorra's, flats above shops (mixed)
# and houses; Singapore's clinic register states every row a clinic (institutional).
SYNCED: dict[str, Cut] = {
    "osm-krems-at": ALL,
    "osm-andorra_2021-ad": ALL,
    "sg-countrywide-chas_clinics": slice(0, 40),
}
CASES = [
    ("AT", "industrial"),
    ("AT", "institutional"),
    ("AT", "unknown"),
    ("AD", "mixed"),
    ("AD", "residential"),
    ("AD", "commercial"),
    ("SG", "institutional"),
]


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("premises"), SYNCED) as wired:
        yield wired


def _of_type(pool: deps.Dependencies, country: str, kind: str) -> set[str]:
    """The ids of the country's served addresses of that type, read from the pool."""
    return {a.id for a in served_addresses(pool, country) if a.property_type == kind}


def _ids(results: list[dict[str, Any]]) -> list[str]:
    return [r["address"]["id"] for r in results]


@pytest.mark.parametrize(("country", "kind"), CASES)
def test_a_property_type_draws_exactly_the_addresses_of_it(
    api: Api, pool: deps.Dependencies, country: str, kind: str
) -> None:
    wanted = _of_type(pool, country, kind)
    assert wanted
    exported = api.get("/api/v1/export", 200, country=country, propertyType=kind, pageSize=2000)["data"]
    assert set(_ids(exported["results"])) == wanted
    assert {r["address"]["propertyType"] for r in exported["results"]} == {kind}
    body = {"count": 30, "filters": {"country": country, "propertyType": kind}, "options": {"seed": "t"}}
    batch = _ids(api.post("/api/v1/generate/batch", body)["data"]["results"])
    assert len(batch) == len(set(batch)) == min(30, len(wanted))
    assert set(batch) <= wanted
    drawn = {
        api.get("/api/v1/generate", 200, country=country, propertyType=kind, seed=str(n))["data"]["result"][
            "address"
        ]["id"]
        for n in range(20)
    }
    assert drawn <= wanted
    counts = {c["code"]: c for c in api.get("/api/v1/countries")["data"]}
    assert counts[country]["propertyTypeCounts"][kind] == len(wanted)


def test_the_filter_combines_and_names_what_it_did_not_find(api: Api, pool: deps.Dependencies) -> None:
    counts = {c["code"]: c for c in api.get("/api/v1/countries")["data"]}
    assert set(counts["AT"]["propertyTypeCounts"]) == {t.value for t in PropertyType}
    assert sum(counts["AD"]["propertyTypeCounts"].values()) == counts["AD"]["addressCount"]
    # residential=true keeps its meaning: the residential addresses, which propertyType names too
    residential = api.get("/api/v1/export", 200, country="AD", residential="true", pageSize=2000)["data"]
    assert set(_ids(residential["results"])) == _of_type(pool, "AD", "residential")
    shops = _of_type(pool, "AD", "commercial")
    query = {"country": "AD", "propertyType": "commercial", "q": "Meritxell", "pageSize": 900}
    both = api.get("/api/v1/export", 200, **query)
    found = both["data"]["results"]
    assert found
    assert set(_ids(found)) < shops
    assert all("Meritxell" in r["address"]["formattedAddress"] for r in found)
    missing = api.get("/api/v1/generate", 404, country="SG", propertyType="industrial")["error"]
    assert missing["code"] == "NO_POOL_COVERAGE"
    assert "is industrial property" in missing["message"]
    wrong = api.get("/api/v1/generate", 400, country="AT", propertyType="castle")["error"]
    assert [d["field"] for d in wrong["details"]] == ["propertyType"]
