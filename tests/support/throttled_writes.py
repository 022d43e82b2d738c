"""DynamoDB throttling every batch write that holds an address of one country, answered as the
service answers (400 ThrottlingException) from botocore's `before-send` event, ahead of moto: a
fake of the outside world for runs on moto, where no proxy stands in front of the engine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import boto3
from botocore import handlers
from botocore.awsrequest import AWSResponse
from moto.core.botocore_stubber import MockRawResponse

_THROTTLED = json.dumps(
    {"__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException", "message": "Rate exceeded"}
)


class ThrottledWrites:
    def __init__(self, country: str) -> None:
        self.country = country
        self.throttled = 0  # requests answered with the throttle

    def __call__(self, event_name: str, request: Any, **_: Any) -> AWSResponse | None:
        if event_name != "before-send.dynamodb.BatchWriteItem" or not self._holds_country(request.body):
            return None
        self.throttled += 1
        headers = {"Content-Type": "application/x-amz-json-1.0"}
        return AWSResponse(request.url, 400, headers, MockRawResponse(_THROTTLED))

    def _holds_country(self, body: bytes | None) -> bool:
        for requests in json.loads(body or b"{}").get("RequestItems", {}).values():
            for request in requests:
                doc = request.get("PutRequest", {}).get("Item", {}).get("doc", {}).get("S", "")
                if doc.startswith("{") and json.loads(doc).get("cc") == self.country:
                    return True
        return False


@contextmanager
def throttled_writes(country: str) -> Iterator[ThrottledWrites]:
    """For botocore sessions created from now on (PynamoDB creates one per thread)."""
    fault = ThrottledWrites(country)
    entry = ("before-send", fault)
    handlers.BUILTIN_HANDLERS.insert(0, entry)
    boto3.DEFAULT_SESSION = None
    try:
        yield fault
    finally:
        handlers.BUILTIN_HANDLERS.remove(entry)
        boto3.DEFAULT_SESSION = None
