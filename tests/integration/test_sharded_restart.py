"""The sharded sync under worker processes on DynamoDB Local: a worker killed mid-write leaves the
served snapshot untouched, and the run repeated resumes and publishes the identical snapshot."""

from __future__ import annotations

from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from chalicelib.services.sync.local_executor import LocalExecutor
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sync_wiring import LocalSteps
from infra.local.dynamodb_local import DynamoDBLocal
from tests.support.factories import SOURCES, wired_on
from tests.support.sync import DyingSteps, write_manifest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout"),
]
BEFORE = ["nl-countrywide-bag", "osm-andorra-ad"]
AFTER = [*BEFORE, "osm-andorra_2021-ad", "it-forte_dei_marmi-civici"]  # AD changes, IT arrives
SMALL_SHARDS = {"shard_rows": 50}  # many write tasks, so workers die with some shards written


def _run(steps: LocalSteps, manifest: Path) -> dict[str, str | None]:
    report = LocalExecutor(steps, workers=2, sizes=SMALL_SHARDS).run(SyncTarget(manifest, SOURCES))
    assert report.ok
    return {c: o.snapshot_id for c, o in report.countries.items() if o.snapshot_id}


def test_a_worker_killed_mid_write_leaves_the_served_pool_and_the_rerun_publishes_the_same_snapshot(
    dynamodb_local: DynamoDBLocal, tmp_path: Path, aws_env: None
) -> None:
    wired = wired_on(dynamodb_local.endpoint, "restart")
    work = tmp_path / "work"
    before = _run(LocalSteps.of(wired, work), write_manifest(tmp_path, BEFORE, "before.json"))
    served = wired.stores.registry.active_snapshot("AD")
    assert served is not None

    after = write_manifest(tmp_path, AFTER, "after.json")
    with pytest.raises(BrokenProcessPool):
        LocalExecutor(DyingSteps(work, wired.settings), workers=2, sizes=SMALL_SHARDS).run(
            SyncTarget(after, SOURCES)
        )
    assert wired.stores.registry.active_snapshot("AD") == served  # the pointer never moved
    assert wired.stores.registry.active_snapshot("IT") is None
    pool = wired.stores.pool
    assert len(pool.get_many_by_ordinal(served.placement, range(served.count))) == served.count
    assert any(work.glob("done/write/*.json")) or any(work.glob("done/plan/*.json"))  # it got that far

    resumed = _run(LocalSteps.of(wired, work), after)
    fresh = _run(LocalSteps.of(wired_on(dynamodb_local.endpoint, "restart"), tmp_path / "fresh-work"), after)
    assert resumed == fresh
    assert resumed["AD"] != before["AD"]
    assert resumed["NL"] == before["NL"]
