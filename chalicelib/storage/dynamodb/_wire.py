"""DynamoDB's JSON protocol on kept-alive connections, for the calls on every API request's
critical path: the token's read, the rate counter's update, the active-snapshot pointers and the
pool's reads. PynamoDB serves everything else.

Why not botocore for these: on a warm Lambda its per-call machinery (operation models, validation,
a dozen events, the user-agent string, response parsing) costs more CPU than a loopback round trip
(about 0.5 ms of a 0.8 ms GetItem on DynamoDB Local), and its calls block, so two calls cannot be
in flight at once on one thread. This sends the same request, signed with the session's credentials
(SigV4, `_signing.py`: the Authorization botocore's own signer computes, in a tenth of its time),
and `start` leaves it in flight while the caller works on.

Whatever is hooked to botocore's `before-send` event (moto in tests, the benchmarks' request
counter) sees each request, and may answer it, exactly as it would botocore's.

Retries follow the SDK's rules for DynamoDB: throttling, 5xx answers, a lost connection, a timeout
and a damaged answer (x-amz-crc32) are retried up to `max_retry_attempts` times, with full-jitter
backoff from 50 ms. Like the SDK's, a retried write whose first answer was lost may apply twice."""

from __future__ import annotations

import http.client
import json
import random
import ssl
import threading
import time
import zlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from urllib.parse import urlsplit

import botocore.session
from botocore.awsrequest import AWSPreparedRequest
from botocore.compat import HTTPHeaders
from botocore.exceptions import BotoCoreError, NoCredentialsError
from botocore.httpsession import get_cert_path

from chalicelib.config import TableSettings
from chalicelib.storage.dynamodb._sessions import new_session
from chalicelib.storage.dynamodb._signing import Keys, Signer

if TYPE_CHECKING:
    from botocore.credentials import Credentials

_TARGET_PREFIX = "DynamoDB_20120810."
_CONTENT_TYPE = "application/x-amz-json-1.0"
_BACKOFF_BASE_SECONDS = 0.05
_MAX_IDLE = 64  # kept-alive connections per table: a Lambda needs one; `chalice local` one per thread
_THROTTLING_CODES = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "TransactionInProgressException",
    }
)

T = TypeVar("T")
Document = dict[str, Any]


