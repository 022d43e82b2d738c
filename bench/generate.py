"""Generation latency beside the bare DynamoDB calls it cannot avoid, measured in one run.

Syncs shared/sources (or the countries named) into an in-memory DynamoDB Local, then through the
Chalice app in-process: p50/p99 of generate, batch(50), get-by-id, generate with free text `q`
(a served address's street, alone and with its city), with `license=share-alike` (in the largest
country that has such records), with `traits=` and `propertyType=` (its commonest), with `near`
(1 km of a served address), `bbox` (0.01 degrees around it) and `variant=missing-postcode`, each
beside the p50 of one bare GetItem or one BatchGetItem of 50 with boto3 on the same engine, as
ratios; and the DynamoDB requests each API request makes (warm caches), counted with a botocore
event hook. All are timed taking turns, so the engine's drift during the run weighs on each alike.
The storage wire's own GetItem is printed too: how much of the difference is the client rather
than the request path.

    .venv/bin/python -m bench.generate [CC ...]
"""

from __future__ import annotations

import itertools
import json
import platform
import sys
from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import urlencode

from chalice.test import Client

from app import app
from bench.harness import (
    RequestCounter,
    Timing,
    bare_client,
    bench_auth,
    bench_dependencies,
    local_engine,
    measure_interleaved,
    sync_samples,
)
from chalicelib import deps
from chalicelib.config import Settings
from chalicelib.storage.dynamodb._wire import DynamoWire

RUNS = 200


def main(countries: list[str], runs: int = RUNS) -> list[str]:
    with RequestCounter() as counter, local_engine() as engine:
        wired = bench_dependencies(engine, snapshot_cache_seconds=300)
        sync_samples(wired, countries)
        deps.use(wired)
        country = max(wired.stores.registry.active_snapshots().values(), key=lambda s: s.count)
        auth = bench_auth(wired, "generate")
        client = Client(app)
        seeds = itertools.count()
        served = [
            _body(client.http.get(f"/api/v1/generate?country={country.country}&seed=q{n}", headers=auth))
            for n in range(20)
        ]
        address_id = served[0]["data"]["result"]["address"]["id"]
        components = next(  # a served address with a street and a city, for the q rows
            c
            for c in (s["data"]["result"]["address"]["components"] for s in served)
            if c["street"] and c["city"]
        )
        point = served[0]["data"]["result"]["address"]["coordinates"]
        lat, lon = point["latitude"], point["longitude"]
        near = urlencode({"country": country.country, "near": f"{lat},{lon}", "radius": 1000})
        bbox = urlencode(
            {
                "country": country.country,
                "bbox": f"{lon - 0.01:.6f},{lat - 0.01:.6f},{lon + 0.01:.6f},{lat + 0.01:.6f}",
            }
        )
        q_alone = urlencode({"country": country.country, "q": components["street"]})
        q_region = urlencode(
            {"country": country.country, "q": components["street"], "city": components["city"]}
        )
        licensed = _licensed(client, auth, wired)  # the largest pool with share-alike records
        trait = _commonest(client, auth, country.country, "traitCounts")
        kind = _commonest(client, auth, country.country, "propertyTypeCounts")
        batch = json.dumps({"count": 50, "filters": {"country": country.country}}).encode()
        api: dict[str, Callable[[], object]] = {
            "generate": lambda: client.http.get(
                f"/api/v1/generate?country={country.country}&seed={next(seeds)}", headers=auth
            ),
            "batch(50)": lambda: client.http.post("/api/v1/generate/batch", headers=auth, body=batch),
            "get by id": lambda: client.http.get(f"/api/v1/addresses/{address_id}", headers=auth),
            "q alone": lambda: client.http.get(
                f"/api/v1/generate?{q_alone}&seed={next(seeds)}", headers=auth
            ),
            "q + city": lambda: client.http.get(
                f"/api/v1/generate?{q_region}&seed={next(seeds)}", headers=auth
            ),
            "license": lambda: client.http.get(
                f"/api/v1/generate?country={licensed}&license=share-alike&seed={next(seeds)}", headers=auth
            ),
            "traits": lambda: client.http.get(
                f"/api/v1/generate?country={country.country}&traits={trait}&seed={next(seeds)}",
                headers=auth,
            ),
            "near": lambda: client.http.get(f"/api/v1/generate?{near}&seed={next(seeds)}", headers=auth),
            "variant": lambda: client.http.get(
                f"/api/v1/generate?country={country.country}&variant=missing-postcode&seed={next(seeds)}",
                headers=auth,
            ),
            "bbox": lambda: client.http.get(f"/api/v1/generate?{bbox}&seed={next(seeds)}", headers=auth),
            "propertyType": lambda: client.http.get(
                f"/api/v1/generate?country={country.country}&propertyType={kind}&seed={next(seeds)}",
                headers=auth,
            ),
        }
        requests = {}
        for name, action in api.items():
            counter.reset()
            response: Any = action()
            assert response.status_code == 200, (name, response.body)
            requests[name] = counter.counts()
        bare = _bare(engine.endpoint, wired.settings, partial(wired.stores.pool.slot_key, country.placement))
        timings = measure_interleaved({**api, **bare}, runs)
    deps.use(None)
    lines = _report(country.country, country.count, timings, requests, runs)
    said = (
        f"license: license=share-alike in {licensed}'s pool; traits: traits={trait}, its commonest; "
        f"propertyType: propertyType={kind}, its commonest; near: 1 km of a served address; bbox: "
        "0.01 degrees around it; variant: missing-postcode (a base drawn like a mark's filter)"
    )
    return [*lines[:-1], said, lines[-1]]


