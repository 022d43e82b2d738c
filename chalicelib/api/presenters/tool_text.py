"""The short text form of an MCP tool's answer, from its operation's response model: what an agent
pastes into a form, field by field (the JSON follows it in the tool's answer)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # read here, never built: a route declaring a tool imports no other route's models
    from chalicelib.api.models.addresses import (
        Address,
        AddressResponse,
        BatchResponse,
        GeneratedAddress,
        GenerateResponse,
    )
    from chalicelib.api.models.catalog import LocationSearchResponse
    from chalicelib.api.models.reports import CountriesResponse
    from chalicelib.api.models.translation import TranslationResponse


def generate_text(answer: GenerateResponse) -> str:
    return _generated(answer.data.result)


def batch_text(answer: BatchResponse) -> str:
    results = answer.data.results
    return "\n\n".join(f"# {n}\n{_generated(r)}" for n, r in enumerate(results, 1)) or "No address matched."


def address_text(answer: AddressResponse) -> str:
    return _lines(_address_lines(answer.data.address))


def locations_text(answer: LocationSearchResponse) -> str:
    page = answer.data
    items = next(v for v in vars(page).values() if isinstance(v, list))
    rows = [f"{i.value} (id {i.id}): {i.available_count} addresses" for i in items]
    more = f"\n(more: pass cursor={page.next_cursor})" if page.next_cursor else ""
    return ("\n".join(rows) or "No location matched.") + more


def translation_text(answer: TranslationResponse) -> str:
    return "\n".join(answer.data.lines)


def countries_text(answer: CountriesResponse) -> str:
    return "\n".join(f"{c.code}: {c.address_count} addresses" for c in answer.data) or "No country yet."


def _generated(result: GeneratedAddress) -> str:
    profile = result.profile
    latin = profile.latin
    name = profile.full_name + (f" ({latin.full_name})" if latin else "")
    pairs: list[tuple[str, Any]] = [
        ("Name", name),
        ("Given name", profile.given_name),
        ("Family name", profile.family_name),
        ("Email", profile.email),
        ("Phone", profile.phone.number),
        ("Date of birth", profile.date_of_birth.isoformat()),
        *_address_lines(result.address),
    ]
    if result.related:
        role = result.related.role.capitalize()
        pairs.append((f"{role} address", result.related.address.formatted_address))
    variant = result.variant
    if variant:
        pairs.append(("Near-miss variant", f"{variant.kind} (changed: {', '.join(variant.changed)})"))
    return _lines(pairs)


def _address_lines(address: Address) -> list[tuple[str, Any]]:
    parts = address.components
    return [
        ("Address", address.formatted_address),
        ("Street", parts.street),
        ("House number", parts.house_number),
        ("Unit", parts.unit),
        ("District", parts.district),
        ("City", parts.city),
        ("Region", parts.region),
        ("Postcode", parts.postcode),
        ("Country", address.country_code),
        ("Address ID", address.id),
    ]


def _lines(pairs: list[tuple[str, Any]]) -> str:
    return "\n".join(f"{label}: {value}" for label, value in pairs if value not in (None, ""))
