"""An address and its test profile as every route shows them: generate, the batch, the export, an
address by id, and (through those) the MCP tools."""

from __future__ import annotations

from pydantic.alias_generators import to_camel

from chalicelib.api.models.addresses import (
    Address,
    Coordinates,
    GeneratedAddress,
    LatinName,
    NameForms,
    Phone,
    RelatedAddress,
    SourceRef,
    TestProfile,
    Variant,
)
from chalicelib.domain.addresses import PublishedAddress
from chalicelib.domain.near_misses import Variant as DomainVariant
from chalicelib.services.generation.names import PersonName
from chalicelib.services.generation.profiles import TestProfile as DomainProfile
from chalicelib.services.generation.service import Generated


def generated_out(g: Generated) -> GeneratedAddress:
    related = g.related
    return GeneratedAddress(
        address=address_out(g.address, g.time_zone),
        profile=_profile(g.profile),
        variant=_variant(g.variant),
        related=RelatedAddress(role=related.role, address=address_out(related.address, related.time_zone))
        if related
        else None,
    )


def address_out(a: PublishedAddress, time_zone: str) -> Address:
    """The parts whose names agree are read by pydantic; the reshaped ones (the point, the source,
    the enums' values) are spelled out."""
    return Address.model_validate(
        {
            "id": a.id,
            "country_code": a.country,
            "match_level": a.match_level.value,
            "property_type": a.property_type.value,
            "formatted_address": a.formatted,
            "components": a.components,
            "coordinates": Coordinates(latitude=a.lat, longitude=a.lon),
            "time_zone": time_zone,
            "source": SourceRef(
                id=a.provenance.source_id, license=a.provenance.license, attribution=a.provenance.attribution
            ),
            "derived": list(a.derived),
            "completeness": a.completeness,
        },
        from_attributes=True,
    )


def _variant(v: DomainVariant | None) -> Variant | None:
    if v is None:
        return None
    changed = [to_camel(name) for name in v.changed]
    return Variant(kind=v.kind.value, changed=changed, base=v.base, donor=v.donor)


def _profile(p: DomainProfile) -> TestProfile:
    name, phone = p.name, p.phone
    return TestProfile(
        given_name=name.native.given,
        family_name=name.native.family,
        full_name=name.native.full,
        latin=LatinName(**_forms(name.latin), system=name.latin_system or "") if name.latin else None,
        kana=NameForms(**_forms(name.kana)) if name.kana else None,
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


def _forms(name: PersonName) -> dict[str, str]:
    return {"given_name": name.given, "family_name": name.family, "full_name": name.full}
