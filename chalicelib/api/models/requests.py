"""What a generation request may name: the filters, /generate's query, a batch's body, an address's
path and query."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from chalicelib.api.models.addresses import (
    MAX_BATCH_COUNT,
    MAX_EXCLUDED_IDS,
    PropertyType,
    RelatedRole,
    VariantKind,
)
from chalicelib.api.models.common import (
    ApiModel,
    BodyModel,
    BoxText,
    CountryCode,
    EmailDomain,
    Id,
    IpText,
    LicenceFilter,
    PartitionText,
    PointText,
    QueryModel,
    SnapshotId,
    Strategy,
    TraitFilter,
    Value,
    WholeNumber,
)

_VARIANT = (
    "A near-miss variant of each drawn address, for negative tests: `missing-postcode`, "
    "`missing-number`, `missing-unit` remove that component (the base has it); "
    "`postcode-of-another-place`, `city-of-another-place`, `street-of-another-city` put in the value "
    "published for another address of the country, in another region where one is, always in another "
    "city. The answer's `variant` says what changed and whose value it took; its address has an id "
    "never served as a published one and `completeness.complete` false"
)


EMAIL_DOMAIN = Field(
    default=None,
    description="A domain you own (a catch-all, Mailpit's): the test profiles' e-mail addresses are "
    "put in it instead of example.com, .net or .org (RFC 2606), the rest of each profile unchanged. You "
    "vouch that you own it: mail sent there reaches whoever does. A look-alike of a reserved domain "
    "(examp1e.com, example.co, example.com.au) is refused: anyone may register one",
    examples=["inbox.qa.test"],
)


RELATED = Field(
    default=None,
    description="billing or shipping: each drawn address's person gets a second real address of the same "
    "country (another city where the country has several), for checkout tests that need both; seeded, "
    "the same one each time. It is drawn from the country (its residential default, and the same "
    "`partition`), not from the location filters, and answered as `related` beside the address",
    examples=["billing"],
)


class LocationFilters(ApiModel):
    """Where to draw from: each location as its value or its stable ID (the two select the same set)."""

    region: Value | None = None
    """A first-level region: its name (any spelling the catalog knows) or ISO 3166-2 code"""
    region_id: Id | None = None
    """A region's stable ID, from /locations/search or /locations/hierarchy"""
    city: Value | None = None
    """A city's name (case- and width-insensitive)"""
    city_id: Id | None = None
    """A city's stable ID"""
    district: Value | None = None
    """A district's name"""
    district_id: Id | None = None
    """A district's stable ID"""
    postcode: Value | None = None
    """A postcode (spaces and hyphens ignored)"""
    postcode_id: Id | None = None
    """A postcode's stable ID"""
    q: Value | None = Field(
        default=None,
        description=(
            "Text that must occur in the address: each word a whole word of it (case- and "
            "accent-insensitive), each run of Han, kana or Hangul, with the digits written in it, "
            "a part of its text"
        ),
    )
    license: LicenceFilter | None = Field(
        default=None,
        description=(
            "Only records under these terms, each listed one required (comma-separated, up to 4): a class "
            "(`public-domain`; `attribution`: public-domain records too; `share-alike`: all three) or an "
            "SPDX id the record's licence names (`CC-BY-4.0`, any case). A publisher's own terms are in "
            "no class"
        ),
    )
    traits: TraitFilter | None = Field(
        default=None,
        description=(
            "Only addresses with these traits, comma-separated, every one required: `unit` (a published "
            "unit), `no-number` (street-level, no house number), `diacritics` (a Latin letter outside "
            "ASCII), `non-latin` (letters of another script), `multi-script` (its components and "
            "other-language names in more than one script), `long-street` and `long-line` (the country's "
            "longest 5% at most of street names and of street lines: /countries gives the thresholds)"
        ),
    )
    near: PointText | None = Field(
        default=None,
        description="`<latitude>,<longitude>` in decimal degrees (WGS 84): only addresses within `radius` "
        "metres of it (great-circle distance), exactly and uniformly drawn",
    )
    radius: Annotated[int, Field(ge=1, le=50_000)] | None = Field(
        default=None, description="Metres from `near`, 1 to 50,000; required with `near`"
    )
    bbox: BoxText | None = Field(
        default=None,
        description="`<west>,<south>,<east>,<north>` in decimal degrees (WGS 84): only addresses inside the "
        "box, its sides at most 100 km and not across the antimeridian; not with `near`",
    )
    partition: PartitionText | None = Field(
        default=None,
        description="`i/n`: only part i (from 0) of n disjoint parts of the pool, n up to 1024, for n "
        "parallel test workers: every published address is in exactly one part whatever the other "
        "filters, so workers of one run never receive the same address, and the n parts together are "
        "every match. Each part is drawn exactly uniformly, seeds work as without it, and `0/1` is the "
        "whole pool",
        examples=["0/4"],
    )
    property_type: PropertyType | None = Field(
        default=None,
        description=(
            "Only addresses of this property type, as their source classifies them (an OSM "
            "building, shop, amenity or office tag, a register's own statement); `unknown` where "
            "it says nothing. Given, `residential` no longer defaults to true (CN)"
        ),
    )


