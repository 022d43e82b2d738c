"""An export page written as JSON, NDJSON or CSV, with the headers that say where the next page is.

CSV: RFC 4180 (CRLF, quoted where needed), UTF-8 without a byte-order mark, one header row, one
flat row per address; lists joined with `;`, booleans as true/false, empty cells for nulls."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlencode

from pydantic import BaseModel

from chalicelib.api.endpoint import Download
from chalicelib.api.models.addresses import GeneratedAddress
from chalicelib.api.models.export import ExportData, ExportQuery, ExportResponse

# (column, path in a GeneratedAddress as JSON): the CSV's columns, in order.
CSV_COLUMNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("id", ("address", "id")),
    ("countryCode", ("address", "countryCode")),
    ("formattedAddress", ("address", "formattedAddress")),
    *(
        (name, ("address", "components", name))
        for name in (
            "street",
            "houseNumber",
            "unit",
            "district",
            "city",
            "region",
            "regionCode",
            "postcode",
            "province",
            "provinceCode",
        )
    ),
    ("latitude", ("address", "coordinates", "latitude")),
    ("longitude", ("address", "coordinates", "longitude")),
    ("timeZone", ("address", "timeZone")),
    ("matchLevel", ("address", "matchLevel")),
    ("propertyType", ("address", "propertyType")),
    ("complete", ("address", "completeness", "complete")),
    ("missing", ("address", "completeness", "missing")),
    ("invalid", ("address", "completeness", "invalid")),
    ("derived", ("address", "derived")),
    ("sourceId", ("address", "source", "id")),
    ("sourceLicense", ("address", "source", "license")),
    ("sourceAttribution", ("address", "source", "attribution")),
    ("givenName", ("profile", "givenName")),
    ("familyName", ("profile", "familyName")),
    ("fullName", ("profile", "fullName")),
    ("latinGivenName", ("profile", "latin", "givenName")),
    ("latinFamilyName", ("profile", "latin", "familyName")),
    ("latinFullName", ("profile", "latin", "fullName")),
    ("kanaFullName", ("profile", "kana", "fullName")),
    ("gender", ("profile", "gender")),
    ("dateOfBirth", ("profile", "dateOfBirth")),
    ("email", ("profile", "email")),
    ("phone", ("profile", "phone", "number")),
    ("phoneNational", ("profile", "phone", "national")),
    ("phoneE164", ("profile", "phone", "e164")),
    ("phoneType", ("profile", "phone", "type")),
    ("phoneDialable", ("profile", "phone", "dialable")),
)

MEDIA_TYPES = {
    "json": "application/json; charset=utf-8",
    "ndjson": "application/x-ndjson; charset=utf-8",
    "csv": "text/csv; charset=utf-8; header=present",
}


def render(query: ExportQuery, data: ExportData) -> Download:
    if query.format == "json":
        body = _json(ExportResponse(data=data))
    elif query.format == "ndjson":
        body = "".join(_json_line(r) for r in data.results)
    else:
        body = _csv(data.results)
    return Download(body, MEDIA_TYPES[query.format], _headers(query, data))


def _json_line(result: GeneratedAddress) -> str:
    return _json(result) + "\n"


def _json(model: BaseModel) -> str:
    """UTF-8 rather than \\u escapes, as every JSON answer (api/middleware.py)."""
    return json.dumps(model.model_dump(mode="json", by_alias=True), ensure_ascii=False, separators=(",", ":"))


def _csv(results: list[GeneratedAddress]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([name for name, _ in CSV_COLUMNS])
    for result in results:
        record = result.model_dump(mode="json", by_alias=True)
        writer.writerow([_cell(_at(record, path)) for _, path in CSV_COLUMNS])
    return out.getvalue()


def _at(record: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = record
    for key in path:
        if value is None:
            return None
        value = value[key]
    return value


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ";".join(str(v) for v in value)
    return str(value)


def _headers(query: ExportQuery, data: ExportData) -> dict[str, str]:
    """The page's place in the export; the next page's link is relative to this request's URL (a
    query alone), so it holds behind any stage or domain."""
    headers = {
        "X-Export-Seed": quote(data.seed, safe=""),  # percent-encoded UTF-8: a header is ASCII
        "X-Export-Snapshot": data.snapshot_id,
        "X-Export-Total": str(data.total),
        "X-Export-Pages": str(data.pages),
    }
    if data.next_page is not None:
        headers["Link"] = f'<?{_next_query(query, data)}>; rel="next"'
    return headers


def _next_query(query: ExportQuery, data: ExportData) -> str:
    given = query.model_dump(by_alias=True, exclude_none=True, exclude_defaults=True, mode="json")
    given |= {
        "country": data.country,
        "seed": data.seed,
        "snapshot": data.snapshot_id,  # pinned: a sync between two pages changes nothing
        "page": data.next_page,
        "pageSize": data.page_size,
    }
    if query.format != "json":
        given["format"] = query.format
    return urlencode({k: str(v).lower() if isinstance(v, bool) else v for k, v in given.items()})
