"""Public probes and the interface description."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from chalice.app import Response

from chalicelib.api.endpoint import Call, Operation, endpoint, view
from chalicelib.api.models.common import HealthStatus, ReadyStatus
from chalicelib.api.route_table import served
from chalicelib.services.health import Pingable, Published, check_ready

OPENAPI_PATHS = {"public": "/api/v1/openapi.json", "admin": "/api/v1/admin/openapi.json"}


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/health",
        name="getHealth",
        summary="The API process is up",
        description="Liveness: answers 200 while the process runs, without reading storage or a token.",
        tag="probes",
        response=HealthStatus,
        scope=None,
    ),
)
def health(call: Call[None, None], _: None) -> HealthStatus:
    return HealthStatus(status="ok")


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/ready",
        name="getReady",
        summary="The API and its tables can serve traffic",
        tag="probes",
        response=ReadyStatus,
        scope=None,
        description=(
            "Ready when every DynamoDB table answers and at least one country's pool is published."
            " 503 SERVICE_UNAVAILABLE when a table does not answer (Retry-After: 5), or before the"
            " first sync publishes a country (Retry-After: 30)."
        ),
    ),
    needs=lambda d: (d.tables(), d.snapshots),
)
def ready(call: Call[None, None], needs: tuple[Sequence[Pingable], Published]) -> ReadyStatus:
    tables, published = needs
    check_ready(tables, published)
    return ReadyStatus(status="ready")


@lru_cache(maxsize=2)
def _document(kind: str) -> dict[str, Any]:
    from chalicelib.api.openapi import build_document  # the documents' builder: not for the probes

    return build_document(served().operations(), kind)


# Public, and not in their own operation lists: they describe the APIs rather than being part of them.
@view("GET", OPENAPI_PATHS["public"])
def openapi() -> Response:
    return Response(_document("public"), headers={"Cache-Control": "public, max-age=300"})


@view("GET", OPENAPI_PATHS["admin"])
def admin_openapi() -> Response:
    return Response(_document("admin"), headers={"Cache-Control": "public, max-age=300"})
