"""Per-request facts shared by the middleware and the route wrapper (one request per Lambda at a time)."""

from __future__ import annotations

import uuid
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class RequestScope:
    request_id: str
    token_id: str | None = None


_current: ContextVar[RequestScope | None] = ContextVar("request_scope", default=None)


def begin(request_id: str | None) -> RequestScope:
    scope = RequestScope(request_id=request_id or uuid.uuid4().hex)
    _current.set(scope)
    return scope


def current() -> RequestScope:
    """The scope of the request in flight; a fresh one when called outside the middleware."""
    return _current.get() or begin(None)
