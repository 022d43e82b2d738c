"""What our request pipeline costs beyond the DynamoDB calls it cannot avoid.

An authenticated request's physical floor is one write (the rate counter; the token record is
cached per Lambda). This prints, from one run against DynamoDB Local, p50/p99 of requests through
the Chalice app in-process beside a bare boto3 UpdateItem and GetItem on the same engine, as ratios
(all timed in blocks taking turns, so the engine's drift weighs on each alike), and the DynamoDB
requests each API request makes.

    .venv/bin/python -m bench.request_overhead [runs]
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Callable

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
)
from chalicelib import deps

DEFAULT_RUNS = 300


def main(runs: int = DEFAULT_RUNS) -> list[str]:
    with RequestCounter() as counter, local_engine() as engine:
        wired = bench_dependencies(engine, token_cache_seconds=30)
        settings = wired.settings
        deps.use(wired)
        auth = bench_auth(wired, "read")
        client = Client(app)
        bare = bare_client(engine.endpoint)
        key = {"pk": {"S": "BENCH#bare"}}

        def authenticated() -> object:
            return client.http.get("/api/v1/countries", headers=auth)

        actions: dict[str, Callable[[], object]] = {
            "bare GetItem": lambda: bare.get_item(TableName=settings.tokens_table, Key=key),
            "bare UpdateItem ADD": lambda: bare.update_item(
                TableName=settings.rate_limits_table,
                Key=key,
                UpdateExpression="ADD hits :one",
                ExpressionAttributeValues={":one": {"N": "1"}},
            ),
            "GET /health (no DynamoDB)": lambda: client.http.get("/api/v1/health"),
            # No pool is published here: /ready pings every table, reads the pointers, answers 503.
            "GET /ready (a GetItem per table, no pool: 503)": lambda: client.http.get("/api/v1/ready"),
            "authenticated GET (read scope)": authenticated,
        }
        timings = list(measure_interleaved(actions, runs).values())
        counter.reset()
        authenticated()
        per_request = counter.total()
        calls = counter.counts()
    deps.use(None)
    return _report(timings, per_request, calls, runs)


def _report(timings: list[Timing], per_request: int, calls: dict[str, int], runs: int) -> list[str]:
    by_name = {t.name: t for t in timings}
    floor = by_name["bare UpdateItem ADD"].p50
    lines = [
        f"request overhead, {runs} runs each, DynamoDB Local in memory, "
        f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
        f"{'what':34} {'p50 ms':>8} {'p99 ms':>8} {'p50 / bare UpdateItem':>22}",
    ]
    for t in timings:
        lines.append(f"{t.name:34} {t.p50:8.2f} {t.p99:8.2f} {t.p50 / floor:22.2f}")
    lines.append(f"DynamoDB requests per authenticated API request (warm token cache): {per_request} {calls}")
    return lines


if __name__ == "__main__":
    print("\n".join(main(int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_RUNS)))
