"""Overture's releases synced like any source: the replica's release 2026-10-21.0, then 2026-11-18.0
(three of its countries, the rows of each read in tasks of row-group runs). Every row is served
once (dedupe aside), each under its own dataset and licence; an address in both releases keeps its
id; a request pinned to the first snapshot still answers after the second sync."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from functools import partial
from pathlib import Path

import boto3
import pyarrow.parquet as pq
import pytest
from chalice.test import Client

from chalicelib import deps
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.errors import StorageUnavailable
from chalicelib.reference.licences import load_licence_policy
from chalicelib.services.sync.local_executor import LocalExecutor
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.overture_plan import Publication, manifest_entries, plan_tasks, row_group_facts
from chalicelib.storage.files.overture_bucket import PARTS, S3Releases
from chalicelib.storage.files.sync_work import LocalWorkStore
from chalicelib.sync_wiring import sync_pipeline
from tests.support.factories import SOURCES, bearer, issue_token, needs_sources
from tests.support.fakes import FakeClock
from tests.support.sync import sync, write_manifest

pytestmark = needs_sources

COUNTRIES = ("NO", "BE", "SG")
FIRST, SECOND = "2026-10-21.0", "2026-11-18.0"
CHANGELOG = SOURCES / "overture" / "changelog" / SECOND / "theme=addresses" / "type=address"


PUBLIC_READ = {
    "Version": "2012-10-17",
    "Statement": [
        {
            "Effect": "Allow",
            "Principal": "*",
            "Action": ["s3:GetObject", "s3:ListBucket"],
            "Resource": ["arn:aws:s3:::overture-replica", "arn:aws:s3:::overture-replica/*"],
        }
    ],
}


def _folder(release: str) -> str:
    return f"overture/release/{release}/theme=addresses/type=address"


def _manifest(directory: Path, release: str) -> Path:
    parts = {p.name: row_group_facts(p) for p in sorted((SOURCES / _folder(release)).glob("part-*.parquet"))}
    publication = Publication(
        release, _folder(release), "see the dataset's terms", "© Overture Maps Foundation"
    )
    entries = manifest_entries(publication, plan_tasks(parts, COUNTRIES, max_rows=4_000))
    path = directory / f"overture-{release}.json"
    path.write_text(json.dumps([e.model_dump(mode="json") for e in entries]), encoding="utf-8")
    return path


def _changed(kind: str, release: str) -> Counter[str]:
    """The changelog's rows of one kind per country: its ids looked up in the release holding them
    (the added in the new release, the removed in the old; the changelog itself has no country)."""
    ids = set(
        pq.read_table(next((CHANGELOG / f"change_type={kind}").glob("*.parquet")), columns=["id"])[
            "id"
        ].to_pylist()
    )
    countries: Counter[str] = Counter()
    for part in sorted((SOURCES / _folder(release)).glob("part-*.parquet")):
        rows = pq.read_table(part, columns=["id", "country"]).to_pydict()
        countries.update(c for i, c in zip(rows["id"], rows["country"], strict=True) if i in ids)
    return countries


def _address_items(wired: deps.Dependencies) -> int:
    """The pool's address items (by slot `O#` and by id `I#`; docs/architecture.md's key formats)."""
    pages = boto3.client("dynamodb", region_name="us-east-1").get_paginator("scan")
    keys = pages.paginate(TableName=wired.stores.pool.table_name, ProjectionExpression="pk")
    return sum(1 for page in keys for item in page["Items"] if item["pk"]["S"][:2] in ("O#", "I#"))


def _addresses(wired: deps.Dependencies, country: str) -> list[PublishedAddress]:
    snapshot = wired.stores.registry.active_snapshot(country)
    assert snapshot is not None
    # Every slot of every generation the snapshot spans (a removed address's slot is empty).
    addresses = wired.stores.pool.get_many_by_ordinal(snapshot.placement, range(snapshot.placement.slots))
    assert len(addresses) == snapshot.count
    return list(addresses.values())


def _served(wired: deps.Dependencies, country: str) -> dict[str, dict[str, object]]:
    return {
        a.id: {
            "source": a.provenance.source_id,
            "license": a.provenance.license,
            "attribution": a.provenance.attribution,
        }
        for a in _addresses(wired, country)
    }


def test_two_releases_are_served_each_row_once_and_unchanged_addresses_keep_their_ids(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    first: SyncReport = sync(dependencies, _manifest(tmp_path, FIRST))
    assert {c: first.countries[c].status for c in COUNTRIES} == dict.fromkeys(COUNTRIES, "published")
    families = {f"overture-{c}": first.sources[f"overture-{c}"] for c in COUNTRIES}
    assert {f: t.read for f, t in families.items()} == {
        "overture-NO": 19,
        "overture-BE": 658,
        "overture-SG": 660,
    }
    before = {c: _served(dependencies, c) for c in COUNTRIES}
    for country in COUNTRIES:
        tally = families[f"overture-{country}"]
        assert len(before[country]) == tally.kept == first.countries[country].addresses
    no = before["NO"]
    assert {v["source"] for v in no.values()} == {"overture-NO:OpenAddresses/no-countrywide-kartverket"}
    assert {v["license"] for v in no.values()} == {"CC-BY-4.0"}  # the row's own SPDX licence
    # CC-BY: the dataset credited, before the aggregator
    # The publisher as Overture's attribution page credits it (the dataset's name is in the id).
    assert {v["attribution"] for v in no.values()} == {"Kartverket; © Overture Maps Foundation"}
    assert {v["license"] for v in before["SG"].values()} == {"see the dataset's terms"}  # none given

    auth = bearer(issue_token(dependencies.stores.tokens, clock))
    pinned = json.loads(client.http.get("/api/v1/generate?country=BE&seed=7", headers=auth).body)["data"]
    snapshot = pinned["snapshotId"]

    items_before = _address_items(dependencies)
    second = sync(dependencies, _manifest(tmp_path, SECOND))
    after = {c: _served(dependencies, c) for c in COUNTRIES}
    kept = sum(len(before[c].keys() & after[c].keys()) for c in COUNTRIES)
    gone = sum(len(before[c].keys() - after[c].keys()) for c in COUNTRIES)
    new = sum(len(after[c].keys() - before[c].keys()) for c in COUNTRIES)
    assert (gone, new) == (15, 15)  # the changelog's 1 + 7 + 7 removed and added rows of NO, BE, SG
    assert kept == sum(len(before[c]) for c in COUNTRIES) - 15
    added, removed = _changed("added", SECOND), _changed("removed", FIRST)
    assert added.total() == removed.total() == 1_001  # all ten countries'
    assert {c: (second.countries[c].added, second.countries[c].removed) for c in COUNTRIES} == {
        c: (added[c], removed[c]) for c in COUNTRIES
    }
    # Only the changes are written: two pool items per added address (a removed one is tagged in
    # the ledger, its items kept for the pinned first snapshot), none for the 1,322 kept ones.
    assert _address_items(dependencies) - items_before == 2 * sum(added[c] for c in COUNTRIES) == 30
    assert {c: second.countries[c].status for c in COUNTRIES} == dict.fromkeys(COUNTRIES, "published")

    again = client.http.get(f"/api/v1/generate?country=BE&seed=7&snapshot={snapshot}", headers=auth)
    assert again.status_code == 200, again.body
    assert json.loads(again.body)["data"]["result"]["address"] == pinned["result"]["address"]


def test_parts_in_a_bucket_are_read_in_place_and_a_release_gone_from_it_breaks_no_pinned_request(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    """Read by ranges as production reads Overture's bucket. Then the release leaves the bucket
    (Overture keeps two, about 60 days): a request pinned to its snapshot still answers (the pool
    holds the addresses, not the parts), and a sync of the old manifest fails before it touches
    anything, the served snapshot left as it was."""
    s3 = boto3.client("s3", region_name="us-west-2")
    s3.create_bucket(Bucket="overture-replica", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
    s3.put_bucket_policy(Bucket="overture-replica", Policy=json.dumps(PUBLIC_READ))  # as Overture's bucket
    for path in sorted((SOURCES / _folder(SECOND)).glob("part-*.parquet")):
        key = f"release/{SECOND}/{PARTS}/{path.name}"
        s3.upload_file(
            str(path), "overture-replica", key, ExtraArgs={"ACL": "public-read"}
        )  # moto's HEAD reads ACLs
    bucket = S3Releases("s3://overture-replica")
    footers = {}
    for part in bucket.parts(SECOND):
        with bucket.open_part(SECOND, part) as opened:
            footers[part] = row_group_facts(opened)
    publication = Publication(
        SECOND, bucket.location(SECOND), "see the dataset's terms", "© Overture Maps Foundation"
    )
    entries = manifest_entries(publication, plan_tasks(footers, ["NO", "SG"], max_rows=4_000))
    assert all(e.files[0].startswith("s3://overture-replica/release/") for e in entries)
    manifest = tmp_path / "remote.json"
    manifest.write_text(json.dumps([e.model_dump(mode="json") for e in entries]), encoding="utf-8")

    report = sync(dependencies, manifest)

    assert {c: report.countries[c].addresses for c in ("NO", "SG")} == {"NO": 19, "SG": 659}
    assert {c: report.countries[c].status for c in ("NO", "SG")} == dict.fromkeys(("NO", "SG"), "published")

    auth = bearer(issue_token(dependencies.stores.tokens, clock))
    pinned = json.loads(client.http.get("/api/v1/generate?country=SG&seed=3", headers=auth).body)["data"]
    for part in bucket.parts(SECOND):
        s3.delete_object(Bucket="overture-replica", Key=f"release/{SECOND}/{PARTS}/{part}")
    again = client.http.get(
        f"/api/v1/generate?country=SG&seed=3&snapshot={pinned['snapshotId']}", headers=auth
    )
    assert again.status_code == 200, again.body
    assert json.loads(again.body)["data"]["result"]["address"] == pinned["result"]["address"]
    active = dependencies.stores.registry.active_snapshot("SG")
    with pytest.raises(StorageUnavailable, match="cannot be read"):
        sync(dependencies, manifest)
    assert dependencies.stores.registry.active_snapshot("SG") == active


def test_each_row_is_held_to_the_licence_policy_by_its_own_licence(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    """A policy that serves only unlisted terms: NO's rows name CC-BY-4.0 themselves, and BE's
    UrbiS is CC-BY-4.0 on Overture's attribution page: both dropped and counted. SG's clinics
    are no dataset the page names, so their entry's terms (unlisted) apply."""
    policy = {"classes": {"attribution": ["CC-BY-4.0"]}, "accept": ["unlisted"]}
    config = replace(dependencies.pool_config, licences=load_licence_policy(json.dumps(policy)))

    report = sync(dependencies, _manifest(tmp_path, SECOND), config=config)

    assert report.countries["NO"].status == "empty"
    assert report.sources["overture-NO"].dropped == {"licence_not_accepted": 19}
    assert report.sources["overture-BE"].dropped == {"licence_not_accepted": 658}
    assert {c: report.countries[c].addresses for c in ("BE", "SG")} == {"BE": 0, "SG": 659}


