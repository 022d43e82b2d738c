"""The storage wire's SigV4 against botocore's own signer: the same Authorization header, byte for
byte, for the requests the wire sends."""

from __future__ import annotations

import datetime as real_datetime
from datetime import UTC, datetime

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from chalicelib.storage.dynamodb._signing import Keys, Signer

NOW = datetime(2026, 11, 27, 23, 59, 58, tzinfo=UTC)
BASE = {
    "Host": "dynamodb.eu-west-1.amazonaws.com",
    "Content-Type": "application/x-amz-json-1.0",
    "X-Amz-Target": "DynamoDB_20120810.GetItem",
}
BODY = b'{"TableName":"ags-prod-pool","Key":{"pk":{"S":"E1#0"},"sk":{"S":"S#000000000042"}}}'


def _botocore_headers(keys: Keys, now: datetime, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """botocore's SigV4Auth on the same request, its clock set to `now`."""
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda: now)
    request = AWSRequest(method="POST", url=f"https://{BASE['Host']}/", data=BODY, headers=dict(BASE))
    SigV4Auth(Credentials(*keys), "dynamodb", "eu-west-1").add_auth(request)
    return dict(request.headers.items())


@pytest.mark.parametrize(
    "keys",
    [
        Keys("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", None),
        Keys("ASIAEXAMPLE", "secret/with+chars", "IQoJb3JpZ2luX2VjEXAMPLE//session=="),  # a Lambda's role
    ],
)
def test_the_wire_signs_as_botocore_does(keys: Keys, monkeypatch: pytest.MonkeyPatch) -> None:
    ours = Signer("eu-west-1").headers(keys, BASE, BODY, NOW)
    assert ours == _botocore_headers(keys, NOW, monkeypatch)


def test_the_day_s_key_is_kept_and_a_new_day_or_secret_signs_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    signer = Signer("eu-west-1")
    keys = Keys("AKIDEXAMPLE", "first-secret", None)
    tomorrow = NOW + real_datetime.timedelta(seconds=5)  # past midnight: another day's key
    rotated = Keys("AKIDEXAMPLE", "rotated-secret", None)
    for when, used in [(NOW, keys), (NOW, keys), (tomorrow, keys), (tomorrow, rotated)]:
        assert signer.headers(used, BASE, BODY, when) == _botocore_headers(used, when, monkeypatch)
