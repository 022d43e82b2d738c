"""`sync`: run the pool sync from a manifest, show progress, print the outcome as tables."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import TextIO

from chalicelib import deps
from chalicelib.cli.progress import TerminalProgress
from chalicelib.errors import ConfigurationError
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.state_machine import STEP_EVENT_VARIABLE
from chalicelib.services.sync.target import SyncTarget

MAX_WORKERS = 64


def add_parser(groups: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = groups.add_parser("sync", help="synchronize the address pool from a source manifest")
    parser.add_argument("--manifest", type=Path, help="manifest.json (default: SYNC_MANIFEST)")
    parser.add_argument("--country", action="append", help="only this country (repeatable)")
    parser.add_argument("--if-changed", action="store_true", help="do nothing when the inputs are unchanged")
    parser.add_argument(
        "--workers",
        type=_workers,
        default=os.cpu_count() or 1,
        help="worker processes of the sync (default: one per CPU; 0: all in this process)",
    )
    parser.add_argument(
        "--work",
        type=Path,
        help="folder for the build's intermediate files; a killed sync run again resumes from it "
        "(default: a folder per manifest in the system's temporary directory)",
    )
    parser.add_argument(
        "--first", action="append", default=[], help="publish this country first (repeatable)"
    )
    parser.set_defaults(run=run)
    step = groups.add_parser(
        "sync-step",
        help=f"run one step of the state machine's sync, the event JSON in {STEP_EVENT_VARIABLE} "
        "(what its container task runs)",
    )
    step.set_defaults(run=run_step)


def run_step(args: argparse.Namespace, out: TextIO) -> int:
    text = os.environ.get(STEP_EVENT_VARIABLE, "")
    try:
        event = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigurationError(f"{STEP_EVENT_VARIABLE} is not JSON: {exc.msg}") from exc
    from chalicelib.sync_wiring import sync_step  # the pipeline and readers: for the sync's commands only

    print(json.dumps(sync_step(deps.get(), event)), file=out)
    return 0


def _workers(text: str) -> int:
    value = int(text)
    if not 0 <= value <= MAX_WORKERS:
        raise argparse.ArgumentTypeError(f"give 0 to {MAX_WORKERS} workers")
    return value


def run(args: argparse.Namespace, out: TextIO) -> int:
    d = deps.get()
    manifest = args.manifest or (Path(d.settings.sync_manifest) if d.settings.sync_manifest else None)
    if manifest is None or not manifest.is_file():
        raise ConfigurationError(f"no manifest at {manifest}; pass --manifest or set SYNC_MANIFEST")
    countries = frozenset(c.upper() for c in args.country) if args.country else None
    target = SyncTarget(manifest=manifest, root=manifest.parent, countries=countries)
    print(f"Syncing from {manifest}", file=out, flush=True)
    report = sync_locally(
        d, target, args.workers, args.work or _default_work(manifest), args.first, args.if_changed
    )
    if report is None:
        print(
            "The pool is current: its sources, configuration and format are unchanged since the last sync.",
            file=out,
        )
        return 0
    print_report(report, out)
    return 0 if report.ok else 1


def sync_locally(
    d: deps.Dependencies, target: SyncTarget, workers: int, work: Path, first: list[str], if_changed: bool
) -> SyncReport | None:
    """The sync under the local executor; None when `if_changed` finds the pool current."""
    from chalicelib.sync_wiring import sync_executor

    executor = sync_executor(d, work, workers)
    if if_changed and executor.is_current(target):
        return None
    return executor.run(target, first=[c.upper() for c in first], progress=TerminalProgress())


def _default_work(manifest: Path) -> Path:
    name = hashlib.sha256(str(manifest.resolve()).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"ags-sync-{name}"


def print_report(report: SyncReport, out: TextIO) -> None:
    _table(
        out,
        ("SOURCE", "READ", "KEPT", "DROPPED BY REASON", "FIELDS REMOVED"),
        [
            (family, str(t.read), str(t.kept), _reasons(t.dropped), _reasons(t.removed_fields))
            for family, t in sorted(report.sources.items())
        ],
    )
    print(file=out)
    header = (
        "COUNTRY",
        "STATUS",
        "READ",
        "PUBLISHED",
        "RESIDENTIAL",
        "DROPPED BY REASON",
        "LOCATIONS",
        "WRITTEN",
        "DELETED",
        "SNAPSHOT",
    )
    _table(out, header, [_country_row(report, code) for code in sorted(report.countries)])
    for issue in report.configuration_errors:
        print(f"configuration error: {issue.country or '-'} {issue.field}: {issue.message}", file=out)


def _country_row(report: SyncReport, code: str) -> tuple[str, ...]:
    o, rows = report.countries[code], report.country_tally(code)
    status = o.status + (f" ({o.error})" if o.error else "")
    return (
        code,
        status,
        str(rows.read),
        str(o.addresses),
        str(o.residential),
        _reasons(rows.dropped),
        str(o.locations),
        str(o.items_written),
        str(o.items_deleted),
        o.snapshot_id or "-",
    )


def _reasons(counts: dict[str, int]) -> str:
    return ", ".join(f"{reason}={n}" for reason, n in sorted(counts.items())) or "-"


def _table(out: TextIO, header: tuple[str, ...], rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip(), file=out)
