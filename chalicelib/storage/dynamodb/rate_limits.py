"""The rate-limits table: one usage item per (token, UTC day), expired by TTL. It counts the current
one-minute window (the rate limit) and the day's requests (what the console shows) together.

A request costs one conditional UpdateItem: ADD 1 unless the window is full. DynamoDB applies it
atomically, so the limit holds across any number of concurrent Lambdas. The first request of a
window costs a second one, which moves the item to the new window."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from pynamodb.attributes import NumberAttribute, TTLAttribute, UnicodeAttribute
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.domain.tokens import WINDOW_SECONDS, Quota, TokenUsage, usage_day
from chalicelib.storage.dynamodb._dynamo import TableStore, storage_errors
from chalicelib.storage.dynamodb._wire import Document, DynamoError, DynamoWire, Later

# Keep a day's item a while past its end ("yesterday" stays readable), then let TTL drop it.
_KEEP_AFTER_DAY = timedelta(days=2)


class _UsageItem(Model):
    class Meta:
        table_name: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    window = NumberAttribute(null=True)  # epoch second the current window began
    hits = NumberAttribute(null=True)  # requests in that window
    requests = NumberAttribute(null=True)  # requests in the day
    last_used = NumberAttribute(null=True)  # epoch seconds of the latest request
    expires = TTLAttribute(null=True)


def _pk(token_id: str, day: str) -> str:
    return f"USAGE#{token_id}#{day}"


def _expiry(day: str) -> datetime:
    return datetime.fromisoformat(day).replace(tzinfo=UTC) + timedelta(days=1) + _KEEP_AFTER_DAY


class RateLimitStore(TableStore[_UsageItem]):
    """Verbs on the rate-limits table."""

    def __init__(self, table: TableSettings, wire: DynamoWire | None = None) -> None:
        super().__init__(_UsageItem, table, wire)

    def try_consume(
        self, token_id: str, window_start: int, limit: int, used_at: int | None = None
    ) -> Quota | None:
        """Count one request in the window; None when the window already holds `limit` requests."""
        return self.start_consume(token_id, window_start, limit, used_at).result()

    def start_consume(
        self, token_id: str, window_start: int, limit: int, used_at: int | None = None
    ) -> Later[Quota | None]:
        """`try_consume` with its first update sent now and its outcome read by `result()`, so the
        caller can do other work (another table's read) while the write is in flight.

        Three conditional updates at most, each atomic: count into the current window (the usual
        case); else open the window if the item still holds an older one; else, since another
        request opened it meanwhile, count into it after all. A request whose window another
        Lambda has already left behind (clock skew) counts into the newer window, never past it."""
        at = window_start if used_at is None else used_at
        key = {"pk": {"S": _pk(token_id, usage_day(window_start))}}
        counting = self._wire.start("UpdateItem", self._count(key, window_start, limit, at))

        def settle() -> Quota | None:
            with storage_errors(self.table_name):
                item = (
                    _applied(counting)
                    or _applied(self._wire.start("UpdateItem", self._open(key, window_start, at)))
                    or _applied(self._wire.start("UpdateItem", self._count(key, window_start, limit, at)))
                )
            if item is None:
                return None
            return Quota(
                limit=limit, used=int(item["hits"]["N"]), resets_at=int(item["window"]["N"]) + WINDOW_SECONDS
            )

        return Later(settle)

    def _count(self, key: Document, window_start: int, limit: int, at: int) -> Document:
        return _update(
            self.table_name,
            key,
            "ADD #hits :one, #requests :one SET #last_used = :at",
            "#window >= :window AND #hits < :limit",
            {":one": 1, ":at": at, ":window": window_start, ":limit": limit},
        )

    def _open(self, key: Document, window_start: int, at: int) -> Document:
        expires = int(_expiry(usage_day(window_start)).timestamp())
        return _update(
            self.table_name,
            key,
            "SET #window = :window, #hits = :one, #last_used = :at, #expires = :expires ADD #requests :one",
            "attribute_not_exists(#window) OR #window < :window",
            {":one": 1, ":at": at, ":window": window_start, ":expires": expires},
        )

    def usage(self, token_ids: Iterable[str], day: str) -> dict[str, TokenUsage]:
        """Each token's requests on `day` (UTC) and its latest request then; absent when unused."""
        keys = {_pk(token_id, day): token_id for token_id in token_ids}
        with storage_errors(self.table_name):
            items = list(self._model.batch_get(list(keys)))
        return {
            keys[i.pk]: TokenUsage(
                requests=int(i.requests or 0),
                last_used_at=datetime.fromtimestamp(int(i.last_used), UTC) if i.last_used else None,
            )
            for i in items
        }


def _update(table: str, key: Document, update: str, condition: str, numbers: dict[str, int]) -> Document:
    """An UpdateItem naming every attribute by placeholder (`window` is a DynamoDB reserved word)."""
    names = set(re.findall(r"#(\w+)", f"{update} {condition}"))
    return {
        "TableName": table,
        "Key": key,
        "UpdateExpression": update,
        "ConditionExpression": condition,
        "ExpressionAttributeNames": {f"#{name}": name for name in sorted(names)},
        "ExpressionAttributeValues": {k: {"N": str(v)} for k, v in numbers.items()},
        "ReturnValues": "ALL_NEW",
    }


def _applied(update: Later[Document]) -> Document | None:
    """The item after a conditional update; None when its condition did not hold."""
    try:
        return update.result()["Attributes"]  # type: ignore[no-any-return]
    except DynamoError as exc:
        if exc.code == "ConditionalCheckFailedException":
            return None
        raise
