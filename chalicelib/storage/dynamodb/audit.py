"""The audit table: one item per administrator action, in one partition per UTC month (admin
actions are rare, so a month's partition stays small and is read newest first)."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime, timedelta

from pynamodb.attributes import TTLAttribute, UnicodeAttribute, UTCDateTimeAttribute
from pynamodb.models import Model

from chalicelib.config import TableSettings
from chalicelib.domain.audit import AuditAction, AuditEntry
from chalicelib.storage.dynamodb._dynamo import TableStore, storage_errors
from chalicelib.storage.dynamodb._wire import DynamoWire

# Kept for 13 months, then DynamoDB's TTL removes the entry; the listing looks back as far.
RETENTION_MONTHS = 13


class _AuditItem(Model):
    class Meta:
        table_name: str | None = None

    pk = UnicodeAttribute(hash_key=True)
    sk = UnicodeAttribute(range_key=True)
    at = UTCDateTimeAttribute()
    actor = UnicodeAttribute()
    action = UnicodeAttribute()
    target = UnicodeAttribute(null=True)
    details = UnicodeAttribute(default="{}")  # a JSON object of strings
    purge_at = TTLAttribute()


def _month_pk(year: int, month: int) -> str:
    return f"AUDIT#{year:04d}-{month:02d}"


def _months_back(now: datetime, count: int) -> list[str]:
    year, month = now.year, now.month
    keys = []
    for _ in range(count):
        keys.append(_month_pk(year, month))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return keys


class AuditStore(TableStore[_AuditItem]):
    """Verbs on the audit table."""

    def __init__(self, table: TableSettings, wire: DynamoWire | None = None) -> None:
        super().__init__(_AuditItem, table, wire)

    def append(self, entry: AuditEntry) -> None:
        with storage_errors(self.table_name):
            self.item(entry).save()

    def item(self, entry: AuditEntry) -> _AuditItem:
        """The entry as an unsaved item: for a transaction with the action it records."""
        at = entry.at.astimezone(UTC)
        # Time first so a month's items sort by time; a random tail keeps same-instant entries apart.
        sort_key = f"{at.strftime('%Y-%m-%dT%H:%M:%S.%fZ')}#{secrets.token_hex(4)}"
        return self._model(
            _month_pk(at.year, at.month),
            sort_key,
            at=at,
            actor=entry.actor,
            action=entry.action.value,
            target=entry.target,
            details=json.dumps(entry.details, ensure_ascii=False, sort_keys=True),
            purge_at=at + timedelta(days=31 * RETENTION_MONTHS),
        )

    def recent(self, now: datetime, limit: int) -> list[AuditEntry]:
        """The newest `limit` entries, newest first, from the retained months."""
        entries: list[AuditEntry] = []
        with storage_errors(self.table_name):
            for pk in _months_back(now.astimezone(UTC), RETENTION_MONTHS):
                wanted = limit - len(entries)
                if wanted <= 0:
                    break
                items = self._model.query(pk, scan_index_forward=False, limit=wanted)
                entries.extend(_entry(i) for i in items)
        return entries


def _entry(item: _AuditItem) -> AuditEntry:
    return AuditEntry(
        at=item.at,
        actor=item.actor,
        action=AuditAction(item.action),
        target=item.target,
        details={str(k): str(v) for k, v in json.loads(item.details).items()},
    )
