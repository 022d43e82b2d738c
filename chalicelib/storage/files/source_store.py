"""Where fetched source files are kept, under the manifest's relative path (`osm/andorra-ad.osm.pbf`),
each with what the fetch recorded: its URL, SHA-256, size and the publisher's validators. A folder
locally (a `.meta.json` beside each file), an S3 bucket in AWS (the same record as object metadata)."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

import boto3

from chalicelib.sources.manifest import MANIFEST_NAME, SourceEntry, manifest_text
from chalicelib.sources.stored import StoredSource
from chalicelib.storage.files.overture_bucket import is_remote, open_remote, remote_stamp


class LocalSourceStore:
    """A cache folder laid out like shared/sources, so a sync reads it with the same manifest."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def held(self, key: str) -> StoredSource | None:
        meta = self._meta(key)
        if not meta.is_file() or not (self.root / key).is_file():
            return None
        return StoredSource(**json.loads(meta.read_text(encoding="utf-8")))

    def keep(self, key: str, body: Path, record: StoredSource) -> None:
        target = self.root / key
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = target.with_name(target.name + ".partial")
        shutil.copyfile(body, staging)
        os.replace(staging, target)  # readers see the old file or the new one, never half of one
        self.record(key, record)

    def record(self, key: str, record: StoredSource) -> None:
        meta = self._meta(key)
        meta.parent.mkdir(parents=True, exist_ok=True)
        meta.write_text(json.dumps(asdict(record), sort_keys=True), encoding="utf-8")

    def _meta(self, key: str) -> Path:
        return self.root / (key + ".meta.json")


class S3SourceStore:
    """Source files in a bucket under `prefix`; the fetch record is the object's metadata."""

    def __init__(self, bucket: str, prefix: str = "sources/", client: Any = None) -> None:
        self.bucket, self.prefix = bucket, prefix
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = boto3.client("s3")
        return self._client

    def held(self, key: str) -> StoredSource | None:
        try:
            head = self.client.head_object(Bucket=self.bucket, Key=self.prefix + key)
        except self.client.exceptions.ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in {"404", "NoSuchKey", "NotFound"}:
                return None
            raise
        return _from_metadata(head.get("Metadata", {}))

    def keep(self, key: str, body: Path, record: StoredSource) -> None:
        self.client.upload_file(
            str(body), self.bucket, self.prefix + key, ExtraArgs={"Metadata": _to_metadata(record)}
        )

    def keep_manifest(self, entries: list[SourceEntry]) -> None:
        """The manifest the acquisition's Map and the build read (`manifest.json`)."""
        body = manifest_text(entries).encode()
        self.client.put_object(Bucket=self.bucket, Key=f"{self.prefix}{MANIFEST_NAME}", Body=body)

    def record(self, key: str, record: StoredSource) -> None:
        self.client.copy_object(
            Bucket=self.bucket,
            Key=self.prefix + key,
            CopySource={"Bucket": self.bucket, "Key": self.prefix + key},
            Metadata=_to_metadata(record),
            MetadataDirective="REPLACE",
        )


def _to_metadata(record: StoredSource) -> dict[str, str]:
    return {"fetch-record": json.dumps(asdict(record), sort_keys=True)}


def _from_metadata(metadata: dict[str, str]) -> StoredSource | None:
    text = metadata.get("fetch-record")
    return StoredSource(**json.loads(text)) if text else None


class LocalSourceFiles:
    """Files already on this machine (shared/sources, or a cache folder): read in place."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def local(self, names: list[str]) -> Path:
        return self.root

    def stamp(self, name: str) -> str:
        if is_remote(name):
            return remote_stamp(name)
        stat = (self.root / name).stat()
        return f"{stat.st_size}|{stat.st_mtime_ns}"

    def open_remote(self, uri: str) -> IO[bytes]:
        return open_remote(uri)


class S3SourceFiles:
    """Source files in the source store's bucket, copied to local disk (Lambda's /tmp) when a
    step first needs them: the readers (pyosmium, csv) read files."""

    def __init__(self, store: S3SourceStore, cache: Path) -> None:
        self.store, self.cache = store, cache

    def local(self, names: list[str]) -> Path:
        """Each file copied unless the copy held is of the object's current version (its ETag): a
        warm Lambda must not read yesterday's manifest after the Discover state rewrote it, nor a
        source the acquisition replaced."""
        for name in names:
            if is_remote(name):
                continue  # read in place, by ranges (open_remote)
            key = self.store.prefix + name
            target, version = self.cache / name, self.cache / f"{name}.etag"
            etag = str(self.store.client.head_object(Bucket=self.store.bucket, Key=key)["ETag"])
            if target.is_file() and version.is_file() and version.read_text(encoding="utf-8") == etag:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(target.name + ".partial")
            self.store.client.download_file(self.store.bucket, key, str(partial))
            os.replace(partial, target)
            version.write_text(etag, encoding="utf-8")
        return self.cache

    def stamp(self, name: str) -> str:
        """The content's SHA-256 from the acquisition's record; the ETag for a file put there by
        hand. Not the ETag alone: re-recording a multipart object's metadata (same bytes, new
        validators) rewrites it as one part, with a new ETag but the same content."""
        if is_remote(name):
            return remote_stamp(name)
        head = self.store.client.head_object(Bucket=self.store.bucket, Key=self.store.prefix + name)
        record = _from_metadata(head.get("Metadata", {}))
        return f"sha256:{record.sha256}" if record and record.sha256 else str(head["ETag"])

    def open_remote(self, uri: str) -> IO[bytes]:
        return open_remote(uri)


def source_files(root: str, cache: Path) -> LocalSourceFiles | S3SourceFiles:
    """`s3://bucket/prefix/` or a local folder, as a sync job records its sources' root."""
    if root.startswith("s3://"):
        from chalicelib.storage.files.sync_work import split_s3_url  # sync_work imports nothing from here

        return S3SourceFiles(S3SourceStore(*split_s3_url(root)), cache)
    return LocalSourceFiles(Path(root))
