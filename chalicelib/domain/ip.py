"""IP addresses as clients give them: parsed strictly, IPv4-mapped IPv6 read as the IPv4 address,
and only globally routable addresses treated as placeable."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

IpAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IP_DATABASE_NAME = "dbip-city-lite"  # DB-IP Lite City, named in a context's sources as ip:<name>


@dataclass(frozen=True)
class IpPlace:
    """What the IP database says about an address; empty strings in its files become None."""

    country: str
    state: str | None
    city: str | None


def parse_ip(text: str) -> IpAddress:
    """An IPv4 or IPv6 address (no prefix, no port, no zone); ValueError otherwise."""
    address = ipaddress.ip_address(text.strip())
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id is not None:
            raise ValueError("zone ids are not accepted")
        if address.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 host a.b.c.d
            return address.ipv4_mapped
    return address


def placeable(address: IpAddress) -> bool:
    """Only public addresses have a place: private, loopback, link-local, multicast, reserved,
    documentation and shared (CGNAT) ranges do not."""
    return address.is_global and not address.is_multicast
