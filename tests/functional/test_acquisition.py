"""Acquisition against a real HTTP server on 127.0.0.1 serving copies of shared source files."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import partial
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import boto3
import pytest
from moto import mock_aws

from chalicelib.services.sync.acquisition import AcquisitionStatus, acquire
from chalicelib.services.sync.target import SyncTarget
from chalicelib.sources.manifest import SourceEntry
from chalicelib.sources.stored import StoredSource
from chalicelib.sources.upstream import FetchError, FetchPolicy, Validators, fetch
from chalicelib.storage.files.source_store import (
    LocalSourceFiles,
    LocalSourceStore,
    S3SourceFiles,
    S3SourceStore,
)
from tests.support.factories import SOURCES
from tests.support.fakes import FakeClock

pytestmark = pytest.mark.skipif(not SOURCES.exists(), reason="shared/sources is not beside the checkout")

ANDORRA = "osm/andorra-ad.osm.pbf"


@dataclass
class Publisher:
    """What the server publishes, and the faults it shows first, in order."""

    files: dict[str, bytes]
    faults: list[str] = field(default_factory=list)  # "503" | "truncate" | "html"
    requests: list[tuple[str, str | None]] = field(default_factory=list)  # path, If-None-Match

    def etag(self, path: str) -> str:
        return '"' + hashlib.sha256(self.files[path]).hexdigest()[:16] + '"'


def _handler(publisher: Publisher) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = self.path.lstrip("/")
            publisher.requests.append((path, self.headers.get("If-None-Match")))
            fault = publisher.faults.pop(0) if publisher.faults else None
            body = publisher.files[path]
            if fault == "503":
                self.send_error(503)
                return
            if self.headers.get("If-None-Match") == publisher.etag(path):
                self.send_response(304)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html" if fault == "html" else "application/octet-stream")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("ETag", publisher.etag(path))
            self.end_headers()
            self.wfile.write(body[: len(body) // 2] if fault == "truncate" else body)

    return Handler


@pytest.fixture
def publisher() -> Iterator[tuple[Publisher, str]]:
    published = Publisher({ANDORRA: (SOURCES / ANDORRA).read_bytes()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(published))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield published, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def _entry(url: str, source_id: str = "osm-andorra-ad") -> SourceEntry:
    return SourceEntry(
        id=source_id,
        country="AD",
        format="osm-pbf",
        files=(ANDORRA,),
        language="ca",
        license="ODbL-1.0",
        attribution="© OpenStreetMap contributors",
        upstream=url,
    )


TEST_POLICY = FetchPolicy(timeout_seconds=5, attempts=3, backoff_seconds=0.01, allow_private_hosts=True)


def _acquire(
    base: str, cache: Path, policy: FetchPolicy = TEST_POLICY, entries: int = 1
) -> list[AcquisitionStatus]:
    ids = ["osm-andorra-ad", "osm-andorra-ad-copy"][:entries]
    no_wait = partial(fetch, policy=policy, sleep=lambda seconds: None)
    results = acquire([_entry(base + ANDORRA, i) for i in ids], LocalSourceStore(cache), no_wait, FakeClock())
    return [r.status for r in results]


def _fingerprint(cache: Path) -> str:
    """What decides whether the next sync rebuilds, for a manifest of the one cached entry."""
    manifest = cache / "manifest.json"
    manifest.write_text(json.dumps([_entry("https://example.org/").model_dump()]), encoding="utf-8")
    return SyncTarget(manifest, cache).fingerprint("config", LocalSourceFiles(cache).stamp)


def test_first_fetch_keeps_the_file_and_its_checksum_then_a_304_changes_nothing(
    publisher: tuple[Publisher, str], tmp_path: Path
) -> None:
    published, base = publisher
    assert _acquire(base, tmp_path) == [AcquisitionStatus.FETCHED]
    kept = tmp_path / ANDORRA
    assert kept.read_bytes() == published.files[ANDORRA]
    record = LocalSourceStore(tmp_path).held(ANDORRA)
    assert record is not None
    assert record.sha256 == hashlib.sha256(published.files[ANDORRA]).hexdigest()
    before, modified = _fingerprint(tmp_path), kept.stat().st_mtime_ns

    assert _acquire(base, tmp_path) == [AcquisitionStatus.UNCHANGED]
    assert published.requests[-1] == (ANDORRA, published.etag(ANDORRA))  # asked conditionally
    assert kept.stat().st_mtime_ns == modified
    assert _fingerprint(tmp_path) == before  # no rebuild


def test_a_changed_file_is_fetched_again_and_changes_the_fingerprint(
    publisher: tuple[Publisher, str], tmp_path: Path
) -> None:
    published, base = publisher
    _acquire(base, tmp_path)
    before = _fingerprint(tmp_path)
    published.files[ANDORRA] = (SOURCES / "osm" / "andorra_2021-ad.osm.pbf").read_bytes()
    assert _acquire(base, tmp_path) == [AcquisitionStatus.FETCHED]
    assert (tmp_path / ANDORRA).read_bytes() == published.files[ANDORRA]
    assert _fingerprint(tmp_path) != before


def test_a_5xx_then_success_is_retried(publisher: tuple[Publisher, str], tmp_path: Path) -> None:
    published, base = publisher
    published.faults = ["503"]
    assert _acquire(base, tmp_path) == [AcquisitionStatus.FETCHED]
    assert len(published.requests) == 2


def test_a_truncated_body_is_retried_and_never_kept(publisher: tuple[Publisher, str], tmp_path: Path) -> None:
    published, base = publisher
    published.faults = ["truncate"]
    assert _acquire(base, tmp_path) == [AcquisitionStatus.FETCHED]
    assert (tmp_path / ANDORRA).read_bytes() == published.files[ANDORRA]
    published.files[ANDORRA] += b"changed"
    published.faults = ["truncate"] * 3  # every attempt cut short
    assert _acquire(base, tmp_path) == [AcquisitionStatus.FAILED]
    assert (tmp_path / ANDORRA).read_bytes() == published.files[ANDORRA][: -len(b"changed")]  # old copy kept


def test_limits_and_refusals(publisher: tuple[Publisher, str], tmp_path: Path) -> None:
    published, base = publisher
    small = FetchPolicy(max_bytes=1000, attempts=1, allow_private_hosts=True)
    assert _acquire(base, tmp_path, small) == [AcquisitionStatus.FAILED]  # larger than the limit
    published.faults = ["html"]
    assert _acquire(base, tmp_path) == [AcquisitionStatus.FAILED]  # a dataset page is no file
    assert not (tmp_path / ANDORRA).exists()
    with pytest.raises(FetchError, match="non-public"):
        fetch(base + ANDORRA, Validators(), FetchPolicy())  # no requests to private networks by default
    with pytest.raises(FetchError, match="only http"):
        fetch("file:///etc/passwd", Validators(), FetchPolicy())


def test_entries_sharing_a_url_make_one_request(publisher: tuple[Publisher, str], tmp_path: Path) -> None:
    published, base = publisher
    assert _acquire(base, tmp_path, entries=2) == [AcquisitionStatus.FETCHED] * 2
    assert len(published.requests) == 1


def test_the_s3_store_keeps_the_file_and_its_record(tmp_path: Path, aws_env: None) -> None:
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket="sources")
        store = S3SourceStore("sources", client=s3)
        assert store.held(ANDORRA) is None
        body = tmp_path / "body"
        body.write_bytes(b"pbf bytes")
        record = StoredSource(
            url="https://example.org/a", sha256="ab" * 32, size=9, fetched_at="t", etag='"1"'
        )
        store.keep(ANDORRA, body, record)
        assert store.held(ANDORRA) == record
        files = S3SourceFiles(store, tmp_path / "copies")
        stamp = files.stamp(ANDORRA)
        renewed = StoredSource(**{**record.__dict__, "etag": '"2"'})
        store.record(ANDORRA, renewed)
        assert store.held(ANDORRA) == renewed
        assert s3.get_object(Bucket="sources", Key="sources/" + ANDORRA)["Body"].read() == b"pbf bytes"
        assert files.stamp(ANDORRA) == stamp  # same bytes, new validators: no rebuild
        store.keep(ANDORRA, body, StoredSource(**{**record.__dict__, "sha256": "cd" * 32}))
        assert files.stamp(ANDORRA) != stamp  # new bytes: the next sync rebuilds


def test_a_copy_held_on_local_disk_is_replaced_when_the_object_changes(tmp_path: Path, aws_env: None) -> None:
    """A warm Lambda keeps its copies in /tmp: the manifest the Discover state rewrites (or a file
    the acquisition replaces) is read again, an unchanged one is not."""
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-east-1")
        s3.create_bucket(Bucket="sources")
        files = S3SourceFiles(S3SourceStore("sources", client=s3), tmp_path / "copies")
        s3.put_object(Bucket="sources", Key="sources/manifest.json", Body=b"[1]")
        assert (files.local(["manifest.json"]) / "manifest.json").read_bytes() == b"[1]"
        s3.put_object(Bucket="sources", Key="sources/manifest.json", Body=b"[1, 2]")
        assert (files.local(["manifest.json"]) / "manifest.json").read_bytes() == b"[1, 2]"
        gets: list[str] = []
        s3.meta.events.register("before-send.s3.GetObject", lambda request, **_: gets.append(request.url))
        files.local(["manifest.json"])
        assert gets == []  # the same version: the copy held is read
