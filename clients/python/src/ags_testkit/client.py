"""A small typed client: the token from AGS_TOKEN, the service from AGS_BASE_URL, and requests the
service answers with 429 or 503 retried after the Retry-After it gives."""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import quote, unquote, urlencode

from ags_testkit.records import Address, GeneratedAddress

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
RETRIED = (429, 503)
MAX_WAIT = 120.0  # seconds: a Retry-After beyond it is not waited for


class ApiError(Exception):
    """The service answered with an error (its JSON error shape)."""

    def __init__(self, status: int, code: str, message: str, request_id: str | None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message, self.request_id = status, code, message, request_id


class SnapshotChanged(Exception):
    """A sync published a new snapshot between two pages of an export: its order changed, so the
    export must start again (or, once the service offers it, pin the snapshot)."""


class Unreachable(Exception):
    """No answer from the service (refused, timed out, no route): where offline mode takes over."""


@dataclass(frozen=True)
class Page:
    """One page of an export, in the format asked for, with where it stands."""

    body: str
    seed: str
    snapshot_id: str
    total: int
    next_page: int | None


class Client:
    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        retries: int = 4,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = (base_url or os.environ.get("AGS_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        if not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"the service's URL must be http or https: {self.base_url!r}")
        self._token = token or os.environ.get("AGS_TOKEN")
        self._timeout, self._retries, self._sleep = timeout, retries, sleep

    def generate(self, country: str = "US", *, seed: str | None = None, **filters: Any) -> GeneratedAddress:
        data = self._json("GET", "/api/v1/generate", {"country": country, "seed": seed, **filters})
        return cast(GeneratedAddress, data["data"]["result"])

    def batch(
        self, count: int, country: str = "US", *, seed: str | None = None, unique: bool = True, **filters: Any
    ) -> list[GeneratedAddress]:
        body = {
            "count": count,
            "filters": {"country": country, **_camel(filters)},
            "options": {"unique": unique, **({"seed": seed} if seed is not None else {})},
        }
        data = self._json("POST", "/api/v1/generate/batch", body=body)
        return cast(list[GeneratedAddress], data["data"]["results"])

    def address(self, address_id: str) -> Address:
        data = self._json("GET", f"/api/v1/addresses/{quote(address_id, safe='')}")
        return cast(Address, data["data"]["address"])

    def export_page(
        self,
        country: str,
        *,
        page: int,
        page_size: int,
        seed: str | None,
        fmt: str = "ndjson",
        **filters: Any,
    ) -> Page:
        query = {"country": country, "page": page, "pageSize": page_size, "seed": seed, "format": fmt}
        _, headers, body = self._send("GET", "/api/v1/export", {**query, **filters}, None)
        return Page(
            body=body,
            seed=unquote(headers["x-export-seed"]),
            snapshot_id=headers["x-export-snapshot"],
            total=int(headers["x-export-total"]),
            next_page=page + 1 if page < int(headers["x-export-pages"]) else None,
        )

    def export(
        self, country: str, count: int, *, seed: str, page_size: int = 1000, **filters: Any
    ) -> Iterator[GeneratedAddress]:
        """Up to `count` distinct addresses, in the seed's order."""
        page: int | None = 1
        given, snapshot = 0, None
        while page is not None and given < count:
            answer = self.export_page(country, page=page, page_size=page_size, seed=seed, **filters)
            if snapshot is not None and answer.snapshot_id != snapshot:
                raise SnapshotChanged(f"{snapshot} became {answer.snapshot_id} at page {page}")
            snapshot = answer.snapshot_id
            for line in ndjson_lines(answer.body):
                if given == count:
                    return
                given += 1
                yield cast(GeneratedAddress, json.loads(line))
            page = answer.next_page

    def _json(
        self, method: str, path: str, query: Mapping[str, Any] | None = None, body: Any = None
    ) -> dict[str, Any]:
        _, _, text = self._send(method, path, query, body)
        return cast(dict[str, Any], json.loads(text))

    def _send(
        self, method: str, path: str, query: Mapping[str, Any] | None, body: Any
    ) -> tuple[int, dict[str, str], str]:
        url = self.base_url + path + _query(query)
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Accept": "*/*", **({"Content-Type": "application/json"} if data else {})}
        if self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        for attempt in range(self._retries + 1):
            # http(s) only: the constructor refuses any other scheme.
            request = urllib.request.Request(url, data=data, headers=headers, method=method)  # noqa: S310
            try:
                with urllib.request.urlopen(request, timeout=self._timeout) as response:  # noqa: S310
                    return response.status, _lower(response.headers), response.read().decode()
            except urllib.error.HTTPError as error:
                text = error.read().decode(errors="replace")
                wait = _retry_after(error.headers.get("Retry-After"))
                if error.code in RETRIED and attempt < self._retries and wait is not None:
                    self._sleep(wait)
                    continue
                raise _api_error(error.code, text) from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as error:
                raise Unreachable(f"{self.base_url}: {error}") from error
        raise AssertionError("unreachable")  # the loop returns or raises


def ndjson_lines(body: str) -> list[str]:
    """NDJSON's lines: split at \\n only (str.splitlines would also split at U+2028 inside a value)."""
    return [line for line in body.split("\n") if line.strip()]


def _camel(filters: Mapping[str, Any]) -> dict[str, Any]:
    def camel(name: str) -> str:
        head, *rest = name.split("_")
        return head + "".join(part.title() for part in rest)

    return {camel(k): v for k, v in filters.items() if v is not None}


def _query(params: Mapping[str, Any] | None) -> str:
    if not params:
        return ""
    given = {k: ("true" if v else "false") if isinstance(v, bool) else v for k, v in _camel(params).items()}
    return "?" + urlencode(given) if given else ""


def _lower(headers: Any) -> dict[str, str]:
    return {k.lower(): v for k, v in headers.items()}


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait, from a Retry-After in seconds (what the service sends); None: do not wait."""
    try:
        seconds = float(value) if value is not None else 1.0
    except ValueError:
        return None
    return seconds if 0 <= seconds <= MAX_WAIT else None


def _api_error(status: int, text: str) -> ApiError:
    try:
        error = json.loads(text)["error"]
        return ApiError(status, error["code"], error["message"], error.get("requestId"))
    except (ValueError, KeyError, TypeError):
        return ApiError(status, "UNEXPECTED", text[:200], None)
