"""The seeded export: distinct addresses page after page, as JSON, NDJSON or CSV."""

from __future__ import annotations

from chalicelib.api.endpoint import Call, Download, Immutable, Operation, cacheable, endpoint
from chalicelib.api.export_formats import MEDIA_TYPES, render
from chalicelib.api.filters import filters_of
from chalicelib.api.models.export import MAX_EXPORT_PAGE, ExportData, ExportQuery, ExportResponse
from chalicelib.api.presenters.addresses import generated_out
from chalicelib.domain.tokens import Scope
from chalicelib.services.generation import export as service
from chalicelib.services.generation.service import GenerationPorts

_NOTES = f"""\
Every address matching the filters (as for /generate: location values or IDs, `q`, `residential`,
`complete`), each once, in an order the seed fixes: page after page, the same seed gives the same
addresses in the same order while the country's snapshot (`snapshotId`) is active, and no address
comes twice until every match has come (`nextPage` null). Any page can be asked for directly: the
order is a seeded bijection of the matches, computed per page, so no state is kept between pages.
Each address comes with the test profile /generate gives it for the same seed.

Pages hold up to {MAX_EXPORT_PAGE} addresses (`pageSize`, the same on every page of one export).
`format` chooses the body: `json` (ExportResponse), `ndjson` (one GeneratedAddress per line) or
`csv` (one flat row per address). Whatever the format, the headers say where the page stands:
`X-Export-Seed` (percent-encoded), `X-Export-Snapshot`, `X-Export-Total`, `X-Export-Pages`, and
`Link: <?...>; rel="next"` (relative to this request's URL) except on the last page. A page past
the last is empty. Each page counts as one request against the token's rate limit, like a batch.
404 NO_POOL_COVERAGE: no published pool for the country, or an unknown location value or ID."""

_OTHER_MEDIA = (
    (MEDIA_TYPES["ndjson"].split(";")[0], "format=ndjson: one GeneratedAddress as JSON per line"),
    (MEDIA_TYPES["csv"].split(";")[0], "format=csv: a header row, then one flat row per address"),
)


@endpoint(
    Operation(
        method="GET",
        path="/api/v1/export",
        name="exportAddresses",
        tag="generation",
        summary="Distinct addresses matching the filters, page after page in a seeded order",
        description=_NOTES,
        response=ExportResponse,
        scope=Scope.GENERATE,
        query=ExportQuery,
        errors=(404, 410),
        cacheable=True,
        other_media=_OTHER_MEDIA,
        headers=("X-Export-Seed", "X-Export-Snapshot", "X-Export-Total", "X-Export-Pages", "Link"),
    ),
    needs=lambda d: d.generation_ports(),
)
def export_addresses(call: Call[ExportQuery, None], ports: GenerationPorts) -> Download | Immutable:
    query = call.query
    filters = filters_of(query, query.country, query.residential, query.complete)
    request = service.PageRequest(query.page, query.page_size, query.seed, query.snapshot, query.email_domain)
    page = service.export_page(filters, ports, request)
    data = ExportData(
        country=query.country,
        seed=page.seed,
        snapshot_id=page.snapshot.snapshot_id,
        page=page.page,
        page_size=page.size,
        total=page.total,
        pages=page.pages,
        next_page=page.next_page,
        returned_count=len(page.results),
        results=[generated_out(g) for g in page.results],
    )
    return cacheable(render(query, data), page.pinned_until, reproducible=True)  # unseeded: not pinned
