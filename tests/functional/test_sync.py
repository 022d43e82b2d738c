"""The sync end to end on moto, with small real sources."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from chalice.test import Client

from chalicelib import deps
from chalicelib.domain.digests import next_snapshot_id
from chalicelib.reference.pool_config import load_pool_config
from chalicelib.services.reports import SyncState, data_health
from chalicelib.services.serving import ActiveSnapshots
from chalicelib.services.sync.local_executor import LocalExecutor
from chalicelib.services.sync.report import SilentProgress
from chalicelib.services.sync.target import SyncTarget
from chalicelib.storage.files.sync_work import LocalWorkStore
from chalicelib.sync_wiring import sync_pipeline
from tests.support.factories import SOURCES, bearer, issue_token
from tests.support.fakes import FakeClock
from tests.support.sync import CrashWhileWriting, sync, write_manifest, write_sample

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

SMALL = ["nl-countrywide-bag", "is-countrywide-stadfangaskra", "it-forte_dei_marmi-civici", "osm-andorra-ad"]
GLIWICE, WROCLAW = "pl-gliwice-prg", "pl-wroclaw-prg"


def _get(client: Client, wired: deps.Dependencies, clock: FakeClock, path: str) -> Any:
    """The `data` of a successful read request."""
    issued = issue_token(wired.stores.tokens, clock, scope="read")
    response = client.http.get(path, headers=bearer(issued))
    assert response.status_code == 200, response.body
    return json.loads(response.body)["data"]


def test_sync_publishes_and_the_reports_agree(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    report = sync(dependencies, write_manifest(tmp_path, SMALL))
    counts = {code: o.addresses for code, o in report.countries.items() if o.status == "published"}
    assert counts == {"NL": 8, "IS": 15, "IT": 19, "AD": 3}
    registry = dependencies.stores.registry
    assert [len(registry.list_epochs(code)) for code in counts] == [1, 1, 1, 1]
    assert registry.list_epochs("US") == {}  # enabled, but no rows: no epoch begun
    for tally in report.sources.values():
        assert tally.read == tally.kept + sum(tally.dropped.values())

    countries = _get(client, dependencies, clock, "/api/v1/countries")
    assert {c["code"]: c["addressCount"] for c in countries} == counts
    assert all(c["generationMode"] == "synchronized-pool" for c in countries)
    availability = {
        a["code"]: a["available"] for a in _get(client, dependencies, clock, "/api/v1/availability")
    }
    assert availability["NL"]
    assert not availability["US"]
    coverage = _get(client, dependencies, clock, "/api/v1/coverage?country=IS")["countries"]
    assert coverage[0]["rules"]["total"] == {"current": 15, "target": 15, "met": True}
    health = _get(client, dependencies, clock, "/api/v1/data-health")
    assert not health["healthy"]  # most enabled countries have no pool in this test
    assert {c["code"]: c["count"] for c in health["countries"] if c["ready"]} == counts
    assert health["configurationErrors"] == []


def test_the_report_says_per_country_how_many_are_complete_and_what_the_rest_lack(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    report = sync(dependencies, write_manifest(tmp_path, SMALL))
    nl, it = report.countries["NL"], report.countries["IT"]
    assert (nl.complete, nl.incomplete) == (8, {})  # the BAG publishes every component
    assert it.complete == 0
    assert it.incomplete["postcode"] == 19  # the Tuscan register publishes no postcodes


def test_one_address_text_is_served_under_one_id(tmp_path: Path, dependencies: deps.Dependencies) -> None:
    # Krems: Hafenstraße 77 on two OSM objects 250 m apart (the second round merges them), and a
    # city filled from the postcode (the first round: same street, number and place)
    report = sync(dependencies, write_manifest(tmp_path, ["osm-krems-at"]))
    assert report.sources["osm-krems-at"].dropped["same_text_elsewhere"] == 1
    active = dependencies.stores.registry.active_snapshot("AT")
    assert active is not None
    pool = dependencies.stores.pool
    served = list(pool.get_many_by_ordinal(active.placement, range(active.count)).values())
    texts = [a.formatted for a in served]
    assert len(texts) == len(set(texts)) == active.count
    assert sum(a.components.city == "Krems an der Donau" and "city" in a.derived for a in served) > 0


def test_a_replaced_publication_takes_its_removed_fields_out_of_the_report(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    # One real PRG row twice: first without its district, then whole; both say postcode 00-000.
    with gzip.open(SOURCES / "openaddresses/pl/wroclaw-prg.geojson.gz", "rt", encoding="utf-8") as rows:
        whole = json.loads(next(rows))
    fewer = json.loads(json.dumps(whole))
    fewer["properties"] |= {"district": "", "id": "54335066-a"}
    data = tmp_path / "rows.geojson.gz"
    with gzip.open(data, "wt", encoding="utf-8") as out:
        out.write(json.dumps(fewer) + "\n" + json.dumps(whole) + "\n")
    entry = next(e for e in json.loads((SOURCES / "manifest.json").read_text("utf-8")) if e["id"] == WROCLAW)
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps([entry | {"files": [str(data)], "records": 2}]), encoding="utf-8")
    tally = sync(dependencies, manifest).sources[WROCLAW]
    assert (tally.kept, dict(tally.dropped)) == (1, {"merged_fewer_components": 1})
    assert dict(tally.removed_fields) == {"postcode_placeholder": 1}  # the kept row's, not both


class DataHealthWhileWriting(SilentProgress):
    """Reads /data-health the moment the sync starts writing one country."""

    def __init__(self, read: Callable[[], Any], country: str) -> None:
        self.read, self.country, self.seen = read, country, None

    def country_stage(self, country: str, stage: str) -> None:
        if country == self.country and stage.startswith("writing") and self.seen is None:
            self.seen = self.read()


def test_data_health_shows_where_each_country_stands_in_a_running_sync(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    def states() -> dict[str, str]:
        health = _get(client, dependencies, clock, "/api/v1/data-health")
        return {c["code"]: c["syncState"] for c in health["countries"]}

    watch = DataHealthWhileWriting(states, "IS")
    sync(dependencies, write_manifest(tmp_path, SMALL), progress=watch)
    during = watch.seen
    assert during is not None
    assert (during["AD"], during["IS"], during["NL"], during["AT"]) == (
        "published",
        "building",
        "waiting",
        "missing",
    )
    stores = dependencies.stores  # read past the API's 5-second pointer cache
    after = data_health(
        ActiveSnapshots(stores.registry, 0), dependencies.pool_config, stores.registry, clock.now()
    )
    assert (after.sync_states["IS"], after.sync_states["NL"], after.sync_states["AT"]) == (
        SyncState.PUBLISHED,
        SyncState.PUBLISHED,
        SyncState.MISSING,
    )


def test_rerun_publishes_identical_content_and_writes_nothing(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    manifest = write_manifest(tmp_path, SMALL)
    first = sync(dependencies, manifest)
    second = sync(dependencies, manifest)
    assert {c: o.status for c, o in second.countries.items() if o.addresses} == dict.fromkeys(
        ["AD", "IS", "IT", "NL"], "unchanged"
    )
    assert all(o.items_written == 0 for o in second.countries.values())
    assert {c: o.snapshot_id for c, o in first.countries.items()} == {
        c: o.snapshot_id for c, o in second.countries.items()
    }


def test_new_content_supersedes_keeps_ids_and_retires_the_old_snapshot(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    stores = dependencies.stores
    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    old = stores.registry.active_snapshot("PL")
    assert old is not None
    sample = stores.pool.get_by_ordinal(old.placement, 7)
    assert sample is not None

    report = sync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"))
    new = stores.registry.active_snapshot("PL")
    assert new is not None
    assert new.snapshot_id != old.snapshot_id
    assert new.count == 356 + 992 - 14  # Wrocław publishes 14 duplicate rows
    assert stores.pool.get_by_id(new.placement, sample.id) == sample  # same record, same id
    # the replaced snapshot is kept for requests pinned to it (test_pinned_snapshots: until when)
    assert report.countries["PL"].items_deleted == 0
    assert stores.pool.count_items(old.placement.in_epoch) > 0
    states = {r.snapshot_id: r.state for r in stores.registry.snapshot_records("PL")}
    assert states == {old.snapshot_id: "retired", new.snapshot_id: "published"}


def test_interrupted_sync_leaves_the_previous_snapshot_served(
    tmp_path: Path, dependencies: deps.Dependencies, clock: FakeClock
) -> None:
    stores = dependencies.stores
    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    before = stores.registry.active_snapshot("PL")
    assert before is not None
    with pytest.raises(KeyboardInterrupt):
        sync(
            dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"), progress=CrashWhileWriting()
        )
    assert stores.registry.active_snapshot("PL") == before
    assert stores.pool.get_by_ordinal(before.placement, 0) is not None

    (abandoned,) = [r.snapshot_id for r in stores.registry.snapshot_records("PL") if r.state == "writing"]

    # The next sync cannot tell a dead sync from a slow one: it takes the content's next id, so
    # the two never share a catalog
    clock.advance(60)
    report = sync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"))
    assert report.countries["PL"].status == "published"
    after = stores.registry.active_snapshot("PL")
    assert after is not None
    assert after.snapshot_id == next_snapshot_id(abandoned)
    states = {r.snapshot_id: r.state for r in stores.registry.snapshot_records("PL")}
    assert states == {before.snapshot_id: "retired", abandoned: "writing", after.snapshot_id: "published"}

    clock.advance(7 * 3600)  # stale now: the sweep forgets the abandoned write
    report = sync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"))
    assert report.countries["PL"].status == "unchanged"
    states = {r.snapshot_id: r.state for r in stores.registry.snapshot_records("PL")}
    assert states == {before.snapshot_id: "retired", after.snapshot_id: "published"}


def test_bad_configuration_is_reported_in_data_health(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    bad = load_pool_config(
        json.dumps(
            {
                "countries": {
                    "NL": {
                        "language": "nl",
                        "bounds": [[3.3, 50.7, 7.3, 53.6]],
                        "coverage": {
                            "total": 0,
                            "administrativeCoverage": 0.4,
                            "regionalMinimum": {"share": 0.5, "minAddresses": 1},
                        },
                    }
                }
            }
        ),
        json.dumps({"sources": {}}),
    )
    report = sync(dependencies, write_manifest(tmp_path, SMALL), config=bad)
    assert report.configuration_errors
    assert report.countries == {}  # NL was left out: nothing else is enabled
    health = _get(client, dependencies, clock, "/api/v1/data-health")
    assert not health["healthy"]
    assert {
        "country": "NL",
        "field": "coverage.total",
        "message": "Input should be greater than or equal to 1",
    } in health["configurationErrors"]


def test_a_run_resumed_after_its_new_epoch_was_swept_fails_its_country(
    tmp_path: Path, dependencies: deps.Dependencies, clock: FakeClock
) -> None:
    """A run away longer than a stale write finds the epoch it began deleted by another sync's
    sweep: it must fail the country, not publish a snapshot whose ledger is gone."""
    work = tmp_path / "work"
    executor = LocalExecutor(lambda: sync_pipeline(dependencies, LocalWorkStore(work)), workers=0)
    target = SyncTarget(manifest=write_manifest(tmp_path, [GLIWICE], "a.json"), root=SOURCES)
    with pytest.raises(KeyboardInterrupt):
        executor.run(target, progress=CrashWhileWriting())
    (away,) = dependencies.stores.registry.list_epochs("PL")
    clock.advance(7 * 3600)
    sync(dependencies, write_manifest(tmp_path, [WROCLAW], "b.json"))  # publishes PL and sweeps
    assert away not in dependencies.stores.registry.list_epochs("PL")

    resumed = executor.run(target)
    outcome = resumed.countries["PL"]
    assert outcome.status == "failed"
    assert outcome.error is not None
    assert "was swept while this sync was away" in outcome.error
    active = dependencies.stores.registry.active_snapshot("PL")
    assert active is not None
    assert active.placement.epoch != away


def test_a_run_resumed_after_its_claim_was_swept_fails_instead_of_publishing_without_a_catalog(
    tmp_path: Path, dependencies: deps.Dependencies, clock: FakeClock
) -> None:
    """Appending to an epoch a kept snapshot still uses, the run's epoch survives the sweep, but
    its catalog and claim do not: publishing then would serve a snapshot with no locations."""
    registry = dependencies.stores.registry
    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    work = tmp_path / "work"
    executor = LocalExecutor(lambda: sync_pipeline(dependencies, LocalWorkStore(work)), workers=0)
    target = SyncTarget(manifest=write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"), root=SOURCES)
    with pytest.raises(KeyboardInterrupt):
        executor.run(target, progress=CrashWhileWriting())
    (claimed,) = [r.snapshot_id for r in registry.snapshot_records("PL") if r.state == "writing"]
    clock.advance(7 * 3600)
    sync(dependencies, write_manifest(tmp_path, [WROCLAW], "c.json"))  # publishes PL and sweeps
    assert registry.snapshot_record("PL", claimed) is None

    resumed = executor.run(target)
    outcome = resumed.countries["PL"]
    assert outcome.status == "failed"
    assert outcome.error is not None
    assert "was swept while this sync was away" in outcome.error
    active = registry.active_snapshot("PL")
    assert active is not None
    assert active.snapshot_id != claimed


# Here, not beside generation's tests: their module's moto pool would still be there (nested
# mock_aws keeps its data), and this test's syncs would replace its PL snapshot.
def test_an_address_that_left_the_pool_is_not_found(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    both = {"pl-gliwice-prg": slice(0, 80), "pl-wroclaw-prg": slice(0, 80)}  # a few real lines of each
    sync(dependencies, write_sample(tmp_path, both, "both"))
    auth = bearer(issue_token(dependencies.stores.tokens, clock))
    body = json.loads(client.http.get("/api/v1/generate?country=PL&city=Wrocław", headers=auth).body)
    gone = body["data"]["result"]["address"]["id"]
    assert client.http.get(f"/api/v1/addresses/{gone}", headers=auth).status_code == 200
    sync(dependencies, write_sample(tmp_path, {"pl-gliwice-prg": slice(0, 80)}, "gliwice"))
    deps.use(deps.build(dependencies.settings, clock, dependencies.pool_config))  # past the pointer cache
    assert client.http.get(f"/api/v1/addresses/{gone}", headers=auth).status_code == 404
