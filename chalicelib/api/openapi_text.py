"""The OpenAPI documents' prose: each document's description and its tags' (api/openapi.py)."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from chalicelib.api.endpoint import Operation

_DESCRIPTION = """\
Real, published postal addresses with fictitious test profiles, for software testing.

**Authentication.** Every endpoint except the two probes and this document needs
`Authorization: Bearer <token>`. Tokens have a scope: `generate` tokens may call every endpoint;
`read` tokens may call only `read` endpoints, and get **403 `FORBIDDEN`** (an addition to the
interface's error table) on `generate` endpoints. The scope an operation needs is named in its
security requirement. `admin` tokens call only the administrators' API (its own document:
`/api/v1/admin/openapi.json`) and get 403 here.

**Rate limits.** Each token has its own per-minute limit, counted in fixed one-minute windows
(UTC). Authenticated responses carry `X-RateLimit-Limit`, `X-RateLimit-Remaining` and
`X-RateLimit-Reset` (epoch seconds at which the current window ends). Over the limit: 429
`RATE_LIMITED` with `Retry-After: 60`.

**Errors** share one shape: `{"error": {"code", "message", "details"?, "requestId"}}`. `details`
lists `{field, message}` pairs, e.g. which parameter failed validation. `requestId` is also in the
`X-Request-Id` header of every response. Unknown query parameters, repeated query parameters and
unknown body properties are rejected with 400 `INVALID_REQUEST`. 405 and 415 answers carry
`INVALID_REQUEST` too. 503 `SERVICE_UNAVAILABLE`: storage unreachable, or a setting an endpoint needs
is missing on this deployment.

**Data.** Addresses come from OpenAddresses and OpenStreetMap sources, each with its licence and
attribution in `source`. IP geolocation by [DB-IP](https://db-ip.com) (DB-IP Lite City, licensed
under CC BY 4.0), used by `/client-context` and `mode=ip-region`.

**Test agents.** The Model Context Protocol is served at `/mcp` (Streamable HTTP, stateless, JSON
answers) with the same bearer tokens. Its {TOOLS}
"""

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

ADMIN_DESCRIPTION = """\
The administrators' API of the Address Generation Service: tokens, the pool's state, syncs and the
audit log. The console at `/admin` uses it; the public API has its own document at
`/api/v1/openapi.json`.

**Authentication.** Every operation needs `Authorization: Bearer <token>` with an **`admin`** token
(`make token SCOPE=admin`, or one created here). `read` and `generate` tokens get 403 `FORBIDDEN`,
and an admin token gets 403 on the public API's operations: administering and testing use
different tokens. Admin calls count against the token's per-minute limit like any other.

**Audit.** Creating or revoking a token, starting a sync, and withdrawing or reinstating an
address are each written to the audit log (`GET /api/v1/admin/audit`) with the acting token's id
and the time.

**Errors** have the public API's shape. Additions: 201 for a created token or withdrawal, 202 for a
started sync; 404 `TOKEN_NOT_FOUND`, `WITHDRAWAL_NOT_FOUND`; 409 `SYNC_RUNNING`.
"""

# Every tag the operations use, described for the documents' tag lists (a KeyError here: a new tag
# needs its description).
TAG_TEXT = {
    "probes": "Liveness and readiness, without a token",
    "reports": "Which countries are published, their coverage and the data's health",
    "generation": "Published addresses with fictitious test profiles: one, a batch, by ID, an export",
    "catalog": "The locations of the published pool, searched or browsed, with counts",
    "context": "Where the caller's IP address is, for ip-region generation",
    "translation": "An address written in one of nine display languages",
    "admin": "Tokens, the pool's state, syncs and the audit log",
}
# Relative to the document's own URL (…/api/v1/openapi.json), so it names the API's root on any
# deployment: a custom domain's root, or an execute-api URL with its stage.


def public_description(operations: list[Operation]) -> str:
    """The public document's description, naming the MCP tools its operations declare."""
    return _DESCRIPTION.replace("{TOOLS}", _tools_said(operations))


def _tools_said(operations: list[Operation]) -> str:
    """The MCP tools as the description names them, each with its operation, wrapped as it was
    written (the document's text is compared byte for byte)."""
    named = [f"`{op.tool.name}` ({op.name})" for op in operations if op.tool]
    listed = ", ".join(named[:-1]) + f" and {named[-1]}"
    text = (
        f"{_NUMBER_WORDS[len(named)]} tools each run one operation here, with that operation's scope, "
        f"rate limit and error codes: {listed}."
    )
    indent = " " * len("answers) with the same bearer tokens. Its ")  # the line it continues
    return textwrap.fill(text, width=100, initial_indent=indent, break_on_hyphens=False).lstrip()
