"""Generation: one address, a batch, and lookup by ID."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chalicelib.api.endpoint import Call, Immutable, McpTool, Operation, cacheable, endpoint
from chalicelib.api.filters import check_mode, filters_of
from chalicelib.api.models.addresses import (
    AddressData,
    AddressResponse,
    BatchData,
    BatchResponse,
    GenerateData,
    GenerateResponse,
    IpRegion,
)
from chalicelib.api.models.requests import AddressPath, AddressQuery, BatchRequest, GenerateQuery
from chalicelib.api.presenters.addresses import address_out, generated_out
from chalicelib.api.presenters.tool_text import address_text, batch_text, generate_text
from chalicelib.domain.near_misses import VariantKind
from chalicelib.domain.tokens import Scope
from chalicelib.services.generation import service
from chalicelib.services.generation.selection import Filters

if TYPE_CHECKING:
    from chalicelib.services.context.service import ContextPorts

_GENERATE_NOTES = """\
Exactly uniform over every published address matching the filters (one DynamoDB read). A location
filter may be given as its value (case-insensitive; ISO codes and other spellings also match) or its
stable ID; both forms select the same set, and giving both requires they agree. `residential`
defaults to true for CN. With `seed`, the same request returns the same address and profile for as
long as the same snapshot (`snapshotId`) is active; it is the first address of the seeded unique
batch with the same filters. `q` matches through the snapshot's text index,
every match equally likely: each word of `q` must be a whole word of the address's components,
one-line form or other-language names (case-, accent- and width-insensitive: `asvellir` finds
`Ásvellir`, `galvani` does not find `Galvanistraat`), and each run of Han, kana or Hangul must occur
in them as written (`光路` finds `莒光路144巷`); 404 only when no address matches.
`strategy=instant` is served exactly like `random`, which is already a single read. 404
NO_POOL_COVERAGE: no published pool for the country, an unknown location value or ID, or no address
left after the filters.

