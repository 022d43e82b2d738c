"""A stand-in for the service on a loopback port: the export, generate and error answers the client
reads, with scripted failures first. Its records are fixtures, not addresses: ids and a city only."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse


def record(i: int, country: str = "AD", city: str = "Canillo") -> dict[str, Any]:
    return {
        "address": {
            "id": f"{country.lower()}-fixture{i:04d}",
            "countryCode": country,
            "matchLevel": "street",
            "propertyType": "unknown",
            "formattedAddress": f"fixture {i}",
            "components": {"city": city},
            "coordinates": {"latitude": 0.0, "longitude": 0.0},
            "source": {"id": "fixture", "license": "none", "attribution": "none"},
            "derived": [],
            "completeness": {"complete": False, "missing": [], "invalid": []},
        },
        "profile": {"givenName": "A", "familyName": "B", "email": f"p{i}@example.org"},
    }


@dataclass
class FakeService:
    records: list[dict[str, Any]]
    failures: list[tuple[int, dict[str, str]]] = field(default_factory=list)  # answered first, in order
    seen: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)  # method, path+query, headers
    port: int = 0
    snapshots: list[str] = field(default_factory=list)  # per export page asked for; else snap-1

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def answer(self, method: str, target: str, headers: dict[str, str]) -> tuple[int, dict[str, str], str]:
        self.seen.append((method, target, headers))
        if self.failures:
            status, extra = self.failures.pop(0)
            body = {
                "error": {"code": "RATE_LIMITED" if status == 429 else "X", "message": "m", "requestId": "r"}
            }
            return status, extra, json.dumps(body)
        url = urlparse(target)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        if url.path == "/api/v1/export":
            return self._export(query)
        if url.path == "/api/v1/generate":
            digest = hashlib.sha256(query.get("seed", "").encode()).digest()
            chosen = self.records[digest[0] % len(self.records)]
            return 200, {}, json.dumps({"data": {"result": chosen}})
        return (
            404,
            {},
            json.dumps({"error": {"code": "ADDRESS_NOT_FOUND", "message": "no", "requestId": "r"}}),
        )

    def _export(self, query: dict[str, str]) -> tuple[int, dict[str, str], str]:
        size, page = int(query["pageSize"]), int(query["page"])
        chosen = self.records[(page - 1) * size : page * size]
        pages = -(-len(self.records) // size)
        headers = {
            "X-Export-Seed": query.get("seed", "chosen"),
            "X-Export-Snapshot": self.snapshots.pop(0) if self.snapshots else "snap-1",
            "X-Export-Total": str(len(self.records)),
            "X-Export-Pages": str(pages),
        }
        if query.get("format") == "csv":
            rows = ["id,city"] + [
                f'{r["address"]["id"]},"{r["address"]["components"]["city"]}"' for r in chosen
            ]
            return 200, headers, "\r\n".join(rows) + "\r\n"
        return 200, headers, "".join(json.dumps(r) + "\n" for r in chosen)


@contextmanager
def serving(service: FakeService) -> Iterator[FakeService]:
    class Handler(BaseHTTPRequestHandler):
        def _reply(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(length)
            status, headers, body = service.answer(self.command, self.path, dict(self.headers))
            data = body.encode()
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = _reply

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()
