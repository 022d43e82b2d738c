"""Secrets Manager: secrets the deployment keeps out of its template and environment (the cursor
signing key), read once per process at cold start."""

from __future__ import annotations

import boto3
from botocore.exceptions import BotoCoreError, ClientError

from chalicelib.errors import ConfigurationError


def read_secret(arn: str, region: str) -> str:
    """The secret's current string value; a missing or unreadable secret is the deployment's
    fault, reported without the value."""
    client = boto3.client("secretsmanager", region_name=region)
    try:
        value = client.get_secret_value(SecretId=arn).get("SecretString")
    except (BotoCoreError, ClientError) as exc:
        raise ConfigurationError(f"cannot read the secret {arn}: {type(exc).__name__}") from exc
    if not isinstance(value, str):
        raise ConfigurationError(f"the secret {arn} holds no string")
    return value
