"""DynamoDB failures become domain errors at the storage boundary."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError
from pynamodb.exceptions import GetError, PutError, UpdateError

from chalicelib.errors import StorageUnavailable
from chalicelib.storage.dynamodb._dynamo import storage_errors


def _client_error(code: str) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": "m"}}, "GetItem")


@pytest.mark.parametrize(
    "code",
    [
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "ResourceNotFoundException",
        "InternalServerError",
    ],
)
def test_throttling_missing_table_and_server_errors_are_unavailable(code: str) -> None:
    with pytest.raises(StorageUnavailable), storage_errors("t"):
        raise GetError(cause=_client_error(code))


def test_unreachable_endpoint_is_unavailable() -> None:
    with pytest.raises(StorageUnavailable), storage_errors("t"):
        raise GetError(cause=EndpointConnectionError(endpoint_url="http://127.0.0.1:9"))


def test_client_mistakes_are_not_disguised() -> None:
    with pytest.raises(UpdateError), storage_errors("t"):
        raise UpdateError(cause=_client_error("ValidationException"))


def test_a_refused_condition_is_not_unavailable() -> None:
    with pytest.raises(PutError), storage_errors("t"):
        raise PutError(cause=_client_error("ConditionalCheckFailedException"))
