"""Withdrawing an address, or a building, through the admin API, over a real pool (San Francisco's
Sheridan St, whose buildings 52 and 75 hold five units each): from the next request no route
serves it, active or pinned, before or after a sync; draws stay uniform over the rest and seeds
reproducible; the withdrawal is listed and audit-logged, and the sync counts what it withheld."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chalicelib import deps
from tests.support.api import Api, api_over, served_addresses, synced_pool
from tests.support.factories import needs_sources
from tests.support.sync import sync, write_sample

pytestmark = needs_sources

SHERIDAN = {"us-san_francisco_ca-eas": re.compile(rb'"street":"SHERIDAN ST"')}
STATES = ("active", "pinned")


@pytest.fixture
def pool(tmp_path: Path) -> Iterator[deps.Dependencies]:
    with synced_pool(tmp_path, SHERIDAN) as wired:
        yield wired


@pytest.fixture
def admin(pool: deps.Dependencies) -> Iterator[Api]:
    with api_over(pool, scope="admin") as api:
        yield api


@pytest.fixture
def tester(pool: deps.Dependencies) -> Iterator[Api]:
    with api_over(pool, scope="generate") as api:
        yield api


def _building(pool: deps.Dependencies, number: str) -> list[str]:
    return sorted(a.id for a in served_addresses(pool, "US") if a.components.house_number == number)


def _served_ids(api: Api, snapshot: str | None = None) -> set[str]:
    """Everything a tester can be given, by every route: the export's pages, a unique batch of
    the whole pool, and 40 seeded single draws."""
    pinned = {"snapshot": snapshot} if snapshot else {}
    seen: set[str] = set()
    page: Any = 1
    while page:
        data = api.get("/api/v1/export", country="US", pageSize=100, page=page, seed="w", **pinned)["data"]
        seen |= {r["address"]["id"] for r in data["results"]}
        page = data["nextPage"]
    body = {"count": 50, "filters": {"country": "US"}, "options": {"seed": "w", "unique": True, **pinned}}
    seen |= {r["address"]["id"] for r in api.batch(body)["data"]["results"]}
    for n in range(40):
        drawn = api.get("/api/v1/generate", country="US", seed=f"s{n}", **pinned)
        seen.add(drawn["data"]["result"]["address"]["id"])
    return seen


def test_a_withdrawn_address_is_never_served_again_by_any_route(
    pool: deps.Dependencies, admin: Api, tester: Api
) -> None:
    everyone = {a.id for a in served_addresses(pool, "US")}
    assert len(everyone) <= 50  # a unique batch of 50 holds the whole pool
    snapshot = tester.get("/api/v1/generate", country="US", seed="x")["data"]["snapshotId"]
    target = _building(pool, "52")[0]
    made = admin.post(
        "/api/v1/admin/withdrawals", {"addressId": target, "reason": "Resident's request, ticket 4411"}, 201
    )["data"]
    assert (made["addressId"], made["scope"], made["country"]) == (target, "address", "US")
    gone = tester.get(f"/api/v1/addresses/{target}", 410)["error"]
    assert gone["code"] == "ADDRESS_WITHDRAWN"
    assert (
        tester.get(f"/api/v1/addresses/{target}", 410, snapshot=snapshot)["error"]["code"]
        == "ADDRESS_WITHDRAWN"
    )
    for pinned in (None, snapshot):
        assert _served_ids(tester, pinned) == everyone - {target}
    # Listed and audit-logged.
    assert [w["id"] for w in admin.get("/api/v1/admin/withdrawals")["data"]] == [made["id"]]
    audit = admin.get("/api/v1/admin/audit")["data"][0]
    assert (audit["action"], audit["target"], audit["details"]["addressId"]) == (
        "address.withdraw",
        made["id"],
        target,
    )


def test_a_building_withdrawn_takes_every_unit_and_a_sync_withholds_them(
    pool: deps.Dependencies, admin: Api, tester: Api, tmp_path: Path
) -> None:
    building = _building(pool, "75")
    assert len(building) == 5
    admin.post(
        "/api/v1/admin/withdrawals",
        {"addressId": building[2], "scope": "building", "reason": "Owner's request"},
        201,
    )
    for unit in building:
        assert tester.get(f"/api/v1/addresses/{unit}", 410)["error"]["code"] == "ADDRESS_WITHDRAWN"
    before = {a.id for a in served_addresses(pool, "US")}
    (tmp_path / "again").mkdir()
    report = sync(pool, write_sample(tmp_path / "again", SHERIDAN))
    assert report.sources["us-san_francisco_ca-eas"].dropped["withdrawn"] == 5
    after = {a.id for a in served_addresses(pool, "US")}
    assert after == before - set(building)  # the others keep their ids
    assert _served_ids(tester) == after


def test_a_building_is_withdrawn_after_one_of_its_flats_and_a_withdrawal_made_twice_is_one(
    pool: deps.Dependencies, admin: Api, tester: Api
) -> None:
    building = _building(pool, "52")
    flat = {"addressId": building[0], "reason": "first flat"}
    first = admin.post("/api/v1/admin/withdrawals", flat, 201)["data"]
    assert admin.post("/api/v1/admin/withdrawals", flat, 201)["data"]["id"] == first["id"]
    whole = {"addressId": building[0], "scope": "building", "reason": "the owner, for the building"}
    admin.post("/api/v1/admin/withdrawals", whole, 201)
    for unit in building:
        assert tester.get(f"/api/v1/addresses/{unit}", 410)["error"]["code"] == "ADDRESS_WITHDRAWN"
    assert len(admin.get("/api/v1/admin/withdrawals")["data"]) == 2


def test_a_seed_keeps_its_draw_unless_it_drew_the_withdrawn_one(
    pool: deps.Dependencies, admin: Api, tester: Api
) -> None:
    def drawn() -> list[str]:
        seeds = [tester.get("/api/v1/generate", country="US", seed=f"s{n}") for n in range(40)]
        return [d["data"]["result"]["address"]["id"] for d in seeds]

    first = drawn()
    target = max(set(first), key=first.count)  # an address some seeds drew
    admin.post("/api/v1/admin/withdrawals", {"addressId": target, "reason": "asked"}, 201)
    second = drawn()
    assert second == drawn()  # reproducible
    assert [b for a, b in zip(first, second, strict=True) if a != target] == [a for a in first if a != target]
    assert target not in second


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"addressId": "us-nosuchaddress00", "reason": "x"}, 404, "ADDRESS_NOT_FOUND"),
        ({"addressId": "us-x", "reason": ""}, 400, "INVALID_REQUEST"),
        ({"addressId": "us-x", "scope": "street", "reason": "x"}, 400, "INVALID_REQUEST"),
        ({"reason": "x"}, 400, "INVALID_REQUEST"),
    ],
)
def test_a_bad_withdrawal_is_refused_and_changes_nothing(
    admin: Api, body: dict[str, str], status: int, code: str
) -> None:
    assert admin.post("/api/v1/admin/withdrawals", body, status)["error"]["code"] == code
    assert admin.get("/api/v1/admin/withdrawals")["data"] == []


def test_a_withdrawal_made_in_error_is_undone_and_the_address_served_again(
    pool: deps.Dependencies, admin: Api, tester: Api
) -> None:
    target = _building(pool, "52")[1]
    made = admin.post("/api/v1/admin/withdrawals", {"addressId": target, "reason": "wrong flat"}, 201)["data"]
    assert tester.get(f"/api/v1/addresses/{target}", 410)["error"]["code"] == "ADDRESS_WITHDRAWN"
    undone = admin.client.http.delete(f"/api/v1/admin/withdrawals/{made['id']}", headers=admin.auth)
    assert undone.status_code == 200, undone.body
    assert tester.get(f"/api/v1/addresses/{target}")["data"]["address"]["id"] == target
    assert admin.get("/api/v1/admin/withdrawals")["data"] == []
    logged = admin.get("/api/v1/admin/audit")["data"]  # one still time (a fake clock): both at once
    assert {(e["action"], e["target"]) for e in logged[:2]} == {
        ("address.withdraw", made["id"]),
        ("address.reinstate", made["id"]),
    }
    again = admin.client.http.delete(f"/api/v1/admin/withdrawals/{made['id']}", headers=admin.auth)
    assert (again.status_code, json.loads(again.body)["error"]["code"]) == (404, "WITHDRAWAL_NOT_FOUND")


def test_only_an_administrator_withdraws(pool: deps.Dependencies, tester: Api) -> None:
    target = _building(pool, "52")[0]
    refused = tester.post("/api/v1/admin/withdrawals", {"addressId": target, "reason": "x"}, 403)
    assert refused["error"]["code"] == "FORBIDDEN"
    assert tester.get(f"/api/v1/addresses/{target}")["data"]["address"]["id"] == target
