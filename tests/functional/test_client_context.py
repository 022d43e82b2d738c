"""Client context and ip-region generation through the real app on moto, with a small IP
database of the DB-IP layout written by the tests and real sources synced once."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from chalicelib import deps
from tests.support.api import Api, api_over, synced_pool
from tests.support.factories import SOURCES
from tests.support.ipdb import write_ip_database
from tests.support.sync import MIXED_SOURCES

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

SYNCED = MIXED_SOURCES
CONTEXT = "/api/v1/client-context"
GENERATE = "/api/v1/generate"


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    ip_database = write_ip_database(tmp_path_factory.mktemp("ipdb"))
    with synced_pool(tmp_path_factory.mktemp("ctx"), SYNCED, ip_database=str(ip_database)) as wired:
        yield wired


def context(api: Api, ip: str) -> dict[str, Any]:
    data: dict[str, Any] = api.get(CONTEXT, ip=ip)["data"]
    return data


def test_an_ipv4_address_in_a_published_region(api: Api) -> None:
    regions = api.get("/api/v1/locations/search", country="PL", field="region")["data"]["regions"]
    lower_silesia = next(r for r in regions if r["value"] == "Dolnośląskie")
    assert context(api, "31.0.4.20") == {
        "ip": "31.0.4.20",
        "country": "PL",
        "region": "Dolnośląskie",  # the catalog's value, from DB-IP's "Lower Silesia"
        "regionCode": "PL-02",
        "regionId": lower_silesia["id"],
        "city": "Wroclaw",
        "matchLevel": "city",
    }


def test_an_ipv6_address_and_an_exonym(api: Api) -> None:
    found = context(api, "2a00:1450:4001:80b::200e")
    assert (found["country"], found["region"], found["regionCode"]) == ("DE", "Hessen", "DE-HE")
    assert found["regionId"] is None  # DE is not synced here: the ISO name, no catalog id
    assert found["city"] == "Frankfurt am Main"


def test_an_ipv4_mapped_ipv6_address_is_its_ipv4_address(api: Api) -> None:
    assert context(api, "::ffff:31.0.4.20") == context(api, "31.0.4.20")
    assert context(api, "::ffff:31.0.4.20")["ip"] == "31.0.4.20"


def test_districts_in_brackets_are_dropped_from_the_city(api: Api) -> None:
    found = context(api, "85.214.132.117")
    assert (found["region"], found["regionCode"], found["city"]) == ("Berlin", "DE-BE", "Berlin")


@pytest.mark.parametrize(
    ("ip", "level", "region"),
    [("8.8.8.8", "region", "California"), ("2.16.0.1", "country", None), ("37.252.1.1", "city", None)],
)
def test_match_level_is_the_finest_the_database_knows(
    api: Api, ip: str, level: str, region: str | None
) -> None:
    found = context(api, ip)
    assert (found["matchLevel"], found["region"]) == (level, region)


@pytest.mark.parametrize(
    "ip",
    [
        "10.1.2.3",
        "192.168.0.1",
        "172.16.0.1",
        "127.0.0.1",
        "::1",
        "fe80::1",
        "169.254.0.1",
        "100.64.0.1",
        "192.0.2.1",
        "2001:db8::1",
        "224.0.0.1",
        "0.0.0.0",  # noqa: S104 - an address to look up, not one to bind
        "255.255.255.255",
        "9.9.9.9",
        "2a0f::1",
    ],
)
def test_addresses_without_a_place_are_404(api: Api, ip: str) -> None:
    error = api.get(CONTEXT, 404, ip=ip)["error"]
    assert error["code"] == "ADDRESS_NOT_FOUND"
    assert error["details"][0]["field"] == "ip"


@pytest.mark.parametrize(
    "ip",
    [
        "1.2.3",
        "1.2.3.4/24",
        "300.1.1.1",
        "fe80::1%eth0",
        "01.2.3.4",
        "example.com",
        "::ffff:999.1.1.1",
        "1" * 65,
    ],
)
def test_malformed_addresses_are_400(api: Api, ip: str) -> None:
    error = api.get(CONTEXT, 400, ip=ip)["error"]
    assert error["code"] == "INVALID_REQUEST"
    assert error["details"][0]["field"] == "ip"


def test_without_ip_the_callers_address_is_used(api: Api) -> None:
    # chalice's test client reports 127.0.0.1 as API Gateway's sourceIp: no place.
    error = api.get(CONTEXT, 404)["error"]
    assert error["details"][0]["field"] == "sourceIp"
    assert "127.0.0.1" in error["message"]


def test_x_forwarded_for_is_ignored_unless_proxies_are_trusted(api: Api, pool: deps.Dependencies) -> None:
    spoofed = {**api.auth, "X-Forwarded-For": "31.0.4.20"}
    assert api.client.http.get(CONTEXT, headers=spoofed).status_code == 404  # still 127.0.0.1
    trusting = replace(pool, settings=pool.settings.model_copy(update={"trusted_proxy_hops": 1}))
    with api_over(trusting) as behind_proxy:
        headers = {**behind_proxy.auth, "X-Forwarded-For": "85.214.132.117, 31.0.4.20"}
        response = behind_proxy.client.http.get(CONTEXT, headers=headers)
    assert response.status_code == 200
    assert '"ip":"31.0.4.20"' in response.body.decode()  # the entry the trusted proxy added


def test_without_an_ip_database_it_is_503(pool: deps.Dependencies) -> None:
    with api_over(replace(pool, ip_database=None)) as unconfigured:
        assert unconfigured.get(CONTEXT, 503, ip="31.0.4.20")["error"]["code"] == "SERVICE_UNAVAILABLE"


# --- ip-region generation ------------------------------------------------------------------------


def test_ip_region_draws_stay_inside_the_region(api: Api) -> None:
    for ip, region in (
        ("31.0.4.20", "Dolnośląskie"),
        ("31.1.0.7", "Śląskie"),
        ("2a02:1000::5", "Dolnośląskie"),
    ):
        for seed in range(8):
            data = api.get(GENERATE, mode="ip-region", ip=ip, seed=f"s{seed}")["data"]
            assert (data["mode"], data["country"]) == ("ip-region", "PL")
            assert data["result"]["address"]["components"]["region"] == region
            assert data["sourcesTried"][0] == "ip:dbip-city-lite"
            assert data["ipContext"]["region"] == region


def test_ip_region_draws_are_seeded_and_filtered_as_usual(api: Api) -> None:
    first = api.get(GENERATE, mode="ip-region", ip="31.0.4.20", seed="same")["data"]["result"]
    again = api.get(GENERATE, mode="ip-region", ip="31.0.4.20", seed="same")["data"]["result"]
    assert first == again
    found = api.get(GENERATE, mode="ip-region", ip="31.0.4.20", q="szewska", seed="q")["data"]["result"]
    assert "szewska" in found["address"]["components"]["street"].lower()


def test_ip_region_uses_the_countrys_residential_default(api: Api) -> None:
    error = api.get(GENERATE, 404, mode="ip-region", ip="2a03:2000::1")["error"]  # CN: residential by default
    assert error["code"] == "NO_POOL_COVERAGE"
    data = api.get(GENERATE, mode="ip-region", ip="2a03:2000::1", residential="false")["data"]
    assert data["result"]["address"]["components"]["regionCode"] == "CN-BJ"


@pytest.mark.parametrize(
    ("ip", "named"),
    [
        ("145.100.1.1", "Zeeland"),  # NL is synced, but has no address in this region
        ("81.2.69.160", "England"),  # GB is not synced
        ("37.252.1.1", "TW"),  # no region: the country is named
    ],
)
def test_ip_region_without_coverage_is_404_naming_the_region(api: Api, ip: str, named: str) -> None:
    error = api.get(GENERATE, 404, mode="ip-region", ip=ip)["error"]
    assert error["code"] == "NO_POOL_COVERAGE"
    assert named in error["message"]
    tried = next(d for d in error["details"] if d["field"] == "sourcesTried")
    assert tried["message"].startswith("ip:dbip-city-lite")


def test_ip_region_with_an_unplaceable_ip_is_404(api: Api) -> None:
    error = api.get(GENERATE, 404, mode="ip-region", ip="10.0.0.1")["error"]
    assert error["code"] == "NO_POOL_COVERAGE"


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"mode": "ip-region", "ip": "31.0.4.20", "country": "NL"}, "country"),
        ({"mode": "ip-region", "ip": "31.0.4.20", "region": "Śląskie"}, "mode"),
        ({"mode": "ip-region", "ip": "31.0.4.20", "cityId": "cit-x"}, "mode"),
        ({"mode": "ip-region", "ip": "not-an-ip"}, "ip"),
        ({"mode": "region"}, "mode"),
        ({"ip": "31.0.4.20"}, "ip"),
    ],
)
def test_ip_region_parameter_errors(api: Api, params: dict[str, object], field: str) -> None:
    error = api.get(GENERATE, 400, **params)["error"]
    assert field in {d["field"] for d in error["details"]}


def test_ip_region_with_the_ips_own_country_given_is_fine(api: Api) -> None:
    data = api.get(GENERATE, mode="ip-region", ip="31.0.4.20", country="pl")["data"]
    assert data["country"] == "PL"
