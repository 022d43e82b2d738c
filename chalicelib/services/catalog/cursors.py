"""Opaque paging cursors: a position in one listing of one snapshot, signed with HMAC-SHA256 and
bound to the request that produced it. A cursor whose bytes were changed, or that comes back
with other parameters (another query, filter, page size or endpoint), is refused."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass

from chalicelib.errors import ErrorDetail, InvalidRequest

_VERSION = 1
_SIGNATURE_BYTES = 16  # 128 bits of HMAC-SHA256: forging one is as hard as guessing the key


@dataclass(frozen=True)
class Position:
    snapshot_id: str
    offset: int


def binding(operation: str, parameters: dict[str, object]) -> str:
    """What a cursor is bound to: the operation and every parameter except the cursor itself."""
    canonical = json.dumps([operation, parameters], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


class CursorSigner:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 32:
            raise ValueError("a cursor secret needs at least 32 bytes")
        self._secret = secret

    def issue(self, bound_to: str, position: Position) -> str:
        payload = json.dumps(
            {"v": _VERSION, "b": bound_to, "s": position.snapshot_id, "o": position.offset},
            separators=(",", ":"),
        ).encode()
        return f"{_encode(payload)}.{_encode(self._sign(payload))}"

    def read(self, cursor: str, bound_to: str) -> Position:
        payload = self._verified(cursor)
        try:
            doc = json.loads(payload)
            version, bound, position = doc["v"], doc["b"], Position(str(doc["s"]), int(doc["o"]))
        except (ValueError, KeyError, TypeError) as exc:
            raise _invalid("the cursor is not valid") from exc
        if version != _VERSION or position.offset < 0:
            raise _invalid("the cursor is not valid")
        if not hmac.compare_digest(bound, bound_to):
            raise _invalid("the cursor belongs to a request with other parameters; repeat them unchanged")
        return position

    def _verified(self, cursor: str) -> bytes:
        payload_text, _, signature_text = cursor.partition(".")
        try:
            payload, signature = _decode(payload_text), _decode(signature_text)
        except (ValueError, binascii.Error) as exc:
            raise _invalid("the cursor is not valid") from exc
        if not hmac.compare_digest(signature, self._sign(payload)):
            raise _invalid("the cursor is not valid")
        return payload

    def _sign(self, payload: bytes) -> bytes:
        return hmac.new(self._secret, payload, hashlib.sha256).digest()[:_SIGNATURE_BYTES]


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(text: str) -> bytes:
    """Strict: only the canonical unpadded base64url text of some bytes decodes (the lenient decoder
    would skip stray characters and ignore the last character's spare bits, accepting altered text)."""
    raw = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    if not text or _encode(raw) != text:
        raise ValueError("not canonical base64url")
    return raw


def _invalid(message: str) -> InvalidRequest:
    return InvalidRequest(message, (ErrorDetail("cursor", message),))
