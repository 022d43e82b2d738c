"""`make bench-cold-start`: what a Lambda's cold start costs, each figure beside the same work done by
the framework alone, in paired fresh processes (A then B, the order alternating, the ratio pair by
pair, its median printed):

- init: `import app` (what Lambda's init phase runs) against `import chalice.app, pydantic`;
- init and the first request: `import app` and the first `GET /generate` through the Lambda
  handler (an API Gateway event, as Lambda hands it) against `import chalice.app, pydantic` and one
  bare boto3 GetItem of a pool item (a client made, a connection opened, an item read).

Both sides run with their bytecode compiled, as the Lambda package carries it (`infra/aws/bytecode.py`).
Then the first request of every endpoint, each in a process of its own (/mcp: a tools/call of
generate_address). Against DynamoDB Local
holding a small real pool (AD).

    .venv/bin/python -m bench.cold_start [PAIRS]
"""

from __future__ import annotations

import compileall
import json
import os
import platform
import statistics
import subprocess
import sys

from bench.harness import bench_auth, bench_dependencies, local_engine, sync_samples
from chalicelib import deps
from infra.local.env import IP_DATABASE, PROJECT_DIR, stage_variables

PAIRS = 15
TABLE_ROLES = ("tokens", "rate_limits", "pool", "catalog", "audit")
COUNTRY = "AD"

# Each probe times its phases inside a fresh process and prints them as JSON.
_FRAMEWORK_IMPORT = """
import json, time
started = time.perf_counter()
import chalice.app, pydantic
print(json.dumps({"total": (time.perf_counter() - started) * 1000}))
"""
_APP_IMPORT = """
import json, time
started = time.perf_counter()
import app
print(json.dumps({"total": (time.perf_counter() - started) * 1000}))
"""
_FRAMEWORK_FIRST = """
import json, sys, time
started = time.perf_counter()
import chalice.app, pydantic
import boto3
table, key = json.loads(sys.argv[1])
client = boto3.client("dynamodb")
item = client.get_item(TableName=table, Key=key)
assert "Item" in item
print(json.dumps({"total": (time.perf_counter() - started) * 1000}))
"""
# The handler called as Lambda calls it, with the event API Gateway's proxy integration sends.
_APP_FIRST = """
import json, sys, time
started = time.perf_counter()
import app
imported = time.perf_counter()
method, resource, path, query, body, token = json.loads(sys.argv[1])
event = {
    "resource": resource, "path": path, "httpMethod": method,
    "headers": {"Authorization": "Bearer " + token, "Content-Type": "application/json", "Host": "localhost",
                "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"},
    "multiValueHeaders": None,
    "queryStringParameters": {k: v[-1] for k, v in query.items()} or None,
    "multiValueQueryStringParameters": query or None,
    "pathParameters": {"id": path.rsplit("/", 1)[-1]} if "{id}" in resource else None,
    "stageVariables": None,
    "requestContext": {"resourcePath": resource, "httpMethod": method, "path": "/api" + path,
                       "stage": "api", "requestId": "bench", "apiId": "bench",
                       "identity": {"sourceIp": "127.0.0.1"}},
    "body": body or None, "isBase64Encoded": False,
}
first = app.app(event, None)
answered = time.perf_counter()
second = app.app(event, None)
again = time.perf_counter()
print(json.dumps({
    "total": (answered - started) * 1000, "import": (imported - started) * 1000,
    "first": (answered - imported) * 1000, "warm": (again - answered) * 1000,
    "status": first["statusCode"], "body": first["body"][:300] if first["statusCode"] >= 400 else "",
}))
"""


def _endpoints(address_id: str) -> list[tuple[str, str, str, dict[str, list[str]], str]]:
    translation = json.dumps({"addressId": address_id, "targetLocale": "en"})
    batch = json.dumps({"count": 10, "filters": {"country": COUNTRY}})
    where = {"country": [COUNTRY]}
    call = {"name": "generate_address", "arguments": {"country": COUNTRY}}
    mcp = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": call})
    return [
        ("GET", "/api/v1/health", "/api/v1/health", {}, ""),
        ("GET", "/api/v1/ready", "/api/v1/ready", {}, ""),
        ("GET", "/api/v1/countries", "/api/v1/countries", {}, ""),
        ("GET", "/api/v1/availability", "/api/v1/availability", {}, ""),
        ("GET", "/api/v1/coverage", "/api/v1/coverage", {}, ""),
        ("GET", "/api/v1/data-health", "/api/v1/data-health", {}, ""),
        ("GET", "/api/v1/generate", "/api/v1/generate", where, ""),
        ("POST", "/api/v1/generate/batch", "/api/v1/generate/batch", {}, batch),
        ("GET", "/api/v1/addresses/{id}", f"/api/v1/addresses/{address_id}", {}, ""),
        ("GET", "/api/v1/locations/search", "/api/v1/locations/search",
         {**where, "field": ["city"], "limit": ["20"]}, ""),
        ("GET", "/api/v1/locations/hierarchy", "/api/v1/locations/hierarchy",
         {**where, "childType": ["region"]}, ""),
        ("GET", "/api/v1/client-context", "/api/v1/client-context", {"ip": ["8.8.8.8"]}, ""),
        ("POST", "/api/v1/address-translation", "/api/v1/address-translation", {}, translation),
        ("POST", "/mcp", "/mcp", {}, mcp),
    ]  # fmt: skip


