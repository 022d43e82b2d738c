"""Every public operation through the client openapi-python-client generates from the served
document, as a tester would call it; checked with `mypy --strict` and then run against the stack
(AGS_BASE_URL, AGS_TOKEN): each call must answer 2xx with its parsed model."""

from __future__ import annotations

import os
import sys
from typing import Any

from ags_client import AuthenticatedClient, Client
from ags_client.api.catalog import list_location_children, search_locations
from ags_client.api.context import get_client_context
from ags_client.api.generation import export_addresses, generate_address, generate_batch, get_address
from ags_client.api.probes import get_health, get_ready
from ags_client.api.reports import get_coverage, get_data_health, list_availability, list_countries
from ags_client.api.translation import translate_address
from ags_client.models import (
    BatchFilters,
    BatchOptions,
    BatchRequest,
    ExportAddressesFormat,
    GenerateResponse,
    ListLocationChildrenChildType,
    ListLocationChildrenParentType,
    SearchLocationsField,
    TranslationRequest,
    TranslationRequestTargetLocale,
)
from ags_client.types import Response


def _outcome(answer: Response[Any]) -> tuple[int, str]:
    return answer.status_code, type(answer.parsed).__name__


def main() -> int:
    base = os.environ["AGS_BASE_URL"]
    client = AuthenticatedClient(base_url=base, token=os.environ["AGS_TOKEN"])
    anonymous = Client(base_url=base)
    one = generate_address.sync_detailed(client=client, country="AD", seed="clients")
    assert isinstance(one.parsed, GenerateResponse), one.content
    address_id = one.parsed.data.result.address.id
    answers: dict[str, Response[Any]] = {
        "getHealth": get_health.sync_detailed(client=anonymous),
        "getReady": get_ready.sync_detailed(client=anonymous),
        "listCountries": list_countries.sync_detailed(client=client),
        "listAvailability": list_availability.sync_detailed(client=client),
        "getCoverage": get_coverage.sync_detailed(client=client, country="AD"),
        "getDataHealth": get_data_health.sync_detailed(client=client),
        "getClientContext": get_client_context.sync_detailed(client=client, ip="81.2.69.142"),
        "searchLocations": search_locations.sync_detailed(
            client=client, country="AD", field=SearchLocationsField.CITY, q="Andorra"
        ),
        "listLocationChildren": list_location_children.sync_detailed(
            client=client,
            country="AD",
            parent_type=ListLocationChildrenParentType.COUNTRY,
            child_type=ListLocationChildrenChildType.REGION,
        ),
        "generateAddress": one,
        "generateBatch": generate_batch.sync_detailed(
            client=client,
            body=BatchRequest(
                count=3, filters=BatchFilters(country="NL"), options=BatchOptions(seed="clients")
            ),
        ),
        "getAddress": get_address.sync_detailed(address_id, client=client),
        "translateAddress": translate_address.sync_detailed(
            client=client,
            body=TranslationRequest(address_id=address_id, target_locale=TranslationRequestTargetLocale.JA),
        ),
        "exportAddresses": export_addresses.sync_detailed(
            client=client, country="AD", page_size=5, seed="clients", format_=ExportAddressesFormat.JSON
        ),
    }
    calls = {name: _outcome(answer) for name, answer in answers.items()}
    failed = {name: status for name, (status, _) in calls.items() if not 200 <= status < 300}
    for name, (status, parsed) in calls.items():
        print(name, status, parsed)
    print(f"{len(calls)} operations, {len(failed)} failed: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
