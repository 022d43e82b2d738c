"""A pool written by the previous snapshot format (4: a whole copy per snapshot, keyed by its id)
keeps being served after the upgrade, is never appended to, and is swept whole at its expiry.

The format-4 tables are made from a fresh sync, rewritten item by item to the keys and documents
that release wrote (its pool keys are an epoch's first generation's, named by the snapshot id)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote

import boto3
import pytest
from chalice.test import Client

from chalicelib import deps
from tests.support.factories import SOURCES, bearer, issue_token
from tests.support.fakes import FakeClock
from tests.support.sync import sync, write_manifest

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

GLIWICE, WROCLAW = "pl-gliwice-prg", "pl-wroclaw-prg"
DAY = 86_400


def _items(table: str) -> list[dict[str, Any]]:
    pages = boto3.client("dynamodb").get_paginator("scan").paginate(TableName=table)
    return [item for page in pages for item in page["Items"]]


def _as_format_4(wired: deps.Dependencies, country: str) -> str:
    """Rewrite the country's one-generation snapshot as format 4 wrote it; its id."""
    db, settings = boto3.client("dynamodb"), wired.settings
    active = wired.stores.registry.active_snapshot(country)
    assert active is not None
    assert len(active.placement.segments) == 1
    snapshot, epoch = active.snapshot_id, active.placement.epoch
    for item in _items(settings.pool_table):
        kind, _, rest = item["pk"]["S"].partition("#")
        db.delete_item(TableName=settings.pool_table, Key={"pk": item["pk"], "sk": item["sk"]})
        if kind in ("O", "I", "Q"):  # ledger pages (G) were not in format 4
            item["pk"] = {"S": f"{kind}#{rest.replace(epoch, snapshot, 1)}"}
            item.pop("slot", None)
            db.put_item(TableName=settings.pool_table, Item=item)
    for item in _items(settings.catalog_table):
        doc = json.loads(item["doc"]["S"])
        if item["pk"]["S"] == f"EPOCHS#{country}":
            db.delete_item(TableName=settings.catalog_table, Key={"pk": item["pk"], "sk": item["sk"]})
            continue
        if item["sk"]["S"].startswith("LOC#"):
            doc["s"] = [_span_of_format_4(span) for span in doc["s"]]
        doc.pop("pl", None)
        if isinstance(doc.get("pointer"), dict):
            doc["pointer"].pop("pl", None)
            doc.pop("epoch", None)
        item["doc"] = {"S": json.dumps(doc)}
        db.put_item(TableName=settings.catalog_table, Item=item)
    return snapshot


def _span_of_format_4(span: list[Any]) -> list[Any]:
    """[start, end] per stratum and the ancestors, as format 4 stored a location's span."""
    bounds = [bound for ranges in span[:4] for bound in (ranges[:2] if ranges else [0, 0])]
    return [*bounds, *span[5:8]]


