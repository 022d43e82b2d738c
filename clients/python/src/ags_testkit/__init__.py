"""Real published addresses with fictitious test profiles, from the Address Generation Service:
a typed client, a Faker provider, a pytest fixture, an offline mode and an export CLI.

Every helper is imported from here: `from ags_testkit import Client, real_address_provider`."""

from typing import TYPE_CHECKING, Any

from ags_testkit.client import ApiError, Client, SnapshotChanged, Unreachable
from ags_testkit.draw import ExportFileError, Filters, Offline, Service, Source, fallback
from ags_testkit.place import PRIMARY_LOCALES, context_args
from ags_testkit.records import Address, GeneratedAddress, Profile

if TYPE_CHECKING:  # typed as itself; imported for real by __getattr__ below
    from ags_testkit.faker_provider import real_address_provider as real_address_provider

__all__ = [
    "PRIMARY_LOCALES",
    "Address",
    "ApiError",
    "Client",
    "ExportFileError",
    "Filters",
    "GeneratedAddress",
    "Offline",
    "Profile",
    "Service",
    "SnapshotChanged",
    "Source",
    "Unreachable",
    "context_args",
    "fallback",
]  # not real_address_provider: `import *` would need Faker, an extra


def __getattr__(name: str) -> Any:
    """The Faker provider on first use: Faker is an extra (`[faker]`), not needed by the rest."""
    if name == "real_address_provider":
        from ags_testkit.faker_provider import real_address_provider

        return real_address_provider
    raise AttributeError(f"module 'ags_testkit' has no attribute {name!r}")
