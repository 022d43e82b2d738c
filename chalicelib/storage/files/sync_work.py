"""Where a sharded sync keeps its intermediate files between steps: a folder locally, an S3 prefix
in AWS. Every write replaces a whole object (a rerun of a step rewrites the same keys), so a step
killed mid-way leaves either its old output or nothing behind that a later step reads."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import boto3

from chalicelib.storage.files.s3_files import split_s3_uri


def _encode(lines: Iterable[str], out: IO[bytes], every: int, marks: Sequence[int] = ()) -> list[int]:
    """Write the lines as UTF-8; with `every`, return where lines 0, every, 2·every… start and the
    end, so a reader can take any run of `every` lines with one ranged read; with `marks`
    (ascending line numbers), where those lines start and the end: groups' byte ranges."""
    offsets = []
    wanted = iter(marks)
    mark = next(wanted, None)
    for count, line in enumerate(lines):
        if every and count % every == 0:
            offsets.append(out.tell())
        while mark == count:
            offsets.append(out.tell())
            mark = next(wanted, None)
        out.write(line.encode())
        out.write(b"\n")
    if every or marks:
        offsets.append(out.tell())
    return offsets


class LocalWorkStore:
    """A folder; picklable, so worker processes open the same one."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def write_lines(
        self, key: str, lines: Iterable[str], every: int = 0, marks: Sequence[int] = ()
    ) -> list[int]:
        staging = self._staging(key)
        with staging.open("wb") as out:
            offsets = _encode(lines, out, every, marks)
        os.replace(staging, self.root / key)  # whole or not at all
        return offsets

    def read_lines(self, key: str, start: int = 0, end: int | None = None) -> Iterator[str]:
        with (self.root / key).open("rb") as handle:
            handle.seek(start)
            body = handle.read() if end is None else handle.read(end - start)
        yield from body.decode().splitlines()

    def write_json(self, key: str, value: Any) -> None:
        self._write(key, json.dumps(value, ensure_ascii=False).encode())

    def read_json(self, key: str) -> Any:
        return json.loads((self.root / key).read_text(encoding="utf-8"))

    def exists(self, key: str) -> bool:
        return (self.root / key).is_file()

    def keys(self, prefix: str) -> list[str]:
        """Keys starting with `prefix` (a folder when it ends with '/'), in order."""
        folder = self.root / prefix.rpartition("/")[0]
        if not folder.is_dir():
            return []
        found = (p for p in folder.rglob("*") if p.is_file() and not p.name.endswith(".partial"))
        return sorted(k for k in (str(p.relative_to(self.root)) for p in found) if k.startswith(prefix))

    def clear(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)

    def _write(self, key: str, body: bytes) -> None:
        staging = self._staging(key)
        staging.write_bytes(body)
        os.replace(staging, self.root / key)

    def _staging(self, key: str) -> Path:
        target = self.root / key
        target.parent.mkdir(parents=True, exist_ok=True)
        return target.with_name(f"{target.name}.{os.getpid()}.partial")


class S3WorkStore:
    """An S3 prefix (the bucket's lifecycle rule expires it); the client is created on first use."""

    def __init__(self, bucket: str, prefix: str, client: Any = None) -> None:
        self.bucket, self.prefix = bucket, prefix.rstrip("/") + "/"
        self._client = client

    def __getstate__(self) -> dict[str, Any]:
        return {"bucket": self.bucket, "prefix": self.prefix, "_client": None}

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = boto3.client("s3")
        return self._client

    def write_lines(
        self, key: str, lines: Iterable[str], every: int = 0, marks: Sequence[int] = ()
    ) -> list[int]:
        with tempfile.TemporaryFile() as spool:  # bounded memory; upload_fileobj goes multipart
            offsets = _encode(lines, spool, every, marks)
            spool.seek(0)
            self.client.upload_fileobj(spool, self.bucket, self.prefix + key)
        return offsets

    def read_lines(self, key: str, start: int = 0, end: int | None = None) -> Iterator[str]:
        extra = (
            {} if start == 0 and end is None else {"Range": f"bytes={start}-{'' if end is None else end - 1}"}
        )
        body = self.client.get_object(Bucket=self.bucket, Key=self.prefix + key, **extra)["Body"].read()
        yield from body.decode().splitlines()

    def write_json(self, key: str, value: Any) -> None:
        body = json.dumps(value, ensure_ascii=False).encode()
        self.client.put_object(Bucket=self.bucket, Key=self.prefix + key, Body=body)

    def read_json(self, key: str) -> Any:
        return json.loads(self.client.get_object(Bucket=self.bucket, Key=self.prefix + key)["Body"].read())

    def exists(self, key: str) -> bool:
        return bool(
            self.client.list_objects_v2(Bucket=self.bucket, Prefix=self.prefix + key, MaxKeys=1).get(
                "KeyCount"
            )
        )

    def keys(self, prefix: str) -> list[str]:
        found = []
        for page in self.client.get_paginator("list_objects_v2").paginate(
            Bucket=self.bucket, Prefix=self.prefix + prefix
        ):
            found += [item["Key"][len(self.prefix) :] for item in page.get("Contents", [])]
        return sorted(found)

    def clear(self) -> None:
        keys = self.keys("")
        for start in range(0, len(keys), 1000):
            batch = [{"Key": self.prefix + k} for k in keys[start : start + 1000]]
            self.client.delete_objects(Bucket=self.bucket, Delete={"Objects": batch})

    def location(self, key: str) -> dict[str, str]:
        """Where Step Functions' ItemReader finds the run's files: `bucket`, and `prefix` + key."""
        return {"bucket": self.bucket, "prefix": self.prefix + key}


def split_s3_url(url: str) -> tuple[str, str]:
    """s3://bucket/prefix/ → (bucket, 'prefix/'): a folder's prefix, always ending with '/'."""
    bucket, prefix = split_s3_uri(url)
    return bucket, (prefix.rstrip("/") + "/") if prefix else ""
