"""The domain's errors. HTTP knows nothing here: chalicelib/api/errors.py maps them to responses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ErrorDetail:
    """One specific problem, e.g. which field failed and why."""

    field: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "message": self.message}


class ServiceError(Exception):
    """Base of every error a client may be told about."""

    def __init__(self, message: str, details: tuple[ErrorDetail, ...] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.details = details


class InvalidRequest(ServiceError):
    """The request is malformed or breaks a documented limit."""

    @classmethod
    def of_field(cls, field: str, message: str) -> InvalidRequest:
        """One field at fault: `invalid <field>: <message>`, the field named in the details."""
        return cls(f"invalid {field}: {message}", (ErrorDetail(field, message),))


class Unauthorized(ServiceError):
    """No usable bearer token: missing, malformed, unknown, revoked or expired."""


class Forbidden(ServiceError):
    """The token is valid but its scope does not cover the endpoint."""


class RateLimited(ServiceError):
    """The token used up its requests for the current one-minute window."""

    def __init__(self, message: str, quota: Any) -> None:
        super().__init__(message)
        self.quota = quota


class AddressNotFound(ServiceError):
    """No currently published address has this ID."""


class AddressWithdrawn(ServiceError):
    """An operator withdrew the address (a resident asked): it is never served again."""


class WithdrawalNotFound(ServiceError):
    """No withdrawal has this id."""


class NoPoolCoverage(ServiceError):
    """The published pool has nothing for the requested country or location."""


class SnapshotExpired(ServiceError):
    """A pinned snapshot that is not served: expired after its retention, or never published."""


class StorageUnavailable(ServiceError):
    """DynamoDB is unreachable, missing a table, or throttling past our retries."""


class NothingPublished(ServiceError):
    """No country's pool is published yet (the first sync is running, or has not run)."""


class NotConfigured(ServiceError):
    """This deployment lacks a setting the endpoint needs (operators see which in the logs)."""


class ConfigurationError(Exception):
    """The deployment's settings are unusable; an operator must fix them."""


class TokenNotFound(ServiceError):
    """An administrator named a token that does not exist."""


class SyncAlreadyRunning(ServiceError):
    """A sync is running already; starting another would only compete with it."""


class PublishConflict(Exception):
    """Another sync published the country's snapshot first; this one must not overwrite it."""
