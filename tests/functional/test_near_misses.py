"""`variant=`: near-miss variants for negative tests, made only by removing a published component
or putting in the value published for another address (domain/near_misses.py), and saying so."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from tests.support.api import Api, synced_pool
from tests.support.factories import SOURCES
from tests.support.sync import Cut

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

# San Francisco's register publishes units; Trumbull County's addresses are in other cities, in
# another state, whose ZIP codes Google's rules tie to Ohio.
SYNCED: dict[str, Cut] = {
    "us-san_francisco_ca-eas": slice(0, 150),
    "us-trumbull_county_oh-lbrs": slice(0, 150),
}
COMPONENT = {
    "missing-postcode": "postcode",
    "missing-number": "houseNumber",
    "missing-unit": "unit",
    "postcode-of-another-place": "postcode",
    "city-of-another-place": "city",
    "street-of-another-city": "street",
}


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("variants"), SYNCED) as wired:
        yield wired


def _published(api: Api, address_id: str) -> dict[str, Any]:
    address: dict[str, Any] = api.get(f"/api/v1/addresses/{address_id}")["data"]["address"]
    return address


@pytest.mark.parametrize("kind", sorted(COMPONENT))
def test_a_variant_changes_one_published_component_and_says_so(api: Api, kind: str) -> None:
    answer = api.get("/api/v1/generate", 200, country="US", variant=kind, seed="v")["data"]["result"]
    address, variant, name = answer["address"], answer["variant"], COMPONENT[kind]
    assert variant["kind"] == kind
    assert variant["changed"] == [name]
    base = _published(api, variant["base"])
    assert base["components"][name]  # the base has what the variant changes
    others = {k: v for k, v in address["components"].items() if k != name}
    assert others == {k: v for k, v in base["components"].items() if k != name}
    assert "-variant-" in address["id"]
    assert address["completeness"]["complete"] is False
    assert api.get(f"/api/v1/addresses/{address['id']}", 404)["error"]["code"] == "ADDRESS_NOT_FOUND"
    if kind.startswith("missing-"):
        assert address["components"][name] is None
        assert variant["donor"] is None
    else:
        donor = _published(api, variant["donor"])
        assert address["components"][name] == donor["components"][name]  # a value published for it
        assert address["components"][name] != base["components"][name]
        assert donor["components"]["city"] != base["components"]["city"]
        assert donor["components"]["regionCode"] != base["components"]["regionCode"]  # another state
    again = api.get("/api/v1/generate", 200, country="US", variant=kind, seed="v")["data"]["result"]
    assert again == answer  # a seed reproduces the variant and its profile


def test_google_s_rules_reject_a_postcode_of_another_state(api: Api) -> None:
    options = {"seed": "g", "variant": "postcode-of-another-place"}
    body = {"count": 20, "filters": {"country": "US", "complete": True}, "options": options}
    results = api.post("/api/v1/generate/batch", body)["data"]["results"]
    assert len(results) == 20
    assert len({r["variant"]["base"] for r in results}) == 20  # unique bases, as a batch's addresses
    for r in results:
        assert _published(api, r["variant"]["base"])["completeness"]["complete"] is True
        assert "postcode" in r["address"]["completeness"]["invalid"]


def test_a_variant_combines_with_filters_and_refuses_what_it_cannot_make(api: Api) -> None:
    found = api.get("/api/v1/generate", 200, country="US", city="San Francisco", variant="missing-unit")
    assert found["data"]["result"]["address"]["components"]["city"] == "SAN FRANCISCO"
    plain = api.get("/api/v1/generate", 200, country="US", seed="p")["data"]["result"]
    assert plain["variant"] is None
    wrong = api.get("/api/v1/generate", 400, country="US", variant="wrong-city")["error"]
    assert [d["field"] for d in wrong["details"]] == ["variant"]
    ip = api.get("/api/v1/generate", 400, country="US", mode="ip-region", variant="missing-unit")["error"]
    assert [d["field"] for d in ip["details"]] == ["variant"]
