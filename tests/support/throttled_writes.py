"""DynamoDB throttling every batch write (or every one that holds an address of one country),
answered as the service answers, from botocore's `before-send` event, ahead of moto: a 400
ThrottlingException, or a 200 handing every item back as UnprocessedItems (throttled item by
item). A fake of the outside world for runs on moto, where no proxy stands in front of the engine."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

import boto3
import botocore.endpoint
from botocore import handlers
from botocore.awsrequest import AWSResponse
from moto.core.botocore_stubber import MockRawResponse

_THROTTLED = json.dumps(
    {"__type": "com.amazonaws.dynamodb.v20120810#ThrottlingException", "message": "Rate exceeded"}
)


class ThrottledWrites:
    def __init__(self, country: str | None, unprocessed: bool) -> None:
        self.country = country
        self.unprocessed = unprocessed
        self.throttled = 0  # requests answered with the throttle
        self.sdk_waits: list[float] = []  # botocore's pauses before its retries (not slept)

    def __call__(self, event_name: str, request: Any, **_: Any) -> AWSResponse | None:
        if event_name != "before-send.dynamodb.BatchWriteItem" or not self._holds_country(request.body):
            return None
        self.throttled += 1
        headers = {"Content-Type": "application/x-amz-json-1.0"}
        if self.unprocessed:
            handed_back = {"UnprocessedItems": json.loads(request.body)["RequestItems"]}
            return AWSResponse(request.url, 200, headers, MockRawResponse(json.dumps(handed_back)))
        return AWSResponse(request.url, 400, headers, MockRawResponse(_THROTTLED))

    def _holds_country(self, body: bytes | None) -> bool:
        if self.country is None:
            return True
        for requests in json.loads(body or b"{}").get("RequestItems", {}).values():
            for request in requests:
                doc = request.get("PutRequest", {}).get("Item", {}).get("doc", {}).get("S", "")
                if doc.startswith("{") and json.loads(doc).get("cc") == self.country:
                    return True
        return False


@contextmanager
def throttled_writes(country: str | None = None, *, unprocessed: bool = False) -> Iterator[ThrottledWrites]:
    """For botocore sessions created from now on (PynamoDB creates one per thread). The pauses
    botocore takes before resending a throttled request are recorded in `sdk_waits`, not slept:
    against this fake they wait for nothing (they cost test_state_machine 20 s)."""
    fault = ThrottledWrites(country, unprocessed)
    entry = ("before-send", fault)
    handlers.BUILTIN_HANDLERS.insert(0, entry)
    boto3.DEFAULT_SESSION = None
    slept_by = botocore.endpoint.time
    botocore.endpoint.time = SimpleNamespace(sleep=fault.sdk_waits.append)
    try:
        yield fault
    finally:
        botocore.endpoint.time = slept_by
        handlers.BUILTIN_HANDLERS.remove(entry)
        boto3.DEFAULT_SESSION = None


class ItemByItem:
    """DynamoDB throttling a table item by item: each BatchWriteItem writes only its first
    `processed` requests and hands the others back as UnprocessedItems, as the service does under
    load (at the client's parameter and response events, so moto writes what got through)."""

    def __init__(self, processed: int) -> None:
        self.processed = processed
        self.requests = 0  # BatchWriteItem calls seen
        self._handed_back = threading.local()

    def before_parameters(self, params: dict[str, Any], **_: Any) -> None:
        self.requests += 1
        handed_back = {}
        for table, requests in params["RequestItems"].items():
            params["RequestItems"][table] = requests[: self.processed]
            if requests[self.processed :]:
                handed_back[table] = requests[self.processed :]
        self._handed_back.items = handed_back

    def after_call(self, parsed: dict[str, Any], **_: Any) -> None:
        parsed["UnprocessedItems"] = getattr(self._handed_back, "items", {})


@contextmanager
def throttled_item_by_item(processed: int) -> Iterator[ItemByItem]:
    """For botocore clients created from now on (PynamoDB creates one per thread); `processed=0`
    hands every item back, always."""
    fault = ItemByItem(processed)
    entries: list[tuple[str, Callable[..., None]]] = [
        ("before-parameter-build.dynamodb.BatchWriteItem", fault.before_parameters),
        ("after-call.dynamodb.BatchWriteItem", fault.after_call),
    ]
    for entry in entries:
        handlers.BUILTIN_HANDLERS.insert(0, entry)
    boto3.DEFAULT_SESSION = None
    try:
        yield fault
    finally:
        for entry in entries:
            handlers.BUILTIN_HANDLERS.remove(entry)
        boto3.DEFAULT_SESSION = None
