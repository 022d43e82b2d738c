"""Generation through the real app on moto, over real sources synced once for the module."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from chalice.test import Client

from app import app
from chalicelib import deps
from chalicelib.domain.locations import LocationType
from chalicelib.reference.time_zones import zone_at
from tests.support.api import Api, served_addresses, synced_pool
from tests.support.factories import SOURCES, bearer, issue_token
from tests.support.fakes import FakeClock
from tests.support.sync import MIXED_SOURCES

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

SYNCED = MIXED_SOURCES
RESERVED_DOMAINS = {"example.com", "example.net", "example.org"}


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("gen"), SYNCED) as wired:
        yield wired


def _location_id(pool: deps.Dependencies, country: str, kind: LocationType, value: str) -> str:
    active = pool.stores.registry.active_snapshot(country)
    assert active is not None
    (found,) = pool.stores.registry.find_location_ids(active.snapshot_id, active.layout, kind, value)
    return found


def test_generate_returns_a_published_address_with_profile_and_provenance(api: Api) -> None:
    data = api.get("/api/v1/generate?country=PL&requestId=trace-1")["data"]
    assert (data["requestId"], data["country"], data["mode"]) == ("trace-1", "PL", "address")
    address = data["result"]["address"]
    assert address["countryCode"] == "PL"
    assert address["matchLevel"] == "houseNumber"
    assert address["source"]["id"] in data["sourcesTried"]
    assert address["source"]["attribution"].startswith("Źródło")
    assert data["snapshotId"]
    assert set(data["result"]["profile"]) == {
        "givenName",
        "familyName",
        "fullName",
        "latin",
        "kana",
        "gender",
        "dateOfBirth",
        "email",
        "phone",
    }


@pytest.mark.parametrize(
    ("country", "zone"), [("PL", "Europe/Warsaw"), ("LI", "Europe/Vaduz"), ("NL", "Europe/Amsterdam")]
)
def test_every_address_carries_the_time_zone_of_its_coordinates(api: Api, country: str, zone: str) -> None:
    body = {"count": 20, "filters": {"country": country}, "options": {"seed": "tz"}}
    batch = api.post("/api/v1/generate/batch", body)["data"]
    addresses = [item["address"] for item in batch["results"]]
    assert addresses
    for address in addresses:
        point = address["coordinates"]
        assert address["timeZone"] == zone_at(point["latitude"], point["longitude"]) == zone
    exported = api.get("/api/v1/export", 200, country=country, seed="tz", pageSize=5)["data"]["results"]
    assert {item["address"]["timeZone"] for item in exported} == {zone}


def test_bodies_are_utf8_json_not_escaped(api: Api) -> None:
    response = api.client.http.get("/api/v1/generate?country=PL&city=Wrocław", headers=api.auth)
    text = response.body.decode("utf-8")
    assert response.headers["Content-Type"] == "application/json; charset=utf-8"
    assert "Wrocław" in text
    assert "\\u" not in text


@pytest.mark.parametrize(
    ("query", "component", "expected"),
    [
        ("region=Śląskie", "regionCode", "PL-24"),
        ("region=pl-02", "regionCode", "PL-02"),
        ("city=WROCŁAW", "city", "Wrocław"),
        ("district=Gliwice", "district", "Gliwice"),
    ],
)
def test_each_location_filter_keeps_draws_inside_it(
    api: Api, query: str, component: str, expected: str
) -> None:
    for seed in range(10):
        address = api.get(f"/api/v1/generate?country=PL&{query}&seed=s{seed}")["data"]["result"]["address"]
        assert address["components"][component] == expected


@pytest.mark.parametrize(
    ("country", "kind", "value", "parameter", "component"),
    [
        ("PL", LocationType.REGION, "Śląskie", "regionId", "region"),
        ("PL", LocationType.CITY, "Gliwice", "cityId", "city"),
        ("PL", LocationType.DISTRICT, "Wrocław", "districtId", "district"),
        ("LI", LocationType.POSTCODE, "9490", "postcodeId", "postcode"),
    ],
)
def test_each_stable_id_filter_keeps_draws_inside_its_location(
    api: Api,
    pool: deps.Dependencies,
    country: str,
    kind: LocationType,
    value: str,
    parameter: str,
    component: str,
) -> None:
    location_id = _location_id(pool, country, kind, value)
    for seed in range(5):
        data = api.get(f"/api/v1/generate?country={country}&{parameter}={location_id}&seed=i{seed}")["data"]
        assert data["result"]["address"]["components"][component] == value


def test_postcode_filter_and_short_batches(api: Api, pool: deps.Dependencies) -> None:
    body = {"count": 50, "filters": {"country": "LI", "postcode": "9488"}}
    data = api.batch(body)["data"]
    assert 0 < data["returnedCount"] < data["requestedCount"] == 50  # every match, fewer than asked
    assert {r["address"]["components"]["postcode"] for r in data["results"]} == {"9488"}
    assert len({r["address"]["id"] for r in data["results"]}) == data["returnedCount"]


def test_an_id_and_its_value_select_the_same_addresses(api: Api, pool: deps.Dependencies) -> None:
    city_id = _location_id(pool, "PL", LocationType.CITY, "Gliwice")
    by_value = api.batch(
        {"count": 20, "filters": {"country": "PL", "city": "Gliwice"}, "options": {"seed": "x"}}
    )
    by_id = api.batch(
        {"count": 20, "filters": {"country": "PL", "cityId": city_id}, "options": {"seed": "x"}}
    )
    both = api.batch(
        {
            "count": 20,
            "filters": {"country": "PL", "city": "gliwice", "cityId": city_id},
            "options": {"seed": "x"},
        }
    )
    ids = [[r["address"]["id"] for r in b["data"]["results"]] for b in (by_value, by_id, both)]
    assert ids[0] == ids[1] == ids[2]


def test_q_must_occur_in_the_address(api: Api) -> None:
    for seed in range(5):  # 44 of 1,334 Polish addresses
        address = api.get(f"/api/v1/generate?country=PL&q=szewska&seed=q{seed}")["data"]["result"]["address"]
        assert "szewska" in address["components"]["street"].lower().split()
    for seed in range(5):
        address = api.get(f"/api/v1/generate?country=NL&q=GALVANISTRAAT&seed=g{seed}")["data"]["result"][
            "address"
        ]
        assert address["components"]["street"] == "Galvanistraat"
    for q in ("zzzzzz", "GALVANI"):  # whole words: a part of one is not a word of the address
        error = api.get(f"/api/v1/generate?country=NL&q={q}", 404)["error"]
        assert error["code"] == "NO_POOL_COVERAGE"


def test_seeds_reproduce_across_two_app_instances(pool: deps.Dependencies) -> None:
    def run() -> tuple[Any, Any]:
        deps.use(deps.build(pool.settings, FakeClock(), pool.pool_config))  # a fresh process's wiring
        with Client(app) as client:
            auth = {**bearer(issue_token(pool.stores.tokens, pool.clock)), "Content-Type": "application/json"}
            one = json.loads(client.http.get("/api/v1/generate?country=LI&seed=abc", headers=auth).body)[
                "data"
            ]
            body = json.dumps(
                {"count": 10, "filters": {"country": "LI"}, "options": {"seed": "abc"}}
            ).encode()
            many = json.loads(client.http.post("/api/v1/generate/batch", headers=auth, body=body).body)[
                "data"
            ]
        return one["result"], [r["address"]["id"] for r in many["results"]]

    assert run() == run()


@pytest.mark.parametrize("unique", [True, False])
@pytest.mark.parametrize("filters", [{"country": "NL"}, {"country": "LI"}, {"country": "PL", "q": "ulica"}])
def test_a_seeded_batch_of_five_is_the_first_five_of_fifty(
    api: Api, filters: dict[str, str], unique: bool
) -> None:
    def draw(count: int) -> list[Any]:
        body = {"count": count, "filters": filters, "options": {"seed": "prefix", "unique": unique}}
        return [(r["address"]["id"], r["profile"]["email"]) for r in api.batch(body)["data"]["results"]]

    five, fifty = draw(5), draw(50)
    assert len(five) == 5
    assert five == fifty[:5]
    if unique:
        assert len({i for i, _ in fifty}) == len(fifty)
    query = "&".join(f"{k}={v}" for k, v in filters.items())
    one = api.get(f"/api/v1/generate?{query}&seed=prefix")["data"]["result"]
    if unique:  # /generate draws like a unique batch of one
        assert (one["address"]["id"], one["profile"]["email"]) == five[0]


def test_unseeded_draws_vary(api: Api) -> None:
    ids = {api.get("/api/v1/generate?country=LI")["data"]["result"]["address"]["id"] for _ in range(10)}
    assert len(ids) > 1


def test_batches_are_unique_and_respect_exclusions(api: Api) -> None:
    first = api.batch({"count": 50, "filters": {"country": "LI"}, "options": {"seed": "u"}})["data"]
    ids = [r["address"]["id"] for r in first["results"]]
    assert len(ids) == len(set(ids)) == 50
    second = api.batch(
        {"count": 50, "filters": {"country": "LI"}, "options": {"seed": "u"}, "excludeAddressIds": ids}
    )
    assert not set(ids) & {r["address"]["id"] for r in second["data"]["results"]}
    assert second["data"]["returnedCount"] == 50


def test_excluding_everything_returns_nothing_not_an_error(api: Api) -> None:
    everything = api.batch({"count": 50, "filters": {"country": "NL"}})["data"]["results"]
    assert len(everything) == 8
    ids = [r["address"]["id"] for r in everything]
    data = api.batch({"count": 5, "filters": {"country": "NL"}, "excludeAddressIds": ids})["data"]
    assert (data["requestedCount"], data["returnedCount"], data["results"]) == (5, 0, [])


def test_non_unique_batches_may_repeat(api: Api) -> None:
    data = api.batch({"count": 50, "filters": {"country": "NL"}, "options": {"unique": False, "seed": "r"}})[
        "data"
    ]
    assert data["returnedCount"] == 50
    assert len({r["address"]["id"] for r in data["results"]}) <= 8


def test_draws_are_uniform(api: Api) -> None:
    """Chi-square over 800 seeded draws from the 8 published Dutch addresses."""
    draws = Counter(
        api.get(f"/api/v1/generate?country=NL&seed=u{i}")["data"]["result"]["address"]["id"]
        for i in range(800)
    )
    assert len(draws) == 8
    expected = 800 / 8
    chi_square = sum((n - expected) ** 2 / expected for n in draws.values())
    assert chi_square < 24.32  # the 0.999 quantile for 7 degrees of freedom


def test_residential_filter_and_the_cn_default(api: Api) -> None:
    for seed in range(5):
        address = api.get(f"/api/v1/generate?country=LI&residential=true&seed=r{seed}")["data"]["result"][
            "address"
        ]
        assert address["propertyType"] == "residential"
    error = api.get("/api/v1/generate?country=CN", 404)["error"]  # CN defaults to residential
    assert (error["code"], "residential" in error["message"]) == ("NO_POOL_COVERAGE", True)
    address = api.get("/api/v1/generate?country=CN&residential=false")["data"]["result"]["address"]
    assert address["propertyType"] == "commercial"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("country=US", None),  # enabled, nothing published in this pool
        ("country=PL&region=Atlantis", "region"),
        ("country=PL&regionId=reg-aaaaaaaaaaaaaaaa", "regionId"),
        ("country=PL&region=Śląskie&city=Wrocław", None),
        ("country=PL&cityId=reg-aaaaaaaaaaaaaaaa", "cityId"),
    ],
)
def test_no_coverage_is_404(api: Api, query: str, field: str | None) -> None:
    error = api.get(f"/api/v1/generate?{query}", 404)["error"]
    assert error["code"] == "NO_POOL_COVERAGE"
    if field:
        assert error["details"][0]["field"] == field


def test_value_and_id_naming_different_locations_is_404(api: Api, pool: deps.Dependencies) -> None:
    region_id = _location_id(pool, "PL", LocationType.REGION, "Śląskie")
    error = api.get(f"/api/v1/generate?country=PL&region=Dolnośląskie&regionId={region_id}", 404)["error"]
    assert error["details"][0]["field"] == "region"


def test_ip_needs_its_mode(api: Api) -> None:
    error = api.get("/api/v1/generate?country=PL&ip=192.0.2.1", 400)["error"]
    assert error["details"][0]["field"] == "ip"


def test_profiles_use_reserved_domains_and_numbers(api: Api) -> None:
    for country in ("PL", "LI", "NL"):
        for result in api.batch({"count": 20, "filters": {"country": country}})["data"]["results"]:
            profile = result["profile"]
            assert profile["email"].rsplit("@", 1)[1] in RESERVED_DOMAINS
            assert profile["phone"]["dialable"] is False
            assert re.fullmatch(r"\+\d{1,3} 00 \d{3} \d{4}", profile["phone"]["number"])
            assert "1940-01-01" <= profile["dateOfBirth"] <= "2005-12-31"
            assert profile["gender"] in {"female", "male"}


def test_a_seeded_profile_depends_on_the_address_not_on_the_batch_size(api: Api) -> None:
    """Two seeded batches of different sizes give a shared address the same person (a repeat
    within one batch gets another)."""
    filters = {"country": "NL"}  # 86 addresses: batches of 5 and 50 share some, and 50 repeats some
    options = {"seed": "same", "unique": False}
    small = api.batch({"count": 5, "filters": filters, "options": options})["data"]["results"]
    large = api.batch({"count": 50, "filters": filters, "options": options})["data"]["results"]
    first_in_large: dict[str, Any] = {}
    for result in large:
        first_in_large.setdefault(result["address"]["id"], result["profile"])
    shared = [r for r in small if r["address"]["id"] in first_in_large]
    assert shared, ([r["address"]["id"] for r in small], list(first_in_large))
    first_in_small: dict[str, Any] = {}
    for result in small:
        first_in_small.setdefault(result["address"]["id"], result["profile"])
    for address_id, profile in first_in_small.items():
        assert first_in_large.get(address_id, profile) == profile
    ids = [r["address"]["id"] for r in large]
    repeated = next(i for i, address_id in enumerate(ids) if ids.index(address_id) < i)
    assert large[repeated]["profile"] != first_in_large[ids[repeated]]


def test_profiles_carry_the_latin_name_and_reading_their_countries_forms_ask_for(api: Api) -> None:
    for result in api.batch({"count": 10, "filters": {"country": "CN", "residential": False}})["data"][
        "results"
    ]:
        profile = result["profile"]
        assert profile["latin"]["system"] == "Hanyu Pinyin"
        assert profile["kana"] is None
        assert profile["email"].split("@")[0].startswith(profile["latin"]["givenName"].lower())
    for result in api.batch({"count": 10, "filters": {"country": "PL"}})["data"]["results"]:
        assert (result["profile"]["latin"], result["profile"]["kana"]) == (None, None)


def test_lookup_by_id(api: Api) -> None:
    address = api.get("/api/v1/generate?country=NL&seed=look")["data"]["result"]["address"]
    assert api.get(f"/api/v1/addresses/{address['id']}")["data"]["address"] == address
    for unknown in ("nl-aaaaaaaaaaaaaaaa", "xx-aaaaaaaaaaaaaaaa", "nothing"):
        assert api.get(f"/api/v1/addresses/{unknown}", 404)["error"]["code"] == "ADDRESS_NOT_FOUND"


# --- emailDomain=: profiles' e-mail in a domain the tester owns ------------------------------


def test_an_email_domain_changes_the_email_s_domain_and_nothing_else(api: Api) -> None:
    plain = api.get("/api/v1/generate", 200, country="LI", seed="mail")["data"]["result"]
    owned = api.get("/api/v1/generate", 200, country="LI", seed="mail", emailDomain="Inbox.QA.test")
    profile = owned["data"]["result"]["profile"]
    local = plain["profile"]["email"].split("@")[0]
    assert profile["email"] == f"{local}@inbox.qa.test"
    assert {**profile, "email": ""} == {**plain["profile"], "email": ""}
    assert owned["data"]["result"]["address"] == plain["address"]
    body = {
        "count": 3,
        "filters": {"country": "PL"},
        "options": {"seed": "m", "emailDomain": "qa.example.com"},
    }
    batch = api.batch(body)["data"]["results"]
    assert {r["profile"]["email"].split("@")[1] for r in batch} == {"qa.example.com"}
    page = api.get("/api/v1/export", 200, country="LI", seed="m", pageSize=3, emailDomain="mail.mycorp.io")
    assert {r["profile"]["email"].split("@")[1] for r in page["data"]["results"]} == {"mail.mycorp.io"}


@pytest.mark.parametrize(
    "domain",
    ["examp1e.com", "example.co", "example.com.au", "exarnple.org", "xn--exmple-cua.com", "localhost",
     "a..b.com", "-a.com", "exa_mple.com", "x" * 64 + ".com", "mail.example-com.net"],
)  # fmt: skip
def test_a_look_alike_of_a_reserved_domain_or_a_malformed_name_is_refused(api: Api, domain: str) -> None:
    answer = api.get("/api/v1/generate", 400, country="LI", emailDomain=domain)
    assert [d["field"] for d in answer["error"]["details"]] == ["emailDomain"]
    body = {"count": 1, "filters": {"country": "LI"}, "options": {"emailDomain": domain}}
    assert [d["field"] for d in api.batch(body, 400)["error"]["details"]] == ["options.emailDomain"]


# --- related=: the same person's second address ---------------------------------------------


def test_related_gives_the_same_person_a_second_real_address_in_another_city(
    api: Api, pool: deps.Dependencies
) -> None:
    served = {a.id for a in served_addresses(pool, "PL")}
    body = {"count": 20, "filters": {"country": "PL"}, "options": {"seed": "checkout", "related": "billing"}}
    results = api.batch(body)["data"]["results"]
    assert len(results) == 20
    for r in results:
        second = r["related"]
        assert second["role"] == "billing"
        assert second["address"]["id"] in served  # published, never made up
        assert second["address"]["id"] != r["address"]["id"]
        assert second["address"]["countryCode"] == "PL"
    assert api.batch(body)["data"]["results"] == results  # seeded: the same pairs
    plain = api.batch({**body, "options": {"seed": "checkout"}})["data"]["results"]
    assert [{**r, "related": None} for r in results] == plain  # the draw and profiles are unchanged


def test_a_related_address_lies_in_another_city_where_the_country_has_several(api: Api) -> None:
    one = api.get("/api/v1/generate", 200, country="NL", seed="c", related="shipping")["data"]["result"]
    cities = {one["address"]["components"]["city"], one["related"]["address"]["components"]["city"]}
    assert len(cities) == 2
    assert one["related"]["role"] == "shipping"


def test_related_stays_in_the_worker_s_partition_and_an_unknown_role_is_refused(api: Api) -> None:
    part = "1/2"
    body = {
        "count": 10,
        "filters": {"country": "LI", "partition": part},
        "options": {"seed": "p", "related": "billing"},
    }
    mine = {
        a
        for r in api.batch(body)["data"]["results"]
        for a in (r["address"]["id"], r["related"]["address"]["id"])
    }
    other = {"count": 50, "filters": {"country": "LI", "partition": "0/2"}, "options": {"seed": "p"}}
    theirs = {r["address"]["id"] for r in api.batch(other)["data"]["results"]}
    assert not mine & theirs
    answer = api.get("/api/v1/generate", 400, country="LI", related="invoice")
    assert [d["field"] for d in answer["error"]["details"]] == ["related"]
