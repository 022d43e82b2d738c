"""`sync`: run the pool sync from a manifest, show progress, print the outcome as tables."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from chalicelib import deps
from chalicelib.cli.progress import TerminalProgress
from chalicelib.errors import ConfigurationError
from chalicelib.services.sync.report import SyncReport
from chalicelib.services.sync.run import SyncTarget


def add_parser(groups: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = groups.add_parser("sync", help="synchronize the address pool from a source manifest")
    parser.add_argument("--manifest", type=Path, help="manifest.json (default: SYNC_MANIFEST)")
    parser.add_argument("--country", action="append", help="only this country (repeatable)")
    parser.add_argument("--if-changed", action="store_true", help="do nothing when the inputs are unchanged")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace, out: TextIO) -> int:
    d = deps.get()
    manifest = args.manifest or (Path(d.settings.sync_manifest) if d.settings.sync_manifest else None)
    if manifest is None or not manifest.is_file():
        raise ConfigurationError(f"no manifest at {manifest}; pass --manifest or set SYNC_MANIFEST")
    countries = frozenset(c.upper() for c in args.country) if args.country else None
    target = SyncTarget(manifest=manifest, root=manifest.parent, countries=countries)
    print(f"Syncing from {manifest}", file=out, flush=True)
    report = d.pool_sync().run(target, progress=TerminalProgress(), if_changed=args.if_changed)
    if report is None:
        print(
            "The pool is current: its sources, configuration and format are unchanged since the last sync.",
            file=out,
        )
        return 0
    print_report(report, out)
    return 0 if report.ok else 1


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
