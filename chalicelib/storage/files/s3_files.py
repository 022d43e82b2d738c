"""Files too large for the deployment package, kept in S3 and copied to Lambda's /tmp once per
process at first use (the IP database, Japan Post's postcode table)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chalicelib.errors import StorageUnavailable

LAMBDA_TMP = Path("/tmp")  # noqa: S108 - Lambda's only writable place


def split_s3_uri(uri: str) -> tuple[str, str]:
    """s3://bucket/key → (bucket, key)."""
    bucket, _, key = uri.removeprefix("s3://").partition("/")
    return bucket, key


def local_copy(bucket: str, key: str, target: Path, what: str, s3_client: Any = None) -> Path:
    """`target`, downloaded unless a previous call of this process (or container) left it there;
    a partial download never takes its name."""
    if target.exists():
        return target
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    client = s3_client or boto3.client("s3")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(target.suffix + ".part")
    try:
        client.download_file(bucket, key, str(partial))
    except (BotoCoreError, ClientError) as exc:
        raise StorageUnavailable(f"{what} cannot be fetched: {type(exc).__name__}") from exc
    partial.rename(target)
    return target
