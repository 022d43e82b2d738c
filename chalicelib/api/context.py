"""Client context: where an IP address is."""

from __future__ import annotations

from chalicelib.api.endpoint import Call, Operation, endpoint
from chalicelib.api.models.reports import ClientContext, ClientContextQuery, ClientContextResponse
from chalicelib.domain.tokens import Scope
from chalicelib.services.context import service

ATTRIBUTION = "IP geolocation by [DB-IP](https://db-ip.com) (DB-IP Lite City, CC BY 4.0)."

_NOTES = f"""\
Looks up `ip`, or without it the caller's address as API Gateway reports it (X-Forwarded-For only
when the deployment trusts proxies in front of it). IPv4-mapped IPv6 addresses are looked up as
IPv4. `region` is the catalog's value for the region (so it can feed the `region` filter), with its
ISO 3166-2 `regionCode` and, when the country's pool is published, its `regionId`; `city` drops
DB-IP's district in parentheses. `matchLevel` is `city`, or `region` or `country` when the database
knows no finer. 400 INVALID_REQUEST: `ip` is not an IPv4 or IPv6 address. 404 ADDRESS_NOT_FOUND:
the address has no place (private, loopback, link-local, reserved, documentation or shared ranges,
or a public address the database does not list). 503: no IP database configured.
{ATTRIBUTION}"""


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/client-context",
        name="getClientContext",
        tag="context",
        summary="Country, region and city of an IP address (the caller's when ip is omitted)",
        description=_NOTES,
        response=ClientContextResponse,
        scope=Scope.READ,
        query=ClientContextQuery,
        errors=(404,),
        not_found="ADDRESS_NOT_FOUND",
    ),
    needs=lambda d: d.context_ports(),
)
def client_context(
    call: Call[ClientContextQuery, None], ports: service.ContextPorts
) -> ClientContextResponse:
    caller = ports.caller(call.source_ip, call.forwarded_for)
    found = service.locate(call.query.ip, caller, ports)
    return ClientContextResponse(
        data=ClientContext(
            ip=found.ip,
            country=found.country,
            region=found.region,
            region_code=found.region_code,
            region_id=found.region_id,
            city=found.city,
            match_level=found.match_level,  # type: ignore[arg-type]
        )
    )
