"""Overture's release bucket (s3://overturemaps-us-west-2, read anonymously) or a folder laid out like
it (the replica in ../shared/sources/overture): its releases, a release's parts, and a part opened
for ranged reads, so discovery reads a part's footer and a task its row groups, never a whole part
(~700 MB)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import IO, Any

from chalicelib.errors import StorageUnavailable

OVERTURE_BUCKET = "s3://overturemaps-us-west-2"
PARTS = "theme=addresses/type=address"


def is_remote(name: str) -> bool:
    """A manifest file named by URL (an Overture part in Overture's bucket), read in place by ranges."""
    return name.startswith("s3://")


def open_remote(uri: str, client: Any = None) -> IO[bytes]:
    """An object of a public bucket, opened for ranged reads (unsigned: no credentials needed)."""
    bucket, key = uri.removeprefix("s3://").partition("/")[::2]
    return io.BufferedReader(RangedObject(client or _public_client(), bucket, key), buffer_size=1 << 20)


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

    def __init__(self, client: Any, bucket: str, key: str) -> None:
        super().__init__()
        self._client, self._bucket, self._key = client, bucket, key
        self._size = int(client.head_object(Bucket=bucket, Key=key)["ContentLength"])
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
        last = self._position + wanted - 1
        body = self._client.get_object(
            Bucket=self._bucket, Key=self._key, Range=f"bytes={self._position}-{last}"
        )
        data = body["Body"].read()
        buffer[: len(data)] = data
        self._position += len(data)
        return len(data)
