"""A fault-injecting proxy in front of DynamoDB Local: what throttling, a slow network or a deleted
table look like to botocore, chosen per DynamoDB operation. A fake of the outside world (the
engine's HTTP API), not of our code."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

_ERRORS = {
    "throttle": "ThrottlingException",
    "missing": "ResourceNotFoundException",
}


@dataclass
class Fault:
    kind: str  # throttle, missing or slow
    times: int = 1_000_000  # how many calls it hits, then calls pass again
    delay: float = 0.0  # for slow: seconds before the call is forwarded
    after: int = 0  # calls that pass before the fault starts


@dataclass
class FaultPlan:
    faults: dict[str, Fault] = field(default_factory=dict)  # operation name -> fault
    seen: Counter[str] = field(default_factory=Counter)  # operation name -> calls
    lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, operation: str) -> Fault | None:
        with self.lock:
            self.seen[operation] += 1
            fault = self.faults.get(operation)
            if fault is None or fault.times <= 0:
                return None
            if fault.after > 0:
                fault.after -= 1
                return None
            fault.times -= 1
            return fault


class FaultyDynamoDB:
    def __init__(self, upstream: str) -> None:
        self.plan = FaultPlan()
        parts = urlsplit(upstream)
        plan, host, port = self.plan, parts.hostname or "127.0.0.1", parts.port or 80

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                operation = self.headers.get("X-Amz-Target", "").rpartition(".")[2]
                fault = plan.take(operation)
                if fault is not None and fault.kind in _ERRORS:
                    self._answer(400, {"__type": f"com.amazonaws.dynamodb.v20120810#{_ERRORS[fault.kind]}"})
                    return
                if fault is not None:
                    time.sleep(fault.delay)
                upstream = http.client.HTTPConnection(host, port, timeout=30)
                headers = {k: v for k, v in self.headers.items() if k.lower() != "host"}
                upstream.request("POST", self.path, body=body, headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
                try:
                    self.send_response(answer.status)
                    for key, value in answer.getheaders():
                        if key.lower() not in {"transfer-encoding", "connection"}:
                            self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a timeout test)
                upstream.close()

            def _answer(self, status: int, body: dict[str, str]) -> None:
                data = json.dumps({**body, "message": "injected by the test"}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/x-amz-json-1.0")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.endpoint = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def fail(
        self, operation: str, kind: str, *, times: int = 1_000_000, delay: float = 0.0, after: int = 0
    ) -> None:
        self.plan.faults[operation] = Fault(kind, times, delay, after)

    def heal(self) -> None:
        self.plan.faults.clear()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
