"""What every table module shares: binding a PynamoDB model to a configured table, and turning
DynamoDB failures into domain errors so nothing above storage sees botocore or PynamoDB."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

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
_ACTIVE_CHECKS, _ACTIVE_PAUSE_SECONDS = 120, 0.5  # a new on-demand table is active within seconds

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

    @property
    def keys(self) -> tuple[KeyAttribute, ...]:
        return (self.partition_key,) if self.sort_key is None else (self.partition_key, self.sort_key)

    def key(self, value: str) -> dict[str, Any]:
        """A low-level key with `value` in each key attribute (all of ours are strings)."""
        return {k.name: {k.type: value} for k in self.keys}

    def creation(self) -> dict[str, Any]:
        """CreateTable's request, as infrastructure code creates the table (on demand)."""
        return {
            "TableName": self.name,
            "AttributeDefinitions": [{"AttributeName": k.name, "AttributeType": k.type} for k in self.keys],
            "KeySchema": [
                {"AttributeName": k.name, "KeyType": kind}
                for k, kind in zip(self.keys, ("HASH", "RANGE"), strict=False)
            ],
            "BillingMode": "PAY_PER_REQUEST",
        }


class TableStore(Generic[Item]):
    """What every table module's store shares: its bound model, the wire for the request path's
    calls, table creation, the readiness ping."""

    def __init__(self, model: type[Item], table: TableSettings, wire: DynamoWire | None = None) -> None:
        self.table_name = table.name
        self._model = bind(model, table)
        # One wire serves every table of a wiring (`build_stores`): one botocore session, one
        # credentials lookup and one pool of connections for a Lambda's first request, not one each.
        self._wire = wire or DynamoWire(table)

    def create_table(self, sleep: Callable[[float], None] = time.sleep) -> bool:
        """Create the table unless it exists, and wait until it is active; True when it was
        created. For local stacks and tests (deployed tables come from infrastructure code), through
        the wire: three calls, where PynamoDB's exists-then-create made six and a botocore client."""
        schema = self.schema()
        with storage_errors(self.table_name):
            try:
                self._wire.call("CreateTable", schema.creation())
            except DynamoError as exc:
                if exc.code == "ResourceInUseException":  # it exists (or is being created)
                    return False
                raise
            self._await_active(sleep)
            if schema.ttl_attribute:
                ttl = {"Enabled": True, "AttributeName": schema.ttl_attribute}
                with suppress(DynamoError):  # as PynamoDB's update_ttl: an engine without TTL is fine
                    self._wire.call(
                        "UpdateTimeToLive", {"TableName": self.table_name, "TimeToLiveSpecification": ttl}
                    )
        return True

    def _await_active(self, sleep: Callable[[float], None]) -> None:
        for _ in range(_ACTIVE_CHECKS):
            answer = self._wire.call("DescribeTable", {"TableName": self.table_name})
            if answer["Table"]["TableStatus"] == "ACTIVE":
                return
            sleep(_ACTIVE_PAUSE_SECONDS)
        raise DynamoUnreachable(f"{self.table_name} did not become active")

    def ping(self) -> None:
        """One GetItem, through the wire, on a key that never exists: proves the table answers."""
        with storage_errors(self.table_name):
            self._wire.call("GetItem", {"TableName": self.table_name, "Key": self.schema().key(_PING_KEY)})

    def schema(self) -> TableSchema:
        attributes = self._model.get_attributes().values()
        [partition] = [KeyAttribute(a.attr_name, a.attr_type) for a in attributes if a.is_hash_key]
        sorts = [KeyAttribute(a.attr_name, a.attr_type) for a in attributes if a.is_range_key]
        ttls = [a.attr_name for a in attributes if isinstance(a, TTLAttribute)]
        return TableSchema(self.table_name, partition, sorts[0] if sorts else None, ttls[0] if ttls else None)
