"""The sharded sync at scale: a synthetic US of 2 million rows, built with 1, 2 and 4 workers.

The rows are the real OpenAddresses GeoJSON rows of the US in shared/sources, replicated under
distinct ids, "Bench <n>" added to each replica's unit so deduplication keeps them apart. They live
in a temporary folder and bench-only tables of an in-memory DynamoDB Local, and are never published
anywhere else. Each worker count builds in a process of its own (so peak memory is that run's):
every stage up to the plan, timed per stage, with the peak RSS of the largest worker. Then, on the
same engine, the write stage writes the first shards of the plan and a bare single-threaded
BatchWriteItem loop writes the same items: rows/s, write requests per address, and their ratio.

    .venv/bin/python -m bench.sync_scale [--rows N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.harness import RequestCounter, bare_client, bench_dependencies, local_engine
from chalicelib import deps
from chalicelib.services.sync import work_layout
from chalicelib.services.sync.ports import WorkStore
from chalicelib.services.sync.report import SilentProgress
from chalicelib.services.sync.stages import STAGES
from chalicelib.services.sync.target import SyncTarget
from chalicelib.storage.files.sync_work import LocalWorkStore
from chalicelib.sync_wiring import sync_executor, sync_pipeline
from infra.local.dynamodb_local import DynamoDBLocal
from infra.local.env import SHARED_MANIFEST

ROWS = 2_000_000
PARTS = 16  # source objects: what the map stage spreads over its workers
WORKERS = (1, 2, 4)
WRITE_SAMPLE = 20_000  # addresses the write comparison writes (DynamoDB Local takes ~1 ms each)
BATCH = 25
BUILD = STAGES[: STAGES.index("write")]


def synthesize(folder: Path, rows: int) -> Path:
    """`rows` rows over PARTS GeoJSON files and their manifest."""
    manifest = json.loads(SHARED_MANIFEST.read_text(encoding="utf-8"))
    chosen = [e for e in manifest if e["country"] == "US" and e["format"] == "openaddresses-geojson"]
    features = []
    for entry in chosen:
        for name in entry["files"]:
            with gzip.open(SHARED_MANIFEST.parent / name, "rt", encoding="utf-8") as lines:
                features += [json.loads(line) for line in lines if line.strip()]
    entries = []
    for part in range(PARTS):
        path = folder / f"bench-part-{part:02d}.geojson"
        written = 0
        with path.open("w", encoding="utf-8") as out:
            for replica in range(part, rows // len(features) + 1, PARTS):
                for feature in features[: max(0, min(len(features), rows - replica * len(features)))]:
                    props = {**feature["properties"], "id": f"{feature['properties']['id']}~{replica}"}
                    props["unit"] = f"{props['unit']} Bench {replica}".strip()  # the source's unit kept
                    out.write(json.dumps({**feature, "properties": props}) + "\n")
                    written += 1
        entries.append(_entry(part, path, written, chosen[0]))
    path = folder / "manifest.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return path


def _entry(part: int, path: Path, records: int, like: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": f"bench-us-part-{part:02d}",
        "country": "US",
        "format": "openaddresses-geojson",
        "files": [path.name],
        "language": like["language"],
        "license": like["license"],
        "attribution": like["attribution"],
        "records": records,
    }


def _wired(endpoint: str, run: str) -> deps.Dependencies:
    """Bench-only tables of their own per build, on the parent's engine."""
    engine = DynamoDBLocal(int(endpoint.rsplit(":", 1)[1]))
    tables = {"pool_table": f"bench-scale-{run}-pool", "catalog_table": f"bench-scale-{run}-catalog"}
    return bench_dependencies(engine, **tables)


def measure_build(endpoint: str, manifest: Path, workers: int, work: Path) -> dict[str, Any]:
    """One build (in this process, its workers spawned), as JSON for the parent."""
    engine = DynamoDBLocal(int(endpoint.rsplit(":", 1)[1]))
    wired = bench_dependencies(
        engine, pool_table=f"bench-scale-{workers}-pool", catalog_table=f"bench-scale-{workers}-catalog"
    )
    stages: dict[str, float] = {}
    marks = [time.perf_counter()]

    class StageClock(SilentProgress):
        def stage(self, name: str) -> None:
            now = time.perf_counter()
            if len(marks) > 1:
                stages[STAGES[len(marks) - 2]] = now - marks[-1]
            marks.append(now)

    pipeline = sync_executor(wired, work, workers).build(SyncTarget(manifest, manifest.parent), StageClock())
    stages["plan"] = time.perf_counter() - marks[-1]
    report = pipeline.report()
    return {
        "workers": workers,
        "seconds": time.perf_counter() - marks[0],
        "stages": stages,
        "rows": sum(t.read for t in report.sources.values()),
        "kept": sum(t.kept for t in report.sources.values()),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }


