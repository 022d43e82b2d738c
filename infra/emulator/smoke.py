"""The deployed stack tried over HTTP, through the emulated API Gateway and Lambda, as a tester and
an operator would: probes, the operator's token, a sync started from the admin API (the state
machine, its Distributed Maps and the SyncStep Lambda, with IAM enforced), then the public routes
on what it published."""

from __future__ import annotations

import json
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

SYNC_TIMEOUT_SECONDS = 600
SYNCED = "AD"
SOURCE_IDS = ("osm-andorra-ad", "osm-andorra_2021-ad")
# What an MCP client sends with each message over Streamable HTTP (revision 2025-11-25).
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


@dataclass
class Api:
    base: str
    tls: ssl.SSLContext

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers or {})  # noqa: S310
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=120, context=self.tls) as response:  # noqa: S310
                return response.status, _json(response.read())
        except urllib.error.HTTPError as error:
            return error.code, _json(error.read())


@dataclass
class Smoke:
    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def check(self, name: str, condition: bool, detail: Any = "") -> bool:
        (self.passed if condition else self.failed).append(name if condition else f"{name}: {detail}")
        print(f"  {'ok  ' if condition else 'FAIL'} {name}" + ("" if condition else f": {str(detail)[:600]}"))
        return condition


def upload_sources(bucket: str, sources: Path) -> None:
    """The manifest entries the sync will build, and their files, in the source store. Their
    upstream URLs are dropped: no internet here (the Acquire state then keeps what is stored)."""
    s3 = boto3.client("s3")
    entries = [
        {**entry, "upstream": ""}
        for entry in json.loads((sources / "manifest.json").read_text())
        if entry["id"] in SOURCE_IDS
    ]
    for entry in entries:
        for name in entry["files"]:
            s3.upload_file(str(sources / name), bucket, f"sources/{name}")
    s3.put_object(Bucket=bucket, Key="sources/manifest.json", Body=json.dumps(entries).encode())


def operator_token(scope: str, environment: dict[str, str]) -> str:
    """`make aws-token`'s command, against the deployed tables with the operator's credentials."""
    created = subprocess.run(
        [sys.executable, "-m", "chalicelib.cli", "tokens", "create", "--scope", scope, "--rate", "600",
         "--expires", "1d", "--label", f"deploy-local {scope}"],
        env=environment, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return created.stdout.strip().splitlines()[-1]


def run(api: Api, generate: str, admin: str, api_id: str) -> Smoke:
    smoke = Smoke()
    status, body = api.call("GET", "/api/v1/health")
    smoke.check("GET /health answers 200", status == 200, (status, body))
    status, body = api.call("GET", "/api/v1/ready")
    unpublished = (body or {}).get("error", {}).get("message", "") if isinstance(body, dict) else ""
    smoke.check(
        "GET /ready answers 503 before any pool, past every table (reachable with the API's role)",
        status == 503 and unpublished.startswith("no country's pool is published yet"),
        (status, body),
    )
    status, body = api.call("GET", "/api/v1/no-such-route")
    code = (body or {}).get("error", {}).get("code") if isinstance(body, dict) else None
    unknown = (status, code) == (404, "INVALID_REQUEST")
    smoke.check("an unknown path gets the gateway's 404 in the error shape", unknown, (status, body))
    stages = [s["stageName"] for s in boto3.client("apigateway").get_stages(restApiId=api_id)["item"]]
    smoke.check("the API has one stage, api (no SAM 'Stage')", stages == ["api"], stages)

    status, body = api.call("POST", "/api/v1/admin/sync", admin)
    smoke.check("POST /admin/sync starts the state machine (202)", status == 202, (status, body))
    if status == 202:
        smoke.check(f"the sync publishes {SYNCED}", _wait_published(api, generate), "see the emulator's log")
        status, body = api.call("GET", "/api/v1/ready")
        smoke.check("GET /ready answers 200 once a country is published", status == 200, (status, body))
    status, body = api.call("GET", "/api/v1/admin/data", admin)
    smoke.check("GET /admin/data answers 200", status == 200, (status, body))

    status, body = api.call("GET", f"/api/v1/generate?country={SYNCED}&seed=deploy-local", generate)
    if not smoke.check("GET /generate answers an address", status == 200, (status, body)):
        return smoke
    address = body["data"]["result"]["address"]
    status, body = api.call("GET", f"/api/v1/addresses/{address['id']}", generate)
    found = status == 200 and body["data"]["address"] == address
    smoke.check("GET /addresses/{id} finds it", found, (status, body))
    status, body = api.call(
        "POST", "/api/v1/generate/batch", generate, {"count": 3, "filters": {"country": SYNCED}}
    )
    smoke.check(
        "POST /generate/batch answers 3", status == 200 and body["data"]["returnedCount"] == 3, (status, body)
    )
    status, body = api.call("GET", f"/api/v1/locations/search?country={SYNCED}&field=city&limit=20", generate)
    smoke.check("GET /locations/search answers", status == 200 and body["data"]["total"] > 0, (status, body))
    status, body = api.call("POST", "/api/v1/address-translation", generate,
                            {"addressId": address["id"], "targetLocale": "en"})  # fmt: skip
    smoke.check("POST /address-translation answers", status == 200, (status, body))
    _mcp_check(smoke, api, generate, address)
    status, body = api.call("GET", "/api/v1/data-health", generate)
    states = {c["code"]: c["syncState"] for c in (body or {}).get("data", {}).get("countries", [])}
    smoke.check(
        f"GET /data-health shows {SYNCED} published", states.get(SYNCED) == "published", (status, body)
    )
    status, body = api.call("GET", "/api/v1/generate?country=AD", None)
    smoke.check("no token: 401", status == 401, (status, body))
    return smoke


def _mcp_check(smoke: Smoke, api: Api, token: str, address: dict[str, Any]) -> None:
    """A test agent's call through the gateway: the MCP tool answers what GET /generate answered."""
    call = {"name": "generate_address", "arguments": {"country": SYNCED, "seed": "deploy-local"}}
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call}
    status, body = api.call("POST", "/mcp", token, message, MCP_HEADERS)
    result = body.get("result", {}) if isinstance(body, dict) else {}
    drawn = result.get("structuredContent", {}).get("data", {}).get("result", {}).get("address")
    smoke.check("POST /mcp: the generate_address tool answers that address", drawn == address, (status, body))


def _wait_published(api: Api, token: str, report: Callable[[str], None] = print) -> bool:
    deadline = time.monotonic() + SYNC_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        status, body = api.call("GET", "/api/v1/countries", token)
        counts = {c["code"]: c["addressCount"] for c in body.get("data", [])} if status == 200 else {}
        if counts.get(SYNCED):
            report(f"       {SYNCED}: {counts[SYNCED]} addresses published")
            return True
        time.sleep(3)
    return False


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw.decode(errors="replace")
