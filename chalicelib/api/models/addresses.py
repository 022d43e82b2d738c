"""The address record, the test profile and the generation endpoints' models."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from chalicelib.api.models.common import (
    ApiModel,
)

MAX_BATCH_COUNT = 50
MAX_EXCLUDED_IDS = 500

MatchLevel = Literal["houseNumber", "street", "city"]
PropertyType = Literal["residential", "commercial", "institutional", "industrial", "mixed", "unknown"]


class Components(ApiModel):
    """The address's parts, each as published (or derived, as `derived` lists); null where the
    address has none"""

    street: str | None = None
    """The street (or place) name"""
    house_number: str | None = None
    """The house number, with its letters or ranges as published (`12a`, `1-30`)"""
    unit: str | None = None
    """The flat, floor or unit (`#01-129`, `4F.-5`)"""
    district: str | None = None
    """A part of the city: a borough, ward or district (영통구, 朝阳区)"""
    city: str | None = None
    """The city, town or village the postal address names"""
    region: str | None = None
    """The first-level region (state, province, prefecture), as the catalog names it"""
    region_code: str | None = Field(default=None, description="ISO 3166-2 code of the region")
    postcode: str | None = None
    """The postcode, as the country writes it (`AD500`, `100-0001`)"""
    province: str | None = Field(
        default=None,
        description="The province an Italian or Spanish address names (second-level ISO 3166-2 unit, "
        "within the region); what those countries' forms ask for as the state or province field",
    )
    province_code: str | None = Field(default=None, description="ISO 3166-2 code of the province")


class Coordinates(ApiModel):
    """Where the address is: WGS 84 degrees, as the source publishes them"""

    latitude: float
    """Degrees north (negative: south)"""
    longitude: float
    """Degrees east (negative: west)"""


class SourceRef(ApiModel):
    """The published source the address comes from, with its licence and the attribution it asks for"""

    id: str
    """The source's id in the manifest (`osm-andorra_2021-ad`)"""
    license: str
    """The source's licence, as an SPDX identifier where there is one (`ODbL-1.0`)"""
    attribution: str
    """The attribution the licence requires wherever the address is shown"""


class Completeness(ApiModel):
    """Whether a form with the country's postal rules (Google's libaddressinput data: required
    fields, postcode pattern and region prefixes, known region and city names) accepts the address."""

    complete: bool
    """True when a form with the country's postal rules accepts the address as it is"""
    missing: list[str] = Field(description="Required components the address lacks")
    invalid: list[str] = Field(
        default_factory=list, description="Components present but rejected by the rules (an addition)"
    )


class Address(ApiModel):
    """A real, published postal address: its parts, one-line form, place, source and how complete
    a form finds it"""

    id: str = Field(description="Stable ID: for /addresses/{id}, excludeAddressIds and translation")
    country_code: str
    """ISO 3166-1 alpha-2 code of the address's country"""
    match_level: MatchLevel = Field(
        description="houseNumber when the source publishes a number, street otherwise"
    )
    property_type: PropertyType = Field(description="From source evidence only")
    formatted_address: str
    """The address on one line, in the country's own order and script"""
    components: Components
    """The address's parts"""
    coordinates: Coordinates
    """Where the address is"""
    time_zone: str = Field(
        description="The IANA time zone at the coordinates (tzfpy, offline, from timezone-boundary-builder's "
        "boundaries, ODbL-1.0; within about 111 m of a zone border it may name the neighbouring zone)",
        examples=["Europe/Andorra"],
    )
    source: SourceRef
    """Where the address is published"""
    derived: list[str] = Field(
        default_factory=list,
        description="Components that differ from the source row's text: filled from a gazetteer, a "
        "postal authority's table, the administrative boundaries in the same extract or the source's area, "
        "or renamed by normalization (MD → Maryland)",
    )
    completeness: Completeness
    """Whether a form with the country's postal rules accepts it, and what it lacks"""


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
    """A name in one script: given, family and whole, in the country's order"""

    given_name: str = Field(examples=["Akemi"])
    """The given name"""
    family_name: str = Field(examples=["Suzuki"])
    """The family name"""
    full_name: str = Field(examples=["Suzuki Akemi"])
    """Both, in the country's order and spacing"""


