"""Every API route's method, path, module and view, so the app registers them without importing
them: a route's module (its models, services and, through them, storage) is imported by its first
request, and a cold start pays only for what it serves. A unit test holds this table to the
operations and views the modules register (tests/unit/test_route_table.py)."""

from __future__ import annotations

import gc
import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chalice.app import Request, Response

if TYPE_CHECKING:
    from chalicelib.api.endpoint import Operation


@dataclass(frozen=True)
class Route:
    method: str
    path: str
    module: str  # under chalicelib.api
    view: str  # the handler's name: the view's name in Chalice's routes and the packaged API
    json_body: bool = False  # takes a JSON body: Chalice accepts only application/json for it

    @property
    def content_types(self) -> list[str]:
        return ["application/json"] if self.json_body else ["*/*"]


ROUTES: tuple[Route, ...] = (
    Route("GET", "/api/v1/health", "probes", "health"),
    Route("GET", "/api/v1/ready", "probes", "ready"),
    Route("GET", "/api/v1/openapi.json", "probes", "openapi"),
    Route("GET", "/api/v1/admin/openapi.json", "probes", "admin_openapi"),
    Route("GET", "/api/v1/countries", "reports", "countries"),
    Route("GET", "/api/v1/availability", "reports", "availability"),
    Route("GET", "/api/v1/coverage", "reports", "coverage"),
    Route("GET", "/api/v1/data-health", "reports", "data_health"),
    Route("GET", "/api/v1/generate", "generation", "generate"),
    Route("POST", "/api/v1/generate/batch", "generation", "generate_batch", json_body=True),
    Route("GET", "/api/v1/addresses/{id}", "generation", "get_address"),
    Route("GET", "/api/v1/export", "export", "export_addresses"),
    Route("GET", "/api/v1/locations/search", "catalog", "search_locations"),
    Route("GET", "/api/v1/locations/hierarchy", "catalog", "hierarchy"),
    Route("GET", "/api/v1/client-context", "context", "client_context"),
    Route("POST", "/api/v1/address-translation", "translation", "translate_address", json_body=True),
    Route("GET", "/api/v1/admin/tokens", "admin", "list_tokens"),
    Route("POST", "/api/v1/admin/tokens", "admin", "create_token", json_body=True),
    Route("POST", "/api/v1/admin/tokens/{tokenId}/revoke", "admin", "revoke_token"),
    Route("GET", "/api/v1/admin/data", "admin", "data_status"),
    Route("POST", "/api/v1/admin/sync", "admin", "start_sync"),
    Route("GET", "/api/v1/admin/audit", "admin", "audit_log"),
    Route("POST", "/api/v1/admin/withdrawals", "withdrawals", "withdraw_address", json_body=True),
    Route("GET", "/api/v1/admin/withdrawals", "withdrawals", "list_withdrawals"),
    Route("DELETE", "/api/v1/admin/withdrawals/{withdrawalId}", "withdrawals", "reinstate_address"),
    # The Model Context Protocol's Streamable HTTP endpoint, for test agents (api/mcp_endpoint.py).
    Route("POST", "/mcp", "mcp_endpoint", "mcp_post", json_body=True),
    Route("GET", "/mcp", "mcp_endpoint", "mcp_get"),
    Route("DELETE", "/mcp", "mcp_endpoint", "mcp_delete"),
)


def load(module: str) -> None:
    """Import a route module: its decorators register its operations and views (api/endpoint.py)."""
    importlib.import_module(f"chalicelib.api.{module}")


def load_all() -> None:
    for module in dict.fromkeys(route.module for route in ROUTES):
        load(module)


_served = False  # whether this process has begun a request


def handle(route: Route, request: Request, path_params: dict[str, str]) -> Response:
    """Answer a request on `route`, its module imported first (at once, when it is already).

    A process's first request imports most of the service (its route module, the wiring,
    storage): objects the cyclic collector would traverse again and again to find no garbage
    (13% of a cold first /generate). It runs with the collector paused, and what it built then
    moves to the permanent generation, which later collections skip."""
    global _served
    if _served:
        return _answer(route, request, path_params)
    _served = True
    gc.disable()
    try:
        return _answer(route, request, path_params)
    finally:
        gc.freeze()
        gc.enable()


def dispatch(method: str, path: str, request: Request, path_params: dict[str, str]) -> Response:
    """Answer `request` as the route for (method, path) does, from within another route (an MCP
    tool call runs the REST operation it names, through the same pipeline)."""
    return _answer(route(method, path), request, path_params)


def route(method: str, path: str) -> Route:
    """The table's entry for (method, path)."""
    return next(r for r in ROUTES if (r.method, r.path) == (method, path))


def _answer(route: Route, request: Request, path_params: dict[str, str]) -> Response:
    load(route.module)
    from chalicelib.api.endpoint import VIEWS  # with the first route module, not with the app

    return VIEWS[(route.method, route.path)](request, path_params)


def operations() -> list[Operation]:
    """Every operation of the API, its route modules imported first (the OpenAPI documents), in the
    table's order whatever was imported first."""
    load_all()
    from chalicelib.api.endpoint import OPERATIONS

    order = {(route.method, route.path): n for n, route in enumerate(ROUTES)}
    return sorted(OPERATIONS, key=lambda op: order[(op.method, op.path)])
