"""The administrator console at /admin and the tester's desk at /desk: static HTML, CSS and
JavaScript served by the app itself (no CDN), under a Content-Security-Policy that allows no inline
script or style. The pages hold no data: the console signs in with an admin token and calls
/api/v1/admin/, the desk with a generate token and calls the public API."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from chalice.app import Blueprint, Response

from chalicelib.api import request_scope
from chalicelib.api.errors import error_body

console = Blueprint(__name__)

STATIC = Path(__file__).resolve().parents[1] / "console"
_ASSET = re.compile(r"^[a-z0-9][a-z0-9-]*\.(css|js|html)$")  # no dots but the extension: no ../
_TYPES = {
    "html": "text/html; charset=utf-8",
    "css": "text/css; charset=utf-8",
    "js": "text/javascript; charset=utf-8",
}
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",  # swagger-ui's icons are data: URIs in its stylesheet
        "font-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS: dict[str, str | list[str]] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "Cross-Origin-Opener-Policy": "same-origin",
}


@console.route("/admin", methods=["GET"], content_types=["*/*"])
def page() -> Response:
    return _file(STATIC, "index.html", cache="no-cache")


@console.route("/admin/{asset}", methods=["GET"], content_types=["*/*"])
def asset(asset: str) -> Response:
    return _file(STATIC, asset, cache="no-cache")


@console.route("/desk", methods=["GET"], content_types=["*/*"])
def desk() -> Response:
    return _file(STATIC, "desk.html", cache="no-cache")


@console.route("/desk/{asset}", methods=["GET"], content_types=["*/*"])
def desk_asset(asset: str) -> Response:
    return _file(STATIC, asset, cache="no-cache")


@console.route("/admin/vendor/{asset}", methods=["GET"], content_types=["*/*"])
def vendor_asset(asset: str) -> Response:
    # Pinned releases (infra/console/package.json): a day in caches is safe.
    return _file(STATIC / "vendor", asset, cache="public, max-age=86400")


def _file(folder: Path, name: str, cache: str) -> Response:
    text = _read(folder, name) if _ASSET.fullmatch(name) else None
    if text is None:
        body = error_body("INVALID_REQUEST", "no such console file", request_scope.current().request_id)
        return Response(body, status_code=404, headers=dict(SECURITY_HEADERS))
    content_type = _TYPES[name.rsplit(".", 1)[1]]
    headers = {**SECURITY_HEADERS, "Content-Type": content_type, "Cache-Control": cache}
    return Response(text, status_code=200, headers=headers)


@lru_cache(maxsize=16)
def _read(folder: Path, name: str) -> str | None:
    path = folder / name
    return path.read_text(encoding="utf-8") if path.is_file() else None
