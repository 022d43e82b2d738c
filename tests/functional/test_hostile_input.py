"""Nothing a client can send yields a 500: a seeded barrage of hostile parameters, ids and bodies."""

from __future__ import annotations

import json
import random
from pathlib import Path
from urllib.parse import quote

import pytest
from chalice.test import Client

from chalicelib import deps
from tests.support.factories import SOURCES, bearer, issue_token
from tests.support.fakes import FakeClock
from tests.support.sync import sync, write_manifest

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

HOSTILE = [
    "",
    " ",
    "0",
    "-1",
    "9" * 30,
    "true",
    "null",
    "ZZ",
    "us",
    "\u0000",
    "%00",
    "../..",
    "'; DROP TABLE",
    "é" * 400,
    "x" * 161,
    "x" * 301,
    "😀",
    "\ufeff",
    "1e309",
    "NaN",
    "[]",
    "{}",
    "ip-region",
    "instant",
    "reg-aaaaaaaaaaaaaaaa",
    "nl-aaaaaaaaaaaaaaaa",
    "Noord-Holland",
    "192.0.2.1",
    "::1",
]
PARAMETERS = [
    "country",
    "region",
    "regionId",
    "city",
    "cityId",
    "district",
    "districtId",
    "postcode",
    "postcodeId",
    "mode",
    "ip",
    "q",
    "strategy",
    "residential",
    "seed",
    "requestId",
    "field",
    "limit",
    "cursor",
    "childType",
    "parentType",
    "parentId",
    "includeComplete",
    "unknown",
]
ROUTES = [
    "/api/v1/generate",
    "/api/v1/countries",
    "/api/v1/availability",
    "/api/v1/coverage",
    "/api/v1/locations/search",
    "/api/v1/locations/hierarchy",
    "/api/v1/client-context",
    "/api/v1/data-health",
]
BODIES = [
    b"",
    b"null",
    b"[]",
    b"{}",
    b'{"count": 1e309}',
    b'{"count": true, "filters": {"country": "NL"}}',
    b'{"count": 1, "filters": {"country": "NL"}, "options": null}',
    b'{"count": 3, "filters": {"country": "NL", "q": "\\u0000"}}',
    b'{"count": 3, "filters": {"country": "NL"}, "excludeAddressIds": [null]}',
    b"\xff\xfe{",
    b'{"count": 50, "filters": {"country": "NL"}, "options": {"seed": "' + b"s" * 300 + b'"}}',
    b'{"addressId": "nl-x", "targetLocale": "en"}',
]


def test_no_request_is_answered_with_a_500(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    sync(dependencies, write_manifest(tmp_path, ["nl-countrywide-bag"]))
    auth = {
        **bearer(issue_token(dependencies.stores.tokens, clock, rate_per_minute=100_000)),
        "Content-Type": "application/json",
    }
    rng = random.Random(20261122)
    statuses = []
    for _ in range(300):
        query = "&".join(
            f"{rng.choice(PARAMETERS)}={quote(rng.choice(HOSTILE), safe='')}" for _ in range(rng.randrange(4))
        )
        statuses.append(client.http.get(f"{rng.choice(ROUTES)}?{query}", headers=auth).status_code)
    for value in HOSTILE:
        statuses.append(
            client.http.get(f"/api/v1/addresses/{quote(value or 'x', safe='')}", headers=auth).status_code
        )
    for body in BODIES:
        for path in ("/api/v1/generate/batch", "/api/v1/address-translation"):
            response = client.http.post(path, headers=auth, body=body)
            statuses.append(response.status_code)
            assert "Traceback" not in response.body.decode("utf-8", "replace")
            json.loads(response.body)  # always our JSON shape
    assert not {s for s in statuses if s >= 500}
    assert {200, 400, 404} <= set(statuses)
