"""Real published addresses with fictitious test profiles, from the Address Generation Service:
a typed client, a Faker provider, a pytest fixture, an offline mode and an export CLI."""

from ags_testkit.client import ApiError, Client, SnapshotChanged, Unreachable
from ags_testkit.draw import Filters, Offline, Service, Source, fallback
from ags_testkit.records import Address, GeneratedAddress, Profile

__all__ = [
    "Address",
    "ApiError",
    "Client",
    "Filters",
    "GeneratedAddress",
    "Offline",
    "Profile",
    "Service",
    "SnapshotChanged",
    "Source",
    "Unreachable",
    "fallback",
]
