"""Fetching a source file from its publisher: HTTP(S) only, conditional on what we already hold
(ETag / Last-Modified), retried with backoff on 5xx, 429, timeouts and truncated bodies, bounded in
size and time, and hashed (SHA-256) while it streams to a temporary file."""

from __future__ import annotations

import hashlib
import ipaddress
import socket
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from http.client import HTTPException, HTTPResponse
from pathlib import Path
from urllib.parse import urlsplit

CHUNK = 1 << 20
_RETRIED_STATUS = {408, 429, 500, 502, 503, 504}


@dataclass(frozen=True)
class FetchPolicy:
    timeout_seconds: float = 60.0  # per connection attempt and per read
    max_bytes: int = 50 * 1024**3  # a whole Geofabrik continent is about 30 GB
    attempts: int = 4
    backoff_seconds: float = 2.0  # doubled after each failed attempt
    allow_private_hosts: bool = False  # loopback and private networks: tests only (no SSRF)


@dataclass(frozen=True)
class Validators:
    """What we hold of a URL already, to make the request conditional."""

    etag: str | None = None
    last_modified: str | None = None


class FetchStatus(StrEnum):
    FETCHED = "fetched"
    NOT_MODIFIED = "not_modified"


@dataclass(frozen=True)
class Fetched:
    status: FetchStatus
    body: Path | None = None  # a temporary file the caller moves or deletes (FETCHED only)
    sha256: str = ""
    size: int = 0
    etag: str | None = None
    last_modified: str | None = None


class FetchError(Exception):
    """The publisher did not give us the file; the message says why."""


Sleep = Callable[[float], None]


def fetch(url: str, held: Validators, policy: FetchPolicy, sleep: Sleep = time.sleep) -> Fetched:
    _check_url(url, policy)
    delay = policy.backoff_seconds
    for attempt in range(1, policy.attempts + 1):
        try:
            return _attempt(url, held, policy)
        except _Retryable as exc:
            if attempt == policy.attempts:
                raise FetchError(f"{url}: {exc} (after {attempt} attempts)") from exc
            sleep(delay)
            delay *= 2
    raise AssertionError("unreachable")


class _Retryable(Exception):
    pass


class _CheckedRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only to a URL the first one would have been allowed to be."""

    def __init__(self, policy: FetchPolicy) -> None:
        self.policy = policy

    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        _check_url(newurl, self.policy)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def _attempt(url: str, held: Validators, policy: FetchPolicy) -> Fetched:
    request = urllib.request.Request(url, headers=_conditional_headers(held))  # noqa: S310 - scheme checked
    opener = urllib.request.build_opener(_CheckedRedirects(policy))
    try:
        response = opener.open(request, timeout=policy.timeout_seconds)
    except urllib.error.HTTPError as exc:
        if exc.code == 304:
            return Fetched(FetchStatus.NOT_MODIFIED, etag=held.etag, last_modified=held.last_modified)
        if exc.code in _RETRIED_STATUS:
            raise _Retryable(f"HTTP {exc.code}") from exc
        raise FetchError(f"{url}: HTTP {exc.code}") from exc
    except (urllib.error.URLError, TimeoutError, ConnectionError, HTTPException) as exc:
        raise _Retryable(str(exc)) from exc
    with response:
        return _download(url, response, policy)


def _download(url: str, response: HTTPResponse, policy: FetchPolicy) -> Fetched:
    declared = response.headers.get("Content-Length")
    if (response.headers.get("Content-Type") or "").startswith("text/html"):
        raise FetchError(f"{url}: a web page, not a data file (a dataset page needs its file's URL)")
    if declared is not None and int(declared) > policy.max_bytes:
        raise FetchError(f"{url}: {declared} bytes exceeds the limit of {policy.max_bytes}")
    digest, size = hashlib.sha256(), 0
    with tempfile.NamedTemporaryFile(prefix="upstream-", delete=False) as out:
        body = Path(out.name)
        try:
            while chunk := response.read(CHUNK):
                size += len(chunk)
                if size > policy.max_bytes:
                    raise FetchError(f"{url}: more than the limit of {policy.max_bytes} bytes")
                digest.update(chunk)
                out.write(chunk)
        except (TimeoutError, ConnectionError, HTTPException) as exc:
            body.unlink(missing_ok=True)
            raise _Retryable(f"interrupted after {size} bytes: {exc}") from exc
        except FetchError:
            body.unlink(missing_ok=True)
            raise
    if declared is not None and size != int(declared):
        body.unlink(missing_ok=True)
        raise _Retryable(f"truncated: {size} of {declared} bytes")
    return Fetched(
        FetchStatus.FETCHED,
        body=body,
        sha256=digest.hexdigest(),
        size=size,
        etag=response.headers.get("ETag"),
        last_modified=response.headers.get("Last-Modified"),
    )


def _conditional_headers(held: Validators) -> dict[str, str]:
    headers = {"User-Agent": "address-generation-service sync"}
    if held.etag:
        headers["If-None-Match"] = held.etag
    if held.last_modified:
        headers["If-Modified-Since"] = held.last_modified
    return headers


def _check_url(url: str, policy: FetchPolicy) -> None:
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise FetchError(f"{url}: only http(s) URLs are fetched")
    if policy.allow_private_hosts:
        return
    try:
        addresses = {info[4][0] for info in socket.getaddrinfo(parts.hostname, parts.port or 443)}
    except OSError as exc:
        raise FetchError(f"{url}: {exc}") from exc
    for address in addresses:
        ip = ipaddress.ip_address(str(address).split("%")[0])
        if not ip.is_global:
            raise FetchError(f"{url}: refused, {parts.hostname} is a non-public address ({ip})")
