"""The seeded export through the real app on moto, over real sources synced once for the module."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode

import pytest

from chalicelib import deps
from chalicelib.api.export_formats import CSV_COLUMNS
from tests.support.api import Api, synced_pool
from tests.support.factories import SOURCES
from tests.support.sync import MIXED_SOURCES

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path_factory.mktemp("export"), MIXED_SOURCES) as wired:
        yield wired


def _pages(api: Api, **params: object) -> list[dict[str, Any]]:
    pages, page = [], 1
    while True:
        data = api.get("/api/v1/export", 200, page=page, **params)["data"]
        pages.append(data)
        if data["nextPage"] is None:
            return pages
        page = data["nextPage"]


def _ids(pages: list[dict[str, Any]]) -> list[str]:
    return [r["address"]["id"] for data in pages for r in data["results"]]


def test_every_address_comes_once_across_the_pages(api: Api, pool: deps.Dependencies) -> None:
    pages = _pages(api, country="LI", seed="s1", pageSize=97)
    ids = _ids(pages)
    active = pool.stores.registry.active_snapshot("LI")
    assert active is not None
    assert len(ids) == len(set(ids)) == pages[0]["total"] == active.count
    assert [p["page"] for p in pages] == list(range(1, pages[0]["pages"] + 1))
    assert all(p["returnedCount"] == 97 for p in pages[:-1])
    assert {p["snapshotId"] for p in pages} == {active.snapshot_id}
    # past the last page: empty, not an error
    after = api.get("/api/v1/export", 200, country="LI", seed="s1", pageSize=97, page=len(pages) + 1)
    assert after["data"]["results"] == []
    assert after["data"]["nextPage"] is None


def test_a_seed_gives_the_same_sequence_and_another_seed_another(api: Api) -> None:
    first = _ids(_pages(api, country="LI", seed="same", pageSize=200))
    again = _ids(_pages(api, country="LI", seed="same", pageSize=200))
    other = _ids(_pages(api, country="LI", seed="other", pageSize=200))
    assert first == again
    assert sorted(first) == sorted(other)
    assert first != other


def test_any_page_is_served_alone_and_matches_the_walk(api: Api) -> None:
    walked = _pages(api, country="PL", seed="direct", pageSize=50, city="Gliwice")
    third = api.get("/api/v1/export", 200, country="PL", seed="direct", pageSize=50, city="Gliwice", page=3)
    assert third["data"]["results"] == walked[2]["results"]
    ids = _ids(walked)
    assert len(ids) == len(set(ids))
    assert all(r["address"]["components"]["city"] == "Gliwice" for p in walked for r in p["results"])


def test_without_a_seed_one_is_chosen_and_continues_the_export(api: Api) -> None:
    first = api.get("/api/v1/export", 200, country="LI", pageSize=100)["data"]
    assert first["seed"]
    rest = _pages(api, country="LI", seed=first["seed"], pageSize=100)
    assert rest[0]["results"] == first["results"]


def test_profiles_are_those_generate_gives_for_the_seed(api: Api) -> None:
    one = api.get("/api/v1/generate", 200, country="LI", seed="p")["data"]["result"]
    exported = {
        r["address"]["id"]: r["profile"]
        for r in _pages(api, country="LI", seed="p", pageSize=1000)[0]["results"]
    }
    assert exported[one["address"]["id"]] == one["profile"]


def test_q_exports_every_match_once(api: Api) -> None:
    street = api.get("/api/v1/generate", 200, country="PL", seed="q")["data"]["result"]["address"][
        "components"
    ]["street"]
    pages = _pages(api, country="PL", q=street, seed="q", pageSize=20)
    ids = _ids(pages)
    assert ids
    assert len(ids) == len(set(ids)) == pages[0]["total"]
    assert all(street in r["address"]["formattedAddress"] for p in pages for r in p["results"])
    # the order depends on what q means, not on how it is written
    assert _ids(_pages(api, country="PL", q=street.upper(), seed="q", pageSize=20)) == ids


def test_ndjson_and_csv_carry_the_same_page_with_a_link_to_the_next(api: Api) -> None:
    params = {"country": "LI", "seed": "fmt ü", "pageSize": 25, "page": 2}
    page = api.get("/api/v1/export", 200, **params)["data"]
    ndjson = _raw(api, format="ndjson", **params)
    assert ndjson.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in ndjson.body.decode().splitlines()]
    assert lines == page["results"]
    next_query = dict(parse_qsl(ndjson.headers["link"].split(">")[0].lstrip("<?")))
    assert next_query == {
        "country": "LI",
        "seed": "fmt ü",
        "snapshot": page["snapshotId"],  # the next page reads the same snapshot, whatever syncs run
        "page": "3",
        "pageSize": "25",
        "format": "ndjson",
    }
    assert unquote(ndjson.headers["x-export-seed"]) == "fmt ü"
    assert ndjson.headers["x-export-total"] == str(page["total"])

    table = _raw(api, format="csv", **params)
    assert table.headers["content-type"].startswith("text/csv")
    assert table.body.decode().endswith("\r\n")
    rows = list(csv.DictReader(io.StringIO(table.body.decode(), newline="")))
    assert list(rows[0]) == [name for name, _ in CSV_COLUMNS]
    assert [r["id"] for r in rows] == [r["address"]["id"] for r in page["results"]]
    assert [r["email"] for r in rows] == [r["profile"]["email"] for r in page["results"]]
    assert {r["complete"] for r in rows} <= {"true", "false"}


@pytest.mark.parametrize(
    "params",
    [
        {"seed": "x"},  # no country
        {"country": "LI", "pageSize": 0},
        {"country": "LI", "pageSize": 2001},
        {"country": "LI", "page": 0},
        {"country": "LI", "format": "xml"},
        {"country": "LI", "cursor": "x"},
    ],
)
def test_bad_parameters_are_400(api: Api, params: dict[str, object]) -> None:
    error = api.get("/api/v1/export", 400, **params)["error"]
    assert error["code"] == "INVALID_REQUEST"


def test_an_unknown_city_is_404(api: Api) -> None:
    error = api.get("/api/v1/export", 404, country="LI", city="Atlantis")["error"]
    assert error["code"] == "NO_POOL_COVERAGE"


@dataclass(frozen=True)
class _Raw:
    headers: dict[str, str]  # names in lower case, as HTTP compares them
    body: bytes


def _raw(api: Api, **params: object) -> _Raw:
    response = api.client.http.get("/api/v1/export?" + urlencode(params), headers=api.auth)
    assert response.status_code == 200, response.body
    return _Raw({k.lower(): v for k, v in response.headers.items()}, response.body)


# --- partition=i/n: disjoint parts for parallel workers ---------------------------------------


def _part(api: Api, partition: str, **params: object) -> set[str]:
    return set(_ids(_pages(api, country="LI", pageSize=500, partition=partition, **params)))


def test_the_parts_of_an_export_are_disjoint_and_together_every_address(api: Api) -> None:
    whole = set(_ids(_pages(api, country="LI", seed="p", pageSize=500)))
    parts = [
        set(_ids(_pages(api, country="LI", seed="p", pageSize=500, partition=f"{i}/3"))) for i in range(3)
    ]
    assert set().union(*parts) == whole
    assert sum(len(p) for p in parts) == len(whole)  # no address in two parts
    assert all(len(p) > len(whole) // 4 for p in parts)  # spread over the pool, not one corner


def test_a_q_s_matches_split_into_the_parts_too(api: Api) -> None:
    whole = set(_ids(_pages(api, country="LI", q="Vaduz", pageSize=500)))
    parts = [
        set(_ids(_pages(api, country="LI", q="Vaduz", pageSize=500, partition=f"{i}/2"))) for i in range(2)
    ]
    assert parts[0] | parts[1] == whole
    assert not parts[0] & parts[1]


def test_batches_of_two_workers_never_share_an_address_and_stay_in_their_part(api: Api) -> None:
    parts = [
        set(_ids(_pages(api, country="LI", seed="w", pageSize=500, partition=f"{i}/2"))) for i in range(2)
    ]
    for worker in range(2):
        for seed, extra in (("w", {}), ("other", {"q": "Vaduz"}), ("w", {"residential": True})):
            body = {"count": 50, "filters": {"country": "LI", "partition": f"{worker}/2", **extra}}
            drawn = api.batch({**body, "options": {"seed": seed}})["data"]["results"]
            ids = {r["address"]["id"] for r in drawn}
            assert ids
            assert ids <= parts[worker], (worker, extra)


def test_part_0_of_1_is_the_whole_pool_and_a_seed_reproduces_a_part(api: Api) -> None:
    plain = api.get("/api/v1/generate", 200, country="LI", seed="one")["data"]["result"]
    whole = api.get("/api/v1/generate", 200, country="LI", seed="one", partition="0/1")["data"]["result"]
    assert whole == plain
    first = api.get("/api/v1/generate", 200, country="PL", seed="r", partition="2/5")["data"]["result"]
    again = api.get("/api/v1/generate", 200, country="PL", seed="r", partition="2/5")["data"]["result"]
    assert first == again


@pytest.mark.parametrize("partition", ["3/3", "1/0", "0/1025", "a/b", "1", "-1/2", "0 /2"])
def test_a_partition_outside_0_to_n_is_refused_naming_it(api: Api, partition: str) -> None:
    answer = api.get("/api/v1/generate", 400, country="LI", partition=partition)
    assert [d["field"] for d in answer["error"]["details"]] == ["partition"]
    body = {"count": 1, "filters": {"country": "LI", "partition": partition}}
    answer = api.batch(body, 400)
    assert [d["field"] for d in answer["error"]["details"]] == ["filters.partition"]
