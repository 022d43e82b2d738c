"""The console's and the desk's files as the app serves them: only their own, with their types and
security headers."""

from __future__ import annotations

import json
import re

import pytest
from chalice.test import Client

from chalicelib.api.console import STATIC


@pytest.mark.parametrize(
    ("path", "content_type", "marker"),
    [
        ("/admin", "text/html", '<script type="module" src="admin/console.js">'),
        ("/admin/console.js", "text/javascript", "sessionStorage"),
        ("/admin/console.css", "text/css", ":root"),
        ("/admin/ui.js", "text/javascript", "export async function request"),
        ("/desk", "text/html", '<script type="module" src="desk/desk.js">'),
        ("/desk/desk.js", "text/javascript", "sessionStorage"),
        ("/desk/ui.js", "text/javascript", "export async function request"),
        ("/desk/desk.css", "text/css", ".combobox"),
    ],
)
def test_the_console_files_carry_their_type_and_a_strict_policy(
    client: Client, path: str, content_type: str, marker: str
) -> None:
    response = client.http.get(path)
    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith(content_type)
    assert marker in response.body.decode()
    policy = response.headers["Content-Security-Policy"]
    assert {"default-src 'none'", "script-src 'self'", "style-src 'self'", "frame-ancestors 'none'"} <= set(
        policy.split("; ")
    )
    assert "unsafe" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "DENY"


@pytest.mark.skipif(not (STATIC / "vendor").is_dir(), reason="make install copies swagger-ui-dist")
def test_the_pinned_swagger_ui_is_served_from_the_app(client: Client) -> None:
    response = client.http.get("/admin/vendor/swagger-ui-bundle.js")
    assert response.status_code == 200
    assert "SwaggerUIBundle" in response.body.decode()
    assert response.headers["Cache-Control"] == "public, max-age=86400"


@pytest.mark.parametrize(
    "path",
    [
        "/admin/missing.js",
        "/admin/..%2Fconsole.py",
        "/admin/.env",
        "/admin/console.py",
        "/admin/vendor/LICENSE",
    ],
)
def test_nothing_else_is_served(client: Client, path: str) -> None:
    response = client.http.get(path)
    assert response.status_code == 404
    assert json.loads(response.body)["error"]["code"] == "INVALID_REQUEST"


def test_api_answers_carry_the_basic_security_headers(client: Client) -> None:
    response = client.http.get("/api/v1/health")
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"


RISKY = (
    "innerHTML",
    "outerHTML",
    "insertAdjacentHTML",
    "document.write",
    "eval(",
    "localStorage",
    "document.cookie",
)


@pytest.mark.parametrize("page", ["index.html", "desk.html"])
def test_the_pages_have_no_inline_script_or_style(page: str) -> None:
    """What the policy would block must not be needed: no inline code, no HTML built from data, and
    a token never kept beyond the tab (no localStorage, no cookie)."""
    html = (STATIC / page).read_text()
    assert "<script>" not in html
    assert not re.search(r"\s(style|on[a-z]+)=", html)
    for script in STATIC.glob("*.js"):
        text = script.read_text()
        for risky in RISKY:
            assert risky not in text, script.name
