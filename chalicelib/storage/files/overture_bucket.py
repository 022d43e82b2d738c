"""Overture's release bucket (s3://overturemaps-us-west-2, read anonymously) or a folder laid out like
it (the replica in ../shared/sources/overture): its releases, a release's parts, and a part opened
for ranged reads, so discovery reads a part's footer and a task its row groups, never a whole part
(~700 MB).

A ranged read that fails the way S3 and networks fail for a moment (throttling, a 5xx, a
connection closed or a stream broken mid-body: botocore raises these, and pyarrow passes them up
unchanged) is retried after a jittered exponential pause; past the retries, or on an error that
is not transient, it is StorageUnavailable, which fails the task, and the sync retries the task."""

from __future__ import annotations

import io
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from chalicelib.errors import StorageUnavailable

OVERTURE_BUCKET = "s3://overturemaps-us-west-2"
PARTS = "theme=addresses/type=address"


def is_remote(name: str) -> bool:
    """A manifest file named by URL (an Overture part in Overture's bucket), read in place by ranges."""
    return name.startswith("s3://")


# S3's and STS's words for "slow down" or "try again" (a ClientError's code); botocore's own errors
# (BotoCoreError: a connection closed, a read timed out, a stream broken mid-body) are all so.
_TRANSIENT_CODES = frozenset(
    {"SlowDown", "Throttling", "ThrottlingException", "RequestTimeout", "InternalError", "ServiceUnavailable"}
)


@dataclass(frozen=True)
class Retries:
    attempts: int = 5
    first_seconds: float = 0.2
    longest_seconds: float = 8.0
    sleep: Callable[[float], None] = time.sleep
    jitter: Callable[[float], float] = lambda ceiling: random.uniform(0, ceiling)  # noqa: S311

    def run(self, call: Callable[[], Any], what: str) -> Any:
        """`call`, again after a full-jitter pause while it fails transiently."""
        from botocore.exceptions import BotoCoreError, ClientError

        for attempt in range(self.attempts):
            try:
                return call()
            except (BotoCoreError, ClientError) as exc:
                if attempt + 1 == self.attempts or not _transient(exc):
                    raise StorageUnavailable(f"{what} could not be read ({type(exc).__name__})") from exc
                self.sleep(self.jitter(min(self.longest_seconds, self.first_seconds * 2**attempt)))
        raise AssertionError("unreachable: the last attempt returns or raises")


def _transient(error: Exception) -> bool:
    from botocore.exceptions import ClientError

    if not isinstance(error, ClientError):
        return True  # botocore's own: connections and streams, not answers
    answer = error.response.get("Error", {})
    status = int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0)
    return answer.get("Code") in _TRANSIENT_CODES or status >= 500


def open_remote(uri: str, client: Any = None, retries: Retries | None = None) -> IO[bytes]:
    """An object of a public bucket, opened for ranged reads (unsigned: no credentials needed)."""
    bucket, key = uri.removeprefix("s3://").partition("/")[::2]
    ranged = RangedObject(client or _public_client(), bucket, key, retries or Retries())
    return io.BufferedReader(ranged, buffer_size=1 << 20)


def remote_stamp(uri: str, client: Any = None) -> str:
    """What a sync's fingerprint holds of a remote file: its ETag (a release's parts never change)."""
    from botocore.exceptions import BotoCoreError, ClientError

    bucket, key = uri.removeprefix("s3://").partition("/")[::2]
    try:
        return str((client or _public_client()).head_object(Bucket=bucket, Key=key)["ETag"])
    except (BotoCoreError, ClientError) as exc:
        raise StorageUnavailable(f"{uri} cannot be read: {type(exc).__name__}") from exc


def _public_client() -> Any:
    import boto3
    from botocore import UNSIGNED
    from botocore.config import Config

    # A public bucket: unsigned requests, so no credentials are needed or sent.
    return boto3.client("s3", region_name="us-west-2", config=Config(signature_version=UNSIGNED))


