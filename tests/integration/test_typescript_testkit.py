"""The TypeScript testkit (clients/typescript) against the local stack as `make run` starts it: its
own tests under node's test runner, then the package as `npm pack` makes it, installed into a
tester's project, its Playwright fixture filling a real HTML form in Chromium (the README's
quickstart, examples/)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.local_stack import Stack
from tests.support.processes import run_ok

pytestmark = pytest.mark.integration

KIT = Path(__file__).parents[2] / "clients" / "typescript"
NODE_BIN = KIT / "node_modules" / ".bin"


@pytest.fixture(scope="module")
def service(synced_stack: Stack) -> dict[str, str]:
    token = synced_stack.make_token("generate", 100_000)
    return {"AGS_BASE_URL": f"http://127.0.0.1:{synced_stack.port}", "AGS_TOKEN": token}


@pytest.fixture(scope="module")
def packed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`npm pack` (its prepack builds with tsc --strict): the tarball a tester installs."""
    assert (NODE_BIN / "tsc").exists(), "make install sets up clients/typescript"
    into = tmp_path_factory.mktemp("pack")
    run_ok(["npm", "pack", "--pack-destination", str(into), "--silent"], KIT)
    [tarball] = into.glob("ags-testkit-*.tgz")
    return tarball


def test_the_kit_s_own_tests_pass_under_node_s_runner_live_ones_included(
    packed: Path, service: dict[str, str]
) -> None:
    tests = sorted(str(p.relative_to(KIT)) for p in (KIT / "dist" / "test").glob("*.test.js"))
    report = run_ok(["node", "--test", *tests], KIT, service).stdout
    assert "# fail 0" in report
    assert "# skipped 0" in report  # the live tests ran against the stack
    assert "# pass 14" in report


def test_the_packed_kit_s_playwright_fixture_fills_a_real_form_in_chromium(
    packed: Path, service: dict[str, str], tmp_path: Path
) -> None:
    chromium = shutil.which("chromium")
    assert chromium, "make browser installs Debian's Chromium"
    (tmp_path / "package.json").write_text('{"name": "shop-tests", "private": true, "type": "module"}')
    # From npm's cache when make install has fetched the same versions (prefer-offline).
    install = ["npm", "install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"]
    run_ok([*install, str(packed), "@playwright/test@1.65.1"], tmp_path)
    for example in (tmp_path / "node_modules" / "ags-testkit" / "examples").iterdir():
        shutil.copy(example, tmp_path / example.name)
    report = run_ok(["npx", "playwright", "test"], tmp_path, {**service, "CHROMIUM_PATH": chromium}).stdout
    assert "1 passed" in report