def _run(env: dict[str, str], script: str, *args: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=PROJECT_DIR, env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"a probe failed:\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _paired(env: dict[str, str], ours: tuple[str, ...], theirs: tuple[str, ...], pairs: int) -> list[float]:
    """Ratios ours/theirs, one per pair, the order within a pair alternating."""
    _run(env, *ours)  # warm-up: the files in the page cache
    _run(env, *theirs)
    ratios, mine, framework = [], [], []
    for i in range(pairs):
        if i % 2:
            b, a = _run(env, *theirs)["total"], _run(env, *ours)["total"]
        else:
            a, b = _run(env, *ours)["total"], _run(env, *theirs)["total"]
        ratios.append(a / b)
        mine.append(a)
        framework.append(b)
    return [statistics.median(ratios), statistics.median(mine), statistics.median(framework)]


def main(pairs: int = PAIRS, endpoint_runs: int = 3) -> list[str]:
    compileall.compile_dir(str(PROJECT_DIR / "chalicelib"), quiet=1)
    compileall.compile_file(str(PROJECT_DIR / "app.py"), quiet=1)
    with local_engine() as engine:
        secret = "bench-cursor-secret-" + "x" * 32
        # The handler reads its settings from the environment, as the dev stage sets it: the
        # in-memory engine gets tables of those names.
        stage = stage_variables()
        names = {f"{role}_table": stage[f"{role.upper()}_TABLE"] for role in TABLE_ROLES}
        wired = bench_dependencies(engine, cursor_secret=secret, **names)
        sync_samples(wired, [COUNTRY])
        token = bench_auth(wired, "generate")["Authorization"].split()[1]
        address_id, pool_key = _an_address(wired, token)
        env = {
            **os.environ,
            **stage,
            "AWS_ENDPOINT_URL_DYNAMODB": engine.endpoint,
            "CURSOR_SECRET": secret,
            "IP_DATABASE": str(IP_DATABASE),
            "LOG_LEVEL": "WARNING",
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # read the compiled files (set or not, none is written)
        generate = json.dumps((*_endpoints(address_id)[6][:4], "", token))
        init = _paired(env, (_APP_IMPORT,), (_FRAMEWORK_IMPORT,), pairs)
        first = _paired(
            env,
            (_APP_FIRST, generate),
            (_FRAMEWORK_FIRST, json.dumps([names["pool_table"], pool_key])),
            pairs,
        )
        rows = []
        for method, resource, path, query, body in _endpoints(address_id):
            probe = json.dumps([method, resource, path, query, body, token])
            rows.append((method, resource, [_run(env, _APP_FIRST, probe) for _ in range(endpoint_runs)]))
    lines = [
        f"cold start, {pairs} pairs of fresh processes, {platform.machine()} CPython "
        f"{platform.python_version()}, bytecode compiled, DynamoDB Local (a {COUNTRY} pool)",
        f"{'':52} {'ours ms':>8} {'framework ms':>12} {'ratio':>6}",
        _ratio_row("init: import app / import chalice.app, pydantic", init),
        _ratio_row("init + first GET /generate / + a bare boto3 GetItem", first),
        f"{'endpoint (its own fresh processes)':52} {'status':>6} {'first ms':>9} {'warm ms':>8}",
    ]
    for method, resource, samples in rows:
        first_ms = statistics.median(s["first"] for s in samples)
        warm = statistics.median(s["warm"] for s in samples)
        status = int(samples[0]["status"])
        lines.append(f"{method + ' ' + resource:52} {status:>6} {first_ms:9.0f} {warm:8.1f}")
    return lines


def _ratio_row(name: str, figures: list[float]) -> str:
    ratio, ours, framework = figures
    return f"{name:52} {ours:8.0f} {framework:12.0f} {ratio:6.2f}"


def _an_address(wired: deps.Dependencies, token: str) -> tuple[str, dict[str, object]]:
    """A published address's id, asked of the app in this process, and one pool item's key."""
    from chalice.test import Client

    from app import app

    deps.use(wired)
    with Client(app) as client:
        answer = client.http.get(
            f"/api/v1/generate?country={COUNTRY}", headers={"Authorization": f"Bearer {token}"}
        )
    deps.use(None)
    snapshot = wired.stores.registry.active_snapshot(COUNTRY)
    assert snapshot is not None
    key = wired.stores.pool.slot_key(snapshot.placement, 0)
    return str(json.loads(answer.body)["data"]["result"]["address"]["id"]), key


if __name__ == "__main__":
    print("\n".join(main(int(sys.argv[1]) if len(sys.argv) > 1 else PAIRS)))
