"""Every AWS call the code makes, recorded as botocore sends it, with who made it: the principal
the current thread acts as (`acting_as`). A thread starts acting as the thread that started it
(the code's own pools, s3transfer's uploads), except moto's own threads, which act as `moto_as`
(its Step Functions interpreter runs executions in threads of its own).

Registered as botocore's first `before-send` handler, so it sees each request before moto answers
it; boto3's clients, PynamoDB and the app's own DynamoDB wire all send through that event."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import boto3
from botocore import handlers


@dataclass(frozen=True)
class Call:
    principal: str | None
    service: str  # the event's service name: dynamodb, s3, stepfunctions, lambda, secretsmanager
    operation: str
    resources: tuple[str, ...]  # table names, "bucket/key" or "bucket/", ARNs


class Recorder:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self._local = threading.local()
        self._lock = threading.Lock()

    @contextmanager
    def acting_as(self, principal: str) -> Iterator[None]:
        before = getattr(self._local, "principal", None)
        self._local.principal = principal
        try:
            yield
        finally:
            self._local.principal = before

    def current(self) -> str | None:
        return getattr(self._local, "principal", None)

    def __call__(self, event_name: str, request: Any, **_: Any) -> None:
        service, operation = event_name.split(".", 2)[1:]
        call = Call(self.current(), service, operation, _resources(service, request))
        with self._lock:
            self.calls.append(call)


@contextmanager
def recording(moto_as: str) -> Iterator[Recorder]:
    """Install the recorder for sessions created from now on (boto3's default one is reset)."""
    recorder = Recorder()
    entry = ("before-send", recorder)
    handlers.BUILTIN_HANDLERS.insert(0, entry)
    boto3.DEFAULT_SESSION = None
    original_start = threading.Thread.start

    def start(thread: threading.Thread) -> None:
        target = getattr(thread, "_target", None)
        module = getattr(target, "__module__", None) or type(thread).__module__
        principal = moto_as if module.startswith("moto.") else recorder.current()
        run = thread.run

        def run_as() -> None:
            recorder._local.principal = principal
            run()

        thread.run = run_as  # type: ignore[method-assign]
        original_start(thread)

    threading.Thread.start = start  # type: ignore[method-assign,assignment]
    try:
        yield recorder
    finally:
        threading.Thread.start = original_start  # type: ignore[method-assign]
        handlers.BUILTIN_HANDLERS.remove(entry)
        boto3.DEFAULT_SESSION = None


def _resources(service: str, request: Any) -> tuple[str, ...]:
    if service == "dynamodb":
        body = json.loads(request.body or b"{}")
        if "TransactItems" in body:  # each item as "Kind:table" (IAM checks each item's own action)
            return tuple(
                f"{kind}:{item[kind]['TableName']}" for item in body["TransactItems"] for kind in item
            )
        return tuple(sorted(body.get("RequestItems", {}))) or (body.get("TableName", ""),)
    if service == "s3":
        parts = urlsplit(request.url)
        host_bucket = parts.hostname.split(".s3.", 1)[0] if ".s3." in (parts.hostname or "") else None
        path = unquote(parts.path).lstrip("/")
        located = f"{host_bucket}/{path}" if host_bucket else path
        copied = request.headers.get("x-amz-copy-source")
        source = (
            (unquote(copied.decode() if isinstance(copied, bytes) else copied).lstrip("/"),) if copied else ()
        )
        return (located if "/" in located else located + "/", *source)
    body = json.loads(request.body or b"{}") if request.body else {}
    found = [body[k] for k in ("stateMachineArn", "executionArn", "SecretId") if k in body]
    if service == "lambda":
        found.append(unquote(urlsplit(request.url).path).split("/functions/", 1)[-1].split("/", 1)[0])
    return tuple(found)
