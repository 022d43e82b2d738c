"""Pinned snapshots: a seed reproduces its addresses across syncs for the retention period, and
a pinned, seeded answer is cacheable (strong ETag, immutable, 304)."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from chalice.test import Client

from chalicelib import deps
from chalicelib.domain.digests import next_snapshot_id
from chalicelib.services.sync.report import SyncReport
from tests.functional.conftest import error_of
from tests.support.factories import SOURCES, bearer, issue_token
from tests.support.fakes import FakeClock
from tests.support.sync import sync, write_cut, write_manifest

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

GLIWICE, WROCLAW = "pl-gliwice-prg", "pl-wroclaw-prg"
DAY = 86_400


class Caller:
    def __init__(self, client: Client, wired: deps.Dependencies, clock: FakeClock) -> None:
        self.client = client
        self.auth = bearer(issue_token(wired.stores.tokens, clock, lifetime=timedelta(days=90)))

    def get(self, path: str, **headers: str) -> Any:
        return self.client.http.get(path, headers={**self.auth, **headers})

    def batch(self, body: dict[str, Any]) -> Any:
        headers = {**self.auth, "Content-Type": "application/json"}
        return self.client.http.post(
            "/api/v1/generate/batch", headers=headers, body=json.dumps(body).encode()
        )


def _resync(wired: deps.Dependencies, manifest: Path, clock: FakeClock) -> SyncReport:
    """A sync, then a fresh Lambda's wiring (a warm one sees the new pointer within its cache time)."""
    report = sync(wired, manifest)
    deps.use(deps.build(wired.settings, clock, wired.pool_config))
    return report


def _ids(response: Any) -> list[str]:
    assert response.status_code == 200, response.body
    return [r["address"]["id"] for r in json.loads(response.body)["data"]["results"]]


def _batch(caller: Caller, snapshot: str | None = None) -> Any:
    options: dict[str, Any] = {"seed": "pin", **({"snapshot": snapshot} if snapshot else {})}
    return caller.batch({"count": 20, "filters": {"country": "PL"}, "options": options})


