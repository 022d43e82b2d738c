"""The rate-limits table: one usage item per (token, UTC day), expired by TTL. It counts the current
one-minute window (the rate limit) and the day's requests (what the console shows) together.

A request costs one conditional UpdateItem: ADD 1 unless the window is full. DynamoDB applies it
atomically, so the limit holds across any number of concurrent Lambdas. The first request of a
window costs a second one, which moves the item to the new window."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from pynamodb.attributes import NumberAttribute, TTLAttribute, UnicodeAttribute
from pynamodb.exceptions import UpdateError
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.domain.tokens import WINDOW_SECONDS, Quota, TokenUsage, usage_day
from chalicelib.storage._dynamo import TableStore, is_condition_failure, storage_errors

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

    def __init__(self, table: TableSettings) -> None:
        super().__init__(_UsageItem, table)

    def try_consume(
        self, token_id: str, window_start: int, limit: int, used_at: int | None = None
    ) -> Quota | None:
        """Count one request in the window; None when the window already holds `limit` requests.

        Three conditional updates at most, each atomic: count into the current window (the usual
        case); else open the window if the item still holds an older one; else, since another
        request opened it meanwhile, count into it after all. A request whose window another
        Lambda has already left behind (clock skew) counts into the newer window, never past it."""
        at = window_start if used_at is None else used_at
        item = self._model(_pk(token_id, usage_day(window_start)))
        with storage_errors(self.table_name):
            counted = (
                self._count(item, window_start, limit, at)
                or self._open(item, window_start, at)
                or self._count(item, window_start, limit, at)
            )
        if not counted:
            return None
        return Quota(limit=limit, used=int(item.hits), resets_at=int(item.window) + WINDOW_SECONDS)

    def _count(self, item: _UsageItem, window_start: int, limit: int, at: int) -> bool:
        m = self._model
        return _applied(
            item,
            actions=[m.hits.add(1), m.requests.add(1), m.last_used.set(at)],
            condition=(m.window >= window_start) & (m.hits < limit),
        )

    def _open(self, item: _UsageItem, window_start: int, at: int) -> bool:
        m = self._model
        return _applied(
            item,
            actions=[
                m.window.set(window_start),
                m.hits.set(1),
                m.requests.add(1),
                m.last_used.set(at),
                m.expires.set(_expiry(usage_day(window_start))),
            ],
            condition=m.window.does_not_exist() | (m.window < window_start),
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


def _applied(item: _UsageItem, **update: object) -> bool:
    """Run a conditional update; False when its condition did not hold."""
    try:
        item.update(**update)  # type: ignore[arg-type]
    except UpdateError as exc:
        if is_condition_failure(exc):
            return False
        raise
    return True
