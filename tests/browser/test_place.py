"""The Python kit's context_args in headless Chromium: a page that asks where and when the customer
is sees the drawn address's point, time zone and country's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from ags_testkit import Client, context_args
from playwright.sync_api import Browser, Route

from tests.support.local_stack import Stack

# The page both kits' browser tests open.
PAGE = (Path(__file__).parents[2] / "clients" / "testdata" / "where-am-i.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("country", ["KR", "NL", "AD"])
def test_a_context_from_context_args_stands_at_the_drawn_address(
    browser: Browser, stack: Stack, country: str
) -> None:
    client = Client(f"http://127.0.0.1:{stack.port}", stack.make_token("generate", 1000))
    drawn = client.generate(country, seed="in-place")
    args = context_args(drawn)
    context = browser.new_context(**args)
    try:
        page = context.new_page()

        def shop(route: Route) -> None:
            route.fulfill(content_type="text/html", body=PAGE)

        page.route("https://shop.test/**", shop)
        page.goto("https://shop.test/")
        page.wait_for_function("document.getElementById('where').textContent !== 'asking'")
        seen = json.loads(page.locator("#where").text_content() or "{}")
    finally:
        context.close()
    point = drawn["address"]["coordinates"]
    assert seen == {
        "latitude": point["latitude"],
        "longitude": point["longitude"],
        "timeZone": drawn["address"]["timeZone"],
        "language": {"KR": "ko-KR", "NL": "nl-NL", "AD": "ca-AD"}[country],
    }
