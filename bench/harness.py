"""What every benchmark needs: DynamoDB Local, a DynamoDB request counter, and percentiles."""

from __future__ import annotations

import os
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import boto3
from botocore import handlers

from chalicelib import deps
from chalicelib.config import Settings
from chalicelib.services.sync.report import SyncProgress, SyncReport
from chalicelib.services.sync.target import SyncTarget
from chalicelib.services.tokens import create_token
from chalicelib.storage.dynamodb.tables import create_missing_tables
from chalicelib.sync_wiring import sync_in_process
from infra.local.dynamodb_local import DynamoDBLocal, free_port
from infra.local.env import SHARED_MANIFEST


@dataclass
class RequestCounter:
    """Counts DynamoDB API calls sent by any botocore session created inside the block: PynamoDB's
    and the storage wire's alike, since both emit botocore's `before-send` event."""

    calls: Counter[str] = field(default_factory=Counter)

    def __enter__(self) -> RequestCounter:
        # Every botocore session (PynamoDB makes one per thread, the storage wire one per table)
        # copies BUILTIN_HANDLERS when created, so calls of sessions created inside this block count.
        handlers.BUILTIN_HANDLERS.append(self._handler)
        return self

    def counts(self) -> dict[str, int]:
        """Calls per operation, by name: the rate counter's call is in flight beside the handler's,
        so the order calls happen in says nothing."""
        return dict(sorted(self.calls.items()))

    def __exit__(self, *exc: object) -> None:
        handlers.BUILTIN_HANDLERS.remove(self._handler)

    @property
    def _handler(self) -> tuple[str, Callable[..., None]]:
        return ("before-send.dynamodb", self._count)

    def _count(self, request: Any, **_: Any) -> None:
        target = request.headers["X-Amz-Target"]  # bytes from botocore's serializer, str from the wire
        self.calls[(target.decode() if isinstance(target, bytes) else target).rpartition(".")[2]] += 1

    def total(self) -> int:
        return sum(self.calls.values())

    def reset(self) -> None:
        self.calls.clear()


@dataclass(frozen=True)
class Timing:
    name: str
    samples_ms: list[float]

    @property
    def p50(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p99(self) -> float:
        ordered = sorted(self.samples_ms)
        return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def measure_interleaved(
    actions: dict[str, Callable[[], object]], runs: int, block: int = 25, warmup: int = 50
) -> dict[str, Timing]:
    """Each action timed `runs` times, in blocks of `block` consecutive calls taking turns: whatever
    drifts during the run (the engine's JIT warming up, its garbage collector, a neighbour's load)
    weighs on all of them alike, while each block still times an action in its steady state (calls
    alternating one by one would time every call cold)."""
    for action in actions.values():
        for _ in range(warmup):
            action()
    samples: dict[str, list[float]] = {name: [] for name in actions}
    for done in range(0, runs, block):
        for name, action in actions.items():
            for _ in range(min(block, runs - done)):
                started = time.perf_counter()
                action()
                samples[name].append((time.perf_counter() - started) * 1000)
    return {name: Timing(name, timed) for name, timed in samples.items()}


def measure(name: str, action: Callable[[], object], runs: int, warmup: int = 10) -> Timing:
    for _ in range(warmup):
        action()
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return Timing(name, samples)


@contextmanager
def local_engine() -> Iterator[DynamoDBLocal]:
    """An in-memory DynamoDB Local on a free port, with throwaway credentials in the environment."""
    os.environ.update(
        {"AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_DEFAULT_REGION": "us-east-1"}
    )
    with DynamoDBLocal(free_port()) as engine:
        yield engine


def bare_client(endpoint: str) -> Any:
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1")


def bench_dependencies(engine: DynamoDBLocal, **overrides: Any) -> deps.Dependencies:
    """The service wired to the engine's own tables, created; the access log kept quiet."""
    values: dict[str, Any] = {
        "tokens_table": "bench-tokens",
        "rate_limits_table": "bench-rate",
        "pool_table": "bench-pool",
        "catalog_table": "bench-catalog",
        "audit_table": "bench-audit",
        "dynamodb_endpoint": engine.endpoint,
        "log_level": "WARNING",
        **overrides,
    }
    wired = deps.build(Settings.model_validate(values))
    create_missing_tables(wired.stores)
    return wired


def bench_auth(wired: deps.Dependencies, scope: str) -> dict[str, str]:
    """Headers of a fresh token with a limit no benchmark reaches."""
    issued = create_token(
        wired.stores.tokens,
        wired.clock,
        scope=scope,
        rate_per_minute=100_000,
        lifetime=timedelta(hours=1),
        label="bench",
    )
    return {"Authorization": f"Bearer {issued.bearer}", "Content-Type": "application/json"}


def sync_samples(
    wired: deps.Dependencies, countries: list[str], progress: SyncProgress | None = None
) -> SyncReport:
    """Sync shared/sources (or the named countries) into the wired tables."""
    target = SyncTarget(SHARED_MANIFEST, SHARED_MANIFEST.parent, frozenset(countries) or None)
    report = sync_in_process(wired, target, progress=progress)
    assert report is not None
    return report


@dataclass(frozen=True)
class Served:
    """The sample sources synced into a local engine and served by the app in this process."""

    report: SyncReport
    client: Any  # chalice.test.Client
    auth: dict[str, str]


@contextmanager
def served_samples(countries: list[str]) -> Iterator[Served]:
    """A local engine, the named countries' sample sources synced into it, and the app serving
    them with a generate token: what a bench that asks the API as a tester would needs."""
    from chalice.test import Client

    from app import app

    with local_engine() as engine:
        wired = bench_dependencies(engine)
        report = sync_samples(wired, countries)
        deps.use(wired)
        yield Served(report, Client(app), bench_auth(wired, "generate"))
