"""`sources discover` against the replica of Overture's bucket (as a folder, and uploaded to a moto
bucket read by ranged GETs) and a real copy of Geofabrik's index: Overture's newest release serves
the enabled countries it holds, each other enabled country gets its own OSM extract, and the
manifest written loads back as the sync reads it."""

from __future__ import annotations

import io
from functools import partial
from pathlib import Path
from typing import Any

import boto3
import pycountry
import pytest
from moto import mock_aws

from chalicelib.cli.main import main
from chalicelib.errors import ConfigurationError
from chalicelib.reference.pool_config import load_pool_config
from chalicelib.services.sync.discovery import Discovered, Upstreams, discover, discover_manifest
from chalicelib.sources.geofabrik import parse_index
from chalicelib.sources.manifest import SourceEntry, load_manifest
from chalicelib.sources.overture_plan import row_group_facts
from chalicelib.storage.files.overture_bucket import PARTS, LocalReleases, S3Releases
from tests.support.factories import SOURCES, needs_sources

pytestmark = needs_sources

OVERTURE = SOURCES / "overture"
INDEX = SOURCES / "geofabrik" / "index-v1-nogeom.json"
REPLICA_COUNTRIES = {"US", "JP", "IS", "TW", "FR", "PL", "DK", "SG", "BE", "NO"}
NAMES = {c.alpha_2: c.name for c in pycountry.countries}


def _discover(releases: Any) -> Discovered:
    extracts = parse_index(INDEX.read_text(encoding="utf-8"))
    return discover(releases, extracts, load_pool_config(), NAMES, task_rows=10_000)


def test_overture_serves_the_countries_it_holds_and_osm_extracts_the_other_enabled_ones() -> None:
    found = _discover(LocalReleases(OVERTURE))
    enabled = set(load_pool_config().enabled)
    assert found.release == "2026-11-18.0"
    overture = {e.country for e in found.entries if e.format == "overture-parquet"}
    osm = {e.country: e for e in found.entries if e.format == "osm-pbf"}
    assert overture == REPLICA_COUNTRIES & enabled
    # Hong Kong has no extract of its own in the 2022 index (its sample names `china`, which is
    # mainland China's): reported, never served from another country's extract.
    assert set(osm) == enabled - overture - {"HK"}
    assert [(m.country, m.reason) for m in found.missing] == [("HK", "no extract lists it")]
    assert osm["GB"].upstream == "https://download.geofabrik.de/europe/great-britain-latest.osm.pbf"
    assert osm["AD"].upstream == "https://download.geofabrik.de/europe/andorra-latest.osm.pbf"
    assert (osm["AD"].license, osm["AD"].language) == ("ODbL-1.0", "ca")
    for entry in found.entries:
        if entry.format == "overture-parquet":
            assert entry.family == f"overture-{entry.country}"
            assert entry.row_groups is not None
            assert Path(entry.files[0]).is_file()


class _CountingS3:
    """boto3's S3 client, counting the bytes of ranged GETs."""

    def __init__(self, client: Any) -> None:
        self._client = client
        self.bytes_read = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def get_object(self, **asked: Any) -> Any:
        answer = self._client.get_object(**asked)
        body = answer["Body"].read()
        self.bytes_read += len(body)
        return {**answer, "Body": io.BytesIO(body)}


def test_the_bucket_is_listed_and_each_part_s_footer_read_by_ranges_as_the_folder_s(aws_env: None) -> None:
    with mock_aws():
        s3 = boto3.client("s3", region_name="us-west-2")
        s3.create_bucket(Bucket="overture", CreateBucketConfiguration={"LocationConstraint": "us-west-2"})
        sizes = 0
        for release in ("2026-10-21.0", "2026-11-18.0"):
            for path in sorted((OVERTURE / "release" / release / PARTS).glob("*.parquet")):
                s3.upload_file(str(path), "overture", f"release/{release}/{PARTS}/{path.name}")
                sizes += path.stat().st_size if release == "2026-11-18.0" else 0
        counted = _CountingS3(s3)
        bucket = S3Releases("s3://overture", client=counted)
        local = LocalReleases(OVERTURE)
        assert bucket.releases() == local.releases() == ["2026-10-21.0", "2026-11-18.0"]
        assert bucket.parts("2026-11-18.0") == local.parts("2026-11-18.0")
        for part in bucket.parts("2026-11-18.0"):
            with (
                bucket.open_part("2026-11-18.0", part) as remote,
                local.open_part("2026-11-18.0", part) as kept,
            ):
                assert row_group_facts(remote) == row_group_facts(kept)
        assert 0 < counted.bytes_read < sizes  # the footers and a few country columns, not the parts
        assert bucket.location("2026-11-18.0") == f"s3://overture/release/2026-11-18.0/{PARTS}"


def test_the_command_writes_a_manifest_the_sync_reads(tmp_path: Path) -> None:
    out, printed_to = tmp_path / "manifest.json", io.StringIO()
    argv = [
        "sources",
        "discover",
        "--out",
        str(out),
        "--overture",
        str(OVERTURE),
        "--geofabrik-index",
        str(INDEX),
    ]
    assert main(argv, printed_to) == 0
    entries = load_manifest(out)
    assert {e.country for e in entries} == set(load_pool_config().enabled) - {"HK"}
    printed = printed_to.getvalue()
    assert "Overture release: 2026-11-18.0" in printed
    assert f"{len(entries)} entries written" in printed


def test_a_newest_release_without_parts_is_an_error_not_a_switch_to_osm(tmp_path: Path) -> None:
    (tmp_path / "release" / "2026-12-16.0").mkdir(parents=True)
    with pytest.raises(ConfigurationError, match="lists no parts"):
        _discover(LocalReleases(tmp_path))


def test_the_discover_state_writes_the_manifest_or_keeps_the_one_held(tmp_path: Path) -> None:
    """The scheduled sync's first state: Overture's release and Geofabrik's index made into the
    manifest it keeps; a bucket that lists no release, or an index that cannot be read, keeps the
    manifest held instead of moving every country to OSM or to nothing."""
    kept: list[list[SourceEntry]] = []
    index = partial(INDEX.read_text, encoding="utf-8")
    summary = discover_manifest(Upstreams(LocalReleases(OVERTURE), index), load_pool_config(), kept.append)
    [entries] = kept
    assert summary["release"] == "2026-11-18.0"
    assert summary["entries"] == len(entries)
    # 10 from Overture, 21 from OSM; HK in neither (the 2022 index has no extract of its own)
    assert set(summary["countries"]) == set(load_pool_config().enabled) - {"HK"}
    assert {e.country for e in entries if e.format == "overture-parquet"} == REPLICA_COUNTRIES
    assert summary["missing"] == ["HK"]

    (tmp_path / "release").mkdir()
    for upstreams in (
        Upstreams(LocalReleases(tmp_path), index),  # the bucket lists no release
        Upstreams(LocalReleases(OVERTURE), lambda: "<html>not the index</html>"),
    ):
        with pytest.raises(ConfigurationError):
            discover_manifest(upstreams, load_pool_config(), kept.append)
    assert len(kept) == 1  # nothing written over the manifest held
