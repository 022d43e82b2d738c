"""`traits=`: only addresses of the asked kinds, each a rule on the published record
(domain/traits.py), drawn exactly and uniformly through the text index's marks, counted per
country in /countries."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.traits import traits_of
from chalicelib.reference.formatting import street_line
from chalicelib.services.marks import ALL_TRAITS
from tests.support.api import Api, served_addresses, synced_pool
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


def _having(pool: deps.Dependencies, country: str, trait: str) -> set[str]:
    """The ids of the country's served addresses the rule gives the trait, read from the pool."""
    return {a.id for a in served_addresses(pool, country) if trait in traits_of(a)}


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
    assert set(counts["GB"]["traitCounts"]) == set(ALL_TRAITS)
    assert counts["JP"]["licenseCounts"]["attribution"] == counts["JP"]["addressCount"]  # CC-BY-4.0


def _street(a: PublishedAddress) -> int:
    return len(a.components.street or "")


def _line(a: PublishedAddress) -> int:
    c = a.components
    return len(street_line(a.country, c.street, c.house_number, c.unit))


@pytest.mark.parametrize(("trait", "length"), [("long-street", _street), ("long-line", _line)])
@pytest.mark.parametrize("country", ["PL", "JP"])
def test_a_long_trait_draws_the_country_s_longest_five_percent_at_most(
    api: Api, pool: deps.Dependencies, trait: str, length: Any, country: str
) -> None:
    served = served_addresses(pool, country)
    lengths = sorted((length(a) for a in served), reverse=True)
    # The shortest length at most 5% of the addresses reach (a tie at the edge stays out).
    rare = [n for n in lengths if sum(m >= n for m in lengths) <= 0.05 * len(lengths)]
    counts = {c["code"]: c for c in api.get("/api/v1/countries")["data"]}[country]
    if not rare:  # Wakayama's town names: the longest are more than 5% of them, so none is long
        assert trait not in counts["lengthThresholds"]
        assert counts["traitCounts"][trait] == 0
        assert (
            api.get("/api/v1/generate", 404, country=country, traits=trait)["error"]["code"]
            == "NO_POOL_COVERAGE"
        )
        return
    threshold = min(rare)
    wanted = {a.id for a in served if length(a) >= threshold}
    assert 0 < len(wanted) <= 0.05 * len(served)
    assert counts["lengthThresholds"][trait] == threshold
    assert counts["traitCounts"][trait] == len(wanted)
    exported = api.get("/api/v1/export", 200, country=country, traits=trait, pageSize=2000)["data"]
    assert set(_ids(exported["results"])) == wanted
    # Combined with another trait where some of the long ones have it (PL's Księcia, Świętego).
    also = {a.id for a in served if a.id in wanted and "diacritics" in traits_of(a)}
    combined = f"{trait},diacritics" if also else trait
    drawn = {
        api.get("/api/v1/generate", 200, country=country, traits=combined, seed=str(n))["data"]["result"][
            "address"
        ]["id"]
        for n in range(10)
    }
    assert drawn <= (also or wanted)
