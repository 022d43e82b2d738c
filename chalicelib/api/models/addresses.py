"""The address record, the test profile and the generation endpoints' models."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from chalicelib.api.models.common import (
    ApiModel,
    BodyModel,
    CountryCode,
    Id,
    IpText,
    QueryModel,
    Strategy,
    Value,
    WholeNumber,
)

MAX_BATCH_COUNT = 50
MAX_EXCLUDED_IDS = 500

MatchLevel = Literal["houseNumber", "street", "city"]
PropertyType = Literal["residential", "commercial", "institutional", "unknown"]


class Components(ApiModel):
    street: str | None = None
    house_number: str | None = None
    unit: str | None = None
    district: str | None = None
    city: str | None = None
    region: str | None = None
    region_code: str | None = Field(default=None, description="ISO 3166-2 code of the region")
    postcode: str | None = None
    province: str | None = Field(
        default=None,
        description="The province an Italian or Spanish address names (second-level ISO 3166-2 unit, "
        "within the region); what those countries' forms ask for as the state or province field",
    )
    province_code: str | None = Field(default=None, description="ISO 3166-2 code of the province")


class Coordinates(ApiModel):
    latitude: float
    longitude: float


class SourceRef(ApiModel):
    id: str
    license: str
    attribution: str


class Completeness(ApiModel):
    """Whether a form with the country's postal rules (Google's libaddressinput data: required
    fields, postcode pattern and region prefixes, known region and city names) accepts the address."""

    complete: bool
    missing: list[str] = Field(description="Required components the address lacks")
    invalid: list[str] = Field(
        default_factory=list, description="Components present but rejected by the rules (an addition)"
    )


class Address(ApiModel):
    id: str = Field(description="Stable ID: for /addresses/{id}, excludeAddressIds and translation")
    country_code: str
    match_level: MatchLevel = Field(
        description="houseNumber when the source publishes a number, street otherwise"
    )
    property_type: PropertyType = Field(description="From source evidence only")
    formatted_address: str
    components: Components
    coordinates: Coordinates
    source: SourceRef
    derived: list[str] = Field(
        default_factory=list,
        description="Components that differ from the source row's text: filled from a gazetteer, a "
        "postal authority's table, the administrative boundaries in the same extract or the source's area, "
        "or renamed by normalization (MD → Maryland)",
    )
    completeness: Completeness


class Phone(ApiModel):
    """A number from a range the country's regulator reserves for fiction, which libphonenumber
    accepts; where no regulator reserves one, a number no network can dial (`dialable` false),
    which phone validators reject."""

    number: str = Field(
        description="International format, as libphonenumber writes it", examples=["+44 20 7946 0321"]
    )
    national: str | None = Field(
        description="As dialled within the country; null for an undialable number",
        examples=["020 7946 0321"],
    )
    e164: str = Field(description="E.164: + and digits only", examples=["+442079460321"])
    type: Literal["landline", "mobile", "landline_or_mobile", "non_geographic", "unassigned"] = Field(
        description="The number's kind in the numbering plan (NANP numbers are either: "
        "landline_or_mobile); unassigned: the undialable number",
        examples=["landline"],
    )
    area: str | None = Field(
        description="The area the number belongs to (the address's own where a block serves it); "
        "null: valid anywhere in the country",
        examples=["London"],
    )
    dialable: bool = Field(description="False when no range reserved for fiction exists")
    note: str = Field(description="The reservation the number comes from, or why it cannot be dialled")


class NameForms(ApiModel):
    given_name: str = Field(examples=["Akemi"])
    family_name: str = Field(examples=["Suzuki"])
    full_name: str = Field(examples=["Suzuki Akemi"])


class LatinName(NameForms):
    system: str = Field(
        description="How it was written: Hepburn (JP), Hanyu Pinyin (CN, TW), Revised Romanization "
        "with the family names' passport spellings (KR), ICAO Doc 9303 (RU)",
        examples=["Hepburn"],
    )


class TestProfile(ApiModel):
    """A fictitious person: reserved e-mail domains, reserved or non-dialable phone numbers. The
    same seed and address give the same profile, whatever else the request asks for."""

    given_name: str = Field(description="In the country's own script", examples=["明美"])
    family_name: str = Field(examples=["鈴木"])
    full_name: str = Field(
        description="In the country's order (family name first in CN, JP, KR, TW)", examples=["鈴木明美"]
    )
    latin: LatinName | None = Field(
        description="The name in Latin letters where the country's script is not Latin (CN, JP, KR, "
        "RU, TW), family name first as those countries write it; null elsewhere"
    )
    kana: NameForms | None = Field(
        description="JP only: the name's katakana reading (フリガナ); null elsewhere",
        examples=[{"givenName": "アケミ", "familyName": "スズキ", "fullName": "スズキ アケミ"}],
    )
    gender: Literal["female", "male"]
    date_of_birth: dt.date
    email: str = Field(
        description="ASCII, from the Latin name, at example.com, example.net or example.org (RFC 2606)",
        examples=["akemi.suzuki42@example.org"],
    )
    phone: Phone


class LocationFilters(ApiModel):
    """Where to draw from: each location as its value or its stable ID (the two select the same set)."""

    region: Value | None = None
    region_id: Id | None = None
    city: Value | None = None
    city_id: Id | None = None
    district: Value | None = None
    district_id: Id | None = None
    postcode: Value | None = None
    postcode_id: Id | None = None
    q: Value | None = Field(
        default=None,
        description=(
            "Text that must occur in the address: each word a whole word of it (case- and "
            "accent-insensitive), each run of Han, kana or Hangul a part of its text"
        ),
    )


class GenerateQuery(LocationFilters, QueryModel):
    country: CountryCode = "US"
    mode: Literal["ip-region"] | None = None
    ip: IpText | None = None
    strategy: Strategy = "random"
    residential: bool | None = Field(default=None, description="Default true for CN, else false")
    complete: bool = Field(
        default=False, description="Only addresses a form with the country's postal rules accepts"
    )
    seed: Value | None = None
    request_id: Id | None = None


class GeneratedAddress(ApiModel):
    address: Address
    profile: TestProfile


class IpRegion(ApiModel):
    """Where mode=ip-region drew from (an addition to the spec)."""

    ip: str
    region: str | None
    region_code: str | None


class GenerateData(ApiModel):
    request_id: str | None
    country: str
    mode: Literal["address", "ip-region"]
    sources_tried: list[str] = Field(
        description="Source ids of the returned address; with mode=ip-region the IP database first "
        "(ip:dbip-city-lite)"
    )
    snapshot_id: str
    result: GeneratedAddress
    ip_context: IpRegion | None = Field(
        default=None, description="With mode=ip-region: the IP and its region"
    )


class GenerateResponse(ApiModel):
    data: GenerateData


class BatchFilters(LocationFilters, BodyModel):
    country: CountryCode
    residential: bool | None = None
    complete: bool = False


class BatchOptions(BodyModel):
    unique: bool = True
    seed: Value | None = None
    strategy: Strategy = "random"
    request_id: Id | None = None


class BatchRequest(BodyModel):
    count: WholeNumber = Field(ge=1, le=MAX_BATCH_COUNT)
    filters: BatchFilters
    options: BatchOptions = BatchOptions()
    exclude_address_ids: Annotated[list[Id], Field(max_length=MAX_EXCLUDED_IDS, default_factory=list)]


class BatchData(ApiModel):
    request_id: str | None
    requested_count: int
    returned_count: int
    unique: bool
    snapshot_id: str
    results: list[GeneratedAddress]


class BatchResponse(ApiModel):
    data: BatchData


class AddressPath(QueryModel):
    id: Id


class AddressData(ApiModel):
    address: Address


class AddressResponse(ApiModel):
    data: AddressData
