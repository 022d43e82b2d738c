"""The administrator console as a team lead uses it, in a real browser at 375 and 1280 px: sign in,
tokens made, used over HTTP and revoked, the pool's state, a sync started, the API docs."""

from __future__ import annotations

import re
import urllib.request
import uuid

import pytest
from playwright.sync_api import Page, expect

from app import ROUTES
from tests.browser.conftest import DESKTOP, SCREENSHOTS
from tests.support.local_stack import SYNCED, Stack

PUBLIC_OPERATIONS = sum(op.document == "public" for op in ROUTES.operations())


# An Execute waits for the stack's answer, which shares 2 cores with the rest of the suite
# (CI once took over the default 5 s for /countries at 375 px).
ANSWER_WAIT = 30_000


def _open(page: Page, stack: Stack) -> None:
    page.goto(f"http://127.0.0.1:{stack.port}/admin")


def _sign_in(page: Page, stack: Stack) -> None:
    _open(page, stack)
    page.get_by_label("Admin token").fill(stack.admin_token)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Tokens", exact=True)).to_be_visible()


def _shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=SCREENSHOTS / f"{name}-{width}.png", full_page=True)


def _create(page: Page, label: str, scope: str = "generate") -> str:
    page.get_by_label("Label").fill(label)
    page.get_by_label("Scope").select_option(scope)
    page.get_by_label("Requests per minute").fill("30")
    page.get_by_label("Expires in").fill("2h")
    page.get_by_role("button", name="Create token").click()
    secret = page.get_by_label("New token secret")
    expect(secret).to_be_visible()
    return secret.input_value()


def _http_status(stack: Stack, path: str, secret: str) -> int:
    status, _, _ = stack.request("GET", path, token=secret)
    return status


def test_the_page_is_served_with_a_strict_content_security_policy(stack: Stack) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{stack.port}/admin", timeout=10) as response:
        headers = response.headers
        html = response.read().decode()
    policy = headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert "<script>" not in html  # only <script src>: nothing inline
    assert "style=" not in html


def test_sign_in_refuses_a_wrong_token_next_to_the_field_and_keeps_the_token_in_the_session_only(
    page: Page, stack: Stack
) -> None:
    _open(page, stack)
    _shot(page, "sign-in")
    field = page.get_by_label("Admin token")
    expect(field).to_be_focused()
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#admin-token-error")).to_have_text("Enter an admin token.")
    field.fill(stack.dev_token)  # a generate token: valid, but not an admin's
    field.press("Enter")  # the keyboard alone signs in
    expect(page.locator("#admin-token-error")).to_have_text("This token is not an admin token.")
    expect(field).to_have_attribute("aria-invalid", "true")
    field.fill(stack.admin_token)
    field.press("Enter")
    expect(page.get_by_role("heading", name="Tokens", exact=True)).to_be_visible()
    stored = page.evaluate("() => [sessionStorage.length, localStorage.length, document.cookie]")
    assert stored == [1, 0, ""]
    assert stack.admin_token not in page.url
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_label("Admin token")).to_be_visible()
    assert page.evaluate("() => sessionStorage.length") == 0


def test_a_token_created_in_the_console_works_over_http_until_it_is_revoked(page: Page, stack: Stack) -> None:
    _sign_in(page, stack)
    label = f"checkout tests {page.viewport_size['width'] if page.viewport_size else 0}"
    secret = _create(page, label)
    assert re.fullmatch(r"ags_[a-z0-9]{12}_[A-Za-z0-9_-]{43}", secret)
    _shot(page, "tokens")
    if page.viewport_size and page.viewport_size["width"] == DESKTOP:  # the whole table, no scrolling
        wrap = page.locator(".table-wrap").filter(has=page.get_by_role("table", name="Tokens"))
        assert wrap.evaluate("el => el.scrollWidth <= el.clientWidth")
    assert _http_status(stack, "/api/v1/generate?country=AD", secret) == 200
    row = page.get_by_role("row").filter(has_text=label)
    page.get_by_role("button", name=f"Revoke {label}").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(label)
    dialog.get_by_role("button", name="Revoke").click()
    expect(row).to_contain_text("revoked")
    assert _http_status(stack, "/api/v1/generate?country=AD", secret) == 401
    page.get_by_role("link", name="Audit log").click()
    expect(page.get_by_role("row").filter(has_text="token.revoke").first).to_be_visible()
    _shot(page, "audit")


def test_form_errors_are_shown_next_to_their_fields(page: Page, stack: Stack) -> None:
    _sign_in(page, stack)
    page.get_by_label("Requests per minute").fill("0")
    page.get_by_label("Expires in").fill("1 year")
    page.get_by_role("button", name="Create token").click()
    for field, message in (
        ("Label", "Enter a label"),
        ("Requests per minute", "A whole number from 1 to 100000"),
        ("Expires in", "Use a number with s, m, h or d"),
    ):
        expect(page.get_by_label(field)).to_have_accessible_description(re.compile(message))
    page.get_by_label("Label").fill("too long a life")
    page.get_by_label("Requests per minute").fill("10")
    page.get_by_label("Expires in").fill("400d")  # well-formed: only the server knows the limit
    page.get_by_role("button", name="Create token").click()
    expect(page.get_by_label("Expires in")).to_have_accessible_description(re.compile("366d"))


