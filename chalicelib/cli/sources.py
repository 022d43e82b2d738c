"""`sources fetch`: bring each manifest entry's file from its publisher into a cache folder laid out
like the manifest, with the manifest beside it, so `sync --manifest <cache>/manifest.json` reads it.
`sources discover`: write the manifest of the world's open addresses (docs/overture.md)."""

from __future__ import annotations

import argparse
import shutil
from functools import partial
from pathlib import Path
from typing import TextIO

from chalicelib import deps
from chalicelib.errors import ConfigurationError
from chalicelib.services.sync.acquisition import AcquisitionStatus, acquire
from chalicelib.services.sync.discovery import TASK_ROWS, country_names, discover
from chalicelib.sources.geofabrik import parse_index
from chalicelib.sources.manifest import load_manifest, save_manifest
from chalicelib.sources.upstream import FetchPolicy, fetch
from chalicelib.storage.files.overture_bucket import OVERTURE_BUCKET, LocalReleases, S3Releases
from chalicelib.storage.files.source_store import LocalSourceStore

MAX_GB = 1024.0


def add_parser(groups: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = groups.add_parser(
        "sources", help="discover sources, and fetch their files from their publishers"
    )
    verbs = parser.add_subparsers(required=True, metavar="fetch|discover")
    discovering = verbs.add_parser(
        "discover", help="write the manifest of Overture's newest release and OSM extracts"
    )
    discovering.add_argument("--out", type=Path, required=True, help="the manifest to write")
    discovering.add_argument(
        "--overture", default=OVERTURE_BUCKET, help="Overture's bucket, or a folder laid out like it"
    )
    discovering.add_argument(
        "--geofabrik-index", type=Path, required=True, help="Geofabrik's index-v1-nogeom.json"
    )
    discovering.add_argument("--task-rows", type=int, default=TASK_ROWS, help="the most rows one task reads")
    discovering.set_defaults(run=run_discover)
    fetching = verbs.add_parser("fetch", help="fetch each entry's upstream file into a cache folder")
    fetching.add_argument("--manifest", type=Path, required=True, help="the manifest naming the upstreams")
    fetching.add_argument("--cache", type=Path, required=True, help="the folder the files are kept in")
    fetching.add_argument("--source", action="append", help="only this source id (repeatable)")
    fetching.add_argument("--max-gb", type=_positive_gb, default=50.0, help="refuse a file larger than this")
    fetching.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    entries = load_manifest(args.manifest)
    if args.source:
        entries = [e for e in entries if e.id in set(args.source)]
        if not entries:
            raise ConfigurationError(f"no source {', '.join(args.source)} in {args.manifest}")
    args.cache.mkdir(parents=True, exist_ok=True)
    policy = FetchPolicy(max_bytes=int(args.max_gb * 1024**3))
    results = acquire(entries, LocalSourceStore(args.cache), partial(fetch, policy=policy), deps.get().clock)
    shutil.copyfile(args.manifest, args.cache / "manifest.json")
    for r in sorted(results, key=lambda r: r.source_id):
        detail = r.error or (f"{r.size} bytes sha256:{r.sha256[:16]}" if r.sha256 else r.url or "-")
        print(f"{r.source_id:<40} {r.status.value:<12} {detail}", file=out)
    return 1 if any(r.status is AcquisitionStatus.FAILED for r in results) else 0


def _positive_gb(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= MAX_GB:
        raise argparse.ArgumentTypeError(f"a size in GB above 0 and at most {MAX_GB:g}, not {text!r}")
    return value


def run_discover(args: argparse.Namespace, out: TextIO) -> int:
    from chalicelib.reference.pool_config import load_pool_config

    releases = (
        S3Releases(args.overture) if args.overture.startswith("s3://") else LocalReleases(Path(args.overture))
    )
    try:
        extracts = parse_index(args.geofabrik_index.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigurationError(f"unreadable Geofabrik index {args.geofabrik_index}: {exc}") from exc
    found = discover(releases, extracts, load_pool_config(), country_names(), task_rows=args.task_rows)
    save_manifest(found.entries, args.out)
    per_country: dict[str, list[str]] = {}
    for entry in found.entries:
        per_country.setdefault(entry.country, []).append(entry.format)
    print(f"Overture release: {found.release or 'none found'}", file=out)
    for country, formats in sorted(per_country.items()):
        print(f"{country}  {len(formats):>5} {formats[0]}", file=out)
    for miss in found.missing:
        print(f"{miss.country}  no source: {miss.reason}", file=out)
    print(f"{len(found.entries)} entries written to {args.out}", file=out)
    return 0