class DynamoError(Exception):
    """DynamoDB answered with an error."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status

    @property
    def retryable(self) -> bool:
        return self.status >= 500 or self.code in _THROTTLING_CODES


class DynamoUnreachable(Exception):
    """No usable answer: the connection failed or was lost, the read timed out, or the answer
    arrived damaged."""

    retryable = True


class _Answer:
    def __init__(self, status: int, body: bytes, crc32: str | None) -> None:
        self.status = status
        self.body = body
        self.crc32 = crc32

    def document(self) -> Document:
        if self.crc32 is not None and zlib.crc32(self.body) != int(self.crc32):
            raise DynamoUnreachable("the answer's CRC32 does not match its body")
        try:
            parsed: Document = json.loads(self.body) if self.body else {}
        except ValueError as exc:
            raise DynamoUnreachable("the answer is not JSON") from exc
        if self.status != 200:
            code = str(parsed.get("__type", "UnknownError")).rpartition("#")[2]
            message = str(parsed.get("message") or parsed.get("Message") or "")
            raise DynamoError(code, message, self.status)
        return parsed


class _Stale(DynamoUnreachable):
    """A kept-alive connection turned out closed by the server before our request reached it."""


class _InFlight:
    def __init__(self, connection: http.client.HTTPConnection, reused: bool) -> None:
        self.connection = connection
        self.reused = reused


# A request sent is an _Answer already (a hook answered), a connection awaiting its answer, or the
# error that stopped it from being sent.
_Sent = _Answer | _InFlight | DynamoUnreachable


class Later(Generic[T]):
    """A result computed when first asked for: what a call in flight hands back."""

    def __init__(self, compute: Callable[[], T]) -> None:
        self._compute: Callable[[], T] | None = compute
        self._value: T | None = None

    def result(self) -> T:
        if self._compute is not None:
            self._value, self._compute = self._compute(), None
        return self._value  # type: ignore[return-value]


class DynamoWire:
    """Signed DynamoDB calls over a small pool of kept-alive connections (thread-safe)."""

    def __init__(self, table: TableSettings, sleep: Callable[[float], None] = time.sleep) -> None:
        parts = urlsplit(table.endpoint or f"https://dynamodb.{table.region}.amazonaws.com")
        self._tls = parts.scheme == "https"
        self._hostname = parts.hostname or ""
        self._port = parts.port or (443 if self._tls else 80)
        default_port = parts.port is None or parts.port == (443 if self._tls else 80)
        self._host = self._hostname if default_port else f"{self._hostname}:{self._port}"
        self._url = f"{parts.scheme}://{self._host}/"
        self._signer = Signer(table.region)
        self._connect_timeout = table.connect_timeout_seconds
        self._read_timeout = table.read_timeout_seconds
        self._attempts = 1 + table.max_retry_attempts
        self._sleep = sleep
        self._idle: list[http.client.HTTPConnection] = []
        self._lock = threading.Lock()
        self._session: botocore.session.Session | None = None
        self._credentials: Credentials | None = None
        self._tls_context: ssl.SSLContext | None = None

    def call(self, operation: str, payload: Document) -> Document:
        return self.start(operation, payload).result()

    def start(self, operation: str, payload: Document) -> Later[Document]:
        """Send the request now; its answer is read (and retried if need be) by `result()`."""
        body = json.dumps(payload, separators=(",", ":")).encode()
        sent = self._send(operation, body)

        def finish() -> Document:
            outcome, attempt = sent, 1
            while True:
                try:
                    return self._receive(outcome).document()
                except _Stale:
                    pass  # a kept-alive connection the server had closed: resend at once, free
                except (DynamoError, DynamoUnreachable) as exc:
                    if not exc.retryable or attempt == self._attempts:
                        raise
                    attempt = self._back_off(attempt)
                outcome = self._send(operation, body)

        return Later(finish)

    def _back_off(self, attempt: int) -> int:
        self._sleep(random.uniform(0, _BACKOFF_BASE_SECONDS * 2**attempt))  # noqa: S311 - jitter
        return attempt + 1

    def _send(self, operation: str, body: bytes) -> _Sent:
        """Never raises for the outside world's sake: a failure is handed to `result()`."""
        try:
            headers = self._signed(operation, body)
        except BotoCoreError as exc:  # credentials that cannot be found or refreshed
            return DynamoUnreachable(f"cannot sign: {type(exc).__name__}")
        request = AWSPreparedRequest("POST", self._url, _http_headers(headers), body, stream_output=False)
        hooked = self._botocore().emit_first_non_none_response(
            f"before-send.dynamodb.{operation}", request=request
        )
        if hooked is not None:
            return _Answer(hooked.status_code, hooked.content, hooked.headers.get("x-amz-crc32"))
        try:
            connection, reused = self._connection()
        except OSError as exc:
            return DynamoUnreachable(f"cannot connect: {type(exc).__name__}")
        try:
            assert connection.sock is not None  # connected by _connection
            connection.sock.sendall(_request_bytes(headers, body))
        except (OSError, http.client.HTTPException) as exc:
            connection.close()
            return _Stale() if reused else DynamoUnreachable(f"sending failed: {type(exc).__name__}")
        return _InFlight(connection, reused)

    def _receive(self, sent: _Sent) -> _Answer:
        if isinstance(sent, _Answer):
            return sent
        if isinstance(sent, DynamoUnreachable):
            raise sent
        connection = sent.connection
        # http.client's own parser, on the socket the request was written to (as getresponse reads).
        response = http.client.HTTPResponse(connection.sock, method="POST")
        try:
            response.begin()
            answer = _Answer(response.status, response.read(), response.getheader("x-amz-crc32"))
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError) as exc:
            _close(response, connection)
            if sent.reused:
                raise _Stale() from exc
            raise DynamoUnreachable(f"no answer: {type(exc).__name__}") from exc
        except (OSError, http.client.HTTPException) as exc:
            _close(response, connection)
            raise DynamoUnreachable(f"no answer: {type(exc).__name__}") from exc
        self._release(connection, keep=not response.will_close)
        return answer

    def _release(self, connection: http.client.HTTPConnection, keep: bool) -> None:
        with self._lock:
            if keep and len(self._idle) < _MAX_IDLE:
                self._idle.append(connection)
                return
        connection.close()

    def _signed(self, operation: str, body: bytes) -> dict[str, str]:
        # Host is set, not left to http.client, so the header signed is the header sent.
        base = {"Host": self._host, "Content-Type": _CONTENT_TYPE, "X-Amz-Target": _TARGET_PREFIX + operation}
        return self._signer.headers(self._frozen_credentials(), base, body, datetime.now(UTC))

    def _frozen_credentials(self) -> Keys:
        if self._credentials is None:
            self._credentials = self._botocore().get_credentials()
            if self._credentials is None:
                raise NoCredentialsError()
        frozen = self._credentials.get_frozen_credentials()  # refreshed here when they expire
        return Keys(frozen.access_key, frozen.secret_key, frozen.token)

    def _botocore(self) -> botocore.session.Session:
        if self._session is None:
            self._session = new_session()
        return self._session

    def _connection(self) -> tuple[http.client.HTTPConnection, bool]:
        """An idle kept-alive connection (reused: True), else a new one."""
        with self._lock:
            if self._idle:
                return self._idle.pop(), True
        connection: http.client.HTTPConnection
        if self._tls:
            connection = http.client.HTTPSConnection(
                self._hostname, self._port, timeout=self._connect_timeout, context=self._tls_settings()
            )
        else:
            connection = http.client.HTTPConnection(self._hostname, self._port, timeout=self._connect_timeout)
        try:
            connection.connect()  # sets TCP_NODELAY: a request leaves at once, in one segment
        except OSError:
            connection.close()
            raise
        assert connection.sock is not None
        connection.sock.settimeout(self._read_timeout)
        return connection, False

    def _tls_settings(self) -> ssl.SSLContext:
        if self._tls_context is None:
            # The CA bundle botocore itself would verify DynamoDB against: the session's
            # ca_bundle (AWS_CA_BUNDLE or the config file), else botocore's own.
            bundle = self._botocore().get_config_variable("ca_bundle") or get_cert_path(True)
            self._tls_context = ssl.create_default_context(cafile=bundle)
        return self._tls_context


def _http_headers(headers: dict[str, str]) -> HTTPHeaders:
    """The headers as botocore's prepared requests carry them, for its `before-send` hooks."""
    found = HTTPHeaders()
    for name, value in headers.items():
        found[name] = value
    return found


def _request_bytes(headers: dict[str, str], body: bytes) -> bytes:
    """The whole request in one write: http.client sends the head and the body in two, each a
    syscall and a wake-up of the server (some 0.1 ms on loopback)."""
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"POST / HTTP/1.1\r\n{head}Content-Length: {len(body)}\r\n\r\n".encode() + body


def _close(response: http.client.HTTPResponse, connection: http.client.HTTPConnection) -> None:
    """The response's reader holds the socket open until it is closed too."""
    response.close()
    connection.close()
