"""The storage wire against a scripted DynamoDB endpoint: what it sends (signed as botocore signs),
what it retries, and that two calls can be in flight at once on one thread."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from chalicelib.config import TableSettings
from chalicelib.errors import StorageUnavailable
from chalicelib.storage.dynamodb._dynamo import storage_errors
from chalicelib.storage.dynamodb._wire import DynamoError, DynamoUnreachable, DynamoWire
from tests.support.scripted_dynamodb import (
    Received,
    Reply,
    ScriptedDynamoDB,
    error,
    scripted_dynamodb,
    self_signed,
)

GET = {"TableName": "pool", "Key": {"pk": {"S": "a"}}}


@pytest.fixture
def server(aws_env: None) -> Iterator[ScriptedDynamoDB]:
    with scripted_dynamodb() as scripted:
        yield scripted


class Sleeps(list[float]):
    def __call__(self, seconds: float) -> None:
        self.append(seconds)


def wire_to(server: ScriptedDynamoDB, sleeps: Sleeps | None = None, **settings: Any) -> DynamoWire:
    table = TableSettings(name="pool", region="eu-west-1", endpoint=server.endpoint, **settings)
    return DynamoWire(table, sleep=sleeps if sleeps is not None else Sleeps())


def test_sends_the_operation_signed_as_botocore_signs_it(
    server: ScriptedDynamoDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_SESSION_TOKEN", "session")  # a Lambda's credentials are temporary
    server.answer(Reply(body={"Item": {"pk": {"S": "a"}}}))

    assert wire_to(server).call("GetItem", GET) == {"Item": {"pk": {"S": "a"}}}

    [received] = server.received
    assert received.headers["X-Amz-Security-Token"] == "session"
    assert "x-amz-security-token" in received.headers["Authorization"]
    assert received.headers["X-Amz-Target"] == "DynamoDB_20120810.GetItem"
    assert received.headers["Content-Type"] == "application/x-amz-json-1.0"
    assert received.body == GET
    assert received.headers["Authorization"].endswith(f"Signature={_signature(received)}")
    assert "/eu-west-1/dynamodb/aws4_request" in received.headers["Authorization"]


def _signature(received: Received) -> str:
    """What botocore's signer makes of the request as received, from the headers it says it signed."""
    signed = re.search(r"SignedHeaders=([^,]+)", received.headers["Authorization"])
    assert signed is not None
    names = signed.group(1).split(";")
    assert "host" in names
    headers = {k: v for k, v in received.headers.items() if k.lower() in names}
    request = AWSRequest("POST", f"http://{received.headers['Host']}/", data=received.raw, headers=headers)
    request.context["timestamp"] = received.headers["X-Amz-Date"]
    signer = SigV4Auth(Credentials("testing", "testing", "session"), "dynamodb", "eu-west-1")
    return str(signer.signature(signer.string_to_sign(request, signer.canonical_request(request)), request))


def test_an_error_answer_names_its_code_and_is_not_retried(server: ScriptedDynamoDB) -> None:
    server.answer(error("ConditionalCheckFailedException"))

    with pytest.raises(DynamoError) as raised:
        wire_to(server).call("UpdateItem", GET)

    assert (raised.value.code, raised.value.status, raised.value.retryable) == (
        "ConditionalCheckFailedException",
        400,
        False,
    )
    assert len(server.received) == 1


def test_throttling_is_retried_with_growing_jittered_pauses(server: ScriptedDynamoDB) -> None:
    server.answer(error("ThrottlingException"), error("ProvisionedThroughputExceededException"), Reply())
    sleeps = Sleeps()

    assert wire_to(server, sleeps).call("GetItem", GET) == {}

    assert len(server.received) == 3
    assert len(sleeps) == 2
    assert 0 <= sleeps[0] <= 0.1
    assert 0 <= sleeps[1] <= 0.2


