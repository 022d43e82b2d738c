"""`ags export`: distinct real addresses into a file, page after page, with a progress bar.

    ags export --country JP --count 5000 --seed s --format csv --output jp.csv

The same seed gives the same addresses (while the service's snapshot lasts); the file's NDJSON or
JSON form is what offline mode reads."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from tqdm import tqdm

from ags_testkit.client import DEFAULT_BASE_URL, ApiError, Client, SnapshotChanged, Unreachable, ndjson_lines

FILTERS = (
    "region",
    "region_id",
    "city",
    "city_id",
    "district",
    "district_id",
    "postcode",
    "postcode_id",
    "q",
    "license",  # a licence class or SPDX id: records you may commit under those terms
    "partition",  # i/n: one of n disjoint slices (a JMeter thread's, a load generator's)
    "email_domain",  # the profiles' e-mail in a domain you own
)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "mcp":
        return _mcp(args.base_url)
    client = Client(args.base_url)
    try:
        if args.output:
            written = _export_to_file(client, args, Path(args.output))
        else:
            written = export(client, args, sys.stdout)
    except (ApiError, SnapshotChanged, Unreachable) as error:
        print(f"ags export: {error}", file=sys.stderr)
        return 1
    print(f"ags export: {written} addresses", file=sys.stderr)
    return 0


def _export_to_file(client: Client, args: argparse.Namespace, path: Path) -> int:
    """Written beside the file and renamed over it once whole: a failed export leaves no file
    behind (nor a half one), and an earlier file of that name stays as it was."""
    if path.exists() and not path.is_file():  # /dev/stdout, a pipe: nothing to leave behind
        with path.open("w", encoding="utf-8", newline="") as out:
            return export(client, args, out)
    partial = path.with_name(f".{path.name}.partial")
    try:
        with partial.open("w", encoding="utf-8", newline="") as out:
            written = export(client, args, out)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)
    return written


def _mcp(base_url: str | None) -> int:
    """Serve until the agent closes stdin; a missing token, or a service that refuses it or does
    not answer, is one line on standard error (what a desktop agent's log shows), not a traceback."""
    try:
        from ags_testkit import mcp_bridge
    except ImportError:
        print(
            "ags mcp: install the MCP extra: pip install './clients/python[mcp]' from the checkout",
            file=sys.stderr,
        )
        return 1
    token = os.environ.get("AGS_TOKEN")
    if not token:
        print("ags mcp: set AGS_TOKEN to a token of the service (make token prints one)", file=sys.stderr)
        return 1
    url = (base_url or os.environ.get("AGS_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
    try:
        mcp_bridge.run(url, token)
    except Exception as error:  # noqa: BLE001 - told to the agent's log in one line
        print(f"ags mcp: {url}/mcp refused the token or did not answer: {_innermost(error)}", file=sys.stderr)
        return 1
    return 0


def _innermost(error: BaseException) -> BaseException:
    """The first error inside exception groups (anyio's task groups wrap what failed)."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error


def export(client: Client, args: argparse.Namespace, out: IO[str]) -> int:
    filters = {name: getattr(args, name) for name in FILTERS if getattr(args, name) is not None}
    if args.residential is not None:
        filters["residential"] = args.residential
    fmt = "ndjson" if args.format == "json" else args.format  # json: one array, written at the end
    seed, snapshot, written = args.seed, None, 0
    page: int | None = 1
    records: list[object] = []
    writer, header_done = csv.writer(out, lineterminator="\r\n"), False
    with tqdm(total=args.count, unit="address", file=sys.stderr, disable=args.quiet) as progress:
        while written < args.count and page is not None:
            answer = client.export_page(
                args.country, page=page, page_size=args.page_size, seed=seed, fmt=fmt, **filters
            )
            if snapshot is not None and answer.snapshot_id != snapshot:
                raise SnapshotChanged(f"a sync published a new snapshot at page {page}: export again")
            seed, snapshot, page = answer.seed, answer.snapshot_id, answer.next_page
            wanted = args.count - written
            if fmt == "csv":
                header, rows = _csv_rows(answer.body)
                if not header_done:
                    writer.writerow(header)
                    header_done = True
                writer.writerows(rows[:wanted])
                taken = len(rows[:wanted])
            else:
                lines = ndjson_lines(answer.body)[:wanted]
                if args.format == "ndjson":
                    out.writelines(f"{line}\n" for line in lines)
                else:
                    records += [json.loads(line) for line in lines]
                taken = len(lines)
            written += taken
            progress.update(taken)
    if args.format == "json":
        json.dump(records, out, ensure_ascii=False)
    return written


def _csv_rows(body: str) -> tuple[list[str], list[list[str]]]:
    header, *rows = list(csv.reader(io.StringIO(body, newline="")))
    return header, rows


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ags", description="Real published addresses for tests")
    commands = parser.add_subparsers(dest="command", required=True)
    export_cmd = commands.add_parser("export", help="distinct addresses into a file, in a seeded order")
    export_cmd.add_argument("--country", required=True, help="ISO 3166-1 alpha-2 code")
    export_cmd.add_argument(
        "--count", type=int, required=True, help="how many addresses (fewer if fewer match)"
    )
    export_cmd.add_argument("--seed", help="the same seed, the same addresses (default: one is chosen)")
    export_cmd.add_argument("--format", choices=("csv", "ndjson", "json"), default="ndjson")
    export_cmd.add_argument("--output", "-o", help="a file (default: standard output)")
    export_cmd.add_argument("--page-size", type=int, default=1000, help="addresses per request, up to 2000")
    export_cmd.add_argument("--base-url", help="the service (default: AGS_BASE_URL or http://127.0.0.1:8000)")
    export_cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    residential = export_cmd.add_mutually_exclusive_group()
    residential.add_argument("--residential", dest="residential", action="store_true", default=None)
    residential.add_argument("--any-property", dest="residential", action="store_false")
    for name in FILTERS:
        export_cmd.add_argument(f"--{name.replace('_', '-')}", dest=name)
    mcp_cmd = commands.add_parser(
        "mcp", help="the service's MCP tools over stdio, for desktop agents (token from AGS_TOKEN)"
    )
    mcp_cmd.add_argument("--base-url", help="the service (default: AGS_BASE_URL or http://127.0.0.1:8000)")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
