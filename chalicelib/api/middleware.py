"""HTTP middleware: a request id for every response, Chalice's own errors in our shape, one access
log line per request."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from chalice.app import Request, Response

from chalicelib.api import request_scope
from chalicelib.api.errors import reshape_chalice_error
from chalicelib.logs import log_event


def http_middleware(request: Request | None, get_response: Callable[[Request | None], Response]) -> Response:
    started = time.perf_counter()
    context = request.context if request is not None else {}
    scope = request_scope.begin(context.get("requestId"))
    response = _as_utf8_json(reshape_chalice_error(get_response(request), scope.request_id))
    response.headers["X-Request-Id"] = scope.request_id
    # Every answer: no MIME sniffing, no Referer carrying our URLs (the console sets more).
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    log_event(
        "request",
        requestId=scope.request_id,
        method=request.method if request is not None else None,
        route=context.get("resourcePath"),
        path=request.path if request is not None else None,
        status=response.status_code,
        latencyMs=round((time.perf_counter() - started) * 1000, 2),
        tokenId=scope.token_id,
    )
    return response


def _as_utf8_json(response: Response) -> Response:
    """Serialize JSON bodies as UTF-8 rather than Chalice's \\u escapes: addresses in Japanese or
    Chinese stay readable and about half the size."""
    if isinstance(response.body, dict | list):
        response.body = json.dumps(response.body, ensure_ascii=False, separators=(",", ":"))
        response.headers["Content-Type"] = "application/json; charset=utf-8"
    return response