class GenerateQuery(LocationFilters, QueryModel):
    country: CountryCode = "US"
    mode: Literal["address", "ip-region"] | None = None
    """address (the default): draw from the filters; ip-region: from the region of `ip` (or the caller's)"""
    ip: IpText | None = None
    strategy: Strategy = "random"
    """random or instant: both are a single exactly uniform read"""
    residential: bool | None = Field(default=None, description="Default true for CN, else false")
    complete: bool = Field(
        default=False, description="Only addresses a form with the country's postal rules accepts"
    )
    seed: Value | None = None
    """The same seed and filters give the same address and profile while the snapshot lasts"""
    snapshot: SnapshotId | None = None
    request_id: Id | None = None
    """Your id for this request, echoed in the answer"""
    variant: VariantKind | None = Field(default=None, description=_VARIANT)
    email_domain: EmailDomain | None = EMAIL_DOMAIN
    related: RelatedRole | None = RELATED


class BatchFilters(LocationFilters, BodyModel):
    """Where a batch draws from: the country, location filters and free text, as for /generate"""

    country: CountryCode
    """ISO 3166-1 alpha-2 code (case-insensitive)"""
    residential: bool | None = None
    """Only residential addresses; default true for CN, else false"""
    complete: bool = False


class BatchOptions(BodyModel):
    """How a batch draws: uniqueness, seed, strategy and the caller's request id"""

    unique: bool = True
    seed: Value | None = None
    """The same seed and request give the same addresses while the snapshot lasts"""
    snapshot: SnapshotId | None = None
    """Pins the batch to this snapshot (a snapshotId of an earlier answer) while it is kept"""
    strategy: Strategy = "random"
    request_id: Id | None = None
    """Your id for this request, echoed in the answer"""
    variant: VariantKind | None = Field(default=None, description=_VARIANT)
    email_domain: EmailDomain | None = EMAIL_DOMAIN
    related: RelatedRole | None = RELATED


class BatchRequest(BodyModel):
    """A batch: how many addresses, from where, how, and which addresses never to return"""

    count: WholeNumber = Field(ge=1, le=MAX_BATCH_COUNT)
    """How many addresses, 1 to 50"""
    filters: BatchFilters
    """Where to draw from"""
    options: BatchOptions = BatchOptions()
    exclude_address_ids: Annotated[list[Id], Field(max_length=MAX_EXCLUDED_IDS, default_factory=list)]
    """Addresses never to return (up to 500 IDs)"""


class AddressPath(QueryModel):
    id: Id
    """An address's stable ID, as any answer gives it"""


class AddressQuery(QueryModel):
    snapshot: SnapshotId | None = None