def compare_writes(endpoint: str, work: Path, workers: int) -> dict[str, float]:
    """The plan's first shards written by the write stage, then the same items by a bare loop."""
    with RequestCounter() as counter:  # entered first: it counts the clients created after it
        wired = _wired(endpoint, f"{workers}-{work.parent.name}")
        pipeline = sync_pipeline(wired, LocalWorkStore(work))
        shards, addresses = [], 0
        for item in pipeline.items("write"):
            if addresses >= WRITE_SAMPLE:
                break
            shards.append(item)
            addresses += item["shard"]["rows"]
        counter.reset()
        started = time.perf_counter()
        items = sum(pipeline.run_task("write", item)["written"] for item in shards)
        ours = time.perf_counter() - started
        requests = counter.calls["BatchWriteItem"]
    bare = _bare_loop(bare_client(endpoint), wired.settings.pool_table, pipeline.run.work, shards)
    return {"addresses": addresses, "items": items, "ours": ours, "bare": bare, "requests": requests}


def _bare_loop(client: Any, table: str, work: WorkStore, shards: list[dict[str, Any]]) -> float:
    """The same keys and documents, batch after batch on one thread, retrying what is unprocessed."""
    requests = []
    for item in shards:
        plan = work.read_json(work_layout.plan(item["country"]))
        shard = item["shard"]
        lines = work.read_lines(work_layout.sorted_part("US", shard["cell"]), shard["start"], shard["end"])
        for offset, line in enumerate(lines):
            doc = {"S": line}
            key = f"bare#{plan['snapshot_id']}#{shard['first_ordinal'] + offset}"
            requests.append({"PutRequest": {"Item": {"pk": {"S": key}, "sk": {"S": "o"}, "doc": doc}}})
            requests.append({"PutRequest": {"Item": {"pk": {"S": key}, "sk": {"S": "i"}, "doc": doc}}})
    started = time.perf_counter()
    for start in range(0, len(requests), BATCH):
        pending = {table: requests[start : start + BATCH]}
        while pending:
            pending = client.batch_write_item(RequestItems=pending).get("UnprocessedItems") or {}
    return time.perf_counter() - started


def main(rows: int) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="ags-bench-scale-") as folder, local_engine() as engine:
        builds = []
        for size, counts in ((rows, WORKERS), (rows // 2, (2,))):
            data = Path(folder) / f"rows-{size}"
            data.mkdir()
            manifest = synthesize(data, size)
            for workers in counts:
                builds.append(
                    _build_in_a_process(engine.endpoint, manifest, workers, data / f"work-{workers}")
                )
        writes = compare_writes(engine.endpoint, Path(folder) / f"rows-{rows}" / "work-2", 2)
    return _report(builds, writes)


def _build_in_a_process(endpoint: str, manifest: Path, workers: int, work: Path) -> dict[str, Any]:
    """A process of its own, so the peak RSS of its children is this build's alone."""
    argv = [sys.executable, "-m", "bench.sync_scale", "--measure", str(workers)]
    argv += ["--endpoint", endpoint, "--manifest", str(manifest), "--work", str(work)]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, env=os.environ)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _report(builds: list[dict[str, Any]], writes: dict[str, float]) -> list[str]:
    first = builds[0]
    lines = [
        f"Sharded sync at scale: synthetic US rows in {PARTS} source files, in-memory DynamoDB Local, "
        f"{os.cpu_count()} CPUs ({platform.python_implementation()} {platform.python_version()})",
        "",
        "| rows read | kept | workers | build s | rows/s | vs 1 worker | peak RSS of a worker | "
        + " | ".join(BUILD)
        + " |",
        "|---|---|---|---|---|---|---|" + "---|" * len(BUILD),
    ]
    base = builds[0]["seconds"]
    for b in builds:
        per_stage = " | ".join(f"{b['stages'].get(s, 0):.0f} s" for s in BUILD)
        lines.append(
            f"| {b['rows']:,} | {b['kept']:,} | {b['workers']} | {b['seconds']:.0f} | "
            f"{b['rows'] / b['seconds']:,.0f} | {base / b['seconds'] * b['rows'] / first['rows']:.2f}x | "
            f"{b['peak_rss_mb']:.0f} MB | {per_stage} |"
        )
    per_address = writes["requests"] / writes["addresses"]
    lines += [
        "",
        f"Write stage, first {writes['addresses']:,} addresses of the plan ({writes['items']:,} items): "
        f"{writes['addresses'] / writes['ours']:,.0f} addresses/s, {per_address:.3f} BatchWriteItem requests "
        f"per address; a bare single-threaded BatchWriteItem loop of the same items: "
        f"{writes['addresses'] / writes['bare']:,.0f} addresses/s; ours / bare time = "
        f"{writes['ours'] / writes['bare']:.2f}",
    ]
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument("--measure", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--endpoint", help=argparse.SUPPRESS)
    parser.add_argument("--manifest", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure_build(args.endpoint, args.manifest, args.measure, args.work)))
    else:
        print("\n".join(main(args.rows)))
