"""Captures the OpenAPI documents' examples from a running stack (`make run`): one real request
and answer per public operation, over the sample pool, into chalicelib/api/data/examples.json.

    python -m tests.support.examples http://127.0.0.1:8000 <generate token>

Every example is what the service answered, so each address in them is a published one (the
full-sync tests check that the example address is still served). Rerun after a data release."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

OUT = Path(__file__).parents[2] / "chalicelib" / "api" / "data" / "examples.json"
ADDRESS = "ad-zad5fd2gkupgyxnt"  # Avinguda Meritxell 96, AD500 Andorra la Vella (OpenStreetMap)
IP = "81.2.69.142"  # in DB-IP's London range

# operationId → (method, path, query, body); the path's {id} is filled from ADDRESS.
CALLS: dict[str, tuple[str, str, dict[str, Any], Any]] = {
    "getHealth": ("GET", "/api/v1/health", {}, None),
    "getReady": ("GET", "/api/v1/ready", {}, None),
    "listCountries": ("GET", "/api/v1/countries", {}, None),
    "listAvailability": ("GET", "/api/v1/availability", {}, None),
    "getCoverage": ("GET", "/api/v1/coverage", {"country": "AD"}, None),
    "getDataHealth": ("GET", "/api/v1/data-health", {}, None),
    "getClientContext": ("GET", "/api/v1/client-context", {"ip": IP}, None),
    "searchLocations": (
        "GET",
        "/api/v1/locations/search",
        {"country": "US", "field": "city", "limit": 20},
        None,
    ),
    "listLocationChildren": (
        "GET",
        "/api/v1/locations/hierarchy",
        {"country": "AD", "parentType": "country", "childType": "region"},
        None,
    ),
    "generateAddress": (
        "GET",
        "/api/v1/generate",
        {"country": "AD", "city": "Andorra la Vella", "seed": "example", "requestId": "trace-1"},
        None,
    ),
    "generateBatch": (
        "POST",
        "/api/v1/generate/batch",
        {},
        {"count": 2, "filters": {"country": "AD", "postcode": "AD500"}, "options": {"seed": "example"}},
    ),
    "getAddress": ("GET", f"/api/v1/addresses/{ADDRESS}", {}, None),
    "translateAddress": (
        "POST",
        "/api/v1/address-translation",
        {},
        {"addressId": ADDRESS, "targetLocale": "ja"},
    ),
    "exportAddresses": ("GET", "/api/v1/export", {"country": "AD", "seed": "example", "pageSize": 2}, None),
    # Variants (operationId#what): more of the schemas' shapes, as schema examples only.
    "generateAddress#jp": ("GET", "/api/v1/generate", {"country": "JP", "seed": "example"}, None),
    "generateAddress#variant": (
        "GET",
        "/api/v1/generate",
        {"country": "AD", "variant": "postcode-of-another-place", "seed": "example"},
        None,
    ),
    "generateAddress#ip-region": (
        "GET",
        "/api/v1/generate",
        {"mode": "ip-region", "ip": IP, "seed": "example"},
        None,
    ),
    "searchLocations#regions": (
        "GET",
        "/api/v1/locations/search",
        {"country": "AD", "field": "region"},
        None,
    ),
    "searchLocations#districts": (
        "GET",
        "/api/v1/locations/search",
        {"country": "KR", "field": "district"},
        None,
    ),
    "searchLocations#postcodes": (
        "GET",
        "/api/v1/locations/search",
        {"country": "AD", "field": "postcode"},
        None,
    ),
}


def capture(base: str, token: str) -> dict[str, Any]:
    examples = {}
    for name, (method, path, query, body) in CALLS.items():
        url = base + path + ("?" + urlencode(query) if query else "")
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        request = urllib.request.Request(url, data=data, headers=headers, method=method)  # noqa: S310
        with urllib.request.urlopen(request) as response:  # noqa: S310 - a local stack
            answer = json.loads(response.read())
        examples[name] = {"query": query, "body": body, "response": answer}
    return {"address": ADDRESS, "operations": examples}


if __name__ == "__main__":
    base_url, bearer = sys.argv[1], sys.argv[2]
    OUT.write_text(json.dumps(capture(base_url, bearer), ensure_ascii=False, indent=1) + "\n")
    print(f"wrote {OUT}")
