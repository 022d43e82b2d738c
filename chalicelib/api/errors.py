"""The one place that turns errors into HTTP responses, all in one JSON shape:
{"error": {"code", "message", "details"?, "requestId"}}."""

from __future__ import annotations

from typing import Any

from chalice.app import Response

from chalicelib import errors
from chalicelib.domain.tokens import Quota

RETRY_AFTER_SECONDS = 60
# A throttled or briefly unreachable table usually answers again within seconds.
UNAVAILABLE_RETRY_AFTER_SECONDS = 5
# A first sync publishes its first countries within a minute or two.
UNPUBLISHED_RETRY_AFTER_SECONDS = 30

# Found through the error's class hierarchy, so a subclass answers as its nearest listed ancestor.
_STATUS_AND_CODE: dict[type[errors.ServiceError], tuple[int, str]] = {
    errors.ServiceError: (500, "INTERNAL_ERROR"),
    errors.InvalidRequest: (400, "INVALID_REQUEST"),
    errors.Unauthorized: (401, "UNAUTHORIZED"),
    errors.Forbidden: (403, "FORBIDDEN"),
    errors.NoPoolCoverage: (404, "NO_POOL_COVERAGE"),
    errors.AddressNotFound: (404, "ADDRESS_NOT_FOUND"),
    errors.TokenNotFound: (404, "TOKEN_NOT_FOUND"),
    errors.WithdrawalNotFound: (404, "WITHDRAWAL_NOT_FOUND"),
    errors.SyncAlreadyRunning: (409, "SYNC_RUNNING"),
    errors.SnapshotExpired: (410, "SNAPSHOT_EXPIRED"),
    errors.AddressWithdrawn: (410, "ADDRESS_WITHDRAWN"),
    errors.RateLimited: (429, "RATE_LIMITED"),
    errors.StorageUnavailable: (503, "SERVICE_UNAVAILABLE"),
    errors.NotConfigured: (503, "SERVICE_UNAVAILABLE"),
    errors.NothingPublished: (503, "SERVICE_UNAVAILABLE"),
}

# Chalice answers some requests before our routes run (405, 415, its own 500); same shape for those.
_CHALICE_CODES = {400: "INVALID_REQUEST", 405: "INVALID_REQUEST", 415: "INVALID_REQUEST"}
# Every code an error answer may carry (the OpenAPI documents' ErrorBody.code enum must match).
CODES = frozenset(code for _, code in _STATUS_AND_CODE.values()) | set(_CHALICE_CODES.values())


def error_body(
    code: str, message: str, request_id: str, details: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message, "requestId": request_id}
    if details:
        body["details"] = details
    return {"error": body}


def rate_headers(quota: Quota) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(quota.limit),
        "X-RateLimit-Remaining": str(quota.remaining),
        "X-RateLimit-Reset": str(quota.resets_at),
    }


def status_and_code(error: errors.ServiceError) -> tuple[int, str]:
    """The nearest listed class in the error's hierarchy decides."""
    return next(_STATUS_AND_CODE[c] for c in type(error).__mro__ if c in _STATUS_AND_CODE)


def service_error_response(error: errors.ServiceError, request_id: str) -> Response:
    status, code = status_and_code(error)
    headers: dict[str, str | list[str]] = {}
    if isinstance(error, errors.RateLimited):
        headers = {**rate_headers(error.quota), "Retry-After": str(RETRY_AFTER_SECONDS)}
    if isinstance(error, errors.StorageUnavailable):
        headers["Retry-After"] = str(UNAVAILABLE_RETRY_AFTER_SECONDS)
    if isinstance(error, errors.NothingPublished):
        headers["Retry-After"] = str(UNPUBLISHED_RETRY_AFTER_SECONDS)
    if isinstance(error, errors.Unauthorized):
        headers["WWW-Authenticate"] = 'Bearer realm="address-generation"'
    details = [d.as_dict() for d in error.details] or None
    return Response(error_body(code, error.message, request_id, details), headers=headers, status_code=status)


def internal_error_response(request_id: str) -> Response:
    message = "an internal error occurred; quote the requestId when reporting it"
    return Response(error_body("INTERNAL_ERROR", message, request_id), status_code=500)


def reshape_chalice_error(response: Response, request_id: str) -> Response:
    """Rewrite Chalice's own error responses ({"Code", "Message"} bodies, or a debug traceback on a
    500) into our error shape; responses that already have it pass through."""
    body = response.body
    if isinstance(body, dict) and "error" in body:
        return response
    if response.status_code >= 500:
        return internal_error_response(request_id)
    if not (isinstance(body, dict) and set(body) == {"Code", "Message"}):
        return response
    code = _CHALICE_CODES.get(response.status_code, "INVALID_REQUEST")
    response.body = error_body(code, str(body["Message"]), request_id)
    return response