class LatinName(NameForms):
    """The name in Latin letters, and the system that wrote it"""

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
    """In the country's own script"""
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
    """The gender the name was drawn for"""
    date_of_birth: dt.date
    """An adult's birthday, between 1940-01-01 and 2005-12-31"""
    email: str = Field(
        description="ASCII, from the Latin name, at example.com, example.net or example.org (RFC 2606)",
        examples=["akemi.suzuki42@example.org"],
    )
    phone: Phone
    """A number that reaches nobody"""


VariantKind = Literal[
    "postcode-of-another-place",
    "city-of-another-place",
    "missing-postcode",
    "missing-number",
    "missing-unit",
    "street-of-another-city",
]


class Variant(ApiModel):
    """How a near-miss variant differs from the published address it was made from"""

    kind: VariantKind
    """The variant asked for"""
    changed: list[str]
    """The components removed or replaced, as `components` names them (`houseNumber`)"""
    base: str
    """The id of the published address it was made from"""
    donor: str | None
    """The id of the published address whose value it took; null when it only removes"""


RelatedRole = Literal["billing", "shipping"]


class RelatedAddress(ApiModel):
    """The same person's second real address (`related=`)"""

    role: RelatedRole
    """What it stands for beside the drawn address: its billing or its shipping address"""
    address: Address
    """A real, published address of the same country, in another city where the country has several"""


class GeneratedAddress(ApiModel):
    """One drawn address with the fictitious test profile paired with it"""

    address: Address
    """A real, published address (with `variant`: one component removed or taken from another)"""
    profile: TestProfile
    """A fictitious person to fill a form with"""
    variant: Variant | None = None
    """With `variant=`: what this near-miss changed; null for a published address"""
    related: RelatedAddress | None = None
    """With `related=`: the same person's second address; null without it"""


class IpRegion(ApiModel):
    """Where mode=ip-region drew from (an addition to the spec)."""

    ip: str
    """The IP address looked up (the caller's when `ip` was not given)"""
    region: str | None
    """The region the address was drawn from, as the catalog names it"""
    region_code: str | None
    """ISO 3166-2 code of that region"""


class GenerateData(ApiModel):
    """What /generate drew, and from which snapshot"""

    request_id: str | None
    """Your requestId, echoed; null without one"""
    country: str
    """The country drawn from"""
    mode: Literal["address", "ip-region"]
    """address, or ip-region with mode=ip-region"""
    sources_tried: list[str] = Field(
        description="Source ids of the returned address; with mode=ip-region the IP database first "
        "(ip:dbip-city-lite)"
    )
    snapshot_id: str
    """The published snapshot drawn from: a seed repeats its draw while it is active"""
    result: GeneratedAddress
    """The address and its test profile"""
    ip_context: IpRegion | None = Field(
        default=None, description="With mode=ip-region: the IP and its region"
    )


class GenerateResponse(ApiModel):
    """The answer of GET /api/v1/generate"""

    data: GenerateData
    """The draw"""


class BatchData(ApiModel):
    """What a batch drew, and from which snapshot"""

    request_id: str | None
    """Your requestId, echoed; null without one"""
    requested_count: int
    """The count asked for"""
    returned_count: int
    """How many came back: fewer only when fewer addresses match"""
    unique: bool
    """Whether the batch was drawn without repeats"""
    snapshot_id: str
    """The published snapshot drawn from"""
    results: list[GeneratedAddress]
    """The addresses with their test profiles"""


class BatchResponse(ApiModel):
    """The answer of POST /api/v1/generate/batch"""

    data: BatchData
    """The batch"""


class AddressData(ApiModel):
    """The address asked for"""

    address: Address
    """The address as the snapshot publishes it"""
    snapshot_id: str
    """The snapshot it was read from: the country's current one, or the one pinned"""


class AddressResponse(ApiModel):
    """The answer of GET /api/v1/addresses/{id}"""

    data: AddressData
    """The address"""
