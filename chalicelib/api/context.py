"""IP-based location context."""

from __future__ import annotations

from chalice.app import Blueprint

from chalicelib.api.endpoint import Call, Operation, endpoint
from chalicelib.api.models.reports import ClientContextQuery, ClientContextResponse
from chalicelib.api.pending import not_yet_available
from chalicelib.domain.tokens import Scope

context = Blueprint(__name__)


@endpoint(
    context,
    Operation(
        method="GET",
        path="/api/v1/client-context",
        name="getClientContext",
        tag="context",
        summary="Country, region and city of an IP address (the caller's when ip is omitted)",
        response=ClientContextResponse,
        scope=Scope.READ,
        query=ClientContextQuery,
        errors=(404,),
        implemented=False,
    ),
)
def client_context(call: Call[ClientContextQuery, None]) -> ClientContextResponse:
    raise not_yet_available("client context")
