"""A Faker provider backed by the service: `fake.real_address(country="JP")` is a real published
address, `fake.real_profile(...)` its fictitious test profile. Faker's seed decides which: seed
Faker and the same calls give the same addresses (while the service's snapshot lasts, or from the
same offline file).

    fake = Faker()
    fake.add_provider(real_address_provider())          # AGS_BASE_URL, AGS_TOKEN, AGS_OFFLINE_FILE
    Faker.seed(7)
    fake.real_address(country="JP", city="和歌山市")["formattedAddress"]
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from faker.providers import BaseProvider

from ags_testkit.client import Client
from ags_testkit.draw import Filters, Source, fallback
from ags_testkit.records import Address, GeneratedAddress, Profile


class RealAddressProvider(BaseProvider):
    """Needs `source`: use real_address_provider() to make one."""

    source: Source

    def real_generated(self, country: str = "US", **filters: Any) -> GeneratedAddress:
        seed = f"faker-{self.generator.random.getrandbits(64):016x}"
        named = {k: filters.pop(k) for k in ("region", "city", "district", "postcode") if k in filters}
        return self.source.draw(seed, Filters(country=country, **named, extra=filters))

    def real_address(self, country: str = "US", **filters: Any) -> Address:
        return self.real_generated(country, **filters)["address"]

    def real_profile(self, country: str = "US", **filters: Any) -> Profile:
        return self.real_generated(country, **filters)["profile"]


def real_address_provider(
    client: Client | None = None, offline_file: str | Path | None = None
) -> type[RealAddressProvider]:
    """A provider class for `fake.add_provider`, reading the service (and the offline file, when
    the service cannot be reached) from the arguments or the environment."""
    source = fallback(client or Client(), offline_file or os.environ.get("AGS_OFFLINE_FILE"))
    return type("ConfiguredRealAddressProvider", (RealAddressProvider,), {"source": source})