class LocalReleases:
    def __init__(self, root: Path) -> None:
        self.root = root

    def releases(self) -> list[str]:
        folder = self.root / "release"
        return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []

    def parts(self, release: str) -> list[str]:
        return sorted(p.name for p in (self.root / "release" / release / PARTS).glob("*.parquet"))

    def location(self, release: str) -> str:
        """Where the manifest names the release's parts: this folder, absolute."""
        return str((self.root / "release" / release / PARTS).resolve())

    def open_part(self, release: str, part: str) -> IO[bytes]:
        return (self.root / "release" / release / PARTS / part).open("rb")


class S3Releases:
    def __init__(self, uri: str = OVERTURE_BUCKET, client: Any = None) -> None:
        self.bucket, prefix = uri.removeprefix("s3://").partition("/")[::2]
        self.prefix = f"{prefix.rstrip('/')}/" if prefix else ""
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = _public_client()
        return self._client

    def releases(self) -> list[str]:
        found = self._list(f"{self.prefix}release/", delimiter="/")
        return sorted(p.rstrip("/").rsplit("/", 1)[-1] for p in found["prefixes"])

    def parts(self, release: str) -> list[str]:
        keys = self._list(f"{self.prefix}release/{release}/{PARTS}/")["keys"]
        return sorted(k.rsplit("/", 1)[-1] for k in keys if k.endswith(".parquet"))

    def location(self, release: str) -> str:
        return f"s3://{self.bucket}/{self.prefix}release/{release}/{PARTS}"

    def open_part(self, release: str, part: str) -> IO[bytes]:
        return open_remote(f"{self.location(release)}/{part}", self.client)

    def _list(self, prefix: str, delimiter: str = "") -> dict[str, list[str]]:
        from botocore.exceptions import BotoCoreError, ClientError

        found: dict[str, list[str]] = {"prefixes": [], "keys": []}
        asked = {"Bucket": self.bucket, "Prefix": prefix, **({"Delimiter": delimiter} if delimiter else {})}
        try:
            for page in self.client.get_paginator("list_objects_v2").paginate(**asked):
                found["prefixes"] += [p["Prefix"] for p in page.get("CommonPrefixes", [])]
                found["keys"] += [o["Key"] for o in page.get("Contents", [])]
        except (BotoCoreError, ClientError) as exc:
            raise StorageUnavailable(
                f"s3://{self.bucket}/{prefix} cannot be listed: {type(exc).__name__}"
            ) from exc
        return found


class RangedObject(io.RawIOBase):
    """An S3 object read by ranged GETs: what Parquet asks for (the footer, then the column chunks
    of the row groups read), no more."""

    def __init__(self, client: Any, bucket: str, key: str, retries: Retries | None = None) -> None:
        super().__init__()
        self._client, self._bucket, self._key = client, bucket, key
        self._retries = retries or Retries()
        self.name = f"s3://{bucket}/{key}"
        head = self._retries.run(lambda: client.head_object(Bucket=bucket, Key=key), self.name)
        self._size = int(head["ContentLength"])
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._position, io.SEEK_END: self._size}[whence]
        self._position = max(0, base + offset)
        return self._position

    def readinto(self, buffer: Any) -> int:
        wanted = min(len(buffer), self._size - self._position)
        if wanted <= 0:
            return 0
        span = f"bytes={self._position}-{self._position + wanted - 1}"
        data: bytes = self._retries.run(lambda: self._get(span), f"{self.name} {span}")
        buffer[: len(data)] = data
        self._position += len(data)
        return len(data)

    def _get(self, span: str) -> bytes:
        """One ranged GET, body and all: a stream broken mid-body is retried with its request."""
        answer = self._client.get_object(Bucket=self._bucket, Key=self._key, Range=span)
        body: bytes = answer["Body"].read()
        return body