def test_a_format_4_pool_is_served_then_replaced_by_an_epoch_and_swept_at_its_expiry(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    auth = bearer(issue_token(dependencies.stores.tokens, clock, lifetime=timedelta(days=90)))

    def get(path: str) -> Any:
        response = client.http.get(path, headers=auth)
        assert response.status_code == 200, (path, response.body)
        return json.loads(response.body)["data"]

    sync(dependencies, write_manifest(tmp_path, [GLIWICE], "a.json"))
    drawn = get("/api/v1/generate?country=PL&seed=up")["result"]["address"]["components"]
    asked = [
        "/api/v1/generate?country=PL&seed=up",
        f"/api/v1/generate?country=PL&seed=up&city={quote(drawn['city'])}",
        f"/api/v1/generate?country=PL&seed=up&q={quote(drawn['street'])}",
        "/api/v1/export?country=PL&seed=up&pageSize=50",
    ]
    before = [get(path) for path in asked]
    snapshot = _as_format_4(dependencies, "PL")
    assert dependencies.stores.registry.list_epochs("PL") == {}
    deps.use(deps.build(dependencies.settings, clock, dependencies.pool_config))

    assert [get(path) for path in asked] == before  # the same addresses, read at format 4's keys
    refused = json.loads(client.http.get("/api/v1/generate?country=PL&traits=diacritics", headers=auth).body)
    assert refused["error"]["details"][0]["field"] == "traits"  # its index holds words alone
    address_id = before[0]["result"]["address"]["id"]
    assert get(f"/api/v1/addresses/{address_id}")["snapshotId"] == snapshot

    report = sync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"))
    assert report.countries["PL"].status == "published"
    assert report.countries["PL"].kept == 0  # never appended to: a new epoch holds everything
    active = dependencies.stores.registry.active_snapshot("PL")
    assert active is not None
    assert active.placement.epoch != snapshot
    assert get(f"/api/v1/addresses/{address_id}?snapshot={snapshot}")["snapshotId"] == snapshot

    clock.advance(31 * DAY)
    sync(dependencies, write_manifest(tmp_path, [GLIWICE, WROCLAW], "b.json"))
    assert not [i for i in _items(dependencies.settings.pool_table) if snapshot in i["pk"]["S"]]
    record = dependencies.stores.registry.snapshot_record("PL", snapshot)
    assert record is not None
    assert record.state == "expired"


def _without_marks(wired: deps.Dependencies, country: str, version: int | None = None) -> str:
    """Rewrite the country's pointers as they were before the text index held marks (or held
    only those of an earlier marks version); its id."""
    db, table = boto3.client("dynamodb"), wired.settings.catalog_table
    active = wired.stores.registry.active_snapshot(country)
    assert active is not None
    for item in _items(table):
        doc = json.loads(item["doc"]["S"])
        for pointer in (doc, doc.get("pointer")):
            if isinstance(pointer, dict) and "pl" in pointer:
                pointer["pl"] = pointer["pl"][:4] + ([version] if version is not None else [])
        item["doc"] = {"S": json.dumps(doc)}
        db.put_item(TableName=table, Item=item)
    return active.snapshot_id


def _getter(client: Client, auth: dict[str, str]) -> Callable[..., Any]:
    """A GET through the app that asserts its status and returns its JSON."""

    def get(path: str, status: int = 200) -> Any:
        response = client.http.get(path, headers=auth)
        assert response.status_code == status, (path, response.body)
        return json.loads(response.body)

    return get


def test_a_snapshot_before_licence_marks_refuses_the_filter_and_is_not_appended_to(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    get = _getter(client, bearer(issue_token(dependencies.stores.tokens, clock)))

    manifest = write_manifest(tmp_path, ["osm-liechtenstein-li"], "li.json")
    sync(dependencies, manifest)
    before = _without_marks(dependencies, "LI")
    deps.use(deps.build(dependencies.settings, clock, dependencies.pool_config))
    assert get("/api/v1/generate?country=LI&seed=m")["data"]["snapshotId"] == before  # served as it was
    refused = get("/api/v1/generate?country=LI&license=share-alike", 404)["error"]
    assert (refused["code"], refused["details"][0]["field"]) == ("NO_POOL_COVERAGE", "license")

    report = sync(dependencies, manifest)  # the same rows: not `unchanged`, since its index lacks marks
    assert (report.countries["LI"].status, report.countries["LI"].kept) == ("published", 0)  # a new epoch
    deps.use(deps.build(dependencies.settings, clock, dependencies.pool_config))  # the pointer read anew
    drawn = get("/api/v1/generate?country=LI&license=share-alike&seed=m")["data"]
    assert drawn["snapshotId"] != before
    assert drawn["result"]["address"]["source"]["license"] == "ODbL-1.0"
    refused = get(f"/api/v1/generate?country=LI&license=share-alike&snapshot={before}", 404)["error"]
    assert refused["details"][0]["field"] == "license"


def test_an_index_of_earlier_marks_answers_their_filters_and_refuses_only_the_later_ones(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    get = _getter(client, bearer(issue_token(dependencies.stores.tokens, clock)))

    sync(dependencies, write_manifest(tmp_path, ["osm-liechtenstein-li"], "li.json"))
    _without_marks(dependencies, "LI", version=2)  # licences and traits, as before #41's later filters
    deps.use(deps.build(dependencies.settings, clock, dependencies.pool_config))
    get("/api/v1/generate?country=LI&license=share-alike&traits=diacritics")
    for query, field in (("propertyType=commercial", "propertyType"), ("near=47.14,9.52&radius=900", "near")):
        refused = get(f"/api/v1/generate?country=LI&{query}", 404)["error"]
        assert [d["field"] for d in refused["details"]] == [field]
    refused = get("/api/v1/generate?country=LI&traits=diacritics,long-street", 404)["error"]
    assert [d["field"] for d in refused["details"]] == ["traits"]  # long-street needs the lengths