def test_a_label_with_markup_is_shown_as_text(page: Page, stack: Stack) -> None:
    _sign_in(page, stack)
    # Unique per run: each viewport's run creates its own token in the one stack.
    label = f"<script>window.injected=1</script><img src=x onerror=window.injected=2>{uuid.uuid4().hex[:6]}"
    _create(page, label, scope="read")
    cell = page.get_by_role("cell", name=label, exact=True)
    expect(cell).to_have_text(label)
    assert cell.locator("script, img").count() == 0
    assert page.evaluate("() => window.injected") is None


def test_the_data_page_shows_every_country_of_the_pool_and_a_sync_from_start_to_end(
    page: Page, stack: Stack
) -> None:
    _sign_in(page, stack)
    page.get_by_role("link", name="Data").click()
    table = page.get_by_role("table", name="Countries", exact=True)
    for code, count in SYNCED.items():
        expect(table.get_by_role("row").filter(has_text=re.compile(f"^{code}"))).to_contain_text(f"{count:,}")
    expect(page.get_by_role("img", name=re.compile("Pool size and coverage"))).to_be_visible()
    expect(page.get_by_role("table", name="Sources in the last sync")).to_contain_text("osm-andorra")
    _shot(page, "data")
    if page.viewport_size and page.viewport_size["width"] == DESKTOP:  # one sync for the two widths
        page.get_by_role("button", name="Start sync").click()
        progress = page.locator("#sync-progress")
        expect(progress).to_contain_text(re.compile("Sync started|Sync running"))
        expect(progress).to_contain_text("Last sync", timeout=180_000)
        expect(progress).to_contain_text("succeeded")
        page.get_by_role("link", name="Audit log").click()
        expect(page.get_by_role("row").filter(has_text="sync.start").first).to_be_visible()


def test_the_docs_page_renders_the_public_api_and_tries_it_with_a_token(page: Page, stack: Stack) -> None:
    _sign_in(page, stack)
    page.get_by_role("link", name="API docs").click()
    operations = page.locator(".opblock")
    expect(operations).to_have_count(PUBLIC_OPERATIONS, timeout=20_000)
    _shot(page, "docs")
    page.get_by_role("button", name="Authorize").first.click()
    page.locator(".modal-ux input").fill(stack.dev_token)
    page.locator(".modal-ux").get_by_role("button", name="Apply credentials").click()
    page.locator(".modal-ux").get_by_role("button", name="Close").click()
    countries = page.locator(".opblock").filter(has_text="/api/v1/countries")
    countries.locator(".opblock-summary").click()
    countries.get_by_role("button", name="Try it out").click()
    countries.get_by_role("button", name="Execute").click()
    expect(countries.locator(".live-responses-table tbody .response-col_status").first).to_have_text(
        "200", timeout=ANSWER_WAIT
    )


def test_a_new_token_can_be_tried_in_the_api_docs_without_a_terminal(page: Page, stack: Stack) -> None:
    _sign_in(page, stack)
    _create(page, "tried in the docs")
    page.get_by_role("button", name="Try it in the API docs").click()
    expect(page.get_by_role("status").filter(has_text="tried in the docs")).to_be_visible()
    generate = page.locator(".opblock").filter(has_text="/api/v1/generate").first
    expect(generate).to_be_visible(timeout=20_000)
    generate.locator(".opblock-summary").click()
    generate.get_by_role("button", name="Try it out").click()
    generate.locator("input[placeholder='country']").fill("AD")
    generate.get_by_role("button", name="Execute").click()
    expect(generate.locator(".live-responses-table tbody .response-col_status").first).to_have_text(
        "200", timeout=ANSWER_WAIT
    )
    assert page.evaluate("() => sessionStorage.length") == 1  # the new token was never stored


def test_an_address_withdrawn_in_the_console_is_refused_over_http_until_reinstated(
    page: Page, stack: Stack
) -> None:
    if page.viewport_size and page.viewport_size["width"] != DESKTOP:
        pytest.skip("one withdrawal for the two widths: the stack is shared")
    _sign_in(page, stack)
    secret = _create(page, "withdrawal check")
    _, _, drawn = stack.request("GET", "/api/v1/generate?country=NL&seed=withdraw", token=secret)
    address = drawn["data"]["result"]["address"]
    page.get_by_role("link", name="Withdrawals").click()
    page.get_by_role("button", name="Withdraw").click()
    expect(page.get_by_label("Reason")).to_have_accessible_description(re.compile("Say why"))
    page.get_by_label("Address id").fill(address["id"])
    page.get_by_label("Withdraw", exact=True).select_option("address")
    page.get_by_label("Reason").fill("Resident's request, ticket 4411")
    page.get_by_role("button", name="Withdraw").click()
    expect(page.get_by_role("status")).to_contain_text("Withdrawn:")
    row = page.get_by_role("row").filter(has_text="ticket 4411")
    expect(row).to_contain_text(address["formattedAddress"])
    assert _http_status(stack, f"/api/v1/addresses/{address['id']}", secret) == 410
    _shot(page, "withdrawals")
    row.get_by_role("button", name=re.compile("Reinstate")).click()
    expect(page.get_by_role("status")).to_contain_text("Reinstated:")
    assert _http_status(stack, f"/api/v1/addresses/{address['id']}", secret) == 200
