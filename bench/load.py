"""`make load`: a bounded load test on loopback against the stack `make run` starts.

Starts that stack itself (its pool in `.dev`, synced first if it is not yet), then runs 32
concurrent clients for 60 s over keep-alive HTTP connections, a mix of generate, batch, get by id,
location search and translation on one high-limit token; every fourth request of each client goes
to a second token of a small limit, on /countries, so that all clients race on one rate counter.
Prints throughput, p50/p95/p99 per operation, error counts, and, per one-minute window (by the
server's X-RateLimit-Reset), how many of the racing requests were admitted against the limit.
Not part of `make test`: it measures, it asserts nothing but the rate limit."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from infra.local.launch import StackStartError, create_token, drain, launch, printed_after, read_until

LIMITED_RATE = 300  # per minute: far below what 32 clients send, so the limit is what admits
COUNTRY = "US"
MIX = [("generate", 40), ("batch", 15), ("get by id", 20), ("search", 15), ("translation", 10)]


@dataclass
class Results:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    limited: dict[str, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))  # reset → statuses
    reconnects: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, operation: str, status: int, seconds: float) -> None:
        with self.lock:
            self.latencies[operation].append(seconds * 1000)
            self.statuses[operation][status] += 1

    def record_limited(self, reset: str, status: int) -> None:
        with self.lock:
            self.limited[reset][status] += 1


class Client:
    """One keep-alive connection; requests in sequence."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.reconnects = 0

    def call(
        self, method: str, path: str, token: str, body: object | None = None
    ) -> tuple[int, dict[str, str], Any]:
        headers = {"Authorization": f"Bearer {token}"}
        raw = None
        if body is not None:
            raw = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=raw, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
            except (http.client.HTTPException, OSError):
                # The server may close an idle keep-alive connection: one retry on a fresh one.
                self.connection.close()
                self.reconnects += attempt == 1
                continue
            return response.status, dict(response.getheaders()), json.loads(data) if data else None
        return 0, {}, None  # failed twice: counted as an error (status 0)


@dataclass(frozen=True)
class Workload:
    token: str
    limited_token: str
    address_ids: list[str]
    search: str

    def request(self, operation: str, rng: random.Random) -> tuple[str, str, object | None]:
        if operation == "generate":
            return "GET", f"/api/v1/generate?country={COUNTRY}", None
        if operation == "batch":
            return "POST", "/api/v1/generate/batch", {"count": 10, "filters": {"country": COUNTRY}}
        if operation == "get by id":
            return "GET", f"/api/v1/addresses/{rng.choice(self.address_ids)}", None
        if operation == "search":
            return "GET", self.search, None
        body = {"addressId": rng.choice(self.address_ids), "targetLocale": rng.choice(["en", "ja", "zh-CN"])}
        return "POST", "/api/v1/address-translation", body


def run_client(port: int, work: Workload, results: Results, until: float, seed: int) -> None:
    rng = random.Random(seed)
    client = Client(port)
    names = [name for name, _ in MIX]
    weights = [weight for _, weight in MIX]
    sent = 0
    while time.monotonic() < until:
        sent += 1
        if sent % 4 == 0:
            status, headers, _ = client.call("GET", "/api/v1/countries", work.limited_token)
            results.record_limited(headers.get("X-RateLimit-Reset", "?"), status)
            continue
        operation = rng.choices(names, weights)[0]
        method, path, body = work.request(operation, rng)
        started = time.perf_counter()
        status, _, _ = client.call(method, path, work.token, body)
        results.record(operation, status, time.perf_counter() - started)
    with results.lock:
        results.reconnects += client.reconnects


def start_stack(port: int, ddb_port: int) -> tuple[subprocess.Popen[str], dict[str, str], str]:
    """The stack `make run` starts, serving: its process, its environment and its dev token."""
    process, env = launch({"PORT": str(port), "DDB_PORT": str(ddb_port)})
    try:
        lines = read_until(process, "Serving http")
    except StackStartError as error:
        raise SystemExit(str(error)) from error
    drain(process)
    return process, env, printed_after(lines, "Dev token")


def prepare(port: int, env: dict[str, str], dev_token: str) -> Workload:
    client = Client(port)
    deadline = time.monotonic() + 900
    while True:  # a fresh .dev syncs first: wait for the country to be published
        batch = {"count": 50, "filters": {"country": COUNTRY}}
        status, _, body = client.call("POST", "/api/v1/generate/batch", dev_token, batch)
        if status == 200:
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"{COUNTRY} was not published within 15 minutes ({status})")
        time.sleep(2)
    ids = [r["address"]["id"] for r in body["data"]["results"]]
    city = body["data"]["results"][0]["address"]["components"].get("city") or ""
    search = f"/api/v1/locations/search?country={COUNTRY}&field=city&q={city[:3]}&limit=20"
    return Workload(
        token=create_token(env, "generate", 100_000, "load test"),
        limited_token=create_token(env, "generate", LIMITED_RATE, "load test (limited)"),
        address_ids=ids,
        search=search.replace(" ", "%20"),
    )


def report(results: Results, seconds: float, clients: int) -> bool:
    total = sum(len(v) for v in results.latencies.values())
    limited_total = sum(sum(c.values()) for c in results.limited.values())
    print(
        f"\n{clients} clients, {seconds:.0f} s: {total + limited_total:,} requests, "
        f"{(total + limited_total) / seconds:,.1f} req/s\n"
    )
    print(f"{'operation':<12} {'requests':>9} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}  errors")
    for name, _ in MIX:
        values = sorted(results.latencies[name])
        if not values:
            continue
        q = statistics.quantiles(values, n=100, method="inclusive")
        errors = {s: n for s, n in results.statuses[name].items() if s != 200}
        print(
            f"{name:<12} {len(values):>9,} {len(values) / seconds:>7.1f} {q[49]:>7.1f} {q[94]:>7.1f} "
            f"{q[98]:>7.1f}  {errors or 'none'}"
        )
    print(f"(connections the server closed and the client reopened: {results.reconnects})")
    print(f"\nrate limit ({LIMITED_RATE}/min on one token, every 4th request of every client):")
    holds = True
    for reset, statuses in sorted(results.limited.items()):
        admitted, attempts = statuses.get(200, 0), sum(statuses.values())
        others = {s: n for s, n in statuses.items() if s not in (200, 429)}
        exact = admitted == min(LIMITED_RATE, attempts) and not others
        holds &= exact
        print(
            f"  window ending {reset}: {admitted} admitted of {attempts} "
            f"({'exact' if exact else 'NOT EXACT'}{', other: ' + str(others) if others else ''})"
        )
    return holds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--ddb-port", type=int, default=int(os.environ.get("DDB_PORT", "8001")))
    args = parser.parse_args(argv)
    process, env, dev_token = start_stack(args.port, args.ddb_port)
    try:
        work = prepare(args.port, env, dev_token)
        results = Results()
        until = time.monotonic() + args.seconds
        threads = [
            threading.Thread(target=run_client, args=(args.port, work, results, until, seed))
            for seed in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return 0 if report(results, args.seconds, args.clients) else 1
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)


if __name__ == "__main__":
    sys.exit(main())