`mode=ip-region` draws uniformly from the published pool of the first-level region that `ip` (or,
without it, the caller's address) is in, per the IP database (IP geolocation by
[DB-IP](https://db-ip.com), CC BY 4.0); `q`, `residential` (default from the IP's country) and `seed`
work as usual, `country` may be left out (given, it must be the IP's), and region, city, district and
postcode filters are refused (400), as is `ip` without `mode=ip-region`. `sourcesTried` starts with
`ip:dbip-city-lite`, and `ipContext` says which region was used. 404 NO_POOL_COVERAGE names the region
when it has no published pool (no fallback to the rest of the country: a draw outside the IP's region
would mislead), names the country when the address maps to no region, and covers addresses without a
place; its details list `sourcesTried`."""


@dataclass(frozen=True)
class GenerationNeeds:
    """The pool, and the IP context only mode=ip-region opens (it may be unconfigured)."""

    ports: service.GenerationPorts
    context: Callable[[], ContextPorts]


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/generate",
        name="generateAddress",
        tag="generation",
        summary="One published address matching the filters, with a fictitious test profile",
        description=_GENERATE_NOTES,
        response=GenerateResponse,
        scope=Scope.GENERATE,
        query=GenerateQuery,
        errors=(404, 410),
        cacheable=True,
        tool=McpTool("generate_address", "Generate a real address", generate_text),
    ),
    needs=lambda d: GenerationNeeds(d.generation_ports(), d.context_ports),
)
def generate(call: Call[GenerateQuery, None], needs: GenerationNeeds) -> GenerateResponse | Immutable:
    query = call.query
    check_mode(query.mode, query.ip, query.variant)
    filters = filters_of(query, query.country, query.residential, query.complete)
    if query.mode == "ip-region":
        return _generate_in_ip_region(call, filters, needs)
    variant = VariantKind(query.variant) if query.variant else None
    request = service.BatchRequest(
        count=1, variant=variant, email_domain=query.email_domain, related=query.related
    )
    outcome = service.generate(filters, needs.ports, request, seed=query.seed, pinned=query.snapshot)
    answer = GenerateResponse(
        data=GenerateData(
            request_id=query.request_id,
            country=query.country,
            mode="address",
            sources_tried=outcome.sources_tried,
            snapshot_id=outcome.snapshot.snapshot_id,
            result=generated_out(outcome.results[0]),
        )
    )
    return cacheable(answer, outcome.pinned_until, reproducible=query.seed is not None)


@endpoint(
    Operation(
        method="POST",
        path="/api/v1/generate/batch",
        name="generateBatch",
        tag="generation",
        summary="Up to 50 published addresses matching the filters, each with a test profile",
        description="Filters and seeds work as for /generate. With unique (default) no address repeats; "
        "excludeAddressIds are never returned; when fewer addresses match than requested, all of them "
        "are returned and returnedCount < requestedCount. Seeded, the i-th address depends on the seed, "
        "snapshot, filters, unique and i alone: a batch of 5 is the first five of the batch of 50, and "
        "excluding an address moves the next ones up.",
        response=BatchResponse,
        scope=Scope.GENERATE,
        body=BatchRequest,
        errors=(404, 410),
        cacheable=True,
        read_only=True,  # a POST for its body: it reads, writes nothing
        tool=McpTool("generate_batch", "Generate a batch of addresses", batch_text),
    ),
    needs=lambda d: d.generation_ports(),
)
def generate_batch(
    call: Call[None, BatchRequest], ports: service.GenerationPorts
) -> BatchResponse | Immutable:
    body = call.body
    request = service.BatchRequest(
        count=body.count,
        unique=body.options.unique,
        excluded=frozenset(body.exclude_address_ids),
        variant=VariantKind(body.options.variant) if body.options.variant else None,
        email_domain=body.options.email_domain,
        related=body.options.related,
    )
    filters = filters_of(body.filters, body.filters.country, body.filters.residential, body.filters.complete)
    options = body.options
    outcome = service.generate_batch(filters, ports, request, seed=options.seed, pinned=options.snapshot)
    answer = BatchResponse(
        data=BatchData(
            request_id=options.request_id,
            requested_count=body.count,
            returned_count=len(outcome.results),
            unique=options.unique,
            snapshot_id=outcome.snapshot.snapshot_id,
            results=[generated_out(g) for g in outcome.results],
        )
    )
    return cacheable(answer, outcome.pinned_until, reproducible=options.seed is not None)


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/addresses/{id}",
        name="getAddress",
        tag="generation",
        summary="A published address by its ID, from its country's current or a pinned snapshot",
        description="404 ADDRESS_NOT_FOUND for an ID that is not in the active snapshot of its country "
        "(including an address that left the pool in a later snapshot), or not in the pinned one. "
        "With `snapshot`, the answer comes from that snapshot while it is kept (an address that has "
        "left the pool since is still found there), with a strong ETag and Cache-Control: immutable; "
        "410 SNAPSHOT_EXPIRED once it is not. 410 ADDRESS_WITHDRAWN for an address an operator "
        "withdrew (a resident asked), from any snapshot.",
        response=AddressResponse,
        scope=Scope.READ,
        query=AddressQuery,
        path_params=AddressPath,
        errors=(404, 410),
        cacheable=True,
        not_found="ADDRESS_NOT_FOUND",
        gone=("SNAPSHOT_EXPIRED", "ADDRESS_WITHDRAWN"),
        tool=McpTool("get_address", "Read an address by its ID", address_text),
    ),
    needs=lambda d: d.generation_ports(),
)
def get_address(
    call: Call[AddressQuery, None], ports: service.GenerationPorts
) -> AddressResponse | Immutable:
    found = service.get_address(call.path["id"], ports, pinned=call.query.snapshot)
    snapshot_id = found.served.snapshot.snapshot_id
    answer = AddressResponse(
        data=AddressData(address=address_out(found.address, found.time_zone), snapshot_id=snapshot_id)
    )
    return cacheable(answer, found.served.pinned_until, reproducible=True)


def _generate_in_ip_region(
    call: Call[GenerateQuery, None], filters: Filters, needs: GenerationNeeds
) -> GenerateResponse | Immutable:
    from chalicelib.services.context import service as context_service  # mode=ip-region only

    query, context = call.query, needs.context()  # 503 here when no IP database is configured
    outcome = context_service.generate_in_ip_region(
        filters,
        query.ip,
        context.caller(call.source_ip, call.forwarded_for),
        context,
        needs.ports,
        country_given="country" in query.model_fields_set,
        seed=query.seed,
        request=service.BatchRequest(count=1, email_domain=query.email_domain, related=query.related),
        pinned=query.snapshot,
    )
    found = outcome.context
    answer = GenerateResponse(
        data=GenerateData(
            request_id=query.request_id,
            country=found.country,
            mode="ip-region",
            sources_tried=outcome.sources_tried,
            snapshot_id=outcome.generated.snapshot.snapshot_id,
            result=generated_out(outcome.generated.results[0]),
            ip_context=IpRegion(ip=found.ip, region=found.region, region_code=found.region_code),
        )
    )
    # Reproducible only for a given ip: without one, the caller's address decides the region.
    reproducible = query.seed is not None and query.ip is not None
    return cacheable(answer, outcome.generated.pinned_until, reproducible=reproducible)
