"""The key formats docs/architecture.md documents are the ones the code writes: every item of every
table, after a sync, a request and an administrator's action, matches exactly one documented row
of its table, and every documented row is matched by some item."""

from __future__ import annotations

import re
from pathlib import Path

import boto3
from chalice.test import Client

from chalicelib import deps
from chalicelib.domain.audit import AuditAction, AuditEntry
from tests.support.factories import bearer, issue_token, needs_sources
from tests.support.fakes import FakeClock
from tests.support.sync import sync, write_cut

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
TABLES = {
    "tokens": "tokens_table",
    "rate limits": "rate_limits_table",
    "pool": "pool_table",
    "catalog": "catalog_table",
    "audit": "audit_table",
}
Row = tuple[str, str, re.Pattern[str], re.Pattern[str] | None]  # table, item, pk, sk


def _placeholder(text: str) -> str:
    """A `<...>` value as a pattern: exact where the docs say how many digits or which shape."""
    if digits := re.search(r"(\d+) digits", text):
        return rf"\d{{{digits.group(1)}}}"
    shapes = {"YYYY-MM-DD": r"\d{4}-\d{2}-\d{2}", "YYYY-MM": r"\d{4}-\d{2}", "CC": "[A-Z]{2}"}
    if text in shapes:
        return shapes[text]
    if text == "snapshot id":
        return "[0-9a-f]{16}"
    if text in ("epoch", "generation"):  # a sync run's tag, 12 hex digits
        return "[0-9a-f]{12}"
    if text.startswith("YYYY-MM-DDT"):
        return r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z"
    if "%" in text:
        return r"\d+"
    if "hex digits" in text:
        return "[0-9a-f]+"
    return "[^#]+"


def _pattern(cell: str) -> re.Pattern[str] | None:
    if cell == "—":
        return None
    fmt = cell.strip("`")
    parts = re.split(r"<([^>]+)>", fmt)
    regex = "".join(_placeholder(p) if i % 2 else re.escape(p) for i, p in enumerate(parts))
    return re.compile(f"^{regex}$")


def documented() -> list[Row]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Key formats", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] in TABLES:
            pk = _pattern(cells[2])
            assert pk is not None, f"no partition key documented for {cells[1]}"
            rows.append((cells[0], cells[1], pk, _pattern(cells[3])))
    return rows


def _stored_keys(wired: deps.Dependencies, table: str) -> list[tuple[str, str | None]]:
    name = getattr(wired.settings, TABLES[table])
    pages = boto3.client("dynamodb").get_paginator("scan").paginate(TableName=name)
    return [(i["pk"]["S"], i["sk"]["S"] if "sk" in i else None) for page in pages for i in page["Items"]]


def _matches(row: Row, pk: str, sk: str | None) -> bool:
    _, _, pk_pattern, sk_pattern = row
    if not pk_pattern.match(pk):
        return False
    return sk is None if sk_pattern is None else sk is not None and bool(sk_pattern.match(sk))


def test_the_documented_table_parses_into_a_row_per_kind_of_item() -> None:
    rows = documented()
    assert len(rows) >= 13
    assert {table for table, *_ in rows} == set(TABLES)


@needs_sources
def test_every_stored_key_matches_exactly_one_documented_format_and_every_format_is_used(
    tmp_path: Path, dependencies: deps.Dependencies, client: Client, clock: FakeClock
) -> None:
    # San Francisco's register, cut: its city name has more postings than a head holds in both
    # generations (2,500 rows, then 2,200 more), so both have chunks; the second removes 20 rows.
    sync(dependencies, write_cut(tmp_path, "us-san_francisco_ca-eas", slice(0, 2500), "first"))
    sync(dependencies, write_cut(tmp_path, "us-san_francisco_ca-eas", slice(20, 4700), "second"))
    issued = issue_token(dependencies.stores.tokens, clock, scope="generate")
    response = client.http.get("/api/v1/generate?country=US", headers=bearer(issued))
    assert response.status_code == 200, response.body
    dependencies.stores.audit.append(AuditEntry(clock.now(), issued.token.token_id, AuditAction.SYNC_STARTED))

    rows = documented()
    used: set[int] = set()
    for table in TABLES:
        keys = _stored_keys(dependencies, table)
        assert keys, f"nothing stored in {table}"
        for pk, sk in keys:
            matching = [i for i, row in enumerate(rows) if row[0] == table and _matches(row, pk, sk)]
            assert len(matching) == 1, f"{table} item ({pk!r}, {sk!r}) matches rows {matching}"
            used.update(matching)
    assert [rows[i][:2] for i in range(len(rows)) if i not in used] == []
