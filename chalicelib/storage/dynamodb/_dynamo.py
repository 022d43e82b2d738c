"""What every table module shares: binding a PynamoDB model to a configured table, and turning
DynamoDB failures into domain errors so nothing above storage sees botocore or PynamoDB."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from botocore.exceptions import BotoCoreError
from pynamodb.attributes import TTLAttribute
from pynamodb.exceptions import PynamoDBException
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.errors import StorageUnavailable
from chalicelib.logs import log_event
from chalicelib.storage.dynamodb import _sessions  # noqa: F401  (PynamoDB's sessions share a loader)
from chalicelib.storage.dynamodb._wire import DynamoError, DynamoUnreachable, DynamoWire

_PING_KEY = "PING#ready"  # no item ever has this key

M = TypeVar("M", bound=type[Model])

# Error codes that mean "not now" rather than "you asked for something wrong".
_UNAVAILABLE_CODES = frozenset(
    {
        "ResourceNotFoundException",
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ServiceUnavailable",
        "LimitExceededException",
    }
)


def bind(model: M, table: TableSettings) -> M:
    """A subclass of `model` that talks to `table`: table names come from settings, not import time."""
    meta = type(
        "Meta",
        (),
        {
            "table_name": table.name,
            "region": table.region,
            "host": table.endpoint,
            "connect_timeout_seconds": table.connect_timeout_seconds,
            "read_timeout_seconds": table.read_timeout_seconds,
            "max_retry_attempts": table.max_retry_attempts,
            "billing_mode": "PAY_PER_REQUEST",
        },
    )
    return type(model.__name__, (model,), {"Meta": meta})  # type: ignore[return-value]


def response_code(exc: PynamoDBException) -> str | None:
    """DynamoDB's error code, if an answer came (PynamoDB's own property fails when none did)."""
    response = getattr(exc.cause, "response", None)
    return response.get("Error", {}).get("Code") if isinstance(response, dict) else None


def is_condition_failure(exc: PynamoDBException) -> bool:
    return response_code(exc) == "ConditionalCheckFailedException"


@contextmanager
def storage_errors(table: str) -> Iterator[None]:
    """Translate unreachable, missing or throttled DynamoDB into StorageUnavailable."""
    try:
        yield
    except PynamoDBException as exc:
        if isinstance(exc.cause, BotoCoreError):  # a timeout or a lost connection: no response at all
            raise unavailable(table, type(exc.cause).__name__) from exc
        code = response_code(exc)
        if code in _UNAVAILABLE_CODES:
            raise unavailable(table, code) from exc
        raise
    except BotoCoreError as exc:
        raise unavailable(table, type(exc).__name__) from exc
    except DynamoUnreachable as exc:
        raise unavailable(table, type(exc).__name__) from exc
    except DynamoError as exc:
        if exc.code in _UNAVAILABLE_CODES or exc.retryable:
            raise unavailable(table, exc.code) from exc
        raise


def unavailable(table: str, reason: str) -> StorageUnavailable:
    # Operators get the table and the cause in the log; clients get no internal names.
    log_event("storage_unavailable", level=logging.WARNING, table=table, reason=reason)
    return StorageUnavailable("the data store is temporarily unavailable; try again shortly")


def ensure_table(model: type[Model]) -> bool:
    """Create the model's table unless it exists; True when it was created. For local stacks and
    tests: deployed tables come from infrastructure code."""
    if model.exists():
        return False
    model.create_table(wait=True)
    return True


Item = TypeVar("Item", bound=Model)


@dataclass(frozen=True)
class KeyAttribute:
    name: str
    type: str  # DynamoDB's scalar type: S, N or B


@dataclass(frozen=True)
class TableSchema:
    """What infrastructure code must create for a store: read off its model, so the key formats'
    one home also names the keys."""

    name: str
    partition_key: KeyAttribute
    sort_key: KeyAttribute | None
    ttl_attribute: str | None


class TableStore(Generic[Item]):
    """What every table module's store shares: its bound model, the wire for the request path's
    calls, table creation, the readiness ping."""

    def __init__(self, model: type[Item], table: TableSettings, wire: DynamoWire | None = None) -> None:
        self.table_name = table.name
        self._model = bind(model, table)
        # One wire serves every table of a wiring (`build_stores`): one botocore session, one
        # credentials lookup and one pool of connections for a Lambda's first request, not one each.
        self._wire = wire or DynamoWire(table)

    def create_table(self) -> bool:
        with storage_errors(self.table_name):
            created = ensure_table(self._model)
            if created and self.schema().ttl_attribute:
                self._model.update_ttl(ignore_update_ttl_errors=True)
            return created

    def ping(self) -> None:
        """One GetItem, through the wire, on a key that never exists: proves the table answers."""
        schema = self.schema()
        key = {schema.partition_key.name: {schema.partition_key.type: _PING_KEY}}
        if schema.sort_key is not None:
            key[schema.sort_key.name] = {schema.sort_key.type: _PING_KEY}
        with storage_errors(self.table_name):
            self._wire.call("GetItem", {"TableName": self.table_name, "Key": key})

    def schema(self) -> TableSchema:
        attributes = self._model.get_attributes().values()
        [partition] = [KeyAttribute(a.attr_name, a.attr_type) for a in attributes if a.is_hash_key]
        sorts = [KeyAttribute(a.attr_name, a.attr_type) for a in attributes if a.is_range_key]
        ttls = [a.attr_name for a in attributes if isinstance(a, TTLAttribute)]
        return TableSchema(self.table_name, partition, sorts[0] if sorts else None, ttls[0] if ttls else None)
