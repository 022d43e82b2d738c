"""Location search and hierarchy through the real app on moto, over real sources synced once."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from chalicelib import deps
from chalicelib.domain.locations import search_key
from tests.support.api import Api, api_over, synced_pool
from tests.support.factories import SOURCES
from tests.support.sync import MIXED_SOURCES

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

SYNCED = MIXED_SOURCES
SEARCH = "/api/v1/locations/search"
HIERARCHY = "/api/v1/locations/hierarchy"


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("catalog"), SYNCED) as wired:
        yield wired


@pytest.fixture
def api(pool: deps.Dependencies) -> Iterator[Api]:
    with api_over(pool, scope="read") as client:
        yield client


def search(api: Api, **params: object) -> dict[str, Any]:
    data: dict[str, Any] = api.get(SEARCH, **params)["data"]
    return data


def children(api: Api, **params: object) -> dict[str, Any]:
    data: dict[str, Any] = api.get(HIERARCHY, **params)["data"]
    return data


def every_page(api: Api, path: str, key: str, **params: object) -> list[dict[str, Any]]:
    """All items of a listing, page by page, checking that total stays the same on every page."""
    items: list[dict[str, Any]] = []
    cursor, total = None, None
    while True:
        data = api.get(path, **params, cursor=cursor)["data"]
        assert total in (None, data["total"])
        total = data["total"]
        items += data[key]
        cursor = data["nextCursor"]
        if cursor is None:
            assert len(items) == total
            return items
        assert len(data[key]) == params.get("limit", 100)


def value_of(items: list[dict[str, Any]], value: str) -> dict[str, Any]:
    (found,) = [i for i in items if i["value"] == value]
    return found


# --- search --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("country", "field", "key", "count"),
    [
        ("CN", "region", "regions", 29),
        ("CN", None, "cities", 109),  # field defaults to city
        ("CN", "district", "districts", 301),
        ("PL", "postcode", "postcodes", None),
    ],
)
def test_each_field_has_its_list_key(api: Api, country: str, field: str, key: str, count: int | None) -> None:
    data = search(api, country=country, field=field, limit=200)
    assert set(data) == {key, "total", "nextCursor"}
    assert count is None or data["total"] == count
    first = data[key][0]
    assert set(first) == {"id", "value", "availableCount"}
    assert first["availableCount"] > 0


def test_the_default_country_is_us(api: Api) -> None:
    error = api.get(SEARCH, 404)["error"]  # US is not synced in this module
    assert error["code"] == "NO_POOL_COVERAGE"
    assert "US" in error["message"]


def test_region_counts_add_up_to_the_country(api: Api, pool: deps.Dependencies) -> None:
    regions = search(api, country="CN", field="region", limit=200)["regions"]
    cn = pool.stores.registry.active_snapshot("CN")
    assert cn is not None
    assert sum(r["availableCount"] for r in regions) == cn.count


def test_paging_returns_every_item_once_in_a_stable_order(api: Api) -> None:
    whole = search(api, country="CN", field="district", limit=200)
    paged = every_page(api, SEARCH, "districts", country="CN", field="district", limit=20)  # 16 pages
    ids = [d["id"] for d in paged]
    assert len(ids) == len(set(ids)) == 301
    assert paged[:200] == whole["districts"]
    assert every_page(api, SEARCH, "districts", country="CN", field="district", limit=20) == paged
    keys = [search_key(d["value"]) for d in paged]
    assert keys == sorted(keys)


@pytest.mark.parametrize(
    ("country", "field", "q", "expected"),
    [
        ("PL", "city", "wroc", "Wrocław"),  # prefix, case-insensitive
        ("PL", "city", "WROCŁAW", "Wrocław"),
        ("PL", "city", "wroclaw", "Wrocław"),  # accent-insensitive
        ("PL", "city", "ocła", "Wrocław"),  # inside the name
        ("NL", "postcode", "\uff11\uff16\uff11\uff14", "1614 LN"),  # full-width digits
        ("NL", "postcode", "1614ln", "1614 LN"),  # postcodes ignore spaces
        ("CN", "region", "上海", "上海市"),
    ],
)
def test_q_matches_case_accent_and_width_insensitively(
    api: Api, country: str, field: str, q: str, expected: str
) -> None:
    key = {"city": "cities", "postcode": "postcodes", "region": "regions"}[field]
    data = search(api, country=country, field=field, q=q)
    assert [i["value"] for i in data[key]][:1] == [expected]
    assert data["total"] == len(data[key])


def test_prefix_matches_come_first_then_matches_inside(api: Api) -> None:
    data = search(api, country="CN", field="city", q="州", limit=200)
    values = [c["value"] for c in data["cities"]]
    assert all("州" in v for v in values)
    assert data["total"] == len(values) > 5
    prefix = [v for v in values if v.startswith("州")]
    assert values[: len(prefix)] == prefix
    everything = [c["value"] for c in search(api, country="CN", field="city", limit=200)["cities"]]
    assert set(values) == {v for v in everything if "州" in v}


def test_q_without_matches_is_an_empty_page(api: Api) -> None:
    assert search(api, country="PL", q="atlantis") == {"cities": [], "total": 0, "nextCursor": None}


def test_parents_narrow_the_search_and_the_counts(api: Api) -> None:
    regions = search(api, country="PL", field="region")["regions"]
    lower_silesia = value_of(regions, "Dolnośląskie")
    by_value = search(api, country="PL", region="dolnośląskie")
    by_id = search(api, country="PL", regionId=lower_silesia["id"])
    both = search(api, country="PL", region="PL-02", regionId=lower_silesia["id"])
    assert by_value == by_id == both
    assert [c["value"] for c in by_id["cities"]] == ["Wrocław"]
    wroclaw = by_id["cities"][0]
    postcodes = every_page(api, SEARCH, "postcodes", country="PL", field="postcode", cityId=wroclaw["id"])
    assert 0 < sum(p["availableCount"] for p in postcodes) <= wroclaw["availableCount"]
    in_region = search(api, country="PL", field="postcode", regionId=lower_silesia["id"], limit=200)
    assert in_region["total"] == len(postcodes)


def test_a_city_outside_the_region_is_404(api: Api) -> None:
    regions = search(api, country="PL", field="region")["regions"]
    gliwice = value_of(search(api, country="PL")["cities"], "Gliwice")
    lower_silesia = value_of(regions, "Dolnośląskie")
    error = api.get(
        SEARCH, 404, country="PL", field="postcode", regionId=lower_silesia["id"], cityId=gliwice["id"]
    )
    assert error["error"]["code"] == "NO_POOL_COVERAGE"
    assert error["error"]["details"][0]["field"] == "cityId"


@pytest.mark.parametrize(
    ("params", "status", "field"),
    [
        ({"country": "PL", "regionId": "reg-unknown"}, 404, "regionId"),
        ({"country": "PL", "cityId": "cit-unknown", "field": "postcode"}, 404, "cityId"),
        ({"country": "PL", "region": "Atlantis"}, 404, "region"),
        ({"country": "ZZ"}, 404, "country"),
        ({"country": "PL", "field": "region", "region": "Śląskie"}, 400, "field"),
        ({"country": "PL", "field": "country"}, 400, "field"),
        ({"country": "POL"}, 400, "country"),
        ({"country": "PL", "limit": 19}, 400, "limit"),
        ({"country": "PL", "limit": 201}, 400, "limit"),
        ({"country": "PL", "limit": "many"}, 400, "limit"),
        ({"country": "PL", "residential": "maybe"}, 400, "residential"),
        ({"country": "PL", "q": "x" * 301}, 400, "q"),
        ({"country": "PL", "region": "x" * 301}, 400, "region"),
        ({"country": "PL", "regionId": "x" * 161}, 400, "regionId"),
        ({"country": "PL", "cityId": "x" * 161}, 400, "cityId"),
        ({"country": "PL", "cursor": "x" * 1025}, 400, "cursor"),
        ({"country": "PL", "page": 2}, 400, "page"),
    ],
)
def test_search_parameter_errors(api: Api, params: dict[str, object], status: int, field: str) -> None:
    error = api.get(SEARCH, status, **params)["error"]
    assert error["code"] == ("INVALID_REQUEST" if status == 400 else "NO_POOL_COVERAGE")
    assert field in {d["field"] for d in error["details"]}


@pytest.mark.parametrize("limit", [20, 200])
def test_page_size_limits_are_inclusive(api: Api, limit: int) -> None:
    data = search(api, country="CN", field="district", limit=limit)
    assert len(data["districts"]) == limit
    assert data["nextCursor"] is not None


def test_a_search_cities_field_inside_a_city_is_400(api: Api) -> None:
    wroclaw = value_of(search(api, country="PL")["cities"], "Wrocław")
    error = api.get(SEARCH, 400, country="PL", field="city", cityId=wroclaw["id"])["error"]
    assert "district, postcode" in error["message"]


def test_residential_counts_only_residential_records(api: Api, pool: deps.Dependencies) -> None:
    everything = search(api, country="LI", field="region")
    residential = search(api, country="LI", field="region", residential="true")
    li = pool.stores.registry.active_snapshot("LI")
    assert li is not None
    assert 0 < li.residential_count < li.count
    assert sum(r["availableCount"] for r in residential["regions"]) <= li.residential_count
    assert residential["total"] < everything["total"]  # regions without residential records drop out
    for region in residential["regions"]:
        assert (
            0 < region["availableCount"] <= value_of(everything["regions"], region["value"])["availableCount"]
        )
    assert search(api, country="CN", field="region", residential="true")["total"] == 0  # shops only


# --- counts agree with generation ---------------------------------------------------------------


def every_address(generator: Api, filters: dict[str, object]) -> set[str]:
    """Every address generation can return for these filters: unique batches, each excluding what
    the previous ones returned, until one comes back short (up to 550 addresses)."""
    seen: set[str] = set()
    while True:
        body = {"count": 50, "filters": filters, "excludeAddressIds": sorted(seen)}
        returned = {r["address"]["id"] for r in generator.batch(body)["data"]["results"]}
        assert not returned & seen
        seen |= returned
        if len(returned) < 50:
            return seen
        assert len(seen) <= 500


def test_counts_are_what_generation_can_return(api: Api, pool: deps.Dependencies) -> None:
    with api_over(pool, scope="generate") as generator:
        for residential in (False, True):
            regions = search(api, country="LI", field="region", residential=str(residential).lower())
            # Enumerable through excludeAddressIds (at most 500): every region but Vaduz and Schaan.
            enumerable = [r for r in regions["regions"] if r["availableCount"] <= 450]
            assert enumerable
            for region in enumerable:
                filters = {"country": "LI", "regionId": region["id"], "residential": residential}
                assert len(every_address(generator, filters)) == region["availableCount"], region


def test_postcode_counts_inside_a_city_are_what_generation_can_return(
    api: Api, pool: deps.Dependencies
) -> None:
    wroclaw = value_of(search(api, country="PL")["cities"], "Wrocław")
    postcodes = search(api, country="PL", field="postcode", cityId=wroclaw["id"], limit=20)["postcodes"]
    with api_over(pool, scope="generate") as generator:
        for postcode in postcodes:
            filters = {"country": "PL", "cityId": wroclaw["id"], "postcodeId": postcode["id"]}
            assert len(every_address(generator, filters)) == postcode["availableCount"]


# --- cursors -------------------------------------------------------------------------------------


def _first_cursor(api: Api, **params: object) -> str:
    cursor = api.get(SEARCH, **params)["data"]["nextCursor"]
    assert isinstance(cursor, str)
    return cursor


def test_a_tampered_cursor_is_400(api: Api) -> None:
    params = {"country": "CN", "field": "district", "limit": 20}
    cursor = _first_cursor(api, **params)
    for position in range(0, len(cursor)):
        changed = cursor[:position] + ("A" if cursor[position] != "A" else "B") + cursor[position + 1 :]
        error = api.get(SEARCH, 400, **params, cursor=changed)["error"]
        assert error["code"] == "INVALID_REQUEST"
        assert error["details"][0]["field"] == "cursor"
    for garbage in ("x", "a.b", cursor + "A", cursor[:-1], "." + cursor):
        assert api.get(SEARCH, 400, **params, cursor=garbage)["error"]["code"] == "INVALID_REQUEST"


@pytest.mark.parametrize(
    "changed",
    [
        {"field": "city"},
        {"q": "区"},
        {"limit": 21},
        {"residential": "true"},
        {"country": "PL"},
    ],
)
def test_a_cursor_reused_with_other_parameters_is_400(api: Api, changed: dict[str, object]) -> None:
    params: dict[str, object] = {"country": "CN", "field": "district", "limit": 20}
    cursor = _first_cursor(api, **params)
    error = api.get(SEARCH, 400, **{**params, **changed}, cursor=cursor)["error"]
    assert "other parameters" in error["message"]


def test_a_search_cursor_is_not_a_hierarchy_cursor(api: Api) -> None:
    cursor = _first_cursor(api, country="CN", field="region", limit=20)
    params = {"country": "CN", "childType": "region", "limit": 20, "residential": "false"}
    assert api.get(HIERARCHY, 400, **params, cursor=cursor)["error"]["code"] == "INVALID_REQUEST"


# --- hierarchy -----------------------------------------------------------------------------------


def test_navigation_from_country_to_postcode(api: Api) -> None:
    top = children(api, country="PL", childType="region")
    assert top["parent"] == {"type": "country", "id": "PL"}
    assert top["childType"] == "region"
    region = value_of(top["children"], "Dolnośląskie")
    cities = children(api, country="PL", childType="city", parentType="region", parentId=region["id"])
    assert cities["parent"] == {"type": "region", "id": region["id"]}
    city = value_of(cities["children"], "Wrocław")
    assert city["availableCount"] == region["availableCount"]
    districts = children(api, country="PL", childType="district", parentType="city", parentId=city["id"])
    assert [d["value"] for d in districts["children"]] == ["Wrocław"]
    postcodes = every_page(
        api,
        HIERARCHY,
        "children",
        country="PL",
        childType="postcode",
        parentType="city",
        parentId=city["id"],
        limit=20,
    )
    searched = every_page(
        api, SEARCH, "postcodes", country="PL", field="postcode", cityId=city["id"], limit=20
    )
    assert postcodes == searched
    assert len(postcodes) > 0


def test_hierarchy_q_filters_children(api: Api) -> None:
    data = children(api, country="CN", childType="region", q="江", residential="false")
    assert data["total"] == len(data["children"]) >= 2
    assert all("江" in c["value"] for c in data["children"])


def test_hierarchy_residential_defaults_to_true_for_cn_only(api: Api) -> None:
    cn = children(api, country="CN", childType="region")
    assert (cn["total"], cn["children"]) == (0, [])  # the CN sample is shops: nothing residential
    assert children(api, country="CN", childType="region", residential="false")["total"] == 29
    li = children(api, country="LI", childType="region")
    assert li["total"] == search(api, country="LI", field="region")["total"]
    li_residential = children(api, country="LI", childType="region", residential="true")
    assert li_residential["total"] < li["total"]


@pytest.mark.parametrize(
    ("params", "status", "field"),
    [
        ({"country": "PL", "childType": "district"}, 400, "childType"),  # PL has regions
        ({"country": "PL", "childType": "city"}, 400, "childType"),
        ({"country": "PL", "childType": "postcode"}, 400, "childType"),
        ({"country": "PL", "childType": "city", "parentType": "region"}, 400, "parentId"),
        ({"country": "PL", "childType": "region", "parentId": "reg-x"}, 400, "parentId"),
        (
            {"country": "PL", "childType": "city", "parentType": "region", "parentId": "reg-x"},
            404,
            "parentId",
        ),
        ({"country": "PL", "childType": "region", "parentType": "district"}, 400, "parentType"),
        ({"country": "PL", "childType": "county"}, 400, "childType"),
        ({"country": "PL"}, 400, "childType"),
        ({"childType": "region"}, 400, "country"),
        ({"country": "ZZ", "childType": "region"}, 404, "country"),
        ({"country": "PL", "childType": "region", "limit": 19}, 400, "limit"),
        ({"country": "PL", "childType": "region", "limit": 201}, 400, "limit"),
        ({"country": "PL", "childType": "region", "q": "x" * 301}, 400, "q"),
        ({"country": "PL", "childType": "region", "parentId": "x" * 161}, 400, "parentId"),
    ],
)
def test_hierarchy_errors(api: Api, params: dict[str, object], status: int, field: str) -> None:
    error = api.get(HIERARCHY, status, **params)["error"]
    assert error["code"] == ("INVALID_REQUEST" if status == 400 else "NO_POOL_COVERAGE")
    assert field in {d["field"] for d in error["details"]}


def test_hierarchy_children_types_must_be_below_the_parent(api: Api) -> None:
    region = value_of(children(api, country="PL", childType="region")["children"], "Śląskie")
    city = value_of(search(api, country="PL")["cities"], "Gliwice")
    for child_type, parent_type, parent_id in (
        ("region", "region", region["id"]),
        ("city", "city", city["id"]),
        ("region", "city", city["id"]),
    ):
        params = {"country": "PL", "childType": child_type, "parentType": parent_type, "parentId": parent_id}
        assert api.get(HIERARCHY, 400, **params)["error"]["details"][0]["field"] == "childType"
    # a city's id is not a region's
    params = {"country": "PL", "childType": "city", "parentType": "region", "parentId": city["id"]}
    assert api.get(HIERARCHY, 404, **params)["error"]["code"] == "NO_POOL_COVERAGE"


def test_a_country_parent_may_name_itself(api: Api) -> None:
    assert children(api, country="PL", childType="region", parentId="pl") == children(
        api, country="PL", childType="region"
    )


def test_catalog_reads_need_a_token(api: Api) -> None:
    response = api.client.http.get(f"{SEARCH}?country=PL")
    assert response.status_code == 401


def test_without_a_cursor_secret_listings_are_503_not_500(pool: deps.Dependencies) -> None:
    with api_over(replace(pool, cursors=None), scope="read") as unconfigured:
        error = unconfigured.get(SEARCH, 503, country="PL")["error"]
    assert error["code"] == "SERVICE_UNAVAILABLE"
    assert "CURSOR_SECRET" not in error["message"]
