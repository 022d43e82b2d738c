"""`traits=`: only addresses of the asked kinds, each a rule on the published record
(domain/traits.py), drawn exactly and uniformly through the text index's marks, counted per
country in /countries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from chalicelib.domain.traits import TRAITS, traits_of
from tests.support.api import Api, api_over, synced_pool
from tests.support.factories import SOURCES
from tests.support.sync import TRANSLATION_SOURCES, Cut

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

# GB's schools are street-level; SG's clinics have units; PL's names have diacritics; Wakayama's
# addresses are in kanji, with English names beside them.
SYNCED: dict[str, Cut] = {
    "gb-england-edubase_schools": slice(0, 120),
    "sg-countrywide-chas_clinics": slice(0, 300),
    "pl-gliwice-prg": slice(0, 150),
    "jp-wakayama_shi-abr-ja": TRANSLATION_SOURCES["jp-wakayama_shi-abr-ja"],
    "jp-wakayama_shi-abr-en": TRANSLATION_SOURCES["jp-wakayama_shi-abr-en"],
}
CASES = [
    ("GB", "no-number"),
    ("SG", "unit"),
    ("PL", "diacritics"),
    ("JP", "non-latin"),
    ("JP", "multi-script"),
]


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("traits"), SYNCED) as wired:
        yield wired


@pytest.fixture
def api(pool: deps.Dependencies) -> Iterator[Api]:
    with api_over(pool) as client:
        yield client


def _having(pool: deps.Dependencies, country: str, trait: str) -> set[str]:
    """The ids of the country's served addresses the rule gives the trait, read from the pool."""
    active = pool.stores.registry.active_snapshot(country)
    assert active is not None
    served = pool.stores.pool.get_many_by_ordinal(active.placement, range(active.placement.slots))
    return {a.id for a in served.values() if trait in traits_of(a)}


def _ids(results: list[dict[str, Any]]) -> list[str]:
    return [r["address"]["id"] for r in results]


@pytest.mark.parametrize(("country", "trait"), CASES)
def test_a_trait_draws_exactly_the_addresses_that_have_it(
    api: Api, pool: deps.Dependencies, country: str, trait: str
) -> None:
    wanted = _having(pool, country, trait)
    assert wanted
    exported = api.get("/api/v1/export", 200, country=country, traits=trait, seed="t", pageSize=2000)["data"]
    assert set(_ids(exported["results"])) == wanted
    body = {"count": 50, "filters": {"country": country, "traits": trait}, "options": {"seed": "t"}}
    batch = _ids(api.post("/api/v1/generate/batch", body)["data"]["results"])
    assert len(batch) == len(set(batch)) == min(50, len(wanted))
    assert set(batch) <= wanted
    drawn = {
        api.get("/api/v1/generate", 200, country=country, traits=trait, seed=str(n))["data"]["result"][
            "address"
        ]["id"]
        for n in range(40)
    }
    assert drawn <= wanted
    counts = {c["code"]: c for c in api.get("/api/v1/countries")["data"]}
    assert counts[country]["traitCounts"][trait] == len(wanted)


def test_every_listed_trait_is_required_and_combines_with_the_other_filters(
    api: Api, pool: deps.Dependencies
) -> None:
    both = _having(pool, "JP", "non-latin") & _having(pool, "JP", "multi-script")
    exported = api.get(
        "/api/v1/export",
        200,
        country="JP",
        traits="non-latin,multi-script",
        license="attribution",
        pageSize=2000,
    )["data"]
    assert set(_ids(exported["results"])) == both
    missing = api.get("/api/v1/generate", 404, country="GB", traits="non-latin")["error"]
    assert missing["code"] == "NO_POOL_COVERAGE"
    assert "has the traits non-latin" in missing["message"]
    wrong = api.get("/api/v1/generate", 400, country="GB", traits="unit,tall")["error"]
    assert [d["field"] for d in wrong["details"]] == ["traits"]
    counts = {c["code"]: c for c in api.get("/api/v1/countries")["data"]}
    assert set(counts["GB"]["traitCounts"]) == set(TRAITS)
    assert counts["JP"]["licenseCounts"]["attribution"] == counts["JP"]["addressCount"]  # CC-BY-4.0
