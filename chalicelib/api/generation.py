"""Generation: one address, a batch, and lookup by ID."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel
from pydantic.alias_generators import to_camel

from chalicelib.api.endpoint import Call, Download, Immutable, Operation, endpoint
from chalicelib.api.models.addresses import (
    Address,
    AddressData,
    AddressPath,
    AddressQuery,
    AddressResponse,
    BatchData,
    BatchRequest,
    BatchResponse,
    Completeness,
    Components,
    Coordinates,
    GeneratedAddress,
    GenerateData,
    GenerateQuery,
    GenerateResponse,
    IpRegion,
    LatinName,
    LocationFilters,
    NameForms,
    Phone,
    SourceRef,
    TestProfile,
    Variant,
)
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.geo import MAX_COVER, MAX_SIDE, Area, Box, Circle, cover
from chalicelib.domain.locations import LocationType
from chalicelib.domain.near_misses import Variant as DomainVariant
from chalicelib.domain.near_misses import VariantKind
from chalicelib.domain.tokens import Scope
from chalicelib.errors import ErrorDetail, InvalidRequest
from chalicelib.reference.time_zones import zone_at
from chalicelib.services.generation import service
from chalicelib.services.generation.names import PersonName
from chalicelib.services.generation.profiles import TestProfile as DomainProfile
from chalicelib.services.generation.selection import Filters

if TYPE_CHECKING:
    from chalicelib.services.context.service import ContextPorts

A = TypeVar("A", bound=BaseModel | Download)

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
    ),
    needs=lambda d: GenerationNeeds(d.generation_ports(), d.context_ports),
)
def generate(call: Call[GenerateQuery, None], needs: GenerationNeeds) -> GenerateResponse | Immutable:
    query = call.query
    _check_mode(query.mode, query.ip, query.variant)
    filters = filters_of(query, query.country, query.residential, query.complete)
    if query.mode == "ip-region":
        return _generate_in_ip_region(call, filters, needs)
    variant = VariantKind(query.variant) if query.variant else None
    outcome = service.generate(filters, needs.ports, seed=query.seed, pinned=query.snapshot, variant=variant)
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
    ),
    needs=lambda d: d.generation_ports(),
)
def get_address(
    call: Call[AddressQuery, None], ports: service.GenerationPorts
) -> AddressResponse | Immutable:
    found = service.get_address(call.path["id"], ports, pinned=call.query.snapshot)
    snapshot_id = found.served.snapshot.snapshot_id
    answer = AddressResponse(data=AddressData(address=address_out(found.address), snapshot_id=snapshot_id))
    return cacheable(answer, found.served.pinned_until, reproducible=True)


def cacheable(answer: A, pinned_until: datetime | None, *, reproducible: bool) -> A | Immutable:
    """A reproducible (seeded) answer from a pinned snapshot stays the same until the snapshot may
    expire; anything else is sent as it is."""
    return Immutable(answer, pinned_until) if pinned_until is not None and reproducible else answer


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


def _check_mode(mode: str | None, ip: str | None, variant: str | None) -> None:
    if mode is None and ip is not None:
        raise InvalidRequest(
            "ip is only used with mode=ip-region", (ErrorDetail("ip", "needs mode=ip-region"),)
        )
    if mode is not None and variant is not None:
        message = "variant is not available with mode=ip-region"
        raise InvalidRequest(message, (ErrorDetail("variant", message),))


_LEVELS = (
    (LocationType.REGION, "region", "region_id"),
    (LocationType.CITY, "city", "city_id"),
    (LocationType.DISTRICT, "district", "district_id"),
    (LocationType.POSTCODE, "postcode", "postcode_id"),
)


def filters_of(source: LocationFilters, country: str, residential: bool | None, complete: bool) -> Filters:
    values = {kind: v for kind, name, _ in _LEVELS if (v := getattr(source, name)) is not None}
    ids = {kind: v for kind, _, name in _LEVELS if (v := getattr(source, name)) is not None}
    licences = tuple(source.license.split(",")) if source.license else ()
    traits = tuple(source.traits.split(",")) if source.traits else ()
    return Filters(
        country=country,
        values=values,
        ids=ids,
        q=source.q,
        residential=residential,
        complete=complete,
        licences=licences,
        traits=traits,
        property_type=source.property_type,
        area=area_of(source),
    )


def area_of(source: LocationFilters) -> Area | None:
    """The circle of `near` and `radius` or the box of `bbox`; 400 naming the field at fault."""
    if source.near is None and source.radius is not None:
        raise _bad("radius", "radius needs near=<latitude>,<longitude>")
    if source.near is not None:
        if source.bbox is not None:
            raise _bad("bbox", "give near and radius, or bbox, not both")
        if source.radius is None:
            raise _bad("radius", "near needs radius=<metres>, 1 to 50000")
        lat, lon = (float(v) + 0.0 for v in source.near.split(","))  # + 0.0: -0 is 0
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise _bad("near", "latitude -90 to 90, longitude -180 to 180")
        return _coverable(Circle(lat, lon, source.radius), "near")
    if source.bbox is None:
        return None
    west, south, east, north = (float(v) for v in source.bbox.split(","))
    if not (-90 <= south <= north <= 90 and -180 <= west <= east <= 180):
        raise _bad(
            "bbox", "west,south,east,north: west <= east (not across the antimeridian), south <= north"
        )
    box = Box(south + 0.0, west + 0.0, north + 0.0, east + 0.0)
    if box.longest_side() > MAX_SIDE:
        raise _bad("bbox", f"a side of the box is over {MAX_SIDE // 1000} km")
    return _coverable(box, "bbox")


def _coverable(area: Area, field: str) -> Area:
    """The area, unless it lies so near a pole that its cover would be hundreds of cells."""
    if len(cover(area)) > MAX_COVER:
        raise _bad(field, "too near a pole: the area would be read as hundreds of cells")
    return area


def _bad(field: str, message: str) -> InvalidRequest:
    return InvalidRequest(f"invalid {field}: {message}", (ErrorDetail(field, message),))


def generated_out(g: service.Generated) -> GeneratedAddress:
    return GeneratedAddress(
        address=address_out(g.address), profile=_profile(g.profile), variant=_variant(g.variant)
    )


def _variant(v: DomainVariant | None) -> Variant | None:
    if v is None:
        return None
    changed = [to_camel(name) for name in v.changed]
    return Variant(kind=v.kind.value, changed=changed, base=v.base, donor=v.donor)


def address_out(a: PublishedAddress) -> Address:
    """The parts whose names agree are read by pydantic; the reshaped ones (the point, the source,
    the enums' values) are spelled out."""
    return Address(
        id=a.id,
        country_code=a.country,
        match_level=a.match_level.value,
        property_type=a.property_type.value,
        formatted_address=a.formatted,
        components=Components.model_validate(a.components, from_attributes=True),
        coordinates=Coordinates(latitude=a.lat, longitude=a.lon),
        time_zone=zone_at(a.lat, a.lon),
        source=SourceRef(
            id=a.provenance.source_id, license=a.provenance.license, attribution=a.provenance.attribution
        ),
        derived=list(a.derived),
        completeness=Completeness.model_validate(a.completeness, from_attributes=True),
    )


def _profile(p: DomainProfile) -> TestProfile:
    name, phone = p.name, p.phone
    latin = name.latin
    return TestProfile(
        given_name=name.native.given,
        family_name=name.native.family,
        full_name=name.native.full,
        latin=LatinName(
            given_name=latin.given,
            family_name=latin.family,
            full_name=latin.full,
            system=name.latin_system or "",
        )
        if latin
        else None,
        kana=_forms(name.kana) if name.kana else None,
        gender=p.gender,
        date_of_birth=p.date_of_birth,
        email=p.email,
        phone=Phone(
            number=phone.number,
            national=phone.national,
            e164=phone.e164,
            type=phone.kind,
            area=phone.area,
            dialable=phone.dialable,
            note=phone.note,
        ),
    )


def _forms(name: PersonName) -> NameForms:
    return NameForms(given_name=name.given, family_name=name.family, full_name=name.full)
