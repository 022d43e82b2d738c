"""`license=`: only records under the asked terms, drawn exactly and uniformly from the snapshot's
text index (its licence marks), on generate, batch and export, with the other filters and seeds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from tests.support.api import Api, synced_pool
from tests.support.factories import SOURCES

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

# NL: the BAG register's CC0 rows and an OSM extract's ODbL ones; NO: Kartverket's CC-BY-4.0 rows
# and an OSM extract's.
SYNCED = ["nl-countrywide-bag", "osm-renkum-nl", "no-countrywide-kartverket", "osm-oslo_skoyen-no"]


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("licences"), SYNCED) as wired:
        yield wired


def _every(api: Api, country: str, **params: object) -> list[dict[str, Any]]:
    """Every address the filters select, by export."""
    data = api.get("/api/v1/export", 200, country=country, seed="all", pageSize=2000, **params)["data"]
    assert data["nextPage"] is None
    assert data["total"] == len(data["results"])
    return [r["address"] for r in data["results"]]


def _batch(api: Api, country: str, licence: str, **filters: object) -> list[dict[str, Any]]:
    body = {
        "count": 50,
        "filters": {"country": country, "license": licence, **filters},
        "options": {"seed": "s"},
    }
    return [r["address"] for r in api.post("/api/v1/generate/batch", body)["data"]["results"]]


@pytest.mark.parametrize(
    ("country", "licence", "served"),
    [
        ("NL", "public-domain", {"CC0-1.0"}),
        ("NL", "attribution", {"CC0-1.0"}),  # a public-domain record asks no more than attribution
        ("NL", "share-alike", {"CC0-1.0", "ODbL-1.0"}),
        ("NL", "odbl-1.0", {"ODbL-1.0"}),  # an SPDX id, in any case
        ("NO", "attribution", {"CC-BY-4.0"}),
        ("NO", "CC-BY-4.0,attribution", {"CC-BY-4.0"}),  # every listed one required
    ],
)
def test_a_licence_filter_draws_exactly_the_records_under_those_terms(
    api: Api, country: str, licence: str, served: set[str]
) -> None:
    everything = _every(api, country)
    wanted = {a["id"] for a in everything if a["source"]["license"] in served}
    assert 0 < len(wanted) < 50
    assert {a["id"] for a in _every(api, country, license=licence)} == wanted
    assert {a["id"] for a in _batch(api, country, licence)} == wanted  # unique: every one, once
    draws = {
        api.get("/api/v1/generate", 200, country=country, license=licence, seed=str(n))["data"]["result"][
            "address"
        ]["id"]
        for n in range(60)
    }
    assert draws <= wanted
    assert len(draws) > len(wanted) // 2  # single draws spread over the matches


def test_it_combines_with_q_and_locations_and_seeds_reproduce_it(api: Api) -> None:
    kartverket = [a for a in _every(api, "NO") if a["source"]["license"] == "CC-BY-4.0"]
    street = kartverket[0]["components"]["street"]
    found = _batch(api, "NO", "attribution", q=street)
    assert found
    assert {a["id"] for a in found} == {a["id"] for a in kartverket if a["components"]["street"] == street}
    assert _batch(api, "NO", "attribution", q=street) == found
    city = kartverket[0]["components"]["city"]
    assert all(a["components"]["city"] == city for a in _batch(api, "NO", "attribution", city=city))


def test_no_record_under_the_terms_is_404_and_a_malformed_filter_is_400(api: Api) -> None:
    missing = api.get("/api/v1/generate", 404, country="NO", license="public-domain")
    assert missing["error"]["code"] == "NO_POOL_COVERAGE"
    assert "licensed public-domain" in missing["error"]["message"]
    assert api.get("/api/v1/generate", 200, country="NO", license="Attribution")  # a class in any case
    assert api.get("/api/v1/generate", 404, country="NO", q="-")["error"]["code"] == "NO_POOL_COVERAGE"
    for bad in ("CC BY", ",", "a,b,c,d,e", "-x"):
        wrong = api.get("/api/v1/generate", 400, country="NO", license=bad)
        assert [d["field"] for d in wrong["error"]["details"]] == ["license"], bad
