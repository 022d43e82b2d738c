"""The served OpenAPI documents, linted as testers' tools lint them: Redocly's recommended rules and
Spectral's spectral:oas report nothing (tests/contract/linters holds the pinned tools and the one
rule turned off, with its reason)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app import ROUTES
from chalicelib.api.openapi import build_document

LINTERS = Path(__file__).parent / "linters"
BIN = LINTERS / "node_modules" / ".bin"
# No telemetry and no update check: CI reaches no network but the registries.
QUIET = {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}

pytestmark = pytest.mark.skipif(not BIN.exists(), reason="make install sets up the linters")


@pytest.fixture(scope="module", params=["public", "admin"])
def document(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("openapi") / f"{request.param}.json"
    path.write_text(json.dumps(build_document(ROUTES.operations(), request.param), ensure_ascii=False))
    return path


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **QUIET}
    return subprocess.run(
        argv, cwd=LINTERS, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_redocly_recommended_reports_nothing(document: Path) -> None:
    done = _run([str(BIN / "redocly"), "lint", "--config", "redocly.yaml", "--format", "json", str(document)])
    report: dict[str, Any] = json.loads(done.stdout)
    found = [(p["ruleId"], p["location"][0]["pointer"], p["message"]) for p in report["problems"]]
    assert found == []
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}


def test_spectral_oas_reports_nothing(document: Path, tmp_path: Path) -> None:
    out = tmp_path / "spectral.json"
    argv = [str(BIN / "spectral"), "lint", "--ruleset", ".spectral.yaml", "--fail-severity", "hint"]
    done = _run([*argv, "--format", "json", "--output", str(out), str(document)])
    found = [(f["code"], ".".join(map(str, f["path"])), f["message"]) for f in json.loads(out.read_text())]
    assert found == []
    assert done.returncode == 0, done.stderr