def test_an_address_overture_and_its_own_publisher_both_serve_is_served_once(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    """NO's Overture rows are Kartverket's, which the manifest also reads from OpenAddresses:
    each address is served once, the other publication counted as its duplicate."""
    overture = json.loads(_manifest(tmp_path, SECOND).read_text(encoding="utf-8"))
    kartverket = json.loads(
        write_manifest(tmp_path, ["no-countrywide-kartverket"]).read_text(encoding="utf-8")
    )
    both = tmp_path / "both.json"
    both.write_text(json.dumps([e for e in overture if e["country"] == "NO"] + kartverket), encoding="utf-8")

    report = sync(dependencies, both)

    overture_no, kartverket_no = report.sources["overture-NO"], report.sources["no-countrywide-kartverket"]
    assert (overture_no.read, overture_no.kept) == (19, 19)  # the manifest reads Overture first
    assert (kartverket_no.read, kartverket_no.kept, kartverket_no.dropped) == (20, 1, {"duplicate": 19})
    served = _addresses(dependencies, "NO")
    texts = [(a.components.street, a.components.house_number, a.components.postcode) for a in served]
    assert len(texts) == len(set(texts)) == report.countries["NO"].addresses == 20


def test_a_container_map_task_holds_more_lines_before_it_writes_them_out(
    tmp_path: Path, dependencies: deps.Dependencies
) -> None:
    """Each flush writes a file per street cell, so a container task (Overture's) flushes at a
    larger buffer than a Lambda task: here 1,000 lines against 100, and BE's 658 Overture rows go
    out in one flush while Brussels' 665 OpenAddresses rows take seven."""
    overture = json.loads(_manifest(tmp_path, SECOND).read_text(encoding="utf-8"))
    brussels = json.loads(write_manifest(tmp_path, ["be-brussels-urbis-fr"]).read_text(encoding="utf-8"))
    both = tmp_path / "be.json"
    both.write_text(json.dumps([e for e in overture if e["country"] == "BE"] + brussels), encoding="utf-8")
    work = tmp_path / "work"
    pipeline = partial(sync_pipeline, dependencies, LocalWorkStore(work))
    sizes = {"map_buffer": 100, "container_map_buffer": 1_000}
    report = LocalExecutor(pipeline, sizes=sizes).run(SyncTarget(both, SOURCES))

    assert report.countries["BE"].status == "published"
    runners = {item["rank"]: item["runner"] for item in json.loads((work / "items" / "map.json").read_text())}
    flushes: dict[str, set[str]] = {"container": set(), "lambda": set()}
    for path in (work / "rows").rglob("*.jsonl"):
        rank, part = path.stem.split("-")
        flushes[runners[int(rank)]].add(part)
    assert (len(flushes["container"]), len(flushes["lambda"])) == (1, 7)
