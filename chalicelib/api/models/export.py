"""The seeded export's query and its JSON page."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from chalicelib.api.models.addresses import GeneratedAddress
from chalicelib.api.models.common import ApiModel, CountryCode, EmailDomain, QueryModel, SnapshotId, Value
from chalicelib.api.models.requests import EMAIL_DOMAIN, LocationFilters

# Measured on the whole sample pool (296,414 addresses, make run): the largest record, a Russian
# address with its profile, is 1,868 bytes as Lambda's runtime writes it into its response (JSON
# with \\u escapes); 2,000 such records are 3.7 MB, under two thirds of the 6 MB a Lambda response
# may carry. A full page of 1,000 Japanese addresses is 1.79 MB. The full-sync tests check it.
LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024
MAX_EXPORT_PAGE = 2000
DEFAULT_EXPORT_PAGE = 1000
MAX_EXPORT_PAGES = 1_000_000
ExportFormat = Literal["json", "ndjson", "csv"]


class ExportQuery(LocationFilters, QueryModel):
    country: CountryCode
    residential: bool | None = Field(default=None, description="Default true for CN, else false")
    complete: bool = Field(
        default=False, description="Only addresses a form with the country's postal rules accepts"
    )
    seed: Value | None = Field(
        default=None,
        description="Names the sequence: the same seed walks the same addresses in the same order "
        "while the snapshot lasts. Without it, a fresh seed is chosen and returned (in the body's "
        "`seed`, the `X-Export-Seed` header and the next page's link): give it to get the next pages.",
        examples=["nightly-2026-11"],
    )
    snapshot: SnapshotId | None = None
    email_domain: EmailDomain | None = EMAIL_DOMAIN
    page: Annotated[
        int, Field(ge=1, le=MAX_EXPORT_PAGES, description="Page number, from 1", examples=[1])
    ] = 1
    page_size: Annotated[
        int,
        Field(
            ge=1,
            le=MAX_EXPORT_PAGE,
            description=f"Addresses per page, 1 to {MAX_EXPORT_PAGE}; every page of one export must "
            "use the same size",
            examples=[DEFAULT_EXPORT_PAGE],
        ),
    ] = DEFAULT_EXPORT_PAGE
    format: ExportFormat = Field(
        default="json",
        description="json: this document's ExportResponse; ndjson: one GeneratedAddress per line; "
        "csv: one flat row per address (RFC 4180, UTF-8, a header row)",
    )


class ExportData(ApiModel):
    """A page of a seeded export"""

    country: str
    """The country exported"""
    seed: str = Field(description="The sequence's seed: the one given, or the one chosen")
    snapshot_id: str = Field(
        description="The snapshot the sequence walks; if a later page names another one, a sync "
        "published a new snapshot in between and the export should start again"
    )
    page: int
    """This page's number, from 1"""
    page_size: int
    """Addresses per page"""
    total: int = Field(
        description="Addresses the whole export walks through: every match of the filters (with q, "
        "the candidates holding all its words and characters, a few of which a page may leave out)"
    )
    pages: int = Field(
        description="Pages of this size in the whole export; a page may hold fewer than pageSize, so "
        "follow nextPage to the end rather than counting addresses"
    )
    next_page: int | None = Field(description="The next page's number; null on the last page")
    returned_count: int
    """Addresses on this page"""
    results: list[GeneratedAddress]
    """The page's addresses, each with its test profile, in the seed's order"""


class ExportResponse(ApiModel):
    """The answer of GET /api/v1/export with format=json"""

    data: ExportData
    """The page"""
