"""The IP database files reach a Lambda from object storage: copied to /tmp once, then mapped."""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from chalicelib.domain.ip import IpPlace
from chalicelib.errors import StorageUnavailable
from chalicelib.storage.files import ip_database
from chalicelib.storage.files.ip_database import FILES, MmdbIpDatabase
from tests.support.ipdb import write_ip_database

BUCKET = "ags-test-ip-database"


@pytest.fixture
def s3(aws_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setattr(ip_database, "_LAMBDA_COPY", tmp_path / "lambda-tmp")
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket=BUCKET)
        yield client


def test_a_lambda_copies_the_files_from_s3_once_and_looks_up(s3: Any, tmp_path: Path) -> None:
    for name in FILES.values():
        s3.upload_file(str(write_ip_database(tmp_path / "built") / name), BUCKET, f"dbip/2026-06/{name}")
    database = MmdbIpDatabase(f"s3://{BUCKET}/dbip/2026-06", s3)
    assert database.lookup(ipaddress.ip_address("31.0.4.20")) == IpPlace("PL", "Lower Silesia", "Wroclaw")
    assert database.lookup(ipaddress.ip_address("2a02:1000::5")) == IpPlace("PL", "Lower Silesia", "Wroclaw")
    assert sorted(p.name for p in (tmp_path / "lambda-tmp").iterdir()) == sorted(FILES.values())


def test_missing_files_are_storage_unavailable_not_a_crash(s3: Any) -> None:
    database = MmdbIpDatabase(f"s3://{BUCKET}/nothing-here", s3)
    with pytest.raises(StorageUnavailable, match="cannot be fetched"):
        database.lookup(ipaddress.ip_address("31.0.4.20"))


def test_a_directory_without_the_files_is_storage_unavailable(tmp_path: Path) -> None:
    with pytest.raises(StorageUnavailable, match="cannot be opened"):
        MmdbIpDatabase(str(tmp_path)).lookup(ipaddress.ip_address("31.0.4.20"))
