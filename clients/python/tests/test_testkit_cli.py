"""`ags export` against a stand-in service."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import ags_testkit
import pytest
from ags_testkit.cli import main
from testkit_fakes import FakeService, record, serving

RECORDS = [record(i) for i in range(30)]


@pytest.mark.parametrize("fmt", ["ndjson", "json", "csv"])
def test_export_writes_the_count_in_the_format(
    fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / f"out.{fmt}"
    with serving(FakeService(RECORDS)) as service:
        argv = ["export", "--country", "AD", "--count", "25", "--seed", "s", "--format", fmt]
        code = main([*argv, "--page-size", "10", "--output", str(out), "--base-url", service.url])
    assert code == 0
    want = [f"ad-fixture{i:04d}" for i in range(25)]
    if fmt == "csv":
        rows = list(csv.DictReader(out.open(newline="")))
        assert [r["id"] for r in rows] == want
    else:
        text = out.read_text()
        records = json.loads(text) if fmt == "json" else [json.loads(line) for line in text.splitlines()]
        assert [r["address"]["id"] for r in records] == want
    assert "25 addresses" in capsys.readouterr().err


def test_an_error_is_a_message_and_exit_code_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with serving(FakeService(RECORDS, [(400, {})])) as service:
        code = main(["export", "--country", "AD", "--count", "5", "--base-url", service.url, "--quiet"])
    assert code == 1
    assert "400" in capsys.readouterr().err


@pytest.mark.parametrize("before", [None, "an earlier export\n"])
def test_a_failed_export_leaves_no_file_behind_nor_touches_an_earlier_one(
    before: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "jp.ndjson"
    if before is not None:
        out.write_text(before)
    # Page 1 is written, then a sync publishes a new snapshot: the export stops at page 2.
    with serving(FakeService(RECORDS, snapshots=["snap-1", "snap-2"])) as service:
        argv = ["export", "--country", "AD", "--count", "25", "--page-size", "10", "--quiet"]
        assert main([*argv, "--output", str(out), "--base-url", service.url]) == 1
    assert "new snapshot at page 2" in capsys.readouterr().err
    assert (out.read_text() if out.exists() else None) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ([] if before is None else ["jp.ndjson"])


def test_mcp_without_the_extra_names_the_install_from_the_checkout(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ags_testkit.mcp_bridge", None)  # as if mcp were not installed
    monkeypatch.delattr(ags_testkit, "mcp_bridge", raising=False)
    assert main(["mcp"]) == 1
    assert capsys.readouterr().err == (
        "ags mcp: install the MCP extra: pip install './clients/python[mcp]' from the checkout\n"
    )


def test_mcp_without_a_token_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("AGS_TOKEN", raising=False)
    assert main(["mcp"]) == 1
    assert (
        capsys.readouterr().err
        == "ags mcp: set AGS_TOKEN to a token of the service (make token prints one)\n"
    )


def test_mcp_with_no_service_to_relay_to_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AGS_TOKEN", "ags_x_y")
    assert main(["mcp", "--base-url", "http://127.0.0.1:9"]) == 1  # the discard port: nothing listens
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("ags mcp: http://127.0.0.1:9/mcp refused the token or did not answer: ")
