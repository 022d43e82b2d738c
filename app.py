"""The Chalice application: creates the app and registers its middleware, blueprints and routes;
nothing else.

The route table at the end is derived from the handlers' declarations (`@endpoint` in
chalicelib/api: a route's method, path, scope, models and MCP tool are stated there, once).
`make routes` writes it, and a unit test fails while it is stale. Go to an entry's handler to read
its route. Each route's module is imported by its first request, so a cold start's init imports
none of them (chalicelib/api/route_table.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chalice.app import Chalice

from chalicelib.api.console import console
from chalicelib.api.middleware import http_middleware
from chalicelib.api.route_table import Route, RouteTable, lazy_module
from chalicelib.jobs import jobs

app = Chalice(app_name="address-generation-service")
app.register_middleware(http_middleware, "http")
for blueprint in (console, jobs):
    app.register_blueprint(blueprint)


# The routes, written by `make routes` from the handlers' declarations: edit those, not these lines.
# fmt: off
if TYPE_CHECKING:
    from chalicelib.api import (
        admin,
        catalog,
        context,
        export,
        generation,
        mcp_endpoint,
        probes,
        reports,
        translation,
        withdrawals,
    )
else:  # at run time, each is imported by its first request
    admin = lazy_module("admin")
    catalog = lazy_module("catalog")
    context = lazy_module("context")
    export = lazy_module("export")
    generation = lazy_module("generation")
    mcp_endpoint = lazy_module("mcp_endpoint")
    probes = lazy_module("probes")
    reports = lazy_module("reports")
    translation = lazy_module("translation")
    withdrawals = lazy_module("withdrawals")

ROUTES = RouteTable(
    Route("GET", "/api/v1/health", probes.health),
    Route("GET", "/api/v1/ready", probes.ready),
    Route("GET", "/api/v1/openapi.json", probes.openapi),
    Route("GET", "/api/v1/admin/openapi.json", probes.admin_openapi),
    Route("GET", "/api/v1/generate", generation.generate, tool="generate_address"),
    Route("POST", "/api/v1/generate/batch", generation.generate_batch, json_body=True, tool="generate_batch"),
    Route("GET", "/api/v1/addresses/{id}", generation.get_address, tool="get_address"),
    Route("GET", "/api/v1/export", export.export_addresses),
    Route("GET", "/api/v1/locations/search", catalog.search_locations, tool="search_locations"),
    Route("GET", "/api/v1/locations/hierarchy", catalog.hierarchy),
    Route("GET", "/api/v1/client-context", context.client_context),
    Route("POST", "/api/v1/address-translation", translation.translate_address, json_body=True, tool="translate_address"),
    Route("GET", "/api/v1/countries", reports.countries, tool="list_countries"),
    Route("GET", "/api/v1/availability", reports.availability),
    Route("GET", "/api/v1/coverage", reports.coverage),
    Route("GET", "/api/v1/data-health", reports.data_health),
    Route("GET", "/api/v1/admin/tokens", admin.list_tokens),
    Route("POST", "/api/v1/admin/tokens", admin.create_token, json_body=True),
    Route("POST", "/api/v1/admin/tokens/{tokenId}/revoke", admin.revoke_token),
    Route("GET", "/api/v1/admin/data", admin.data_status),
    Route("POST", "/api/v1/admin/sync", admin.start_sync),
    Route("GET", "/api/v1/admin/audit", admin.audit_log),
    Route("POST", "/api/v1/admin/withdrawals", withdrawals.withdraw_address, json_body=True),
    Route("GET", "/api/v1/admin/withdrawals", withdrawals.list_withdrawals),
    Route("DELETE", "/api/v1/admin/withdrawals/{withdrawalId}", withdrawals.reinstate_address),
    Route("POST", "/mcp", mcp_endpoint.mcp_post, json_body=True),
    Route("GET", "/mcp", mcp_endpoint.mcp_get),
    Route("DELETE", "/mcp", mcp_endpoint.mcp_delete),
)
# fmt: on
ROUTES.register(app)
