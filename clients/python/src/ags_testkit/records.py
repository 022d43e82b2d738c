"""What the service returns, as typed dictionaries (the JSON as it comes, camelCase keys)."""

from __future__ import annotations

from typing import Any, TypedDict


class Components(TypedDict, total=False):
    street: str | None
    houseNumber: str | None
    unit: str | None
    district: str | None
    city: str | None
    region: str | None
    regionCode: str | None
    postcode: str | None
    province: str | None
    provinceCode: str | None


class Address(TypedDict):
    id: str
    countryCode: str
    matchLevel: str
    propertyType: str
    formattedAddress: str
    components: Components
    coordinates: dict[str, float]
    timeZone: str
    source: dict[str, str]
    derived: list[str]
    completeness: dict[str, Any]


class Phone(TypedDict):
    number: str
    national: str | None
    e164: str
    type: str
    area: str | None
    dialable: bool
    note: str


class Profile(TypedDict):
    givenName: str
    familyName: str
    fullName: str
    latin: dict[str, str] | None
    kana: dict[str, str] | None
    gender: str
    dateOfBirth: str
    email: str
    phone: Phone


class GeneratedAddress(TypedDict):
    address: Address
    profile: Profile