def _licensed(client: Client, auth: dict[str, str], wired: deps.Dependencies) -> str:
    """The largest country some of whose records are share-alike (its OSM extract's, ODbL)."""
    for snapshot in sorted(wired.stores.registry.active_snapshots().values(), key=lambda s: -s.count):
        query = f"/api/v1/generate?country={snapshot.country}&license=share-alike"
        if client.http.get(query, headers=auth).status_code == 200:
            return snapshot.country
    raise RuntimeError("no country has share-alike records")


def _commonest(client: Client, auth: dict[str, str], country: str, counted: str) -> str:
    """The trait (or property type) most of the country's addresses have, by /countries."""
    entries = _body(client.http.get("/api/v1/countries", headers=auth))["data"]
    counts: dict[str, int] = next(e for e in entries if e["code"] == country)[counted]
    return max(counts, key=lambda t: counts[t])


def _bare(
    endpoint: str, settings: Settings, key: Callable[[int], dict[str, Any]]
) -> dict[str, Callable[[], object]]:
    """The pool's own items by slot (`key`), read bare."""
    client, table = bare_client(endpoint), settings.pool_table
    wire = DynamoWire(settings.table(table))
    ordinals = itertools.count()
    return {
        "GetItem": lambda: client.get_item(TableName=table, Key=key(next(ordinals) % 50)),
        "BatchGetItem(50)": lambda: client.batch_get_item(
            RequestItems={table: {"Keys": [key(i) for i in range(50)]}}
        ),
        "wire GetItem": lambda: wire.call("GetItem", {"TableName": table, "Key": key(next(ordinals) % 50)}),
    }


def _body(response: Any) -> Any:
    return json.loads(response.body)


def _report(
    country: str, size: int, timings: dict[str, Timing], requests: dict[str, dict[str, int]], runs: int
) -> list[str]:
    floor = {
        "generate": "GetItem",
        "batch(50)": "BatchGetItem(50)",
        "get by id": "GetItem",
        "q alone": "GetItem",
        "q + city": "GetItem",
        "license": "GetItem",
        "traits": "GetItem",
        "propertyType": "GetItem",
        "near": "GetItem",
        "bbox": "GetItem",
        "variant": "GetItem",
    }
    wire = timings["wire GetItem"]
    lines = [
        f"generation, {runs} runs each taking turns, {country} pool of {size} addresses, DynamoDB Local "
        f"in memory, {platform.machine()} CPython {platform.python_version()}; bare calls with boto3",
        f"{'request':12} {'p50 ms':>8} {'p99 ms':>8} {'bare call':>17} {'bare p50':>9} {'ratio':>6}"
        "  DynamoDB requests",
    ]
    for name, t in timings.items():
        if name not in floor:
            continue
        b = timings[floor[name]]
        ratio = t.p50 / b.p50
        lines.append(
            f"{name:12} {t.p50:8.2f} {t.p99:8.2f} {b.name:>17} {b.p50:9.2f} {ratio:6.2f}  {requests[name]}"
        )
    lines.append(
        f"the storage wire's own GetItem: p50 {wire.p50:.2f} ms, "
        f"{wire.p50 / timings['GetItem'].p50:.2f}x boto3's"
    )
    return lines


if __name__ == "__main__":
    print("\n".join(main([c.upper() for c in sys.argv[1:]])))
