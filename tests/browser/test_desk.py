"""The tester's desk (/desk) as a person at a form uses it, in a real browser at 375 and 1280 px,
against the stack `make run` starts (NL and AD synced): sign in with a generate token, pick a city by
type-ahead, generate, copy a field, follow the permalink to the same address, see a field's error
next to it, and axe-core (pinned in infra/console) finding nothing serious on any of those states."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from infra.local.env import PROJECT_DIR
from tests.browser.conftest import DESKTOP, SCREENSHOTS
from tests.support.local_stack import Stack

pytestmark = pytest.mark.integration

AXE = PROJECT_DIR / "infra" / "console" / "node_modules" / "axe-core" / "axe.min.js"


def _open_and_sign_in(page: Page, stack: Stack, path: str = "/desk") -> None:
    page.goto(f"http://127.0.0.1:{stack.port}{path}")
    page.get_by_label("Token").fill(stack.dev_token)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="A real address for your form")).to_be_visible()


def _serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands (the page's CSP allows no
    injected script, so the context bypasses it: see the `page` fixture's caller)."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        "async () => (await axe.run()).violations.map(v => [v.id, v.impact, v.nodes.length])"
    )
    return [
        f"{rule} ({impact}, {nodes})" for rule, impact, nodes in found if impact in {"serious", "critical"}
    ]


def _shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    width = page.viewport_size["width"] if page.viewport_size else 0
    page.screenshot(path=SCREENSHOTS / f"{name}-{width}.png", full_page=True)


def test_a_city_picked_by_type_ahead_gives_an_address_there_whose_fields_copy(
    page: Page, stack: Stack
) -> None:
    _open_and_sign_in(page, stack)
    page.get_by_label("Country").select_option("NL")
    city = page.get_by_role("combobox", name="City")
    city.press_sequentially("amst", delay=30)
    page.get_by_role("option", name=re.compile("^Amsterdam")).click()
    expect(city).to_have_value("Amsterdam")
    page.get_by_label("Seed", exact=True).fill("desk-test")
    page.get_by_role("button", name="Generate").click()
    heading = page.locator("#desk-address")
    expect(heading).to_contain_text("Amsterdam")
    _, _, served = stack.request(
        "GET", "/api/v1/generate?country=NL&city=Amsterdam&seed=desk-test", stack.dev_token
    )
    address = served["data"]["result"]["address"]
    expect(heading).to_have_text(address["formattedAddress"])  # the service's own answer, as shown
    postcode_row = page.get_by_role("row").filter(has=page.get_by_role("cell", name="Postcode", exact=True))
    expect(postcode_row).to_contain_text("published by the source")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy Postcode").click()
    expect(page.locator("#announce")).to_have_text("Copied Postcode.")
    assert page.evaluate("() => navigator.clipboard.readText()") == address["components"]["postcode"]
    page.get_by_role("button", name="Copy the record as JSON").click()
    assert json.loads(page.evaluate("() => navigator.clipboard.readText()"))["address"] == address
    _shot(page, "desk")


def test_a_region_is_picked_by_keyboard_alone(page: Page, stack: Stack) -> None:
    _open_and_sign_in(page, stack)
    page.get_by_label("Country").select_option("NL")
    region = page.get_by_role("combobox", name="Region")
    region.press_sequentially("noord", delay=30)
    suggestions = page.get_by_role("listbox", name="region suggestions")
    expect(suggestions).to_contain_text("Noord-Holland")
    names = [option.get_attribute("data-value") for option in suggestions.get_by_role("option").all()]
    for _ in range(names.index("Noord-Holland") + 1):
        region.press("ArrowDown")
    expect(suggestions.get_by_role("option", selected=True)).to_have_attribute("data-value", "Noord-Holland")
    region.press("Enter")
    expect(region).to_have_value("Noord-Holland")
    region.press("Enter")  # the list closed: Enter now submits the form
    region_row = page.get_by_role("row").filter(has=page.get_by_role("cell", name="Region", exact=True))
    expect(region_row).to_contain_text("Noord-Holland")


def test_a_permalink_shows_the_same_address_in_another_tab_and_holds_no_token(
    page: Page, stack: Stack
) -> None:
    _open_and_sign_in(page, stack)
    page.get_by_label("Country").select_option("AD")
    page.get_by_label("Seed", exact=True).fill("shared")
    page.get_by_label("Pin this snapshot").check()
    page.get_by_role("button", name="Generate").click()
    first = page.locator("#desk-address")
    expect(first).not_to_have_text("")
    shown = first.inner_text()
    page.get_by_role("button", name="Generate").click()  # pinned now: the link names the snapshot
    expect(page.locator("#desk-permalink")).to_have_attribute("href", re.compile("snapshot="))
    link = page.locator("#desk-permalink").get_attribute("href") or ""
    assert stack.dev_token not in link
    assert "seed=shared" in link
    assert "country=AD" in link
    other = page.context.browser.new_context() if page.context.browser else None
    assert other is not None
    tab = other.new_page()
    try:
        tab.goto(link)  # a new tab: signs in, then shows what the link names
        tab.get_by_label("Token").fill(stack.dev_token)
        tab.get_by_role("button", name="Sign in").click()
        expect(tab.locator("#desk-address")).to_have_text(shown)
        assert tab.evaluate("() => localStorage.length + document.cookie.length") == 0
    finally:
        other.close()


def test_fifty_at_once_and_a_csv_download_of_the_same_rows(page: Page, stack: Stack) -> None:
    _open_and_sign_in(page, stack)
    page.get_by_label("Country").select_option("AD")
    page.get_by_label("Seed", exact=True).fill("many")
    page.get_by_role("button", name="Take 50").click()
    shown = page.get_by_role("table", name=re.compile("^50 addresses"))
    expect(shown).to_be_visible()
    addresses = [row.locator("td").first.inner_text() for row in shown.locator("tbody tr").all()]
    assert len(addresses) == 50
    assert len(set(addresses)) == 50  # an export: each address once
    page.get_by_label("How many").fill("50")
    page.get_by_label("Format").select_option("csv")
    with page.expect_download() as started:
        page.get_by_role("button", name="Download").click()
    file = started.value
    assert file.suggested_filename == "addresses-AD-many.csv"
    rows = list(csv.DictReader(io.StringIO(Path(file.path()).read_text(encoding="utf-8"), newline="")))
    assert [r["formattedAddress"] for r in rows] == addresses  # the rows shown, in their order
    expect(page.get_by_role("status").filter(has_text="Downloaded addresses-AD-many.csv: 50")).to_be_visible()


def test_a_near_miss_says_what_it_changed_and_the_address_reads_in_nine_languages(
    page: Page, stack: Stack
) -> None:
    _open_and_sign_in(page, stack)
    page.get_by_label("Country").select_option("AD")
    page.get_by_label("Near miss (for negative tests)").select_option("postcode-of-another-place")
    page.get_by_role("button", name="Generate").click()
    said = re.compile(r"^A near miss for negative tests \(postcode-of-another-place\): postcode changed")
    expect(page.get_by_text(said)).to_be_visible()
    postcode_row = page.get_by_role("row").filter(has=page.get_by_role("cell", name="Postcode", exact=True))
    expect(postcode_row).to_contain_text("near miss: published for another address")
    base = (page.locator("#desk-base").get_attribute("href") or "").rsplit("address=", 1)[1]
    page.locator("#desk-base").click()  # the published address it was made from, by its id
    _, _, published = stack.request("GET", f"/api/v1/addresses/{base}", stack.dev_token)
    expect(page.locator("#desk-address")).to_have_text(published["data"]["address"]["formattedAddress"])
    expect(page.get_by_role("cell", name="Name", exact=True)).to_have_count(0)  # an address, no profile
    page.get_by_label("Country").select_option("AD")
    page.get_by_label("Near miss (for negative tests)").select_option("")
    page.get_by_role("button", name="Generate").click()
    expect(page.get_by_text(re.compile("^A near miss"))).to_have_count(0)
    page.get_by_role("button", name="In the nine display languages").click()
    languages = page.get_by_role("table", name="In the nine display languages")
    expect(languages.locator("tbody tr")).to_have_count(9)
    expect(languages.get_by_role("row").filter(has_text="Japanese")).to_contain_text("アンドラ")


def test_an_address_in_hangul_shows_its_latin_form_beneath(page: Page, stack: Stack) -> None:
    _open_and_sign_in(page, stack)
    page.get_by_label("Country").select_option("KR")
    page.get_by_label("Seed", exact=True).fill("hangul")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#desk-address")).to_have_text(re.compile(r"[\uac00-\ud7a3]"))  # Hangul syllables
    _, _, served = stack.request("GET", "/api/v1/generate?country=KR&seed=hangul", stack.dev_token)
    body = json.dumps({"addressId": served["data"]["result"]["address"]["id"], "targetLocale": "en"}).encode()
    _, _, english = stack.request("POST", "/api/v1/address-translation", stack.dev_token, body)
    expect(page.locator("#desk-latin")).to_contain_text(f"In Latin letters: {english['data']['singleLine']}")


def test_a_rate_limit_says_how_long_to_wait(page: Page, stack: Stack) -> None:
    page.goto(f"http://127.0.0.1:{stack.port}/desk")
    page.get_by_label("Token").fill(stack.make_token("generate", 2))  # signing in spends one
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#desk-address")).not_to_have_text("")
    page.get_by_role("button", name="Generate").click()
    waited = page.get_by_role("alert").filter(has_text="Too many requests for this token: try again in")
    expect(waited).to_have_text(re.compile(r"try again in \d+ s\.$"))


def test_an_expired_pin_offers_the_current_snapshot(page: Page, stack: Stack) -> None:
    gone = "0123456789abcdef"  # a snapshot this stack never published: as one swept after its 30 days
    _open_and_sign_in(page, stack, f"/desk?country=AD&seed=pinned&snapshot={gone}")
    expired = page.get_by_role("alert").filter(has_text=gone)
    expect(expired).to_be_visible()
    expired.get_by_role("button", name="Use the current snapshot").click()
    expect(page.locator("#desk-address")).not_to_have_text("")
    expect(page.get_by_label("Pin this snapshot")).not_to_be_checked()


def test_a_field_s_error_is_shown_next_to_it(page: Page, stack: Stack) -> None:
    _open_and_sign_in(page, stack)
    page.get_by_label("Near (latitude,longitude)").fill("91,0")
    page.get_by_label("Within (metres)").fill("500")
    page.get_by_role("button", name="Generate").click()
    near = page.get_by_label("Near (latitude,longitude)")
    expect(near).to_have_attribute("aria-invalid", "true")
    expect(near).to_have_accessible_description(re.compile("latitude", re.IGNORECASE))
    expect(page.get_by_role("alert").filter(has_text="Check the fields marked above")).to_be_visible()


def test_axe_finds_nothing_serious_signed_out_signed_in_with_addresses_or_an_error(
    browser_with_csp_bypassed: Page, stack: Stack
) -> None:
    page = browser_with_csp_bypassed
    page.goto(f"http://127.0.0.1:{stack.port}/desk")
    expect(page.get_by_label("Token")).to_be_visible()
    states = {"sign-in": _serious_violations(page)}
    page.get_by_label("Token").fill(stack.dev_token)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="A real address for your form")).to_be_visible()
    states["form"] = _serious_violations(page)
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#desk-address")).not_to_have_text("")
    page.get_by_role("button", name="In the nine display languages").click()
    expect(page.get_by_role("table", name="In the nine display languages")).to_be_visible()
    states["address"] = _serious_violations(page)
    page.get_by_role("button", name="Take 50").click()
    expect(page.get_by_role("table", name=re.compile("addresses"))).to_be_visible()
    states["fifty"] = _serious_violations(page)
    page.get_by_label("Near (latitude,longitude)").fill("91,0")
    page.get_by_label("Within (metres)").fill("500")
    page.get_by_role("button", name="Generate").click()
    expect(page.get_by_label("Near (latitude,longitude)")).to_have_attribute("aria-invalid", "true")
    states["field error"] = _serious_violations(page)
    assert states == {name: [] for name in states}
    if page.viewport_size and page.viewport_size["width"] == DESKTOP:
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")


# eviltransform 0.1.1's wgs2gcj (PyPI), for the same points: a published implementation of the formula.
GCJ02 = [
    ((39.908, 116.397), (39.90940337767001, 116.40324348426597)),  # Beijing
    ((31.2304, 121.4737), (31.228457704689244, 121.47822313586518)),  # Shanghai
    ((22.5431, 114.0579), (22.54038276821278, 114.06301408516)),  # Shenzhen
    ((42.5050859, 1.5250415), (42.5050859, 1.5250415)),  # Andorra: outside China, unchanged
]


def test_amap_s_gcj02_point_is_the_published_conversion_within_2_cm(page: Page, stack: Stack) -> None:
    page.goto(f"http://127.0.0.1:{stack.port}/desk")
    script = (
        "async (points) => { const m = await import('./desk/gcj02.js');"
        " return points.map(([a, b]) => m.toGcj02(a, b)); }"
    )
    converted = page.evaluate(script, [list(wgs) for wgs, _ in GCJ02])
    for (lat, lon), (_, (want_lat, want_lon)) in zip(converted, GCJ02, strict=True):
        assert abs(lat - want_lat) < 2e-7  # 2e-7 degrees: about two centimetres
        assert abs(lon - want_lon) < 2e-7