def test_a_pinned_seed_draws_the_same_addresses_after_a_sync_changed_the_pool(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    caller = Caller(client, dependencies, clock)
    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    first = _batch(caller)
    pinned = json.loads(first.body)["data"]["snapshotId"]
    one = json.loads(caller.get(f"/api/v1/generate?country=PL&seed=pin&snapshot={pinned}").body)["data"]

    clock.advance(DAY)
    report = _resync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"), clock)
    assert report.countries["PL"].status == "published"
    current = dependencies.stores.registry.active_snapshot("PL")
    assert current is not None
    assert current.snapshot_id != pinned

    again = _batch(caller, pinned)
    assert _ids(again) == _ids(first)
    assert json.loads(again.body)["data"]["snapshotId"] == pinned
    unpinned = _batch(caller)
    assert json.loads(unpinned.body)["data"]["snapshotId"] == current.snapshot_id
    assert _ids(unpinned) != _ids(first)  # the data changed: the current snapshot draws anew
    one_again = caller.get(f"/api/v1/generate?country=PL&seed=pin&snapshot={pinned}")
    assert json.loads(one_again.body)["data"] == one

    # an address read by id in the pinned snapshot, and the export walks the pinned snapshot
    address = caller.get(f"/api/v1/addresses/{_ids(first)[0]}?snapshot={pinned}")
    assert json.loads(address.body)["data"]["snapshotId"] == pinned
    page = caller.get(f"/api/v1/export?country=PL&seed=s&pageSize=5&snapshot={pinned}")
    assert page.status_code == 200, page.body
    assert page.headers["X-Export-Snapshot"] == pinned
    assert f"snapshot={pinned}" in page.headers["Link"]


def test_a_pinned_snapshot_expires_after_the_retention_and_its_items_are_swept(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    caller = Caller(client, dependencies, clock)
    stores = dependencies.stores
    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    old = stores.registry.active_snapshot("PL")
    assert old is not None
    sync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"))

    clock.advance(29 * DAY)  # within the 30 days: still served, and a sync keeps its items
    assert _batch(caller, old.snapshot_id).status_code == 200
    report = sync(dependencies, write_manifest(tmp_path, [WROCLAW], "c.json"))
    assert report.countries["PL"].status == "published"
    assert stores.pool.count_items(old.placement.in_epoch) > 0

    clock.advance(DAY + 1)  # past the 30 days: refused at once, whatever the sweep has done
    expired = _batch(caller, old.snapshot_id)
    assert expired.status_code == 410
    error = error_of(expired)
    assert error["code"] == "SNAPSHOT_EXPIRED"
    assert old.snapshot_id in error["message"]

    # Wrocław alone fills under 75% of the epoch's slots: the next new content begins an epoch
    report = sync(dependencies, write_cut(tmp_path, WROCLAW, slice(10, None), "d"))
    assert report.countries["PL"].status == "published"
    assert report.countries["PL"].items_deleted > 0  # the expired snapshot's catalog
    record = stores.registry.snapshot_record("PL", old.snapshot_id)
    assert record is not None
    assert record.state == "expired"
    assert _batch(caller, old.snapshot_id).status_code == 410
    current = stores.registry.active_snapshot("PL")
    assert current is not None
    assert current.placement.epoch != old.placement.epoch
    # the old epoch stays while snapshots sharing it are kept (the one Wrocław alone published,
    # retired a moment ago), and goes with the last of them
    assert stores.pool.count_items(old.placement.in_epoch) > 0
    clock.advance(31 * DAY)
    report = sync(dependencies, write_cut(tmp_path, WROCLAW, slice(10, None), "d"))
    assert report.countries["PL"].status == "unchanged"
    assert stores.pool.count_items(old.placement.in_epoch) == 0
    assert stores.registry.list_epochs("PL").keys() == {current.placement.epoch}
    assert _batch(caller).status_code == 200


def test_an_unknown_or_malformed_snapshot_is_a_clear_error(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    caller = Caller(client, dependencies, clock)
    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    unknown = caller.get("/api/v1/generate?country=PL&snapshot=0123456789abcdef")
    assert unknown.status_code == 410
    assert "no snapshot 0123456789abcdef was published for PL" in error_of(unknown)["message"]
    malformed = caller.get("/api/v1/generate?country=PL&snapshot=latest")
    assert malformed.status_code == 400
    assert error_of(malformed)["details"][0]["field"] == "snapshot"
    active = dependencies.stores.registry.active_snapshot("PL")
    assert active is not None
    elsewhere = caller.get(f"/api/v1/generate?country=NL&snapshot={active.snapshot_id}")
    assert elsewhere.status_code == 410  # a snapshot is a country's: PL's is not NL's


def test_a_pinned_seeded_answer_is_cacheable_and_revalidates_to_304(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    caller = Caller(client, dependencies, clock)
    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    active = dependencies.stores.registry.active_snapshot("PL")
    assert active is not None
    path = f"/api/v1/generate?country=PL&seed=etag&snapshot={active.snapshot_id}"
    answer = caller.get(path)
    assert answer.status_code == 200
    tag = answer.headers["ETag"]
    assert tag.startswith('"')  # strong: not W/"…"
    assert answer.headers["Cache-Control"] == f"private, max-age={30 * DAY}, immutable"
    assert caller.get(path).headers["ETag"] == tag

    revalidated = caller.get(path, **{"If-None-Match": f'"other", {tag}'})
    assert revalidated.status_code == 304
    assert revalidated.body in (b"", "")
    assert revalidated.headers["ETag"] == tag
    assert caller.get(path, **{"If-None-Match": '"other"'}).status_code == 200

    for uncached in (  # not pinned, or not seeded: an answer that may change carries no ETag
        "/api/v1/generate?country=PL&seed=etag",
        f"/api/v1/generate?country=PL&snapshot={active.snapshot_id}",
    ):
        response = caller.get(uncached)
        assert response.status_code == 200
        assert "ETag" not in response.headers
        assert "Cache-Control" not in response.headers

    clock.advance(DAY)  # once replaced, max-age counts down to the snapshot's expiry
    _resync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"), clock)
    later = caller.get(path)
    assert later.headers["ETag"] == tag
    assert later.headers["Cache-Control"] == f"private, max-age={30 * DAY}, immutable"
    clock.advance(DAY)
    assert caller.get(path).headers["Cache-Control"] == f"private, max-age={29 * DAY}, immutable"


def test_a_content_back_after_its_snapshot_expired_takes_the_next_id_of_its_chain(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    """Its addresses would sit in other slots, so a pin on the expired id must not come back to
    life with other draws for the same seed: the content takes the next id, and keeps it."""
    caller = Caller(client, dependencies, clock)
    registry = dependencies.stores.registry
    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    old = registry.active_snapshot("PL")
    assert old is not None
    sync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"))
    clock.advance(31 * DAY)
    sync(dependencies, write_manifest(tmp_path, [WROCLAW], "c.json"))  # its sweep expires the first
    assert _batch(caller, old.snapshot_id).status_code == 410

    report = _resync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"), clock)
    assert report.countries["PL"].status == "published"
    back = registry.active_snapshot("PL")
    assert back is not None
    assert back.snapshot_id == next_snapshot_id(old.snapshot_id)
    assert _batch(caller, old.snapshot_id).status_code == 410
    assert _batch(caller, back.snapshot_id).status_code == 200
    report = sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    assert report.countries["PL"].status == "unchanged"  # the chain leads to it again
