"""`near` with `radius`, and `bbox`: only the addresses inside, every one of them reachable,
through the geohash cells the text index marks (domain/geo.py)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import pytest

from chalicelib import deps
from tests.support.api import Api, served_addresses, synced_pool
from tests.support.factories import SOURCES
from tests.support.ipdb import write_ip_database
from tests.support.sync import ALL, Cut

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

SYNCED: dict[str, Cut] = {"osm-andorra_2021-ad": ALL}
CENTRE = (42.5075, 1.5218)  # Plaça del Poble, Andorra la Vella


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[deps.Dependencies]:
    ip_database = write_ip_database(tmp_path_factory.mktemp("ip-database"))  # the examples' client-context
    with synced_pool(tmp_path_factory.mktemp("places"), SYNCED, ip_database=str(ip_database)) as wired:
        yield wired


def _metres(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Haversine on the mean-radius sphere, written here apart from the code under test."""
    a = (
        math.sin(math.radians(lat2 - lat1) / 2) ** 2
        + math.cos(math.radians(lat1))
        * math.cos(math.radians(lat2))
        * math.sin(math.radians(lon2 - lon1) / 2) ** 2
    )
    return 2 * 6_371_008.8 * math.asin(math.sqrt(a))


def _ids(results: list[dict[str, Any]]) -> set[str]:
    return {r["address"]["id"] for r in results}


@pytest.mark.parametrize("radius", [40, 300, 2_000, 50_000])
def test_near_draws_only_addresses_within_the_radius_and_reaches_every_one(
    api: Api, pool: deps.Dependencies, radius: int
) -> None:
    inside = {a.id for a in served_addresses(pool, "AD") if _metres(*CENTRE, a.lat, a.lon) <= radius}
    assert inside
    near = f"{CENTRE[0]},{CENTRE[1]}"
    exported = api.get("/api/v1/export", 200, country="AD", near=near, radius=radius, pageSize=1000)["data"]
    assert _ids(exported["results"]) == inside
    body = {
        "count": 20,
        "filters": {"country": "AD", "near": near, "radius": radius},
        "options": {"seed": "n"},
    }
    batch = [r["address"]["id"] for r in api.post("/api/v1/generate/batch", body)["data"]["results"]]
    assert len(batch) == len(set(batch)) == min(20, len(inside))
    assert set(batch) <= inside
    drawn = {
        api.get("/api/v1/generate", 200, country="AD", near=near, radius=radius, seed=str(n))["data"][
            "result"
        ]["address"]["id"]
        for n in range(15)
    }
    assert drawn <= inside


def test_a_box_draws_only_the_addresses_inside_it(api: Api, pool: deps.Dependencies) -> None:
    west, south, east, north = 1.515, 42.503, 1.530, 42.512
    inside = {a.id for a in served_addresses(pool, "AD") if south <= a.lat <= north and west <= a.lon <= east}
    assert inside
    bbox = f"{west},{south},{east},{north}"
    exported = api.get("/api/v1/export", 200, country="AD", bbox=bbox, pageSize=1000)["data"]
    assert _ids(exported["results"]) == inside
    shops = api.get("/api/v1/export", 200, country="AD", bbox=bbox, propertyType="commercial", pageSize=1000)
    assert _ids(shops["data"]["results"]) == {
        a.id for a in served_addresses(pool, "AD") if a.id in inside and a.property_type == "commercial"
    }
    words = api.get("/api/v1/export", 200, country="AD", bbox=bbox, q="Meritxell", pageSize=1000)
    assert _ids(words["data"]["results"]) == {
        a.id for a in served_addresses(pool, "AD") if a.id in inside and "Meritxell" in a.formatted
    }


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"near": "42.5,1.5"}, "radius"),
        ({"radius": "100"}, "radius"),
        ({"near": "42.5,1.5", "radius": "50001"}, "radius"),
        ({"near": "42.5,1.5", "radius": "0"}, "radius"),
        ({"near": "95,1.5", "radius": "100"}, "near"),
        ({"near": "42.5;1.5", "radius": "100"}, "near"),
        ({"near": "42.5,1.5", "radius": "100", "bbox": "1.5,42.5,1.6,42.6"}, "bbox"),
        ({"bbox": "1.5,42.5,3.0,42.6"}, "bbox"),  # 123 km wide
        ({"bbox": "1.6,42.5,1.5,42.6"}, "bbox"),  # west of east
        ({"bbox": "1.5,42.5,1.6"}, "bbox"),
        ({"near": "89.99,0", "radius": "50000"}, "near"),  # thousands of cells round the pole
        ({"bbox": "0,89.6,179.9,90"}, "bbox"),  # 140 km along its parallel
    ],
)
def test_an_invalid_place_is_a_400_naming_its_field(api: Api, query: dict[str, str], field: str) -> None:
    error = api.get("/api/v1/generate", 400, country="AD", **query)["error"]
    assert error["code"] == "INVALID_REQUEST"
    assert [d["field"] for d in error["details"]] == [field]


def test_a_place_without_addresses_is_a_404(api: Api) -> None:
    error = api.get("/api/v1/generate", 404, country="AD", near="42.45,1.70", radius=100)["error"]
    assert error["code"] == "NO_POOL_COVERAGE"
    assert "lies in 100 m of 42.45,1.7" in error["message"]


def test_the_snapshot_counts_traits_types_licences_and_lengths_but_not_cells(pool: deps.Dependencies) -> None:
    active = pool.stores.registry.active_snapshot("AD")
    assert active is not None
    assert active.marked  # what /countries reports
    assert {m.split(":")[0] for m in active.marked} == {"~trait", "~type", "~licence", "~spdx", "~len"}


def _example(param: dict[str, Any]) -> Any:
    return param["example"] if "example" in param else param["schema"].get("examples", [None])[0]


def test_each_operation_s_examples_sent_together_are_a_request_it_accepts(api: Api) -> None:
    """What schemathesis's examples phase sends, and a tester who fills in every example: one
    request holding every parameter's example (and the body's) is never refused as invalid."""
    from urllib.parse import urlencode

    document = json.loads(api.client.http.get("/api/v1/openapi.json").body)
    refused = {}
    for path, item in document["paths"].items():
        for method, op in item.items():
            params = op.get("parameters", [])
            filled = path
            for p in (p for p in params if p["in"] == "path"):
                filled = filled.replace("{" + p["name"] + "}", str(_example(p)))
            # A parameter whose example is in its description alone is not sent with the others.
            query = {p["name"]: v for p in params if p["in"] == "query" and (v := _example(p)) is not None}
            said = {k: str(v).lower() if isinstance(v, bool) else v for k, v in query.items()}
            url = filled + (f"?{urlencode(said)}" if said else "")
            if method == "get":
                response = api.client.http.get(url, headers=api.auth)
            else:
                body = op["requestBody"]["content"]["application/json"]["example"]
                headers = {**api.auth, "Content-Type": "application/json"}
                response = api.client.http.post(url, headers=headers, body=json.dumps(body).encode())
            if response.status_code == 400 or response.status_code >= 500:
                refused[f"{method.upper()} {path}"] = json.loads(response.body)["error"]
    assert refused == {}, json.dumps(refused, indent=1)
