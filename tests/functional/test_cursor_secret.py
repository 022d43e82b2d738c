"""The cursor signing key read from Secrets Manager at cold start (moto), as deployed: the key is
in neither the template nor the environment, only the secret's ARN."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws
from pydantic import ValidationError

from chalicelib import deps
from chalicelib.errors import ConfigurationError, InvalidRequest
from chalicelib.services.catalog.cursors import CursorSigner, Position
from tests.support.factories import make_settings

KEY = "k" * 48


@pytest.fixture
def secrets(aws_env: None) -> Iterator[Any]:
    with mock_aws():
        yield boto3.client("secretsmanager", region_name="us-east-1")


def _cursor_signer(arn: str) -> CursorSigner | None:
    return deps.build(make_settings(cursor_secret=None, cursor_secret_arn=arn)).cursors


def test_cursors_are_signed_with_the_secrets_value(secrets: Any) -> None:
    arn = secrets.create_secret(Name="ags-test-cursor", SecretString=KEY)["ARN"]
    signer = _cursor_signer(arn)
    assert signer is not None
    position = Position("snap", 40)
    assert signer.read(CursorSigner(KEY.encode()).issue("b", position), "b") == position
    with pytest.raises(InvalidRequest):
        signer.read(CursorSigner(b"o" * 48).issue("b", position), "b")


def test_a_missing_or_short_secret_stops_the_cold_start_without_showing_the_value(secrets: Any) -> None:
    short = secrets.create_secret(Name="ags-test-short", SecretString="s3cr3t")["ARN"]
    with pytest.raises(ConfigurationError) as raised:
        _cursor_signer(short)
    assert "s3cr3t" not in str(raised.value)
    missing = short.replace("ags-test-short", "ags-test-gone")
    with pytest.raises(ConfigurationError, match="cannot read the secret"):
        _cursor_signer(missing)


def test_only_a_secrets_manager_arn_is_accepted() -> None:
    with pytest.raises(ValidationError, match="cursor_secret_arn"):
        make_settings(cursor_secret_arn="arn:aws:ssm:us-east-1:123456789012:parameter/cursor")
