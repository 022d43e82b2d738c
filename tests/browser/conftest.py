"""Browser tests: the console in Debian's headless Chromium (make browser installs it), driven by
Playwright, against the local stack `make run` starts (tests/conftest.py: synced_stack)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from tests.support.local_stack import Stack

pytestmark = pytest.mark.integration

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# As the machine's own check runs it: headless, and without the background connections a closed
# network refuses (Chromium would otherwise try Google's hosts at every start).
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",  # root in CI, where Chromium's sandbox cannot start
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).parent / "screenshots"
DESKTOP = 1280  # a common laptop width, where the tokens table was once cut off
WIDTHS = (375, DESKTOP)


@pytest.fixture(scope="session")
def stack(synced_stack: Stack) -> Stack:
    return synced_stack


# Per module, not per session: Playwright's sync API keeps an asyncio loop running in this thread
# while it is open, and a later module on the same worker (the MCP clients' anyio) needs the thread.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed: run make browser (make test does)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def page(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A fresh tab (its own sessionStorage) at a phone's or a desktop's width, failing the test on
    any script error or Content-Security-Policy violation the page reports."""
    context = browser.new_context(viewport={"width": request.param, "height": 900})
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    tab.on(
        "console",
        lambda message: (
            problems.append(message.text)
            if "Content Security Policy" in message.text or "Refused to" in message.text
            else None
        ),
    )
    yield tab
    context.close()
    assert problems == []


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def browser_with_csp_bypassed(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A fresh tab whose page accepts an injected script (axe-core), which the served policy refuses."""
    context = browser.new_context(viewport={"width": request.param, "height": 900}, bypass_csp=True)
    yield context.new_page()
    context.close()
