from __future__ import annotations

import pytest

from chalicelib.config import settings_from_env
from chalicelib.errors import ConfigurationError

BASE = {
    "TOKENS_TABLE": "t-tokens",
    "RATE_LIMITS_TABLE": "t-rate",
    "POOL_TABLE": "t-pool",
    "CATALOG_TABLE": "t-cat",
    "AUDIT_TABLE": "t-audit",
}


def test_reads_tables_region_and_endpoint() -> None:
    settings = settings_from_env(
        {**BASE, "AWS_REGION": "eu-west-1", "AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001"}
    )
    table = settings.table(settings.tokens_table)
    assert (table.name, table.region, table.endpoint) == ("t-tokens", "eu-west-1", "http://127.0.0.1:8001")


def test_the_dynamodb_endpoint_is_read_as_the_aws_sdks_read_it() -> None:
    """Service-specific first, then the general one (an emulator sets only AWS_ENDPOINT_URL: the
    app's own DynamoDB client used to go to AWS while boto3 beside it went to the emulator)."""
    general = {**BASE, "AWS_ENDPOINT_URL": "https://127.0.0.1:4566"}
    assert settings_from_env(general).dynamodb_endpoint == "https://127.0.0.1:4566"
    specific = {**general, "AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:8001"}
    assert settings_from_env(specific).dynamodb_endpoint == "http://127.0.0.1:8001"


def test_defaults() -> None:
    settings = settings_from_env(BASE)
    assert settings.dynamodb_endpoint is None
    assert settings.token_cache_seconds == 30
    assert settings.aws_region == "us-east-1"


@pytest.mark.parametrize(
    ("env", "named"),
    [
        ({**BASE, "TOKENS_TABLE": ""}, "TOKENS_TABLE"),
        ({**BASE, "TOKEN_CACHE_SECONDS": "soon"}, "TOKEN_CACHE_SECONDS"),
        ({**BASE, "TOKEN_CACHE_SECONDS": "3600"}, "TOKEN_CACHE_SECONDS"),
    ],
)
def test_bad_settings_name_the_variable(env: dict[str, str], named: str) -> None:
    with pytest.raises(ConfigurationError, match=named):
        settings_from_env(env)
