"""A part read from Overture's bucket when S3 or the network fails for a moment, as botocore reports
it (pyarrow passes the error up unchanged): each transient error class is retried after a growing,
jittered pause and the part is read whole; one that persists, or one that is no moment's failure,
is StorageUnavailable, which fails the task for the sync to retry. The bucket is a fake of the
outside world (ranged GETs over a replica part); the reader is the sync's own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest
from botocore.exceptions import (
    ClientError,
    ConnectionClosedError,
    EndpointConnectionError,
    ReadTimeoutError,
    ResponseStreamingError,
)

from chalicelib.errors import StorageUnavailable
from chalicelib.sources.manifest import SourceEntry
from chalicelib.sources.reader import read_entry
from chalicelib.storage.files.overture_bucket import PARTS, Retries, open_remote
from tests.support.factories import SOURCES, needs_sources

pytestmark = needs_sources

PART = sorted((SOURCES / "overture" / "release" / "2026-11-18.0" / PARTS).glob("part-*.parquet"))[1]
URI = f"s3://overturemaps-us-west-2/release/2026-11-18.0/{PARTS}/{PART.name}"


def _answer(code: str, status: int) -> Exception:
    """S3's refusal as botocore raises it."""
    error: Exception = ClientError(
        {"Error": {"Code": code}, "ResponseMetadata": {"HTTPStatusCode": status}}, "GetObject"
    )
    return error


def _throttled() -> Exception:
    return _answer("SlowDown", 503)


def _internal() -> Exception:
    return _answer("InternalError", 500)


def _denied() -> Exception:
    return _answer("AccessDenied", 403)


TRANSIENT: dict[str, Callable[[], Exception]] = {
    "stream broken mid-body": lambda: ResponseStreamingError(error="IncompleteRead(0 bytes read)"),
    "connection closed": lambda: ConnectionClosedError(endpoint_url="https://s3.us-west-2.amazonaws.com"),
    "read timed out": lambda: ReadTimeoutError(endpoint_url="https://s3.us-west-2.amazonaws.com"),
    "endpoint unreachable": lambda: EndpointConnectionError(
        endpoint_url="https://s3.us-west-2.amazonaws.com"
    ),
    "throttled (SlowDown)": _throttled,
    "server error (500)": _internal,
}


class _Body:
    def __init__(self, data: bytes, fails: Exception | None) -> None:
        self._data, self._fails = data, fails

    def read(self) -> bytes:
        if self._fails is not None:
            raise self._fails  # the body broke off after the answer began
        return self._data


class FlakyBucket:
    """S3's GetObject and HeadObject over a local part; the GETs numbered in `failing` fail with
    the error `make` gives (a streaming error while the body is read, the others as the answer)."""

    def __init__(self, make: Callable[[], Exception], failing: set[int]) -> None:
        self._make, self._failing = make, failing
        self.gets = 0

    def head_object(self, **asked: Any) -> dict[str, Any]:
        return {"ContentLength": PART.stat().st_size}

    def get_object(self, Bucket: str, Key: str, Range: str) -> dict[str, Any]:
        self.gets += 1
        first, last = (int(x) for x in Range.removeprefix("bytes=").split("-"))
        with PART.open("rb") as part:
            part.seek(first)
            data = part.read(last - first + 1)
        if self.gets not in self._failing:
            return {"Body": _Body(data, None)}
        error = self._make()
        if isinstance(error, ResponseStreamingError):
            return {"Body": _Body(data, error)}
        raise error


def _entry() -> SourceEntry:
    return SourceEntry(id="overture-DK", country="DK", format="overture-parquet", files=(URI,), language="",
                       license="x", attribution="x")  # fmt: skip


def _read(bucket: FlakyBucket, pauses: list[float]) -> int:
    retries = Retries(sleep=pauses.append, jitter=lambda ceiling: ceiling)
    opened: Callable[[str], IO[bytes]] = lambda uri: open_remote(uri, bucket, retries)  # noqa: E731
    return sum(1 for record in read_entry(_entry(), Path("."), opened) if not record.defect)


@pytest.fixture(scope="module")
def whole() -> int:
    return _read(FlakyBucket(_internal, set()), [])


@pytest.mark.parametrize("kind", sorted(TRANSIENT))
def test_a_transient_failure_is_retried_after_a_growing_pause_and_the_part_read_whole(
    kind: str, whole: int
) -> None:
    pauses: list[float] = []
    bucket = FlakyBucket(TRANSIENT[kind], failing={2, 3, 4})  # the second GET fails three times running
    assert _read(bucket, pauses) == whole > 500
    assert pauses == [0.2, 0.4, 0.8]


@pytest.mark.parametrize("kind", sorted(TRANSIENT))
def test_a_failure_that_persists_is_storage_unavailable(kind: str) -> None:
    pauses: list[float] = []
    with pytest.raises(StorageUnavailable, match=f"{PART.name} bytes="):
        _read(FlakyBucket(TRANSIENT[kind], failing=set(range(2, 100))), pauses)
    assert len(pauses) == Retries().attempts - 1


def test_a_refusal_is_storage_unavailable_at_once() -> None:
    pauses: list[float] = []
    with pytest.raises(StorageUnavailable, match=r"\(ClientError\)"):
        _read(FlakyBucket(_denied, failing={2}), pauses)
    assert pauses == []
