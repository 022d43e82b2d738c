"""Client context: where an IP address is (DB-IP Lite City), with its region in the catalog's terms
(ISO 3166-2 code, the value and id the published catalog uses), and ip-region generation: a
uniform draw from the published pool of the region the IP address is in.

The caller's address is API Gateway's sourceIp. X-Forwarded-For is read only when the deployment
says how many proxies in front of API Gateway it trusts (TRUSTED_PROXY_HOPS): the entry that many
places from the right, the one the outermost trusted proxy saw; anything further left is the
client's own say-so and never used."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from chalicelib.domain.ip import IP_DATABASE_NAME, IpAddress, IpPlace, parse_ip, placeable
from chalicelib.domain.locations import LocationType
from chalicelib.errors import AddressNotFound, ErrorDetail, InvalidRequest, NoPoolCoverage
from chalicelib.reference.regions import display_name, gazetteer
from chalicelib.services.context.regions import region_code
from chalicelib.services.generation import service as generation
from chalicelib.services.generation.selection import CatalogReader, Filters
from chalicelib.services.serving import ActiveSnapshotReader


class IpLocator(Protocol):
    def lookup(self, address: IpAddress) -> IpPlace | None: ...


@dataclass(frozen=True)
class ContextPorts:
    ip_database: IpLocator
    snapshots: ActiveSnapshotReader
    catalog: CatalogReader
    trusted_hops: int = 0  # proxies in front of API Gateway whose X-Forwarded-For is believed

    def caller(self, source_ip: str | None, forwarded_for: str | None) -> Caller:
        return Caller(source_ip, forwarded_for, self.trusted_hops)


@dataclass(frozen=True)
class Caller:
    """Where a request came from, as the gateway and any trusted proxies report it."""

    source_ip: str | None
    forwarded_for: str | None = None
    trusted_hops: int = 0

    def address(self) -> str | None:
        if self.trusted_hops and self.forwarded_for:
            hops = [h.strip() for h in self.forwarded_for.split(",") if h.strip()]
            if len(hops) >= self.trusted_hops:
                return hops[-self.trusted_hops]
        return self.source_ip


@dataclass(frozen=True)
class ClientContext:
    ip: str
    country: str
    region: str | None  # the catalog's value for the region (feeds the region filter)
    region_code: str | None  # ISO 3166-2
    region_id: str | None  # the region's catalog id, when the country's published pool has it
    city: str | None
    match_level: str  # "city", "region" or "country": the finest level the database knows

    @property
    def place(self) -> str:
        return f"{self.region} ({self.region_code})" if self.region else self.country


def locate(ip: str | None, caller: Caller, ports: ContextPorts) -> ClientContext:
    """Where `ip` (or, without it, the caller) is. 400 for text that is not an IP address; 404
    ADDRESS_NOT_FOUND for an address with no place (private, loopback, reserved, unlisted)."""
    text = ip if ip is not None else caller.address()
    field = "ip" if ip is not None else "sourceIp"
    if text is None:
        raise InvalidRequest(
            "no ip given and the request's own address is unknown", (ErrorDetail("ip", "missing"),)
        )
    address = _parse(text, field)
    place = ports.ip_database.lookup(address) if placeable(address) else None
    if place is None:
        kind = (
            "a public address the IP database does not list" if placeable(address) else "not a public address"
        )
        message = f"{address} has no known location: {kind}"
        raise AddressNotFound(message, (ErrorDetail(field, message),))
    return _context(str(address), place, ports)


def _parse(text: str, field: str) -> IpAddress:
    try:
        return parse_ip(text)
    except ValueError as exc:
        message = "not an IPv4 or IPv6 address"
        raise InvalidRequest(f"{field}: {message}", (ErrorDetail(field, message),)) from exc


def _context(ip: str, place: IpPlace, ports: ContextPorts) -> ClientContext:
    code = region_code(place.country, place.state) if place.state else None
    region = region_id = None
    if code is not None:
        snapshot = ports.snapshots.get(place.country)
        published = ports.catalog.find_locations(snapshot, LocationType.REGION, code) if snapshot else []
        if published:
            region, region_id = published[0].value, published[0].id
        else:
            known = gazetteer(place.country).by_code(code)
            region = display_name(known.name) if known else None
    city = place.city.split(" (")[0] if place.city else None  # "Berlin (Mitte)": the city is Berlin
    level = "city" if city else "region" if code else "country"
    return ClientContext(ip, place.country, region, code if region else None, region_id, city, level)


@dataclass(frozen=True)
class IpRegionOutcome:
    context: ClientContext
    generated: generation.Outcome

    @property
    def sources_tried(self) -> list[str]:
        return [f"ip:{IP_DATABASE_NAME}", *self.generated.sources_tried]


def generate_in_ip_region(
    filters: Filters,
    ip: str | None,
    caller: Caller,
    ports: ContextPorts,
    generation_ports: generation.GenerationPorts,
    *,
    country_given: bool,
    seed: str | None,
    pinned: str | None = None,
    request: generation.BatchRequest = generation.ONE,
) -> IpRegionOutcome:
    """One address drawn uniformly from the published pool of the IP address's region; q,
    residential and seed work as usual. No region, or one without a published pool: 404."""
    if filters.values or filters.ids:
        message = (
            "mode=ip-region chooses the region itself; leave out region, city, district and postcode filters"
        )
        raise InvalidRequest(message, (ErrorDetail("mode", message),))
    try:
        context = locate(ip, caller, ports)
    except AddressNotFound as exc:
        raise NoPoolCoverage(exc.message, (*exc.details, _tried(None))) from exc
    if country_given and filters.country != context.country:
        message = (
            f"{context.ip} is in {context.country}, not {filters.country}; leave country out or make it agree"
        )
        raise InvalidRequest(message, (ErrorDetail("country", message),))
    if context.region_id is None:
        what = (
            f"region {context.place}"
            if context.region
            else f"any region of {context.country} for {context.ip}"
        )
        message = f"no published pool for {what}"
        raise NoPoolCoverage(message, (ErrorDetail("ip", message), _tried(context)))
    region_filters = replace(filters, country=context.country, ids={LocationType.REGION: context.region_id})
    drawn = generation.generate(region_filters, generation_ports, request, seed=seed, pinned=pinned)
    return IpRegionOutcome(context, drawn)


def _tried(context: ClientContext | None) -> ErrorDetail:
    consulted = [f"ip:{IP_DATABASE_NAME}"]
    if context is not None:
        consulted.append(f"catalog:{context.country}")
    return ErrorDetail("sourcesTried", ", ".join(consulted))