def test_server_errors_past_the_retries_become_storage_unavailable(server: ScriptedDynamoDB) -> None:
    server.answer(*[error("InternalServerError", 500)] * 3)

    with pytest.raises(StorageUnavailable), storage_errors("pool"):
        wire_to(server, max_retry_attempts=2).call("GetItem", GET)

    assert len(server.received) == 3


def test_a_damaged_answer_is_asked_again(server: ScriptedDynamoDB) -> None:
    server.answer(Reply(body={"Item": {}}, crc32=12345), Reply(body={"Item": {"pk": {"S": "a"}}}))

    assert wire_to(server).call("GetItem", GET) == {"Item": {"pk": {"S": "a"}}}
    assert len(server.received) == 2


def test_connections_are_kept_alive_and_a_closed_one_is_replaced_without_a_retry(
    server: ScriptedDynamoDB,
) -> None:
    sleeps = Sleeps()
    wire = wire_to(server, sleeps)
    server.answer(Reply(), Reply(), Reply(close=True), Reply())

    for _ in range(4):
        wire.call("GetItem", GET)

    first, second, third, fourth = (r.connection for r in server.received)
    assert first == second == third  # kept alive
    assert fourth != third  # the server closed it: a new one, no pause
    assert sleeps == []


def test_a_silent_server_times_out_and_is_unavailable(server: ScriptedDynamoDB) -> None:
    server.answer(*[Reply(delay=1.0)] * 2)  # answers that would succeed, had they been awaited

    with pytest.raises(StorageUnavailable), storage_errors("pool"):
        wire_to(server, read_timeout_seconds=0.2, max_retry_attempts=1).call("GetItem", GET)

    assert len(server.received) == 2


def test_nobody_listening_is_unreachable(aws_env: None) -> None:
    with scripted_dynamodb() as gone:
        endpoint = gone.endpoint
    table = TableSettings(name="pool", region="eu-west-1", endpoint=endpoint, max_retry_attempts=1)

    with pytest.raises(DynamoUnreachable):
        DynamoWire(table, sleep=Sleeps()).call("GetItem", GET)


def test_two_calls_are_in_flight_at_once_on_one_thread(server: ScriptedDynamoDB) -> None:
    # Each answer waits for both requests to have arrived, else it is an error: calls sent one after
    # the other's answer would fail. The two may reach the server in either order.
    server.answer(
        Reply(body={"n": 1}, wait_for=2, operation="UpdateItem"),
        Reply(body={"n": 2}, wait_for=2, operation="GetItem"),
    )
    wire = wire_to(server)

    first = wire.start("UpdateItem", GET)
    second = wire.start("GetItem", GET)

    assert (second.result(), first.result()) == ({"n": 2}, {"n": 1})
    assert server.received[0].connection != server.received[1].connection


def test_tls_is_verified_against_the_trusted_bundle(aws_env: None, tmp_path: Path) -> None:
    context, certificate = self_signed(tmp_path)
    with scripted_dynamodb(tls=context) as server:
        table = TableSettings(name="pool", region="eu-west-1", endpoint=server.endpoint, max_retry_attempts=0)

        with pytest.raises(DynamoUnreachable):  # no CA botocore trusts vouches for it
            DynamoWire(table).call("GetItem", GET)
        assert server.received == []

        with pytest.MonkeyPatch.context() as env:
            env.setenv("AWS_CA_BUNDLE", str(certificate))  # as botocore does, the operator's bundle
            assert DynamoWire(table).call("GetItem", GET) == {}
        assert len(server.received) == 1


def test_missing_credentials_are_unavailable_not_a_crash(server: ScriptedDynamoDB) -> None:
    with pytest.MonkeyPatch.context() as env:
        for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
            env.delenv(name)
        env.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
        env.setenv("AWS_CONFIG_FILE", "/nonexistent")
        env.setenv("AWS_EC2_METADATA_DISABLED", "true")
        pending = wire_to(server, max_retry_attempts=0).start("GetItem", GET)  # sends nothing, raises nothing

        with pytest.raises(StorageUnavailable), storage_errors("pool"):
            pending.result()
    assert server.received == []
