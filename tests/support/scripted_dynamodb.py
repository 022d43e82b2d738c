"""A DynamoDB HTTP endpoint that answers from a script: what a kept-alive connection, throttling,
a damaged answer or a silent server look like on the wire. A fake of the outside world (DynamoDB's
HTTP API), for the storage wire's tests; it records every request it receives."""

from __future__ import annotations

import itertools
import json
import ssl
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: dict[str, object] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering
    close: bool = False  # close the connection after answering
    crc32: int | None = None  # sent instead of the body's own checksum (a damaged answer)
    wait_for: int = 0  # answer once this many requests have arrived; if 2 s pass first, refuse
    operation: str | None = None  # answers only this operation (requests may arrive in any order)


@dataclass(frozen=True)
class Received:
    headers: dict[str, str]
    raw: bytes
    connection: int  # which TCP connection it came on

    @property
    def body(self) -> dict[str, object]:
        return json.loads(self.raw)  # type: ignore[no-any-return]


@dataclass
class Script:
    replies: list[Reply] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    lock: threading.Condition = field(default_factory=threading.Condition)

    def next_reply(self, received: Received) -> Reply:
        with self.lock:
            self.received.append(received)
            self.lock.notify_all()
            reply = self._reply_to(received.headers.get("X-Amz-Target", ""))
            if self.lock.wait_for(lambda: len(self.received) >= reply.wait_for, timeout=2):
                return reply
            return error("ValidationException")

    def _reply_to(self, target: str) -> Reply:
        operation = target.rpartition(".")[2]
        for index, reply in enumerate(self.replies):
            if reply.operation in (None, operation):
                return self.replies.pop(index)
        return Reply()


class ScriptedDynamoDB:
    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.script = Script()
        script = self.script
        connections = itertools.count(1)  # numbered: id() of a closed socket may be reused

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # kept alive, as DynamoDB's are

            def setup(self) -> None:
                super().setup()
                self.number = next(connections)

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                received = Received(dict(self.headers.items()), raw, self.number)
                reply = script.next_reply(received)
                time.sleep(reply.delay)
                data = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/x-amz-json-1.0")
                    self.send_header("Content-Length", str(len(data)))
                    self.send_header(
                        "x-amz-crc32", str(zlib.crc32(data) if reply.crc32 is None else reply.crc32)
                    )
                    if reply.close:
                        self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a timeout test)
                if reply.close:
                    self.close_connection = True

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        scheme = "https" if tls else "http"
        self.endpoint = f"{scheme}://localhost:{self._server.server_address[1]}"
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def answer(self, *replies: Reply) -> None:
        self.script.replies.extend(replies)

    @property
    def received(self) -> list[Received]:
        return self.script.received

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def scripted_dynamodb(tls: ssl.SSLContext | None = None) -> Iterator[ScriptedDynamoDB]:
    server = ScriptedDynamoDB(tls)
    try:
        yield server
    finally:
        server.close()


def error(code: str, status: int = 400) -> Reply:
    return Reply(status, {"__type": f"com.amazonaws.dynamodb.v20120810#{code}", "message": "scripted"})


def self_signed(directory: Path) -> tuple[ssl.SSLContext, Path]:
    """A TLS context for localhost with a certificate no public CA vouches for, and that
    certificate's file (a CA bundle that trusts it)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.now(UTC)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(minutes=5))
        .not_valid_after(now + timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    return context, cert_file
