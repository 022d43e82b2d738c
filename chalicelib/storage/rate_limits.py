"""The rate-limits table: one counter item per (token, one-minute window), expired by TTL.

A request costs one conditional UpdateItem: ADD 1 unless the window is full. DynamoDB applies it
atomically, so the limit holds across any number of concurrent Lambdas."""

from __future__ import annotations

from datetime import UTC, datetime

from pynamodb.attributes import NumberAttribute, TTLAttribute, UnicodeAttribute
from pynamodb.exceptions import UpdateError
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.domain.tokens import WINDOW_SECONDS, Quota
from chalicelib.storage._dynamo import TableStore, ensure_table, is_condition_failure, storage_errors

# Keep a window's item a little past its end so late readers still see it, then let TTL drop it.
_TTL_GRACE_SECONDS = 120


class _WindowItem(Model):
    class Meta:
        table_name: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    hits = NumberAttribute(default=0)
    expires = TTLAttribute(null=True)


def _pk(token_id: str, window_start: int) -> str:
    return f"RATE#{token_id}#{window_start}"


def _expiry(window_end: int) -> datetime:
    return datetime.fromtimestamp(window_end + _TTL_GRACE_SECONDS, UTC)


class RateLimitStore(TableStore[_WindowItem]):
    """Verbs on the rate-limits table."""

    def __init__(self, table: TableSettings) -> None:
        super().__init__(_WindowItem, table)

    def create_table(self) -> bool:
        with storage_errors(self.table_name):
            created = ensure_table(self._model)
            if created:
                self._model.update_ttl(ignore_update_ttl_errors=True)
            return created

    def try_consume(self, token_id: str, window_start: int, limit: int) -> Quota | None:
        """Count one request in the window; None when the window already holds `limit` requests."""
        window_end = window_start + WINDOW_SECONDS
        item = self._model(_pk(token_id, window_start))
        model = self._model
        with storage_errors(self.table_name):
            try:
                item.update(
                    actions=[model.hits.add(1), model.expires.set(_expiry(window_end))],
                    condition=model.hits.does_not_exist() | (model.hits < limit),
                )
            except UpdateError as exc:
                if is_condition_failure(exc):
                    return None
                raise
        return Quota(limit=limit, used=int(item.hits), resets_at=window_end)
