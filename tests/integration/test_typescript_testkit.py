"""The TypeScript testkit (clients/typescript) against the local stack as `make run` starts it: its
own tests under node's test runner, then its README's quickstart as written (tests/support/
quickstarts.py): the package as `npm pack` makes it, installed into a new folder, a first call, and
its Playwright fixture filling a real HTML form in Chromium (examples/)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.local_stack import Stack
from tests.support.processes import run_ok
from tests.support.quickstarts import run_quickstarts, users_environment

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
    assert "# pass 17" in report


def test_the_readme_s_quickstart_works_as_written_in_a_new_commonjs_folder(
    synced_stack: Stack, tmp_path: Path
) -> None:
    """Pack, install into a new folder (npm's default: CommonJS), a first call, then the shipped
    Playwright example filling a real form in Chromium: the README's blocks, as written."""
    chromium = shutil.which("chromium")
    assert chromium, "make browser installs Debian's Chromium"
    env = users_environment(synced_stack, synced_stack.make_token("generate", 100_000))
    done = run_quickstarts(KIT / "README.md", tmp_path, {**env, "CHROMIUM_PATH": chromium})
    assert "type" not in json.loads((tmp_path / "package.json").read_text())  # CommonJS, as npm made it
    _, _, seeded = synced_stack.request("GET", "/api/v1/generate?country=NL&seed=signup", env["AGS_TOKEN"])
    served = seeded["data"]["result"]
    # first.mjs: the address the service serves for that seed, and its profile's name
    assert f"{served['address']['formattedAddress']} | {served['profile']['fullName']}\n" in done.stdout
    assert "1 passed" in done.stdout  # the Playwright example


def test_four_playwright_workers_draw_disjoint_slices_and_browsers_stand_at_the_address(
    packed: Path, service: dict[str, str], synced_stack: Stack, tmp_path: Path
) -> None:
    """The kit's own Playwright runs (test/browser, built with the package): four workers export up
    to 200 of AD's addresses each through agsPartition, and testInPlace's pages read the drawn
    address's point, time zone and language from the browser, in headless Chromium."""
    chromium = shutil.which("chromium")
    assert chromium, "make browser installs Debian's Chromium"
    env = {**service, "CHROMIUM_PATH": chromium, "AGS_SLICES": str(tmp_path)}
    config = "dist/test/browser/playwright.config.js"
    done = run_ok([str(NODE_BIN / "playwright"), "test", "-c", config], KIT, env)
    assert "6 passed" in done.stdout
    slices = {path.stem: set(json.loads(path.read_text())) for path in tmp_path.glob("*.json")}
    assert set(slices) == {f"{i}-of-4" for i in range(4)}
    assert sum(len(s) for s in slices.values()) == len(set().union(*slices.values()))  # none twice
    _, _, whole = synced_stack.request(
        "GET", "/api/v1/export?country=AD&seed=one-run&pageSize=1000", service["AGS_TOKEN"]
    )
    assert set().union(*slices.values()) == {r["address"]["id"] for r in whole["data"]["results"]}
