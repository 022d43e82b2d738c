"""`make bench-cold-start`: what a Lambda's cold start costs: `import app` in a fresh process, then
the first request of each endpoint (the wiring, its imports and its first DynamoDB calls), each in
a process of its own, against DynamoDB Local holding a small real pool (AD).

    .venv/bin/python -m bench.cold_start [RUNS]
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys

from bench.harness import bench_auth, bench_dependencies, local_engine, sync_samples
from chalicelib import deps
from infra.local.env import IP_DATABASE, PROJECT_DIR, stage_variables

RUNS = 5
TABLE_ROLES = ("tokens", "rate_limits", "pool", "catalog", "audit")
COUNTRY = "AD"

# What one fresh process does: import the app, then send one request through Chalice's own local
# machinery (as API Gateway would), then the same request again, warm.
_PROBE = """
import json, sys, time
started = time.perf_counter()
import app
imported = time.perf_counter()
from chalice.test import Client
method, path, body, token = json.loads(sys.argv[1])
headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
with Client(app.app) as client:
    def send():
        if method == "GET":
            return client.http.get(path, headers=headers)
        return client.http.post(path, headers=headers, body=body.encode())
    before_first = time.perf_counter()
    first = send()
    after_first = time.perf_counter()
    send()
    after_second = time.perf_counter()
print(json.dumps({
    "import": (imported - started) * 1000,
    "first": (after_first - before_first) * 1000,
    "warm": (after_second - after_first) * 1000,
    "status": first.status_code,
    "body": first.body.decode()[:300] if first.status_code >= 400 else "",
}))
"""


def _endpoints(address_id: str) -> list[tuple[str, str, str]]:
    translation = json.dumps({"addressId": address_id, "targetLocale": "en"})
    return [
        ("GET", "/api/v1/health", ""),
        ("GET", "/api/v1/ready", ""),
        ("GET", "/api/v1/countries", ""),
        ("GET", "/api/v1/availability", ""),
        ("GET", "/api/v1/coverage", ""),
        ("GET", "/api/v1/data-health", ""),
        ("GET", f"/api/v1/generate?country={COUNTRY}", ""),
        ("POST", "/api/v1/generate/batch", json.dumps({"count": 10, "filters": {"country": COUNTRY}})),
        ("GET", f"/api/v1/addresses/{address_id}", ""),
        ("GET", f"/api/v1/locations/search?country={COUNTRY}&field=city&limit=20", ""),
        ("GET", f"/api/v1/locations/hierarchy?country={COUNTRY}&childType=region", ""),
        ("GET", "/api/v1/client-context?ip=8.8.8.8", ""),
        ("POST", "/api/v1/address-translation", translation),
    ]


def _probe(env: dict[str, str], method: str, path: str, body: str, token: str) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps([method, path, body, token])],
        cwd=PROJECT_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    if result["status"] >= 400:
        print(f"{method} {path}: {done.stdout[-1500:]}", file=sys.stderr)
    return result


def main(runs: int = RUNS) -> list[str]:
    with local_engine() as engine:
        secret = "bench-cursor-secret-" + "x" * 32
        # chalice.test.Client applies the dev stage's environment (.chalice/config.json), table
        # names included: the in-memory engine gets tables of those names.
        stage = stage_variables()
        names = {f"{role}_table": stage[f"{role.upper()}_TABLE"] for role in TABLE_ROLES}
        wired = bench_dependencies(engine, cursor_secret=secret, **names)
        sync_samples(wired, [COUNTRY])
        token = bench_auth(wired, "generate")["Authorization"].split()[1]
        address_id = _an_address(wired)
        env = {
            **os.environ,
            "PYTHONDONTWRITEBYTECODE": "0",
            "AWS_ENDPOINT_URL_DYNAMODB": engine.endpoint,
            "CURSOR_SECRET": secret,
            "IP_DATABASE": str(IP_DATABASE),
            "LOG_LEVEL": "WARNING",
        }
        rows = []
        for method, path, body in _endpoints(address_id):
            samples = [_probe(env, method, path, body, token) for _ in range(runs)]
            rows.append((method, path, samples))
    imports = [s["import"] for _, _, samples in rows for s in samples]
    lines = [
        f"cold start, {runs} fresh processes per endpoint, {platform.machine()} CPython "
        f"{platform.python_version()}, DynamoDB Local (a {COUNTRY} pool)",
        f"import app: median {statistics.median(imports):.0f} ms, min {min(imports):.0f}, "
        f"max {max(imports):.0f} (over {len(imports)} processes)",
        f"{'endpoint':58} {'status':>6} {'first ms':>9} {'warm ms':>8}",
    ]
    for method, path, samples in rows:
        first = statistics.median(s["first"] for s in samples)
        warm = statistics.median(s["warm"] for s in samples)
        status = int(samples[0]["status"])
        lines.append(f"{method + ' ' + path.split('?')[0]:58} {status:>6} {first:9.0f} {warm:8.1f}")
    return lines


def _an_address(wired: deps.Dependencies) -> str:
    """A published address's id, asked of the app in this process."""
    from chalice.test import Client

    from app import app

    deps.use(wired)
    token = bench_auth(wired, "generate")
    with Client(app) as client:
        body = json.loads(client.http.get(f"/api/v1/generate?country={COUNTRY}", headers=token).body)
    deps.use(None)
    return str(body["data"]["result"]["address"]["id"])


if __name__ == "__main__":
    print("\n".join(main(int(sys.argv[1]) if len(sys.argv) > 1 else RUNS)))
